import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { traceJson } from "../core/stats/helpers.js";
import { cli, workspace } from "./helpers.js";
import { inMemoryDuckDb } from "../helpers/duckdb.js";
import { tempDir } from "../helpers/temp.js";

const SQL_DIR = "docs/sql";
const TABLES = ["traces", "stages", "tool_events"] as const;
const ACTIONS = ["select", "abstain", "force", "error"] as const;

type Rows = Record<string, unknown>[];

const { run, query } = inMemoryDuckDb();

function outDir(): string {
  return join(tempDir("pi-export-"), "out");
}

/** Points the three table names at an export, as a user of DuckDB would. */
async function useExport(dir: string, extension = "parquet"): Promise<void> {
  for (const table of TABLES)
    await run(`CREATE OR REPLACE VIEW ${table} AS FROM '${join(dir, `${table}.${extension}`)}'`);
}

async function sqlFile(name: string): Promise<Rows> {
  return query(readFileSync(join(SQL_DIR, name), "utf8"));
}

const count = (value: unknown) => Number(value);

/** The `stats --json` document (less `problems`, which no table holds) from the queries of docs/sql. */
async function statsFromSql() {
  const actions = await sqlFile("stage_actions.sql");
  const toolStages = await sqlFile("tool_stages.sql");
  const missing = await sqlFile("missing.sql");
  const byStage = (rows: Rows) =>
    Object.fromEntries(rows.map((row) => [row.stage as string, count(row.traces)]));
  return {
    traces: count((await sqlFile("traces.sql"))[0]!.traces),
    errors: Object.fromEntries(
      (await sqlFile("errors.sql")).map((row) => [row.error_kind, count(row.traces)]),
    ),
    stages: (await sqlFile("stages.sql")).map((row) => ({
      stage: row.stage,
      records: count(row.records),
      actions: Object.fromEntries(
        ACTIONS.map((action) => [
          action,
          count(actions.find((a) => a.stage === row.stage && a.action === action)?.traces ?? 0),
        ]),
      ),
      degraded: count(row.degraded),
    })),
    tools: (await sqlFile("tools.sql")).map((row) => {
      const of = (event: string) =>
        byStage(toolStages.filter((r) => r.name === row.name && r.event === event));
      return {
        name: row.name,
        seen: count(row.seen),
        final: count(row.final),
        forced: count(row.forced),
        dropped_by: of("dropped"),
        added_by: of("added"),
        reinstated_by: of("reinstated"),
        missing: byStage(missing.filter((r) => r.name === row.name)),
      };
    }),
  };
}

/** `stats --json` less `problems`, which no table holds. */
async function tableStats(args: string[]) {
  const doc = JSON.parse((await cli(["stats", ...args])).stdout);
  delete doc.problems;
  return doc;
}

async function expectSqlToMatchStats(logs: string[]): Promise<string> {
  const dir = outDir();
  const exported = await cli(["export", ...logs, "--out", dir]);
  expect(exported.code).toBe(0);
  await useExport(dir);
  const stats = await tableStats([...logs, "--json"]);
  expect(await statsFromSql()).toEqual(stats);
  return dir;
}

const TOOLS = ["search", "sql", "ask_human", "final_answer", "get_weather"];

/** A trace as a pipeline of two stages logs it, varied by its number. */
function usualTrace(i: number) {
  const tool = (k: number) => TOOLS[(i + k) % TOOLS.length]!;
  return {
    trace: [
      {
        stage: "intent",
        action: i % 7 === 0 ? "abstain" : "select",
        kept: [tool(0), tool(1), tool(2)],
        dropped: [tool(3)],
      },
      {
        stage: i % 3 === 0 ? "policy" : "role",
        action: i % 11 === 0 ? "error" : "select",
        kept: [tool(0)],
        dropped: [tool(1), tool(2)],
      },
    ],
    tools: i % 5 === 0 ? undefined : [tool(0)],
    forced_choice: i % 13 === 0 ? tool(4) : null,
    ...(i % 17 === 0 ? { error: { kind: "ForcedToolUnavailable", message: "" } } : {}),
  };
}

describe("palette-inspector export", () => {
  it("every query of docs/sql gives, over the export of the example logs, the numbers stats --json prints", async () => {
    expect(
      readdirSync(SQL_DIR)
        .filter((name) => name.endsWith(".sql"))
        .sort(),
    ).toEqual([
      "errors.sql",
      "missing.sql",
      "stage_actions.sql",
      "stages.sql",
      "tool_stages.sql",
      "tools.sql",
      "traces.sql",
    ]);
    await expectSqlToMatchStats(["examples/logs"]);
  });

  it("every query of docs/sql gives the numbers of stats --json over 100,000 generated traces, written in row groups as the scan goes", async () => {
    // Every 100th trace a varied one (names like "__proto__" and "10", errors, gaps); the rest of
    // the usual size, so that the test takes seconds.
    const varied = fc.sample(traceJson, { numRuns: 1000, seed: 25 });
    const lines = Array.from({ length: 100_000 }, (_, i) =>
      JSON.stringify(i % 100 === 0 ? varied[i / 100] : usualTrace(i)),
    );
    const log = join(tempDir("pi-export-"), "big.jsonl");
    writeFileSync(log, lines.join("\n") + "\n");
    const dir = await expectSqlToMatchStats([log]);
    const groups = await query(
      `SELECT COUNT(DISTINCT row_group_id) AS n, SUM(DISTINCT row_group_num_rows) AS rows FROM parquet_metadata('${join(dir, "traces.parquet")}')`,
    );
    expect(groups).toEqual([{ n: "2", rows: String(100_000) }]);
  }, 60_000);

  it("a failed turn's tools are not final in SQL or stats: missing under the error's kind, kept in error_names", async () => {
    const rec = (kept: string[], dropped: string[]) => ({
      stage: "intent",
      action: "select",
      kept,
      dropped,
    });
    const dir = workspace({
      "failed.log": [
        { trace: [rec(["a"], ["b"])], tools: ["a"] },
        {
          trace: [rec(["a", "b"], [])],
          tools: ["a", "b"],
          error: { kind: "ForcedToolUnavailable", message: "c is not offered" },
        },
      ]
        .map((trace) => JSON.stringify(trace))
        .join("\n"),
    });
    const log = join(dir, "failed.log");
    await expectSqlToMatchStats([log]);
    const tools = (await tableStats([log, "--json"])).tools;
    expect(tools.map((t: Record<string, unknown>) => [t.name, t.seen, t.final, t.missing])).toEqual(
      [
        ["a", 2, 1, { ForcedToolUnavailable: 1 }],
        ["b", 2, 0, { ForcedToolUnavailable: 1, intent: 1 }],
      ],
    );
    expect(await query("SELECT names, error_names FROM traces ORDER BY trace")).toEqual([
      { names: ["a"], error_names: null },
      { names: null, error_names: ["a", "b"] },
    ]);
  });

  it("--format jsonl writes the same tables as one JSON object per line, which the same queries read", async () => {
    const dir = outDir();
    const { code, stdout } = await cli([
      "export",
      "examples/logs",
      "--out",
      dir,
      "--format",
      "jsonl",
    ]);
    expect(code).toBe(0);
    expect(stdout).toMatch(
      /^42 traces \(210 stage records, 782 tool events\) written to .* as jsonl; 4 problems\n$/,
    );
    expect(readdirSync(dir).sort()).toEqual(["stages.jsonl", "tool_events.jsonl", "traces.jsonl"]);
    const rows = readFileSync(join(dir, "traces.jsonl"), "utf8")
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line));
    const listed = JSON.parse((await cli(["traces", "examples/logs", "--json"])).stdout).traces;
    expect(rows.map((row) => [row.trace, row.file, row.line, row.forced_choice])).toEqual(
      listed.map((t: Record<string, unknown>) => [t.index, t.file, t.line, t.forced_choice]),
    );
    // A failed turn has no palette: what the pipeline left is in error_names.
    for (const [i, row] of rows.entries())
      expect([row.names, row.error_names]).toEqual(
        row.error_kind === null ? [listed[i].names, null] : [null, listed[i].names],
      );
    expect(rows.filter((row) => row.error_kind !== null)).toHaveLength(2);
    expect(Object.keys(rows[0])).toEqual([
      "trace",
      "file",
      "line",
      "time",
      "id",
      "stage_count",
      "names",
      "forced_choice",
      "error_kind",
      "error_names",
      "otel_trace_id",
      "otel_span_id",
      "model_convention",
      "model_offered",
      "model_called",
      "model_tool_choice",
    ]);
    expect(rows.every((row) => row.otel_trace_id === null && row.otel_span_id === null)).toBe(true);
    await useExport(dir, "jsonl");
    const stats = await tableStats(["examples/logs", "--json"]);
    expect(await statsFromSql()).toEqual(stats);
  });

  it("a stage's degraded is its own, or when the log lacks it whether it failed; a number's time and id are text", async () => {
    const dir = workspace({
      "a.jsonl": [
        {
          ts: 1700000000,
          turn_id: 7,
          trace: [
            { stage: "p", action: "error" },
            { stage: "q", action: "select", degraded: true, kept: ["x"] },
            { stage: "r", action: "error", degraded: false },
          ],
        },
      ]
        .map((t) => JSON.stringify(t))
        .join("\n"),
    });
    const out = outDir();
    expect((await cli(["export", dir, "--out", out])).code).toBe(0);
    await useExport(out);
    expect(await query("SELECT stage, degraded FROM stages ORDER BY stage_index")).toEqual([
      { stage: "p", degraded: true },
      { stage: "q", degraded: true },
      { stage: "r", degraded: false },
    ]);
    expect(await query("SELECT time, id, stage_count, names FROM traces")).toEqual([
      { time: "1700000000", id: "7", stage_count: 3, names: ["x"] },
    ]);
  });

  it("a file that cannot be read or holds broken traces is a problem of that file, said on stderr; the others are exported", async () => {
    const dir = outDir();
    const { code, stdout, stderr } = await cli([
      "export",
      "nope.log",
      "examples/logs/broken.log",
      "examples/logs/agent.log",
      "--out",
      dir,
    ]);
    expect(code).toBe(2);
    expect(stderr).toContain("examples/logs/broken.log:2: truncated JSON");
    expect(stderr).toContain("palette-inspector: cannot read nope.log: ");
    expect(stdout).toMatch(/ written to .*; 4 problems\n$/);
    await useExport(dir);
    const agent = JSON.parse(
      (await cli(["traces", "examples/logs/broken.log", "examples/logs/agent.log", "--json"]))
        .stdout,
    );
    expect(await query("SELECT trace, file FROM traces ORDER BY trace")).toEqual(
      agent.traces.map((t: { index: number; file: string }) => ({
        trace: String(t.index),
        file: t.file,
      })),
    );
  });

  it("refuses an --out folder that holds files, unless --force, and an --out that is a file", async () => {
    const dir = workspace({ "notes.txt": "mine" });
    const refused = await cli(["export", "examples/logs/agent.log", "--out", dir]);
    expect([refused.code, refused.stdout]).toEqual([2, ""]);
    expect(refused.stderr).toMatch(/^palette-inspector: .* is not empty; .*--force.*\n$/);
    expect(readdirSync(dir)).toEqual(["notes.txt"]);
    const forced = await cli(["export", "examples/logs/agent.log", "--out", dir, "--force"]);
    expect(forced.code).toBe(0);
    expect(readdirSync(dir).sort()).toEqual([
      "notes.txt",
      "stages.parquet",
      "tool_events.parquet",
      "traces.parquet",
    ]);
    const file = await cli([
      "export",
      "examples/logs/agent.log",
      "--out",
      join(dir, "notes.txt"),
      "--force",
    ]);
    expect([file.code, file.stderr]).toEqual([
      2,
      expect.stringContaining("exists and is not a folder"),
    ]);
  });

  it("says in words why a table cannot be written: a folder in its place is a folder", async () => {
    const dir = workspace({ "traces.jsonl/keep": "" });
    const { code, stderr } = await cli([
      "export",
      "examples/logs/agent.log",
      "--out",
      dir,
      "--format",
      "jsonl",
      "--force",
    ]);
    expect([code, stderr]).toEqual([
      2,
      `palette-inspector: cannot write in ${dir}: traces.jsonl is a folder\n`,
    ]);
  });

  it("exits 2 with a usage line without --out or with an unknown --format", async () => {
    for (const args of [
      ["export", "examples/logs"],
      ["export", "examples/logs", "--out", outDir(), "--format", "csv"],
    ]) {
      const { code, stderr } = await cli(args);
      expect(code).toBe(2);
      expect(stderr).toContain("usage: palette-inspector export LOG... --out DIR");
    }
  });

  it("keeps hostile names exact in Parquet and escapes their controls in JSON lines", async () => {
    const name = "x\u001b[2J\u009b\u202e";
    const dir = workspace({
      "evil.log": JSON.stringify({ trace: [{ stage: "s", action: "select", kept: [name] }] }),
    });
    const parquet = outDir();
    const jsonl = outDir();
    await cli(["export", dir, "--out", parquet]);
    await cli(["export", dir, "--out", jsonl, "--format", "jsonl"]);
    await useExport(parquet);
    expect(await query("SELECT tool FROM tool_events")).toEqual([{ tool: name }]);
    const line = readFileSync(join(jsonl, "tool_events.jsonl"), "utf8");
    expect(line).not.toMatch(/[\u001b\u0080-\u009f\u202a-\u202e]/);
    expect(JSON.parse(line).tool).toBe(name);
  });

  it("a set without traces gives three tables without rows", async () => {
    const dir = outDir();
    const log = workspace({ "quiet.log": "no trace here\n" });
    const { code, stdout } = await cli(["export", log, "--out", dir]);
    expect([code, stdout]).toEqual([
      0,
      `0 traces (0 stage records, 0 tool events) written to ${dir} as parquet; 0 problems\n`,
    ]);
    await useExport(dir);
    for (const table of TABLES)
      expect(await query(`SELECT COUNT(*) AS n FROM ${table}`)).toEqual([{ n: "0" }]);
  });
});
