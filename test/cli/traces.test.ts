import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { UsageError } from "../../src/cli/io.js";
import { showCommand, tracesCommand } from "../../src/cli/traces.js";
import { scanText } from "../../src/core/traces/scan.js";
import { readTraceAt, scanLogFile, scanLogs } from "../../src/node/log-file.js";
import { workspace } from "./helpers.js";

async function run(command: typeof tracesCommand, args: string[], color = false) {
  let stdout = "";
  let stderr = "";
  const code = await command(args, {
    stdout: (s) => (stdout += s),
    stderr: (s) => (stderr += s),
    color,
    cwd: process.cwd(),
  });
  return { code, stdout, stderr };
}

const ENTRY_KEYS = ["file", "index", "line", "time", "id", "stage_count", "names", "forced_choice"];

describe("palette-inspector traces", () => {
  it("--json prints exactly { traces: [{ file, index, line, time, id, stage_count, names, forced_choice }], problems: [{ file, line, message }], problem_count, problems_truncated }", async () => {
    const { code, stdout, stderr } = await run(tracesCommand, [
      "examples/logs/broken.log",
      "--json",
    ]);
    expect([code, stderr]).toEqual([0, ""]);
    const json = JSON.parse(stdout);
    expect(stdout).toBe(JSON.stringify(json, null, 2) + "\n");
    expect(Object.keys(json)).toEqual([
      "traces",
      "problems",
      "problem_count",
      "problems_truncated",
    ]);
    expect([json.problem_count, json.problems_truncated]).toEqual([4, false]);
    const file = "examples/logs/broken.log";
    expect(json.traces).toEqual([
      {
        file,
        index: 0,
        line: 1,
        time: "2025-03-14 09:26:50,011",
        id: "t-4f1c2a",
        stage_count: 5,
        names: ["get_weather", "final_answer"],
        forced_choice: "get_weather",
      },
      {
        file,
        index: 1,
        line: 7,
        time: "2025-03-14 09:27:26,566",
        id: "t-4f1c77",
        stage_count: 5,
        names: ["calendar_lookup", "final_answer"],
        forced_choice: "calendar_lookup",
      },
    ]);
    expect(json.problems).toEqual([
      { file, line: 2, message: "truncated JSON: the object opened at column 75 is not closed" },
      {
        file,
        line: 4,
        message: "invalid JSON: Expected double-quoted property name in JSON at column 468",
      },
      {
        file,
        line: 5,
        message:
          "trace record 0 (stage 'intent'): 'action' must be one of abstain, select, force, error, found 'keep'",
      },
      {
        file,
        line: 6,
        message:
          "trace record 0 (stage 'intent'): 'kept' must be a list of tool names, found a string",
      },
    ]);
  });

  it.each([
    ["agent.log", 6, [3, 7, 11, 15, 19, 24]],
    ["selection.jsonl", 6, [2, 5, 8, 11, 14, 17]],
    ["traces.json.gz", 3, [2, 139, 282]],
  ])("finds every trace of examples/logs/%s", async (file, count, lines) => {
    const { code, stdout } = await run(tracesCommand, [`examples/logs/${file}`, "--json"]);
    expect(code).toBe(0);
    const json = JSON.parse(stdout);
    expect(json.problems).toEqual([]);
    expect(json.traces).toHaveLength(count);
    expect(json.traces.map((t: { line: number }) => t.line)).toEqual(lines);
    for (const [i, entry] of json.traces.entries()) {
      expect(Object.keys(entry)).toEqual(ENTRY_KEYS);
      expect(entry.index).toBe(i);
    }
  });

  it("--json of a log without traces is still the whole document", async () => {
    const root = workspace({ "empty.log": "hello\n" });
    const { stdout } = await run(tracesCommand, [join(root, "empty.log"), "--json"]);
    expect(stdout).toBe(
      JSON.stringify(
        { traces: [], problems: [], problem_count: 0, problems_truncated: false },
        null,
        2,
      ) + "\n",
    );
  });

  it("prints a table, one line per trace, then the problems", async () => {
    const { code, stdout } = await run(tracesCommand, ["examples/logs/agent.log"]);
    expect(code).toBe(0);
    const lines = stdout.split("\n");
    expect(lines[0]).toMatch(/^# +line +time +id +stages +final +forced$/);
    expect(lines[1]).toMatch(
      /^1 +3 +2025-03-14 09:26:50,011 +t-4f1c2a +5 +2: get_weather, final_answer +get_weather$/,
    );
    expect(stdout).toMatch(/^5 +19 .* t-4f1c8b +5 +1: final_answer +delete_rows \(unavailable\)$/m);
    expect(stdout).toMatch(
      /^6 +24 .* t-4f1c9d +5 \(degraded\) +7: search, get_weather, calendar_lookup, … \+4$/m,
    );
    expect(stdout.endsWith("\n6 traces, 0 problems\n")).toBe(true);
    const broken = await run(tracesCommand, ["examples/logs/broken.log"]);
    expect(broken.stdout).toContain(
      "problems (4):\nexamples/logs/broken.log:2: truncated JSON: the object opened at column 75 is not closed\n",
    );
    expect(broken.stdout.endsWith("\n2 traces, 4 problems\n")).toBe(true);
  });

  it("streams a long table: widths from the first rows, every trace a line", async () => {
    const log = Array.from({ length: 1500 }, (_, i) =>
      JSON.stringify({ turn_id: `t-${i}`, trace: [], tools: ["search"] }),
    ).join("\n");
    const root = workspace({ "many.log": log });
    const { stdout } = await run(tracesCommand, [join(root, "many.log")]);
    const lines = stdout.split("\n");
    expect(lines[1]).toMatch(/^1 +1 +t-0 +0 +1: search$/);
    expect(lines[1500]).toMatch(/^1500 +1500 +t-1499 +0 +1: search$/);
    expect(stdout.endsWith("\n1,500 traces, 0 problems\n")).toBe(true);
  });

  it("pads each column by characters, a character past U+FFFF counting once", async () => {
    const log = ["t-\u{1F600}\u{1F600}", "t-ab", "t-é"]
      .map((id) => JSON.stringify({ turn_id: id, trace: [], tools: ["search"] }))
      .join("\n");
    const root = workspace({ "ids.log": log });
    const { stdout } = await run(tracesCommand, [join(root, "ids.log")]);
    expect(stdout.split("\n").slice(1, 4)).toEqual([
      "1  1           t-\u{1F600}\u{1F600}  0       1: search",
      "2  2           t-ab  0       1: search",
      "3  3           t-é   0       1: search",
    ]);
  });

  it("keeps a log's control characters away from the terminal", async () => {
    const root = workspace({
      "evil.log": `${JSON.stringify({ turn_id: "\u001b[31mred", trace: [] })}\n`,
    });
    const { stdout } = await run(tracesCommand, [join(root, "evil.log")]);
    expect(stdout).not.toContain("\u001b");
    expect(stdout).toContain("\\u001b[31mred");
  });

  it("exits 2 for an unreadable file and throws a usage error for bad arguments", async () => {
    const missing = await run(tracesCommand, ["examples/logs/nope.log"]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toBe(
      "palette-inspector: cannot read examples/logs/nope.log: no such file\n",
    );
    // Said once, on stderr: nothing was read, so there is no listing.
    expect(missing.stdout).toBe("");
    const mixed = await run(tracesCommand, ["examples/logs/nope.log", "examples/logs/agent.log"]);
    expect(mixed.code).toBe(2);
    expect(mixed.stderr).toBe(
      "palette-inspector: cannot read examples/logs/nope.log: no such file\n",
    );
    expect(mixed.stdout).not.toContain("nope.log");
    expect(mixed.stdout).toMatch(/\n6 traces, 0 problems\n$/);
    const both = await run(tracesCommand, ["a.log", "b.log"]);
    expect([both.code, both.stderr.split("\n").length]).toEqual([2, 3]);
    await expect(run(tracesCommand, [])).rejects.toThrow(UsageError);
    await expect(run(tracesCommand, ["a.log", "--yaml"])).rejects.toThrow(UsageError);
  });
});

describe("palette-inspector show", () => {
  it("prints the trace as the same waterfall as run, with its origin", async () => {
    const { code, stdout } = await run(showCommand, ["examples/logs/agent.log", "3"]);
    expect(code).toBe(0);
    const lines = stdout.split("\n");
    expect(lines[0]).toBe(
      "examples/logs/agent.log — #3 · line 11 · id t-4f1c77 · 2025-03-14 09:27:04,633",
    );
    expect(lines[1]).toBe("offered 10 → final 2 · forced tool_choice: calendar_lookup");
    expect(stdout).toMatch(
      /^3 +role +select +3→1 +final_answer, ask_human +calendar_lookup +palette of role 'support'$/m,
    );
  });

  it("shows the first trace without an INDEX, in a gzipped pretty JSON file too", async () => {
    const { code, stdout } = await run(showCommand, ["examples/logs/traces.json.gz"]);
    expect(code).toBe(0);
    expect(stdout.split("\n")[0]).toBe(
      "examples/logs/traces.json.gz — #1 · line 2 · id t-4f1c2a · 2025-03-14T09:26:50.011Z",
    );
  });

  it("--json prints the keys of run --json", async () => {
    const { code, stdout } = await run(showCommand, [
      "examples/logs/selection.jsonl",
      "2",
      "--json",
    ]);
    expect(code).toBe(0);
    const json = JSON.parse(stdout);
    expect(Object.keys(json)).toEqual([
      "names",
      "tools",
      "forced_choice",
      "trace",
      "error",
      "manifest",
    ]);
    expect(json.names).toEqual(["final_answer"]);
    expect(json.trace[3]).toMatchObject({
      stage: "policy",
      action: "select",
      dropped: ["sql"],
      reasons: { sql: expect.stringContaining("high") },
    });
    const failed = JSON.parse(
      (await run(showCommand, ["examples/logs/agent.log", "5", "--json"])).stdout,
    );
    expect(failed.error).toEqual({
      kind: "ForcedToolUnavailable",
      message: "forced tool 'delete_rows' is not among the final tools",
    });
  });

  it("exits 2 for an index out of range, a log without traces, an unreadable file; bad INDEX is a usage error", async () => {
    const out = await run(showCommand, ["examples/logs/broken.log", "3"]);
    expect(out).toEqual({
      code: 2,
      stdout: "",
      stderr:
        "palette-inspector: examples/logs/broken.log holds 2 traces (#1–#2); there is no trace #3\n",
    });
    const root = workspace({ "none.log": "nothing here\n" });
    expect((await run(showCommand, [join(root, "none.log")])).stderr).toMatch(
      /no selection trace found in .*none\.log\n$/,
    );
    expect((await run(showCommand, ["examples/logs/missing.log"])).code).toBe(2);
    for (const bad of ["-1", "1.5", "0", "5x", "+2", ".5", "007"])
      await expect(run(showCommand, ["examples/logs/agent.log", bad]), bad).rejects.toThrow(
        `INDEX must be a trace number as traces lists them (1, 2, …), not '${bad}'`,
      );
    // An argument that is not a number is one more log.
    const named = await run(showCommand, ["examples/logs/agent.log", "one", "9"]);
    expect([named.code, named.stderr]).toEqual([
      2,
      "palette-inspector: cannot read one: no such file\n" +
        "palette-inspector: the 2 files hold 6 traces (#1–#6); there is no trace #9\n",
    ]);
    await expect(run(showCommand, [])).rejects.toThrow(UsageError);
  });
});

describe("log files", () => {
  it("re-reads each trace from its byte range, as the whole scan found it", async () => {
    for (const file of [
      "agent.log",
      "selection.jsonl",
      "traces.json.gz",
      "broken.log",
      "python-repr.log",
      "python-pprint.log",
      "structlog.log",
      "python-fields.log",
    ]) {
      const path = `examples/logs/${file}`;
      const scan = await scanLogFile(path);
      const bytes = readFileSync(path);
      const whole = scanText(file.endsWith(".gz") ? gunzipSync(bytes) : bytes);
      expect(scan.traces.map((t) => t.index)).toEqual(whole.traces.map((t) => t.index));
      expect(scan.problems).toEqual(whole.problems);
      for (const summary of scan.traces)
        expect(await readTraceAt(path, summary)).toEqual(whole.traces[summary.index]);
    }
  });

  it("reads a log larger than its reused read buffers as reading it whole does, lines across every buffer edge included", async () => {
    // Lines of every length up to 300 bytes put a trace line across each 4 MiB read (and each 64 KiB slice).
    const lines: string[] = [];
    let size = 0;
    for (let i = 0; size < 10 * 1024 * 1024; i++) {
      const line =
        i % 7 === 0
          ? `INFO ${"x".repeat(i % 300)} ${JSON.stringify({ turn_id: `t-${i}`, trace: [{ stage: "s", action: "abstain" }] })}`
          : `INFO request ${i} ${"y".repeat(i % 300)}`;
      lines.push(line);
      size += line.length + 1;
    }
    const file = join(workspace({ "big.log": lines.join("\n") + "\n" }), "big.log");
    const scan = await scanLogFile(file);
    const whole = scanText(readFileSync(file));
    expect(scan.traceCount).toBe(Math.ceil(lines.length / 7));
    expect(scan.traces.map((t) => [t.line, t.id])).toEqual(
      whole.traces.map((t) => [t.line, t.trace.id]),
    );
    expect(scan.problems).toEqual([]);
    const last = scan.traces.at(-1)!;
    expect((await readTraceAt(file, last)).trace.id).toBe(last.id);
  });

  it("refuses a trace whose file changed since the scan", async () => {
    const root = workspace({ "a.log": `${JSON.stringify({ trace: [] })}\n` });
    const file = join(root, "a.log");
    const [summary] = (await scanLogFile(file)).traces;
    writeFileSync(file, "{}\n");
    await expect(readTraceAt(file, summary!)).rejects.toThrow(
      /a\.log changed: the trace of line 1 is no longer there/,
    );
  });

  it("stops when cancelled, keeps what it found, and streams without keeping when asked", async () => {
    const signal = { aborted: false };
    const seen: number[] = [];
    const scan = await scanLogFile("examples/logs/agent.log", {
      signal,
      keep: false,
      onTrace: (t) => seen.push(t.index),
    });
    expect([scan.cancelled, scan.traces, seen.length, scan.traceCount]).toEqual([false, [], 6, 6]);
    signal.aborted = true;
    expect((await scanLogFile("examples/logs/agent.log", { signal })).cancelled).toBe(true);
  });

  it("a Cancel that comes once the last file is read leaves the scan complete; between files it stops the scan", async () => {
    // The last trace ends the file, so it is found as the scan ends, after its last look at Cancel.
    const root = workspace({ "last.log": `x\n${JSON.stringify({ trace: [] })}` });
    const last = { name: "last", path: join(root, "last.log") };
    const late = { aborted: false };
    const complete = await scanLogs([last], {
      signal: late,
      onTrace: () => void (late.aborted = true),
      onProblem: () => {},
    });
    expect([complete.cancelled, complete.traceCount]).toEqual([false, 1]);
    const agent = { name: "agent", path: "examples/logs/agent.log" };
    const between = { aborted: false };
    const files: number[] = [];
    const partial = await scanLogs([agent, agent], {
      signal: between,
      onTrace: (found, file) => {
        files.push(file);
        if (found.index === 5) between.aborted = true;
      },
      onProblem: () => {},
    });
    expect([partial.cancelled, partial.traceCount, new Set(files)]).toEqual([
      true,
      6,
      new Set([0]),
    ]);
  });

  it("keeps at most maxProblems problems but counts them all", async () => {
    const scan = await scanLogFile("examples/logs/broken.log", { maxProblems: 1 });
    expect([scan.problems.length, scan.problemCount]).toEqual([1, 4]);
  });
});
