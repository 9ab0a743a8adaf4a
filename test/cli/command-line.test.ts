/** How every command reads its line: options anywhere, `--help` for each, and the headers and words around the rows. */
import { appendFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tracesCommand } from "../../src/cli/traces.js";
import { tempDir } from "../helpers/temp.js";
import { writtenRecord } from "../builders/logged.js";
import { cli } from "./helpers.js";

const LOG = "examples/logs/agent.log";
const FIXTURE = "examples/weather-forecast.turn.json";
const COMMANDS = ["run", "check", "traces", "show", "stats", "export", "receive", "mcp"];

describe("a command line", () => {
  it.each([
    [
      ["traces", LOG, "--json"],
      ["traces", "--json", LOG],
    ],
    [
      ["traces", LOG, "examples/logs/selection.jsonl", "--jobs", "1"],
      ["traces", "--jobs=1", LOG, "examples/logs/selection.jsonl"],
    ],
    [
      ["show", LOG, "3", "--json"],
      ["show", "--json", LOG, "3"],
    ],
    [
      ["stats", "examples/logs", "--json", "--jobs", "2"],
      ["stats", "--jobs", "2", "--json", "examples/logs"],
    ],
    [
      ["run", FIXTURE, "--json"],
      ["run", "--json", FIXTURE],
    ],
    [
      ["check", "examples", "--json"],
      ["check", "--json", "examples"],
    ],
  ])("takes its options before or after its arguments: %j as %j", async (after, before) => {
    const expected = await cli(after);
    expect(expected.stdout).not.toBe("");
    expect(await cli(before)).toEqual(expected);
  });

  it("follows a log with its options in any order, --follow before the log as well as after", async () => {
    const dir = tempDir("pi-follow-order-");
    const path = join(dir, "a.log");
    writeFileSync(path, JSON.stringify({ turn_id: "a", trace: [writtenRecord("s")] }) + "\n");
    for (const args of [
      ["--follow", "--from-start", "--json", path],
      ["--follow", path, "--json", "--from-start"],
    ]) {
      let stdout = "";
      let stop!: () => void;
      const stopped = new Promise<void>((done) => (stop = done));
      const io = { stdout: (s: string) => (stdout += s), stderr: () => {}, color: false, cwd: dir };
      const done = tracesCommand(args, io, { stopped });
      await expect.poll(() => stdout).toContain('"id":"a"');
      stop();
      expect(await done).toBe(0);
    }
  });

  it.each(COMMANDS)(
    "%s --help prints its usage and every option on stdout, exit 0",
    async (name) => {
      for (const help of ["--help", "-h"]) {
        const { code, stdout, stderr } = await cli([name, help]);
        expect([code, stderr]).toEqual([0, ""]);
        expect(stdout).toMatch(new RegExp(`^usage: palette-inspector ${name}\\b`));
        expect(stdout).toMatch(/\noptions:\n( {2}--[a-z-]+.*\n)+$/);
      }
      // After an argument too.
      expect((await cli([name, "x", "--help"])).code).toBe(0);
    },
  );

  it("names export --force in its help and in palette-inspector --help", async () => {
    expect((await cli(["export", "--help"])).stdout).toContain(
      "  --force     write in a folder that holds files, overwriting the three tables\n",
    );
    expect((await cli(["--help"])).stdout).toContain(
      "export LOG... --out DIR [--format F] [--force]",
    );
  });

  it("keeps the command lines the docs show, and one line for an option it does not know", async () => {
    expect((await cli(["show", LOG, "-1"])).stderr).toBe(
      "palette-inspector: INDEX must be a trace number as traces lists them (1, 2, …), not '-1'\n" +
        "usage: palette-inspector show LOG... [INDEX] [--json] [--jobs N]   (LOG: a file, a folder or -)\n",
    );
    expect(await cli(["traces", LOG, "--csv"])).toEqual({
      code: 2,
      stdout: "",
      stderr: "palette-inspector: unknown option --csv\n",
    });
    expect(await cli(["traces", LOG, "--jobs"])).toEqual({
      code: 2,
      stdout: "",
      stderr: "palette-inspector: --jobs needs a value\n",
    });
    expect((await cli(["traces", LOG, "--json=yes"])).stderr).toBe(
      "palette-inspector: --json takes no value\n",
    );
  });
});

describe("palette-inspector --help", () => {
  it("keeps every description in one column", async () => {
    const { stdout } = await cli(["--help"]);
    const list = stdout.split("\n\n")[1]!.split("\n");
    expect(list.length).toBeGreaterThan(10);
    for (const line of list) {
      // A command, then its description from column 44; or a command alone, or a description alone.
      const [, command, gap] = /^ {2}(\S(?:.*?\S)?)( {2,}|$)/.exec(line) ?? [];
      if (line.startsWith(" ".repeat(44))) continue;
      expect(command, line).toBeDefined();
      if (gap) expect(2 + command!.length + gap.length, line).toBe(44);
    }
  });
});

describe("rows that stream", () => {
  it("traces --follow prints the table's header before its rows", async () => {
    const dir = tempDir("pi-follow-head-");
    const path = join(dir, "a.log");
    writeFileSync(path, "");
    let stdout = "";
    let stop!: () => void;
    const stopped = new Promise<void>((done) => (stop = done));
    const io = { stdout: (s: string) => (stdout += s), stderr: () => {}, color: false, cwd: dir };
    const done = tracesCommand(["--follow", path], io, { stopped });
    await expect.poll(() => stdout).not.toBe("");
    appendFileSync(path, JSON.stringify({ turn_id: "b", trace: [writtenRecord("s")] }) + "\n");
    await expect.poll(() => stdout.split("\n").length).toBe(3);
    stop();
    expect(await done).toBe(0);
    const [header, row] = stdout.split("\n");
    expect(header).toBe("#  line  time  id  stages  final  forced");
    expect(row!.split("  ").slice(0, 2)).toEqual(["1", "1"]);
  });
});

describe("stats on a file that is not a log", () => {
  it("says no trace was found in a file that does not look like a log, exit 2", async () => {
    expect(await cli(["stats", "README.md"])).toEqual({
      code: 2,
      stdout: "",
      stderr:
        "palette-inspector: no selection trace found in README.md, a file that does not look like a log (*.log, *.jsonl, *.ndjson, *.json, *.txt, each maybe .gz)\n",
    });
  });

  it("counts a log that holds no trace yet as 0 traces, exit 0", async () => {
    const dir = tempDir("pi-empty-log-");
    writeFileSync(join(dir, "quiet.log"), "INFO nothing selected today\n");
    const { code, stdout } = await cli(["stats", join(dir, "quiet.log")]);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^0 traces/);
  });
});
