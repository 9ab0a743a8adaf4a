import { checkExpectations, type Mismatch } from "../core/expect.js";
import { loadFixture } from "../core/fixture/load.js";
import type { Problem } from "../core/fixture/problems.js";
import { formatJsonPath } from "../core/json/positions.js";
import { type RunReport } from "../core/report.js";
import { runFixture } from "../core/run-fixture.js";
import { NotReadable, readSourceFile } from "../node/source-file.js";
import { displayPath, readCatalogFile } from "./files.js";
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

/**
 * Loads, runs and checks one fixture file, as both `run` and `check` do. A file that cannot be
 * read at all (missing, a folder, a FIFO, a device) is a UsageError, at once.
 */
export async function runFixtureFile(path: string): Promise<FixtureOutcome> {
  let source;
  try {
    source = readSourceFile(path, "fixture", displayPath(path));
  } catch (error) {
    if (error instanceof NotReadable)
      throw new UsageError(`cannot read ${path}: ${error.message}`, { cause: error });
    throw error;
  }
  if ("problems" in source)
    return { status: "invalid", file: source.file, problems: source.problems };
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
  if (mismatch.key === "error") {
    // The message says it all; "$.expect" alone names no key the fixture has written.
    const where = mismatch.path.length > 1 ? `${formatJsonPath(mismatch.path)}: ` : "";
    const unexpected =
      mismatch.expected === null ? ` (the fixture does not expect ${String(mismatch.actual)})` : "";
    return `${file}: ${where}${mismatch.message}${unexpected}`;
  }
  return `${file}: ${formatJsonPath(mismatch.path)}: ${mismatch.message}: expected ${JSON.stringify(mismatch.expected)}, actual ${JSON.stringify(mismatch.actual)}`;
}
