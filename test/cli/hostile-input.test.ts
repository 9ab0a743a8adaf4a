/**
 * Hostile fixtures and catalogues through the CLI (size, depth, bytes, special files, paths):
 * each ends at once with exit 2 and a located problem, never a stack or a hang.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { closeSync, constants, mkdirSync, openSync, truncateSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { buildSync } from "esbuild";
import { beforeAll, describe, expect, it } from "vitest";
import { scanLogFile } from "../../src/node/log-file.js";
import { cli, workspace } from "./helpers.js";

describe("a fixture past the size limit", () => {
  it("size limit: a 150 MB fixture is refused at line 1 without being read", async () => {
    const root = workspace({});
    const file = join(root, "huge.turn.json");
    writeFileSync(file, "[");
    truncateSync(file, 150 * 1024 * 1024); // sparse: costs no disk, and nothing may read it
    const { code, stdout, stderr } = await cli(["run", file]);
    expect({ code, stdout, stderr }).toEqual({
      code: 2,
      stdout: "",
      stderr: `${file}:1:1: error: fixture is 150 MB; the limit is 10 MB\n`,
    });
  });

  it("size limit: a catalogue over 10 MB is refused in the catalogue, at line 1", async () => {
    const root = workspace({
      "repo/.git/HEAD": "",
      "repo/t.turn.json": { catalog: "./big.catalog.json" },
    });
    const catalog = join(root, "repo/big.catalog.json");
    writeFileSync(catalog, "[");
    truncateSync(catalog, 11 * 1024 * 1024);
    const { code, stderr } = await cli(["run", join(root, "repo/t.turn.json")]);
    expect(code).toBe(2);
    expect(stderr).toBe(`${catalog}:1:1: error: catalogue is 11 MB; the limit is 10 MB\n`);
  });
});

describe("deep nesting", () => {
  it("deep nesting: run --json on a fixture nested 100,000 levels deep exits 2 with the depth problem", async () => {
    const root = workspace({
      "deep.turn.json": `{\n"offered": ${"[".repeat(100_000)}${"]".repeat(100_000)}\n}`,
    });
    const { code, stdout, stderr } = await cli(["run", "--json", join(root, "deep.turn.json")]);
    expect({ code, stdout }).toEqual({ code: 2, stdout: "" });
    expect(stderr).toBe(
      `${join(root, "deep.turn.json")}:2:${12 + 63}: error: nested deeper than 64 levels; the limit is 64\n`,
    );
  });

  it("deep nesting: check DIR reports 6,000 unclosed brackets (fixture and catalogue) and goes on to the next file", async () => {
    const root = workspace({
      "a-deep.turn.json": "[".repeat(6000),
      "b-deep-catalog.turn.json": { catalog: "./deep.catalog.json", expect: { names: [] } },
      "deep.catalog.json": "[".repeat(6000),
      "c-ok.turn.json": { offered: ["a"], expect: { names: ["a"] } },
    });
    const { code, stdout } = await cli(["check", root]);
    expect(code).toBe(2);
    expect(stdout).toContain(`INVALID ${join(root, "a-deep.turn.json")}\n`);
    expect(stdout).toContain(
      `${join(root, "a-deep.turn.json")}:1:65: error: nested deeper than 64 levels`,
    );
    expect(stdout).toContain(
      `${join(root, "deep.catalog.json")}:1:65: error: nested deeper than 64 levels`,
    );
    expect(stdout).toContain(`PASS ${join(root, "c-ok.turn.json")}\n`);
    expect(stdout).toMatch(/2 invalid\n1 passed, 2 failed\n$/);
  });
});

describe("many schema errors", () => {
  it("check on a 10 MB fixture of 200,000 bad catalogue entries lists its first 1,000 errors and counts the rest, exit 2", async () => {
    const catalog = Array.from({ length: 200_000 }, (_, i) => ({
      name: `t${i}`,
      visibility: 1,
      cost_usd: "x",
    }));
    const root = workspace({ "bad.turn.json": JSON.stringify({ catalog, pipeline: [] }) });
    const file = join(root, "bad.turn.json");
    const { code, stdout } = await cli(["check", file]);
    const lines = stdout.split("\n");
    expect(code).toBe(2);
    expect(lines.slice(0, 3)).toEqual([
      `INVALID ${file}`,
      `  ${file}:1:52: error: expected number or null, found the string "x" (at $.catalog[0].cost_usd)`,
      `  ${file}:1:96: error: expected number or null, found the string "x" (at $.catalog[1].cost_usd)`,
    ]);
    expect(lines.slice(1001)).toEqual([
      `  ${file}:1:1: error: … and 399000 more schema errors (the first 1000 are listed)`,
      "1 invalid",
      "0 passed, 1 failed",
      "",
    ]);
  }, 60_000);

  it("check on 4.9 million offered tools that are neither names nor objects fits in 160 MB of heap: only the errors it lists are kept", () => {
    const root = workspace({
      "names.turn.json": `{"offered": [${Array(4_900_000).fill(1).join(",")}], "pipeline": []}`,
    });
    const file = join(root, "names.turn.json");
    // Every error kept, as before, the same check ran out of memory at this limit.
    const run = spawnSync(
      process.execPath,
      ["--max-old-space-size=160", "dist/cli.js", "check", file],
      { encoding: "utf8" },
    );
    expect(run.status).toBe(2);
    expect(run.stdout.split("\n").slice(-4)).toEqual([
      `  ${file}:1:1: error: … and 4899000 more schema errors (the first 1000 are listed)`,
      "1 invalid",
      "0 passed, 1 failed",
      "",
    ]);
  }, 60_000);
});

describe("invalid UTF-8 and special files", () => {
  it("invalid UTF-8 in a fixture is an error at the byte's line and column, exit 2", async () => {
    const root = workspace({});
    const file = join(root, "t.turn.json");
    writeFileSync(
      file,
      Buffer.concat([
        Buffer.from('{\n  "offered": ["sé'),
        Buffer.from([0xff]),
        Buffer.from('"]\n}'),
      ]),
    );
    const { code, stderr } = await cli(["run", file]);
    expect(code).toBe(2);
    expect(stderr).toBe(
      `${file}:2:18: error: invalid UTF-8 (byte 0xFF); save the fixture as UTF-8\n`,
    );
  });

  it("special files: /dev/zero, a FIFO and a folder are errors at once (run and check)", async () => {
    const root = workspace({ "ok.turn.json": { offered: ["a"] } });
    const fifo = join(root, "pipe.turn.json");
    execFileSync("mkfifo", [fifo]);
    const folder = join(root, "folder.turn.json");
    mkdirSync(folder);
    for (const [path, reason] of [
      ["/dev/zero", "it is not a regular file (a FIFO, a device or a socket)"],
      [fifo, "it is not a regular file (a FIFO, a device or a socket)"],
      [folder, "it is a folder"],
    ] as const) {
      expect(await cli(["run", path])).toEqual({
        code: 2,
        stdout: "",
        stderr: `palette-inspector: cannot read ${path}: ${reason}\n`,
      });
    }
    const checked = await cli(["check", "/dev/zero", fifo, join(root, "ok.turn.json")]);
    expect(checked.code).toBe(2);
    expect(checked.stdout).toContain(
      "/dev/zero:1:1: error: cannot read /dev/zero: it is not a regular file",
    );
    expect(checked.stdout).toContain(`PASS ${join(root, "ok.turn.json")}`);
  }, 10_000);
});

describe("a FIFO named as a log", () => {
  it("is a problem at once for traces and export, with or without a writer, never a wait", async () => {
    const root = workspace({});
    const fifo = join(root, "pipe.log");
    execFileSync("mkfifo", [fifo]);
    const said = "it is not a regular file (a FIFO, a device or a socket)";
    const traces = await cli(["traces", fifo]);
    expect([traces.code, traces.stderr]).toEqual([2, expect.stringContaining(said)]);
    const writer = openSync(fifo, constants.O_RDWR);
    try {
      const exported = await cli(["export", fifo, "--out", join(root, "out")]);
      expect([exported.code, exported.stderr]).toEqual([2, expect.stringContaining(said)]);
    } finally {
      closeSync(writer);
    }
  }, 10_000);
});

describe("a catalogue path outside the repository", () => {
  it("file-existence oracle: a catalogue path outside the repository gets one answer whether or not the file exists", async () => {
    const root = workspace({
      "secret.json": "[]",
      "repo/.git/HEAD": "",
      "repo/exists.turn.json": { catalog: "../secret.json" },
      "repo/missing.turn.json": { catalog: "../no-such.json" },
    });
    const answer = async (name: string, ref: string) =>
      (await cli(["run", join(root, "repo", name)])).stderr.replace(name, "F").replace(ref, "REF");
    const exists = await answer("exists.turn.json", "../secret.json");
    expect(exists).toBe(await answer("missing.turn.json", "../no-such.json"));
    expect(exists).toMatch(
      /catalogue file 'REF' is outside the repository .*repo; a fixture may only read files inside it/,
    );
    expect(exists).not.toMatch(/does not exist|looked for/);
  });
});

/**
 * Writes `text` as a log, runs the CLI on it and measures the CPU time it took: unlike the time on
 * the clock, that does not grow with the other work of a busy machine.
 */
async function timedOnLog(args: (file: string) => string[], text: string) {
  const file = join(workspace({}), "hostile.log");
  writeFileSync(file, text);
  const before = process.cpuUsage();
  const result = await cli(args(file));
  const { user, system } = process.cpuUsage(before);
  return { ...result, file, ms: (user + system) / 1000 };
}

/** Every hostile log of up to 1 MB is read within this much CPU time; the old readers took 5 s to 40 s on them. */
const READ_MS = 2000;

describe("hostile logs: every line is read in one pass", () => {
  // Timed runs start with the readers compiled, as in a CLI reading a real log.
  beforeAll(() => timedOnLog((f) => ["stats", f], `ts=1 ${"trace=[] ".repeat(2000)}\n`));

  it("20,000 trace= pairs on one line (180 KB) are 64 traces and a problem for the rest, read within 2 s", async () => {
    const text = `ts=2024-05-01T12:00:00Z ${"trace=[] ".repeat(20_000)}\n`;
    const { code, stdout, ms } = await timedOnLog((f) => ["stats", "--json", f], text);
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toMatchObject({ traces: 64, problems: 1 });
    expect(ms).toBeLessThan(READ_MS);
  });

  it("20,000 ' tools=' inside a bracket before a trace= pair are not its pairs, read within 2 s", async () => {
    const text = `event=x detail=[${" tools=".repeat(20_000)}] trace=[] tools=('search',)\n`;
    const { code, stdout, ms } = await timedOnLog((f) => ["traces", "--json", f], text);
    expect(code).toBe(0);
    expect(JSON.parse(stdout).traces.map((t: { names: string[] }) => t.names)).toEqual([
      ["search"],
    ]);
    expect(ms).toBeLessThan(READ_MS);
  });

  it('40,000 quoted values k="StageRecord(" (680 KB) spend the line\'s budget: 64 problems and one that says the rest were not read, within 2 s', async () => {
    const text = `${'k="StageRecord(" '.repeat(40_000)}\n`;
    const { code, stdout, ms } = await timedOnLog((f) => ["traces", "--json", f], text);
    expect(code).toBe(0);
    const json = JSON.parse(stdout);
    expect(json.problem_count).toBe(65);
    expect(json.problems.at(-1).message).toBe(
      "more than 64 values on this line hold a trace marker; the rest were not read",
    );
    expect(ms).toBeLessThan(READ_MS);
  });

  it("a JSON array of 20,000 traces with non-ASCII text on one line (440 KB) gives each its byte range, within 2 s", async () => {
    const element = '{"trace":[],"x":"é"}';
    const text = `[\n${Array(20_000).fill(element).join(",")}\n]\n`;
    const { code, stdout, file, ms } = await timedOnLog((f) => ["stats", "--json", f], text);
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toMatchObject({ traces: 20_000, problems: 0 });
    expect(ms).toBeLessThan(READ_MS);
    // The last trace's range is exactly its element, found by the byte count carried along the line.
    const last = (await scanLogFile(file)).traces.at(-1)!;
    const at = Buffer.from(text).lastIndexOf(Buffer.from(element));
    expect([last.offset, last.length]).toEqual([at, Buffer.byteLength(element)]);
  });

  it("a 1 MB line of values nested in one another and broken inside is one problem, within 2 s", async () => {
    const depth = 60;
    const inner = `{'trace': [${"1, ".repeat(Math.floor(1_000_000 / 3))}]}`;
    const text = `x ${"wrap(".repeat(depth)}${inner}, bad${")".repeat(depth)}\n`;
    const { code, stdout, ms } = await timedOnLog((f) => ["traces", "--json", f], text);
    expect(code).toBe(0);
    const json = JSON.parse(stdout);
    expect(json.problems.map((p: { message: string }) => p.message)).toEqual([
      "invalid Python repr: unexpected name 'bad' (not a Python literal)",
    ]);
    expect(ms).toBeLessThan(READ_MS);
  });
});

const shipped = join(workspace({}), "cli.js");
beforeAll(() => {
  // The CLI as shipped (one bundle), to run in a process of its own: its own stack and heap limits.
  buildSync({
    entryPoints: ["src/cli/main.ts"],
    outfile: shipped,
    bundle: true,
    platform: "node",
    format: "cjs",
    mainFields: ["module", "main"],
    logLevel: "error",
  });
});

/** `palette-inspector ARGS` in a Node process, with a heap limit if given. */
function inProcess(args: string[], heapMb?: number) {
  const node = heapMb === undefined ? [] : [`--max-old-space-size=${heapMb}`];
  const run = spawnSync("node", [...node, shipped, ...args], {
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
    timeout: 60_000,
  });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

/** Writes a log into a throwaway folder and returns its path. */
function logFile(text: string): string {
  const file = join(workspace({}), "hostile.log");
  writeFileSync(file, text);
  return file;
}

describe("hostile logs: no list is spread into a call's arguments (a process's stack takes ~120,000)", () => {
  it("a Python list of 200,000 traces after a prefix (3 MB) is 200,000 traces", () => {
    const file = logFile(`x [${"{'trace': []}, ".repeat(200_000)}]\n`);
    const { code, stdout, stderr } = inProcess(["stats", "--json", file]);
    expect({ code, stderr }).toEqual({ code: 0, stderr: "" });
    expect(JSON.parse(stdout)).toMatchObject({ traces: 200_000, problems: 0 });
  }, 60_000);

  it("show prints a trace of 200,000 stages", () => {
    const record = JSON.stringify({ stage: "s", action: "abstain" });
    const file = logFile(`{"trace": [${Array(200_000).fill(record).join(",")}]}\n`);
    const { code, stdout, stderr } = inProcess(["show", file]);
    expect({ code, stderr }).toEqual({ code: 0, stderr: "" });
    expect(stdout.split("\n").filter((line) => /^ *200000 +s /.test(line))).toHaveLength(1);
  }, 60_000);

  it("stats prints 130,000 distinct tool names as the first 10,000 and a problem", () => {
    const trace = (k: number) =>
      JSON.stringify({ trace: [], tools: Array.from({ length: 10_000 }, (_, i) => `t${k}-${i}`) });
    const file = logFile(Array.from({ length: 13 }, (_, k) => trace(k)).join("\n") + "\n");
    const { code, stdout, stderr } = inProcess(["stats", file]);
    expect({ code, stderr }).toEqual({ code: 0, stderr: "" });
    expect(stdout).toContain("13 traces, 1 problem\n");
    expect(stdout).toContain(`${file}:2: more than 10,000 distinct tool names`);
  }, 60_000);
});

describe("hostile logs: memory stays bounded", () => {
  it("a 5 MB line of brackets a prefix left open with a trace at its end: the trace, in a 200 MB heap", () => {
    const file = logFile(`INFO ${"(".repeat(5_000_000)}retry {'trace': [], 'turn_id': 'end'}\n`);
    const { code, stdout, stderr } = inProcess(["traces", "--json", file], 200);
    expect({ code, stderr }).toEqual({ code: 0, stderr: "" });
    expect(JSON.parse(stdout).traces.map((t: { id: string }) => t.id)).toEqual(["end"]);
  }, 60_000);

  it("150,000 distinct tool names: stats --json counts the first 10,000 and says where it stopped, in a 200 MB heap", () => {
    const trace = (k: number) =>
      JSON.stringify({
        trace: [],
        tools: Array.from({ length: 10_000 }, (_, i) => `t${k * 10_000 + i}`),
      });
    const file = logFile(Array.from({ length: 15 }, (_, k) => trace(k)).join("\n") + "\n");
    const { code, stdout, stderr } = inProcess(["stats", "--json", file], 200);
    expect({ code, stderr }).toEqual({ code: 0, stderr: "" });
    const json = JSON.parse(stdout);
    expect([json.traces, json.tools.length, json.problems]).toEqual([15, 10_000, 1]);
  }, 60_000);
});
