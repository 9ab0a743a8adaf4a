/**
 * One fixture loaded, run and checked against its `expect`, and the `check --json` document of
 * many: shared by the CLI and the assistant tools, so that both answer in the same words.
 */
import { checkExpectations, type Mismatch } from "./expect.js";
import { loadFixture, type CatalogReader, type LoadResult } from "./fixture/load.js";
import { formatProblem, type Problem } from "./fixture/problems.js";
import type { SourceFile, UnreadableSource } from "./fixture/source.js";
import { formatJsonPath } from "./json/positions.js";
import type { RunReport } from "./report.js";
import { runFixture } from "./run-fixture.js";

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
 * Loads (with `load`: the extension's checks a large fixture off its thread), runs and checks a
 * fixture's text; nothing runs unless every check passes.
 */
export async function runFixtureSource(
  source: SourceFile | UnreadableSource,
  readCatalog: CatalogReader,
  load: (source: SourceFile, readCatalog: CatalogReader) => Promise<LoadResult> = loadFixture,
): Promise<FixtureOutcome> {
  if ("problems" in source)
    return { status: "invalid", file: source.file, problems: source.problems };
  const loaded = await load(source, readCatalog);
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

/** A fixture that could not be read at all, as one error at its start: a check goes on past it. */
export function unreadableOutcome(file: string, message: string): FixtureOutcome {
  const start = { line: 0, character: 0 };
  return {
    status: "invalid",
    file,
    problems: [{ severity: "error", file, range: { start, end: start }, path: [], message }],
  };
}

/** `palette-inspector check --json` (docs/formats.md, "Command line"). */
export function checkToJson(outcomes: readonly FixtureOutcome[]) {
  const passed = outcomes.filter((o) => o.status === "passed").length;
  const invalid = outcomes.filter((o) => o.status === "invalid").length;
  return {
    fixtures: outcomes.map(outcomeToJson),
    passed,
    failed: outcomes.length - passed,
    invalid,
  };
}

function outcomeToJson(outcome: FixtureOutcome) {
  if (outcome.status === "invalid") {
    return {
      file: outcome.file,
      status: outcome.status,
      problems: outcome.problems.map((p) => ({
        ...p,
        path: formatJsonPath(p.path),
        text: formatProblem(p),
      })),
    };
  }
  return {
    file: outcome.file,
    status: outcome.status,
    names: outcome.report.names,
    forced_choice: outcome.report.forcedChoice,
    mismatches: outcome.mismatches.map((m) => ({
      key: m.key,
      path: formatJsonPath(m.path),
      expected: m.expected,
      actual: m.actual,
      message: m.message,
    })),
  };
}
