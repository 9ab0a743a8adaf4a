import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { traceJson } from "../core/stats/helpers.js";
import { cli } from "./helpers.js";
import { inMemoryDuckDb } from "../helpers/duckdb.js";
import { tempDir } from "../helpers/temp.js";

const SQL_DIR = "docs/sql/compare";
const TABLES = ["traces", "stages", "tool_events"] as const;
const ACTIONS = ["select", "abstain", "force", "error"] as const;
const BEFORE = "examples/before-after/before.jsonl";
const AFTER = "examples/before-after/after.jsonl";

const { run, query } = inMemoryDuckDb();

const sqlFile = (name: string) => query(readFileSync(join(SQL_DIR, name), "utf8"));

async function exported(logs: string[]): Promise<string> {
  const dir = join(tempDir("pi-compare-"), "out");
  expect((await cli(["export", ...logs, "--out", dir])).code).toBe(0);
  return dir;
}

/** Two exports as one set of tables with a period column, as docs/sql/README.md sets them up. */
async function useTwoExports(oldDir: string, newDir: string): Promise<void> {
  for (const table of TABLES)
    await run(
      `CREATE OR REPLACE VIEW ${table} AS SELECT 'old' AS period, * FROM '${join(oldDir, `${table}.parquet`)}' UNION ALL BY NAME SELECT 'new' AS period, * FROM '${join(newDir, `${table}.parquet`)}'`,
    );
}

const n = (value: unknown) => (value === null ? null : Number(value));

/** The comparison of `stats --against --json`, less the sides, from the queries of docs/sql/compare. */
async function comparisonFromSql() {
  const counts = (row: Record<string, unknown>, side: string) =>
    row[`${side}_records`] === null
      ? null
      : {
          records: n(row[`${side}_records`]),
          actions: Object.fromEntries(ACTIONS.map((a) => [a, n(row[`${side}_${a}`])])),
          degraded: n(row[`${side}_degraded`]),
        };
  const only = await sqlFile("only.sql");
  const oneSide = (period: string) =>
    only
      .filter((row) => row.period === period)
      .map((row) => ({
        name: row.name,
        seen: n(row.seen),
        final: n(row.final),
        forced: n(row.forced),
        rate: n(row.rate),
      }));
  return {
    changes: (await sqlFile("tools.sql")).map((row) => ({
      name: row.name,
      old: {
        seen: n(row.old_seen),
        final: n(row.old_final),
        forced: n(row.old_forced),
        rate: n(row.old_rate),
      },
      new: {
        seen: n(row.new_seen),
        final: n(row.new_final),
        forced: n(row.new_forced),
        rate: n(row.new_rate),
      },
      points: n(row.points),
      stage:
        row.stage === null
          ? null
          : { stage: row.stage, old: n(row.stage_old_rate), new: n(row.stage_new_rate) },
      z: n(row.z),
      p: n(row.p),
    })),
    only_old: oneSide("old"),
    only_new: oneSide("new"),
    stage_changes: (await sqlFile("stages.sql")).map((row) => ({
      stage: row.stage,
      old: counts(row, "old"),
      new: counts(row, "new"),
      change: counts(row, "change"),
    })),
    error_changes: (await sqlFile("errors.sql")).map((row) => ({
      kind: row.kind,
      old: n(row.old),
      new: n(row.new),
      change: n(row.change),
    })),
  };
}

/** Every number of the CLI's comparison, floats to 12 digits; stages in name order, as the SQL gives them. */
function expectSame(
  sql: Awaited<ReturnType<typeof comparisonFromSql>>,
  doc: Record<string, unknown>,
) {
  const round = (value: unknown): unknown =>
    typeof value === "number"
      ? Number(value.toPrecision(12))
      : Array.isArray(value)
        ? value.map(round)
        : value !== null && typeof value === "object"
          ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, round(v)]))
          : value;
  const stages = (doc.stage_changes as { stage: string }[])
    .slice()
    .sort((a, b) => (a.stage < b.stage ? -1 : a.stage > b.stage ? 1 : 0));
  expect(round(sql)).toEqual(
    round({
      changes: doc.changes,
      only_old: doc.only_old,
      only_new: doc.only_new,
      stage_changes: stages,
      error_changes: doc.error_changes,
    }),
  );
}

describe("docs/sql/compare: the comparison in a warehouse", () => {
  it("over two exports, every number is the one stats --against --json prints", async () => {
    await useTwoExports(await exported([BEFORE]), await exported([AFTER]));
    const doc = JSON.parse((await cli(["stats", AFTER, "--against", BEFORE, "--json"])).stdout);
    const sql = await comparisonFromSql();
    expect(sql.changes[0]!.name).toBe("ask_human");
    expectSame(sql, doc);
  });

  it("over one export with a period column cut at a time, the numbers of stats --split-at", async () => {
    const dir = await exported(["examples/before-after"]);
    const at = "2025-03-11 00:00:00";
    await run(
      `CREATE OR REPLACE VIEW traces AS SELECT CASE WHEN CAST(time AS TIMESTAMP) < TIMESTAMP '${at}' THEN 'old' ELSE 'new' END AS period, * FROM '${join(dir, "traces.parquet")}' WHERE TRY_CAST(time AS TIMESTAMP) IS NOT NULL`,
    );
    for (const table of ["stages", "tool_events"])
      await run(
        `CREATE OR REPLACE VIEW ${table} AS SELECT t.period, x.* FROM '${join(dir, `${table}.parquet`)}' x JOIN traces t ON t.trace = x.trace`,
      );
    const doc = JSON.parse(
      (await cli(["stats", "examples/before-after", "--split-at", at, "--json"])).stdout,
    );
    expectSame(await comparisonFromSql(), doc);
  });

  it("over generated sets, failed turns, one-sided tools and stages included, the same numbers", async () => {
    const dir = tempDir("pi-compare-");
    const write = (name: string, seed: number) => {
      const path = join(dir, name);
      const traces = fc.sample(traceJson, { numRuns: 300, seed });
      writeFileSync(path, traces.map((t) => JSON.stringify(t)).join("\n") + "\n");
      return path;
    };
    const [old, now] = [write("old.jsonl", 45), write("new.jsonl", 46)];
    await useTwoExports(await exported([old]), await exported([now]));
    const doc = JSON.parse((await cli(["stats", now, "--against", old, "--json"])).stdout);
    // The samples hold what the queries must get right: moved stages, failed turns, errors.
    expect(doc.changes.filter((c: { stage: unknown }) => c.stage !== null).length).toBeGreaterThan(
      3,
    );
    expect(doc.error_changes.length).toBeGreaterThan(0);
    expectSame(await comparisonFromSql(), doc);
  }, 30_000);
});
