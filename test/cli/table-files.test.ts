import { openSync } from "node:fs";
import { join } from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import { describe, expect, it } from "vitest";
import { openTableFile, ROW_GROUP_CHARS } from "../../src/cli/table-files.js";
import { TABLES } from "../../src/core/traces/tables.js";
import { tempDir } from "../helpers/temp.js";

describe("a Parquet table", () => {
  it("ends a row group when its text reaches the budget, long before its row count does", async () => {
    const path = join(tempDir(), "stages.parquet");
    const table = openTableFile(openSync(path, "wx"), TABLES.stages, "parquet");
    const detail = "d".repeat(1024 * 1024);
    const rows = Math.ceil((2.5 * ROW_GROUP_CHARS) / detail.length);
    for (let i = 0; i < rows; i++)
      table.add(
        TABLES.stages.map(({ name, type }) =>
          name === "detail"
            ? detail
            : type === "strings"
              ? ["a"]
              : type === "string"
                ? "x"
                : type === "boolean"
                  ? false
                  : i,
        ),
      );
    table.close();
    const duck = await DuckDBInstance.create(":memory:");
    const db = await duck.connect();
    try {
      const result = await db.runAndReadAll(
        `SELECT count(DISTINCT row_group_id) AS groups FROM parquet_metadata('${path}')`,
      );
      const [row] = result.getRowObjectsJson() as { groups: unknown }[];
      expect(Number(row!.groups)).toBe(3);
      const all = await db.runAndReadAll(`SELECT count(*) AS n FROM '${path}'`);
      expect(Number((all.getRowObjectsJson() as { n: unknown }[])[0]!.n)).toBe(rows);
    } finally {
      db.closeSync();
      duck.closeSync();
    }
  });
});
