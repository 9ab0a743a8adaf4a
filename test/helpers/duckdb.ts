import { DuckDBInstance, type DuckDBConnection } from "@duckdb/node-api";
import { afterAll, beforeAll } from "vitest";

/** An in-memory DuckDB for one test file: opened before its tests, closed after them. */
export function inMemoryDuckDb() {
  let duck: DuckDBInstance;
  let db: DuckDBConnection;
  beforeAll(async () => {
    duck = await DuckDBInstance.create(":memory:");
    db = await duck.connect();
  });
  afterAll(() => {
    db.closeSync();
    duck.closeSync();
  });
  return {
    run: async (sql: string): Promise<void> => {
      await db.run(sql);
    },
    query: async (sql: string) =>
      (await db.runAndReadAll(sql)).getRowObjectsJson() as Record<string, unknown>[],
  };
}
