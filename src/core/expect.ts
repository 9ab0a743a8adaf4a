import type { PathSegment } from "./json/positions.js";
import type { ExpectJson } from "./fixture/schema.js";
import { droppedBy, type ReportView } from "./report.js";

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
export function checkExpectations(expect: ExpectJson | undefined, report: ReportView): Mismatch[] {
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

/** One value of `expect` that updating it changes: where, and from what to what. */
export interface ExpectChange {
  /** `names`, `forced_choice`, `error`, `actions.<stage>` or `dropped_by.<tool>`. */
  readonly key: string;
  /** Undefined: the key was absent. */
  readonly before: unknown;
  /** Undefined: the entry goes (a stage in `actions` that did not run says nothing to expect). */
  readonly after: unknown;
}

/**
 * The `expect` block the run meets, keeping exactly the keys the user wrote (and, inside
 * `actions` and `dropped_by`, the user's stages and tools), each set to what the run decided.
 * With no block: names and forced choice. A run that failed always gains `error`, since it
 * fails any block that does not say so.
 */
export function updatedExpectation(
  expect: ExpectJson | undefined,
  report: ReportView,
): { readonly expect: ExpectJson; readonly changes: readonly ExpectChange[] } {
  const old: ExpectJson = expect ?? {};
  const keys = (expect ? Object.keys(expect) : ["names", "forced_choice"]) as (keyof ExpectJson)[];
  if (report.error && !keys.includes("error")) keys.push("error");
  const next: ExpectJson = {};
  const changes: ExpectChange[] = [];
  const note = (key: string, before: unknown, after: unknown) => {
    if (JSON.stringify(before) !== JSON.stringify(after)) changes.push({ key, before, after });
  };
  for (const key of keys) {
    switch (key) {
      case "names":
        next.names = [...report.names];
        note(key, old.names, next.names);
        break;
      case "forced_choice":
        next.forced_choice = report.forcedChoice;
        note(key, old.forced_choice, next.forced_choice);
        break;
      case "error":
        next.error = report.error?.kind ?? null;
        note(key, old.error, next.error);
        break;
      case "actions": {
        const actions: NonNullable<ExpectJson["actions"]> = {};
        for (const [stage, before] of Object.entries(old.actions ?? {})) {
          const action = report.trace.find((record) => record.stage === stage)?.action;
          if (action !== undefined) actions[stage] = action;
          note(`actions.${stage}`, before, action);
        }
        next.actions = actions;
        break;
      }
      case "dropped_by": {
        const dropped: NonNullable<ExpectJson["dropped_by"]> = {};
        for (const [tool, before] of Object.entries(old.dropped_by ?? {})) {
          dropped[tool] = droppedBy(report.trace, tool);
          note(`dropped_by.${tool}`, before, dropped[tool]);
        }
        next.dropped_by = dropped;
        break;
      }
    }
  }
  return { expect: next, changes };
}

/** A failed expectation as a view shows it: what was expected against what ran, and the stages where the run differs. */
export interface ExpectationFailure {
  readonly key: Mismatch["key"];
  readonly text: string;
  readonly stages: readonly string[];
}

/** The fixture's failed expectations, each located at the stages that made the run differ. */
export function expectationFailures(
  expect: ExpectJson | undefined,
  report: ReportView,
): ExpectationFailure[] {
  // Only names (a list) and a forced choice (a name or null) are shown this way.
  const shown = (value: unknown) =>
    value === null ? "none" : Array.isArray(value) ? `[${value.join(", ")}]` : String(value);
  return checkExpectations(expect, report).map((mismatch) => {
    const stages = new Set<string>();
    const trace = report.trace;
    switch (mismatch.key) {
      case "error":
        if (report.error?.droppedBy) stages.add(report.error.droppedBy);
        break;
      case "names": {
        const expected = mismatch.expected as string[];
        for (const name of expected.filter((n) => !report.names.includes(n))) {
          const stage = droppedBy(trace, name);
          if (stage) stages.add(stage);
        }
        for (const name of report.names.filter((n) => !expected.includes(n))) {
          const adder = [...trace].reverse().find((record) => record.added.includes(name));
          if (adder) stages.add(adder.stage);
        }
        break;
      }
      case "forced_choice": {
        let before: string | null = null;
        let changedAt: string | null = null;
        for (const record of trace) {
          if (record.forcedChoice !== before) changedAt = record.stage;
          before = record.forcedChoice;
        }
        if (changedAt) stages.add(changedAt);
        break;
      }
      case "actions":
        stages.add(String(mismatch.path.at(-1)));
        break;
      case "dropped_by":
        for (const stage of [mismatch.expected, mismatch.actual])
          if (typeof stage === "string") stages.add(stage);
        break;
    }
    const text =
      mismatch.key === "names" || mismatch.key === "forced_choice"
        ? `${mismatch.key === "names" ? "final names" : "forced choice"}: expected ${shown(mismatch.expected)}, got ${shown(mismatch.actual)}`
        : mismatch.message;
    return { key: mismatch.key, text, stages: [...stages] };
  });
}
