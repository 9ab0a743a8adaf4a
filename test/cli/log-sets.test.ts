/** Several logs as one set, a folder, gzip, standard input, and bad input among them. */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Readable } from "node:stream";
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { showCommand, tracesCommand } from "../../src/cli/traces.js";
import { readTraceAt, scanLogs, type LogProblem } from "../../src/node/log-file.js";
import { isLogFileName } from "../../src/node/log-source.js";
import type { FoundTrace } from "../../src/core/traces/scan.js";
import { workspace } from "./helpers.js";

const AGENT = readFileSync("examples/logs/agent.log");
const SELECTION = readFileSync("examples/logs/selection.jsonl");

async function run(
  command: typeof tracesCommand,
  args: string[],
  options: { cwd?: string; stdin?: NodeJS.ReadableStream } = {},
) {
  let stdout = "";
  let stderr = "";
  const code = await command(args, {
    stdout: (s) => (stdout += s),
    stderr: (s) => (stderr += s),
    color: false,
    cwd: options.cwd ?? process.cwd(),
    stdin: options.stdin,
  });
  return { code, stdout, stderr };
}

async function json(args: string[], options: Parameters<typeof run>[2] = {}) {
  const out = await run(tracesCommand, [...args, "--json"], options);
  return { ...out, json: JSON.parse(out.stdout) };
}

type Entry = { file: string; index: number; line: number; id: string };
const where = (traces: Entry[]) => traces.map((t) => `${t.index} ${t.file}:${t.line} ${t.id}`);

/** A rotated set: the newest plain, the older ones rotated and gzipped. */
function rotated(): string {
  return workspace({
    "app.log": AGENT.toString(),
    "app.log.1": SELECTION.toString(),
    "app.log.2.gz": "",
    "notes.md": "not a log",
  });
}

describe("several logs as one set", () => {
  it("numbers the traces across the files in the order given, each naming its file as given", async () => {
    const root = workspace({ "b.log": SELECTION.toString(), "a.log": AGENT.toString() });
    const { code, json: out } = await json(["b.log", "a.log"], { cwd: root });
    expect(code).toBe(0);
    expect(out.traces).toHaveLength(12);
    expect(where(out.traces).slice(5, 8)).toEqual([
      "5 b.log:17 t-4f1c77",
      "6 a.log:3 t-4f1c2a",
      "7 a.log:7 t-4f1c31",
    ]);
  });

  it("reads a folder's logs sorted with numbers as numbers, a gzip inflated, other files left alone", async () => {
    const root = rotated();
    writeFileSync(join(root, "app.log.2.gz"), gzipSync(AGENT));
    writeFileSync(join(root, "app.log.10"), SELECTION);
    const { code, json: out } = await json(["."], { cwd: root });
    expect([code, out.problems]).toEqual([0, []]);
    expect([...new Set(out.traces.map((t: Entry) => t.file))]).toEqual([
      "app.log",
      "app.log.1",
      "app.log.2.gz",
      "app.log.10",
    ]);
    expect(out.traces.map((t: Entry) => t.index)).toEqual([...Array(24).keys()]);
    // The gzip's traces are the plain log's, at the same lines.
    const gz = out.traces.filter((t: Entry) => t.file === "app.log.2.gz");
    const plain = out.traces.filter((t: Entry) => t.file === "app.log");
    expect(gz.map((t: Entry) => [t.line, t.id])).toEqual(plain.map((t: Entry) => [t.line, t.id]));
  });

  it("the text table gains a file column when several files are read", async () => {
    const root = rotated();
    writeFileSync(join(root, "app.log.2.gz"), gzipSync(AGENT));
    const { stdout } = await run(tracesCommand, ["app.log", "app.log.2.gz"], { cwd: root });
    const lines = stdout.split("\n");
    expect(lines[0]).toMatch(/^# +file +line +time +id +stages +final +forced$/);
    expect(lines[7]).toMatch(/^7 +app\.log\.2\.gz +3 +2025-03-14 09:26:50,011 +t-4f1c2a /);
    expect(stdout.endsWith("\n12 traces, 0 problems\n")).toBe(true);
  });

  it("show takes the same list, INDEX across the set, a gzip's trace included", async () => {
    const root = rotated();
    writeFileSync(join(root, "app.log.2.gz"), gzipSync(AGENT));
    const { code, stdout } = await run(showCommand, ["app.log.1", "app.log.2.gz", "9"], {
      cwd: root,
    });
    expect(code).toBe(0);
    expect(stdout.split("\n")[0]).toBe(
      "app.log.2.gz — #9 · line 11 · id t-4f1c77 · 2025-03-14 09:27:04,633",
    );
  });

  it("re-reads a trace of a gzip from its range, as the scan found it", async () => {
    const root = workspace({});
    const file = join(root, "agent.log.gz");
    writeFileSync(file, gzipSync(AGENT));
    const found: FoundTrace[] = [];
    await scanLogs([{ name: file, path: file }], {
      onTrace: (trace) => found.push(trace),
      onProblem: () => {},
    });
    expect(found).toHaveLength(6);
    for (const trace of found) expect(await readTraceAt(file, trace)).toEqual(trace);
  });

  it("names log files by what rotation and compression leave of them", () => {
    for (const name of ["app.log", "app.log.1", "app.log.2.gz", "app.log-20250314.gz", "a.jsonl"])
      expect(isLogFileName(name), name).toBe(true);
    for (const name of ["notes.md", "image.png", "archive.tar.gz", "app.log.bak"])
      expect(isLogFileName(name), name).toBe(false);
  });

  it("a folder's fixtures, catalogues and expected outputs are not read as logs; given by name they are", async () => {
    // Each holds traces, so that reading it as a log would show.
    const names = [
      "agent.trace-5.turn.json",
      "tools.catalog.json",
      "python-logs.expected.json",
      "Upper.Expected.JSON",
    ];
    const root = workspace(
      Object.fromEntries(["agent.log", ...names].map((name) => [name, AGENT.toString()])),
    );
    const folder = await json([root]);
    expect(new Set(folder.json.traces.map((t: Entry) => t.file))).toEqual(
      new Set([join(root, "agent.log")]),
    );
    const named = await json([join(root, names[0]!)]);
    expect(named.json.traces).toHaveLength(6);
  });
});

describe("standard input", () => {
  it("`-` reads standard input, plain or gzip, chunk by chunk", async () => {
    const chunks = (bytes: Buffer) =>
      Readable.from([bytes.subarray(0, 100), bytes.subarray(100, 2000), bytes.subarray(2000)]);
    const plain = await json(["-"], { stdin: chunks(AGENT) });
    expect(where(plain.json.traces)[0]).toBe("0 -:3 t-4f1c2a");
    expect(plain.json.traces).toHaveLength(6);
    const gz = await json(["-", "examples/logs/selection.jsonl"], {
      stdin: chunks(gzipSync(AGENT)),
    });
    expect(gz.json.traces).toHaveLength(12);
    expect(gz.json.traces[6].file).toBe("examples/logs/selection.jsonl");
  });

  it("show reads standard input and prints the trace without reading it again", async () => {
    const { code, stdout } = await run(showCommand, ["-", "5"], { stdin: Readable.from([AGENT]) });
    expect(code).toBe(0);
    expect(stdout.split("\n")[0]).toBe("- — #5 · line 19 · id t-4f1c8b · 2025-03-14 09:27:19,255");
  });
});

describe("show from files: the trace found is read again from its bytes", () => {
  it("prints every trace of a set as it prints it from standard input, read once", async () => {
    // A pretty JSON gzip, and a Python log with two traces in one record (ordinals 0 and 1).
    const files = [
      "examples/logs/agent.log",
      "examples/logs/traces.json.gz",
      "examples/logs/python-repr.log",
    ];
    const count = (await json(files)).json.traces.length;
    for (let n = 1; n <= count; n++)
      for (const flags of [[], ["--json"]]) {
        const fromFiles = await run(showCommand, [...files, String(n), ...flags]);
        // The same set with its first file on standard input: that file is read only once.
        const piped = await run(showCommand, ["-", ...files.slice(1), String(n), ...flags], {
          stdin: Readable.from([AGENT]),
        });
        expect(fromFiles.code, `#${n}`).toBe(piped.code);
        expect(fromFiles.stdout.replace(files[0]!, "-"), `#${n} ${flags}`).toBe(piped.stdout);
      }
  });
});

describe("bad input among the files: a problem of that file, and the rest is read", () => {
  it("a truncated gzip: the traces before the break, then a problem at the line where it broke", async () => {
    const root = workspace({ "next.log": SELECTION.toString() });
    const whole = gzipSync(Buffer.concat([AGENT, AGENT, AGENT]));
    writeFileSync(join(root, "cut.log.gz"), whole.subarray(0, Math.floor(whole.length * 0.6)));
    const { code, json: out } = await json(["cut.log.gz", "next.log"], { cwd: root });
    expect(code).toBe(0);
    const cut = out.problems.filter((p: LogProblem & { file: string }) => p.file === "cut.log.gz");
    expect(cut).toHaveLength(1);
    expect(cut[0].message).toBe(
      "the gzip data is truncated: the file ends before its compressed data does",
    );
    expect(cut[0].line).toBeGreaterThan(1);
    const before = out.traces.filter((t: Entry) => t.file === "cut.log.gz");
    expect(before.length).toBeGreaterThan(0);
    expect(before.every((t: Entry) => t.line <= cut[0].line)).toBe(true);
    expect(out.traces.filter((t: Entry) => t.file === "next.log")).toHaveLength(6);
  });

  it("bytes after the last gzip member are ignored with a notice, as gzip -d does, and every trace is kept", async () => {
    const root = workspace({});
    const members = Buffer.concat([gzipSync(AGENT), gzipSync(SELECTION)]);
    writeFileSync(join(root, "junk.log.gz"), Buffer.concat([members, Buffer.from("junkjunk")]));
    writeFileSync(join(root, "zeros.log.gz"), Buffer.concat([members, Buffer.alloc(8)]));
    const { code, json: out } = await json(["junk.log.gz", "zeros.log.gz"], { cwd: root });
    expect(code).toBe(0);
    expect(out.problems).toEqual([
      {
        file: "junk.log.gz",
        line: null,
        message: "the bytes after the gzip data are not gzip; they were ignored",
      },
    ]);
    const count = (file: string) => out.traces.filter((t: Entry) => t.file === file).length;
    expect([count("junk.log.gz"), count("zeros.log.gz")]).toEqual([12, 12]);
  });

  it("a gzip whose second member is corrupt keeps every trace of the first", async () => {
    const root = workspace({});
    const corrupt = gzipSync(SELECTION);
    corrupt.fill(0x55, 20, 60);
    writeFileSync(join(root, "half.log.gz"), Buffer.concat([gzipSync(AGENT), corrupt]));
    const { json: out } = await json(["half.log.gz"], { cwd: root });
    expect(out.traces).toHaveLength(6);
    expect(out.problems.map((p: LogProblem) => p.message.replace(/ \(.*\)$/, ""))).toEqual([
      "the gzip data is corrupt",
    ]);
  });

  it("a corrupt gzip, a .gz that is not gzip, a binary file, a missing file", async () => {
    const root = workspace({ "plain.log.gz": AGENT.toString(), "ok.log": AGENT.toString() });
    const corrupt = gzipSync(AGENT);
    corrupt.fill(0x55, 20, 60);
    writeFileSync(join(root, "corrupt.log.gz"), corrupt);
    writeFileSync(join(root, "image.log"), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 13, 10]));
    const files = ["corrupt.log.gz", "plain.log.gz", "image.log", "gone.log", "ok.log"];
    const { code, json: out, stderr } = await json(files, { cwd: root });
    expect(code).toBe(2);
    expect(stderr).toBe("palette-inspector: cannot read gone.log: no such file\n");
    const problems = out.problems.map(
      (p: { file: string; line: number | null; message: string }) =>
        `${p.file}:${p.line}: ${p.message.replace(/ \(.*\)$/, "")}`,
    );
    expect(problems).toEqual([
      "corrupt.log.gz:1: the gzip data is corrupt",
      "plain.log.gz:null: the file is named .gz but is not gzip; it was read as plain text",
      "image.log:null: binary file (it holds NUL bytes); it was not read",
      "gone.log:null: cannot read the file: no such file",
    ]);
    // The plain text named .gz is read, and so is the last file.
    expect(out.traces.map((t: Entry) => t.file)).toEqual([
      ...Array(6).fill("plain.log.gz"),
      ...Array(6).fill("ok.log"),
    ]);
  });

  it("reports every problem in the count, lists the first 1,000 and says the list was cut", async () => {
    const broken = JSON.stringify({ trace: [{ stage: "s", action: "keep" }] });
    const root = workspace({ "broken.log": Array(1500).fill(broken).join("\n") + "\n" });
    const { json: out } = await json(["broken.log"], { cwd: root });
    expect([out.problems.length, out.problem_count, out.problems_truncated]).toEqual([
      1000,
      1500,
      true,
    ]);
    expect(out.problems[999].line).toBe(1000);
    const text = await run(tracesCommand, ["broken.log"], { cwd: root });
    expect(text.stdout).toContain("problems (1,500):\n");
    expect(text.stdout).toContain("\n… and 500 more\n");
  });
});

describe("nothing hangs", () => {
  it("an endless device is not a regular file: one problem, at once, and nothing of it read", async () => {
    const { code, json: out } = await json(["/dev/zero", "examples/logs/agent.log"]);
    expect(code).toBe(2);
    expect(out.problems).toEqual([
      {
        file: "/dev/zero",
        line: null,
        message: "cannot read the file: it is not a regular file (a FIFO, a device or a socket)",
      },
    ]);
    expect(out.traces).toHaveLength(6);
  });
});
