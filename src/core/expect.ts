import type { PathSegment } from "./json/positions.js";
import type { ExpectJson } from "./fixture/schema.js";
import { droppedBy, type RunReport } from "./report.js";

/** One expectation that the run did not meet. */
export interface Mismatch {
  readonly key: "error" | "names" | "forced_choice" | "actions" | "dropped_by";
  /** Where the expectation stands in the fixture, e.g. ["expect", "names"]. */
  readonly path: readonly PathSegment[];
  readonly expected: unknown;
  readonly actual: unknown;
  readonly message: string;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * Compares a run with the fixture's `expect`. A run that failed with ForcedToolUnavailable
 * fails its expectations unless they say so, even when `expect` is absent.
 */
export function checkExpectations(expect: ExpectJson | undefined, report: RunReport): Mismatch[] {
  const out: Mismatch[] = [];
  const actualError = report.error?.kind ?? null;
  const expectedError = expect?.error ?? null;
  if (actualError !== expectedError) {
    out.push({
      key: "error",
      path: expect?.error !== undefined ? ["expect", "error"] : ["expect"],
      expected: expectedError,
      actual: actualError,
      message: actualError
        ? `the run failed: ${report.error!.message}`
        : `expected the run to fail with ${expectedError}, but it succeeded`,
    });
  }
  if (!expect) return out;
  if (expect.names !== undefined && !same(expect.names, report.names)) {
    out.push({
      key: "names",
      path: ["expect", "names"],
      expected: expect.names,
      actual: report.names,
      message: "final names differ",
    });
  }
  if (expect.forced_choice !== undefined && expect.forced_choice !== report.forcedChoice) {
    out.push({
      key: "forced_choice",
      path: ["expect", "forced_choice"],
      expected: expect.forced_choice,
      actual: report.forcedChoice,
      message: "forced choice differs",
    });
  }
  for (const [stage, action] of Object.entries(expect.actions ?? {})) {
    const actual = report.trace.find((record) => record.stage === stage)?.action ?? "not run";
    if (actual !== action)
      out.push({
        key: "actions",
        path: ["expect", "actions", stage],
        expected: action,
        actual,
        message: `stage '${stage}' did ${actual}, not ${action}`,
      });
  }
  for (const [tool, stage] of Object.entries(expect.dropped_by ?? {})) {
    const actual = droppedBy(report.trace, tool);
    if (actual !== stage) {
      out.push({
        key: "dropped_by",
        path: ["expect", "dropped_by", tool],
        expected: stage,
        actual,
        message: `'${tool}' was ${actual ? `dropped last by '${actual}'` : "never dropped"}, not ${stage ? `by '${stage}'` : "kept"}`,
      });
    }
  }
  return out;
}

/** The `expect` block that the run would meet exactly (for "update expectation"). */
export function expectationOf(report: RunReport): ExpectJson {
  const expect: ExpectJson = { names: [...report.names], forced_choice: report.forcedChoice };
  if (report.error) expect.error = report.error.kind;
  expect.actions = Object.fromEntries(report.trace.map((record) => [record.stage, record.action]));
  return expect;
}
