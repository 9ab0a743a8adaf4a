/** `--jobs N`: files read at once in worker threads, with the output of one read after another. */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { printingJobs } from "../../src/cli/io.js";
import { cli, workspace } from "./helpers.js";

const example = (name: string) => readFileSync(join("examples/logs", name), "utf8");

/** A set of several files: plain, gzip, broken, binary, one that holds nothing, one missing. */
function logSet(): { root: string; files: string[] } {
  const root = workspace({
    "a.log": example("agent.log"),
    "b.log": example("broken.log"),
    "c.jsonl": example("selection.jsonl").repeat(50),
    "d.log": "nothing here\n",
    "e.bin": "\0\0binary",
    "f.log": example("python-repr.log"),
  });
  const gz = join(root, "g.log.gz");
  writeFileSync(gz, gzipSync(example("structlog.log").repeat(20)));
  return {
    root,
    files: ["a.log", "g.log.gz", "b.log", "c.jsonl", "missing.log", "d.log", "e.bin", "f.log"],
  };
}

describe("--jobs", () => {
  it.each([["traces"], ["traces", "--json"], ["stats"], ["stats", "--json"], ["show", "3"]])(
    "%j on a single file prints the same bytes read on the command's own thread as in a worker",
    async (...command) => {
      const { root } = logSet();
      for (const file of ["a.log", "g.log.gz", "b.log", "f.log", "e.bin"]) {
        const [name, ...rest] = command;
        const own = await cli([name!, file, ...rest], { cwd: root });
        expect(await cli([name!, file, ...rest, "--jobs", "1"], { cwd: root }), file).toEqual(own);
      }
    },
  );

  it("reads a single file on the command's own thread unless --jobs is given", () => {
    expect(printingJobs(undefined, 1)).toBe(0);
    expect(printingJobs(1, 1)).toBe(1);
    expect(printingJobs(undefined, 2)).toBeUndefined();
    expect(printingJobs(3, 2)).toBe(3);
  });

  it.each([
    [["traces"], 2],
    [["traces", "--json"], 2],
    [["stats"], 2],
    [["stats", "--json"], 2],
    [["show", "2000"], 2],
    // Found in the first file: the scan stops before the missing one, as it always did.
    [["show", "1", "--json"], 0],
  ])("%j prints the same bytes and exit status with 1 job, 2 and 4", async (command, exit) => {
    const { root, files } = logSet();
    const [name, ...rest] = command;
    const args = (jobs: string) => [name!, ...files, ...rest, "--jobs", jobs];
    const one = await cli(args("1"), { cwd: root });
    expect(await cli(args("2"), { cwd: root })).toEqual(one);
    expect(await cli(args("4"), { cwd: root })).toEqual(one);
    // The missing file makes the set invalid input once it is reached.
    expect(one.code).toBe(exit);
    if (exit === 2) expect(one.stderr).toContain("cannot read missing.log: no such file");
  });

  it("numbers traces across the files in the order given, whichever worker ends first", async () => {
    const { root, files } = logSet();
    const { stdout } = await cli(["traces", ...files, "--json", "--jobs", "4"], { cwd: root });
    const listed = JSON.parse(stdout) as {
      traces: { index: number; file: string }[];
      problems: { file: string; line: number | null }[];
    };
    expect(listed.traces.map((t) => t.index)).toEqual(listed.traces.map((_, i) => i));
    const order = [...new Set(listed.traces.map((t) => t.file))];
    expect(order).toEqual(["a.log", "g.log.gz", "b.log", "c.jsonl", "f.log"]);
    expect([...new Set(listed.problems.map((p) => p.file))]).toEqual([
      "b.log",
      "missing.log",
      "e.bin",
    ]);
  });

  it("export writes the same tables with 1 job and with 4", async () => {
    const { root, files } = logSet();
    const tables = async (jobs: string) => {
      const out = join(root, `out-${jobs}`);
      const run = await cli(
        ["export", ...files, "--out", out, "--format", "jsonl", "--jobs", jobs],
        {
          cwd: root,
        },
      );
      const written = readdirSync(out).map((file) => [file, readFileSync(join(out, file), "utf8")]);
      return { ...run, stdout: run.stdout.replace(out, "OUT"), written };
    };
    expect(await tables("4")).toEqual(await tables("1"));
  });

  it("takes --jobs of several digits, the cores without it, and refuses it without a value", async () => {
    const { root } = logSet();
    const twelve = await cli(["traces", "a.log", "--jobs", "12"], { cwd: root });
    expect(twelve.code).toBe(0);
    expect(await cli(["traces", "a.log"], { cwd: root })).toEqual(twelve);
    const bare = await cli(["traces", "a.log", "--jobs"], { cwd: root });
    expect([bare.code, bare.stderr]).toEqual([2, "palette-inspector: --jobs needs a value\n"]);
  });

  it.each(["0", "x", "-1", "1.5"])("--jobs %s is refused with exit 2", async (jobs) => {
    const { root } = logSet();
    const run = await cli(["traces", "a.log", "--jobs", jobs], { cwd: root });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`--jobs must be a whole number from 1 to 9999, not '${jobs}'`);
  });
});
