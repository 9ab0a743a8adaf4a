// The README's recipes that query `export`'s Parquet without DuckDB's command line, run exactly as
// written (the code blocks are read from the README) against an export of examples/, and held to
// the same count taken from the JSON-lines export without DuckDB.
import { spawnSync } from "node:child_process";
import { readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { cli } from "./helpers.js";
import { tempDir } from "../helpers/temp.js";

/** Python with the duckdb module: PI_DUCKDB_PYTHON (e.g. a venv's), else python3 on the PATH. */
const PYTHON = process.env.PI_DUCKDB_PYTHON ?? "python3";
const pythonHasDuckdb =
  spawnSync(PYTHON, ["-c", "import duckdb"], { encoding: "utf8" }).status === 0;

const readme = readFileSync("README.md", "utf8");
/** The README's fenced block of `language` that contains `marker`. */
function recipe(language: string, marker: string): string {
  const block = [...readme.matchAll(/^```(\w*)\n([\s\S]*?)^```$/gm)].find(
    ([, lang, body]) => lang === language && body!.includes(marker),
  );
  if (!block) throw new Error(`README.md has no ${language} block with ${marker}`);
  return block[2]!;
}

/** Rows of a printed table whose last two cells are a tool name and a count. */
function counts(printed: string, row: RegExp): Record<string, number> {
  return Object.fromEntries(
    [...printed.matchAll(row)].map(([, tool, count]) => [tool!, Number(count)]),
  );
}

let cwd: string;
/** Per tool, how many traces dropped it, from the JSON-lines export (no DuckDB). */
let dropped: Record<string, number>;

beforeAll(async () => {
  // As the README has it: the export in ./out, the query run from the folder above it.
  cwd = tempDir("pi-readme-duckdb-");
  expect((await cli(["export", "examples", "--out", join(cwd, "out")])).code).toBe(0);
  const jsonl = join(cwd, "jsonl");
  expect((await cli(["export", "examples", "--out", jsonl, "--format", "jsonl"])).code).toBe(0);
  const traces = new Map<string, Set<number>>();
  for (const line of readFileSync(join(jsonl, "tool_events.jsonl"), "utf8").split("\n")) {
    if (!line) continue;
    const row = JSON.parse(line) as { trace: number; tool: string; event: string };
    if (row.event !== "dropped") continue;
    if (!traces.has(row.tool)) traces.set(row.tool, new Set());
    traces.get(row.tool)!.add(row.trace);
  }
  dropped = Object.fromEntries([...traces].map(([tool, set]) => [tool, set.size]));
  expect(Object.keys(dropped).length).toBeGreaterThan(3);
});

describe("the README's DuckDB recipes", () => {
  it.skipIf(!pythonHasDuckdb)(
    `the Python recipe prints, per tool, how many traces dropped it${
      pythonHasDuckdb
        ? ""
        : ` (skipped: ${PYTHON} cannot import duckdb; pip install duckdb, or set PI_DUCKDB_PYTHON)`
    }`,
    () => {
      const run = spawnSync(PYTHON, ["-c", recipe("python", "import duckdb")], {
        cwd,
        encoding: "utf8",
        env: { ...process.env, PYTHONIOENCODING: "utf-8" },
      });
      expect(run.stderr).toBe("");
      expect(run.status).toBe(0);
      // duckdb's .show(): "│ sql             │                    92 │"
      expect(counts(run.stdout, /^│\s*(\w+)\s*│\s*(\d+)\s*│$/gm)).toEqual(dropped);
    },
  );

  it("the Node recipe (@duckdb/node-api, saved as dropped.mjs) prints, per tool, how many traces dropped it", () => {
    // Where the recipe's import resolves as it does in a project that installed the package.
    symlinkSync(resolve("node_modules"), join(cwd, "node_modules"), "dir");
    writeFileSync(join(cwd, "dropped.mjs"), recipe("js", "@duckdb/node-api"));
    const run = spawnSync(process.execPath, ["dropped.mjs"], { cwd, encoding: "utf8" });
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    // console.table: "│ 0       │ 'sql'             │ '92'   │"
    expect(counts(run.stdout, /^│\s*\d+\s*│\s*'(\w+)'\s*│\s*'?(\d+)'?\s*│$/gm)).toEqual(dropped);
  });
});
