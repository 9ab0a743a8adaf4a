/** Piping into `head` ends the output quietly with status 0, as Unix tools do. */
import { spawnSync } from "node:child_process";
import { EventEmitter } from "node:events";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { buildSync } from "esbuild";
import { beforeAll, describe, expect, it } from "vitest";
import { endQuietlyWhenPipeCloses } from "../../src/cli/pipe.js";
import { tempDir } from "../helpers/temp.js";

const dir = tempDir("pi-pipe-");
const cli = join(dir, "cli.js");
const log = join(dir, "many.log");

beforeAll(() => {
  // The CLI as shipped (one bundle), built from the sources under test.
  buildSync({
    entryPoints: ["src/cli/main.ts"],
    outfile: cli,
    bundle: true,
    platform: "node",
    format: "cjs",
    mainFields: ["module", "main"],
    logLevel: "error",
  });
  // Far more output than a pipe buffers, so the CLI is still writing when head exits.
  const line = (i: number) => JSON.stringify({ turn_id: `t-${i}`, trace: [], tools: ["search"] });
  writeFileSync(log, Array.from({ length: 20_000 }, (_, i) => line(i)).join("\n") + "\n");
});

/** Runs `node cli.js ARGS | head -n 2` in bash: what head printed, the CLI's stderr and status. */
function intoHead(args: string): { stdout: string; stderr: string; status: string } {
  const script = `node ${JSON.stringify(cli)} ${args} 2>"$ERR" | head -n 2; echo "\${PIPESTATUS[0]}" >"$STATUS"`;
  const err = join(dir, "err.txt");
  const status = join(dir, "status.txt");
  const out = spawnSync("bash", ["-c", script], {
    encoding: "utf8",
    env: { ...process.env, ERR: err, STATUS: status },
    timeout: 60_000,
  });
  const read = (file: string) => spawnSync("cat", [file], { encoding: "utf8" }).stdout;
  return { stdout: out.stdout, stderr: read(err), status: read(status).trim() };
}

describe("a closed pipe", () => {
  it.each([
    ["traces", `traces ${JSON.stringify(log)}`],
    ["traces --json", `traces ${JSON.stringify(log)} --json`],
  ])("`%s | head` exits 0 with no stack trace", (_, args) => {
    const { stdout, stderr, status } = intoHead(args);
    expect(stdout.split("\n")).toHaveLength(3);
    expect(stderr).toBe("");
    expect(status).toBe("0");
  });

  it("EPIPE ends with status 0 and says nothing; another write error is one line and status 74", () => {
    const stream = new EventEmitter() as unknown as NodeJS.WritableStream;
    const exits: number[] = [];
    const said: string[] = [];
    endQuietlyWhenPipeCloses(
      stream,
      (code) => exits.push(code),
      (text) => said.push(text),
    );
    stream.emit("error", Object.assign(new Error("write EPIPE"), { code: "EPIPE" }));
    stream.emit("error", Object.assign(new Error("no space left on device"), { code: "ENOSPC" }));
    expect(exits).toEqual([0, 74]);
    expect(said).toEqual(["palette-inspector: cannot write the output: no space left on device\n"]);
  });
});
