import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { receiveCommand } from "../../src/cli/receive.js";
import { io, until } from "./helpers.js";
import { tracesCommand } from "../../src/cli/traces.js";
import { request, selectionTrace, TRACE_A, turnSpan } from "../core/otel/otlp.js";
import { send } from "../helpers/http-post.js";

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

/** `receive --port 0 ...args --out FILE` in this process: its port, its output, the file, and how to stop it. */
async function receiving(...args: string[]) {
  const folder = mkdtempSync(join(tmpdir(), "receive-"));
  folders.push(folder);
  const file = join(folder, "out.jsonl");
  const { out, cli } = io();
  let stop!: () => void;
  const stopped = new Promise<void>((r) => (stop = r));
  const done = receiveCommand(["--port", "0", "--out", file, ...args], cli, { stopped });
  await until(() => out.stdout.startsWith("listening on"));
  const port = Number(/:(\d+)\n/.exec(out.stdout)![1]);
  const end = async () => {
    stop();
    expect(await done).toBe(0);
  };
  return { port, out, file, end };
}

const turn = (id: string, ms: number) =>
  request([turnSpan(TRACE_A, ms, selectionTrace(id, ["a"]))]);

describe("palette-inspector receive --out", () => {
  it('writes each request as one {"resourceSpans": …} line, so that traces FILE finds every turn whatever came first and in whatever key order', async () => {
    const { port, file, end } = await receiving();
    expect((await send(port, "{}")).status).toBe(200);
    const reordered = `{"extra":1,"resourceSpans":${JSON.stringify(turn("t1", 1).resourceSpans)}}`;
    expect((await send(port, reordered)).status).toBe(200);
    await end();
    const written = readFileSync(file, "utf8").trimEnd().split("\n");
    expect(written[0]).toBe('{"resourceSpans":[]}');
    expect(written[1]).toMatch(/^\{"resourceSpans":\[/);
    const back = io();
    expect(await tracesCommand([file, "--json"], back.cli)).toBe(0);
    const listed = JSON.parse(back.out.stdout) as { traces: { id: string }[] };
    expect(listed.traces.map((t) => t.id)).toEqual(["t1"]);
  });

  it("writes no more than --out-max bytes a run, and says once that later requests are not written", async () => {
    const line = JSON.stringify(turn("t1", 1)).length + 1;
    const { port, out, file, end } = await receiving("--out-max", String(2 * line));
    for (let i = 1; i <= 4; i++)
      expect((await send(port, JSON.stringify(turn("t1", 1)))).status).toBe(200);
    await end();
    expect(readFileSync(file, "utf8").split("\n")).toHaveLength(3);
    expect(out.stderr).toBe(
      `palette-inspector: ${file} has had the ${2 * line} bytes --out-max allows a run: later requests are not written to it\n`,
    );
  });

  it("never appends --out through a link or to a FIFO: it refuses, exit 2, and the link's target is unchanged", async () => {
    const folder = mkdtempSync(join(tmpdir(), "receive-"));
    folders.push(folder);
    const victim = join(folder, "victim");
    writeFileSync(victim, "mine\n");
    symlinkSync(victim, join(folder, "link.jsonl"));
    execFileSync("mkfifo", [join(folder, "fifo.jsonl")]);
    for (const [name, reason] of [
      ["link.jsonl", "it is a symbolic link; nothing is written through a link"],
      ["fifo.jsonl", "it is not a regular file (a FIFO, a device or a socket)"],
    ] as const) {
      const { out, cli } = io();
      const status = await receiveCommand(["--port", "0", "--out", join(folder, name)], cli, {
        stopped: new Promise(() => {}),
      });
      expect([status, out.stderr]).toEqual([
        2,
        `palette-inspector: cannot write ${join(folder, name)}: ${reason}\n`,
      ]);
    }
    expect(readFileSync(victim, "utf8")).toBe("mine\n");
  });

  it("answers 400 to a request nested 100,000 deep, and goes on serving", async () => {
    const { port, file, end } = await receiving();
    const deep = 100_000;
    for (const body of [
      `{"resourceSpans":[${"[".repeat(deep)}${"]".repeat(deep)}]}`,
      `{"resourceSpans":[${"[".repeat(deep * 3)}${"]".repeat(deep * 3)}]}`,
    ]) {
      const answer = await send(port, body);
      expect([answer.status, JSON.parse(answer.body.toString())]).toEqual([
        400,
        { code: 3, message: "the request is nested too deeply to be read" },
      ]);
    }
    expect((await send(port, JSON.stringify(turn("t1", 1)))).status).toBe(200);
    await end();
    expect(readFileSync(file, "utf8").trimEnd().split("\n")).toHaveLength(1);
  });
});

describe("palette-inspector receive in the real process", () => {
  it("ends within a second of SIGTERM while it reads a large request", async () => {
    // 30,000 turns in 15 MiB: seconds of reading.
    const spans = Array.from({ length: 30_000 }, (_, i) =>
      turnSpan(TRACE_A, i + 1, selectionTrace(`t${i}`, ["a", "b"], ["c"])),
    );
    const body = JSON.stringify(request(spans));
    const child = spawn(process.execPath, ["dist/cli.js", "receive", "--port", "0"]);
    let stdout = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    await until(() => stdout.startsWith("listening on"));
    const port = Number(/:(\d+)\n/.exec(stdout)![1]);
    send(port, body).catch(() => undefined);
    await new Promise((r) => setTimeout(r, 600));
    const killed = performance.now();
    child.kill("SIGTERM");
    const code = await new Promise((r) => child.on("exit", r));
    expect(code).toBe(0);
    expect(performance.now() - killed).toBeLessThan(1_000);
  });
});
