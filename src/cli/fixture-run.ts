import { checkExpectations, type Mismatch } from "../core/expect.js";
import { loadFixture } from "../core/fixture/load.js";
import type { Problem } from "../core/fixture/problems.js";
import { formatJsonPath } from "../core/json/positions.js";
import { type RunReport } from "../core/report.js";
import { runFixture } from "../core/run-fixture.js";
import { readCatalogFile, readSource } from "./files.js";
import { UsageError } from "./io.js";

export type FixtureOutcome =
  | { readonly status: "invalid"; readonly file: string; readonly problems: readonly Problem[] }
  | {
      readonly status: "passed" | "failed";
      readonly file: string;
      readonly report: RunReport;
      readonly mismatches: readonly Mismatch[];
      readonly problems: readonly Problem[];
      readonly expects: boolean;
    };

/** Loads, runs and checks one fixture file, as both `run` and `check` do. */
export async function runFixtureFile(path: string): Promise<FixtureOutcome> {
  let source;
  try {
    source = readSource(path);
  } catch (error) {
    throw new UsageError(
      `cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`,
    );
  }
  const loaded = await loadFixture(source, readCatalogFile);
  if (!loaded.ok) return { status: "invalid", file: source.file, problems: loaded.problems };
  const report = runFixture(loaded.fixture);
  const mismatches = checkExpectations(loaded.fixture.json.expect, report);
  return {
    status: mismatches.length === 0 ? "passed" : "failed",
    file: source.file,
    report,
    mismatches,
    problems: loaded.problems,
    expects: loaded.fixture.json.expect !== undefined,
  };
}

/** One failed expectation: where, expected and actual. */
export function formatMismatch(file: string, mismatch: Mismatch): string {
  return `${file}: ${formatJsonPath(mismatch.path)}: ${mismatch.message}: expected ${JSON.stringify(mismatch.expected)}, actual ${JSON.stringify(mismatch.actual)}`;
}
