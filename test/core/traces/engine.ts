/** Traces made by the real engine: random pipelines of scripted stages, run and logged as symfonic would. */
import fc from "fast-check";
import type { FixtureJson, StageJson } from "../../../src/core/fixture/schema.js";
import { recordToJson } from "../../../src/core/report-json.js";
import { type RunReport } from "../../../src/core/report.js";
import { noCatalogFile, run } from "../spec/helpers.js";

export const TOOLS = [
  "search",
  "get_weather",
  "sql",
  "delete_rows",
  "final_answer",
  "send_email",
  "calendar",
] as const;

const outcome = fc.oneof(
  fc.constant({ abstain: true as const }),
  fc.record({ force: fc.option(fc.constantFrom(...TOOLS), { nil: null }) }),
  fc.record({ raise: fc.string({ minLength: 1, maxLength: 12 }) }),
  fc.record({ select: fc.shuffledSubarray([...TOOLS]) }),
  fc.record({ select: fc.shuffledSubarray([...TOOLS]) }),
);

const stage = fc.record({
  outcome,
  protects_forced: fc.boolean(),
  detail: fc.string({ maxLength: 10 }),
  degraded: fc.boolean(),
  reasons: fc.dictionary(fc.constantFrom(...TOOLS), fc.string({ maxLength: 8 }), { maxKeys: 3 }),
});

/** A fixture whose catalogue holds every tool, so that a scripted stage may add any of them. */
export const engineFixture: fc.Arbitrary<FixtureJson> = fc
  .record({
    offered: fc.shuffledSubarray([...TOOLS]),
    stages: fc.array(stage, { maxLength: 7 }),
    query: fc.string({ maxLength: 12 }),
  })
  .map(({ offered, stages, query }) => ({
    catalog: TOOLS.map((name) => ({ name })),
    offered,
    turn: { query, role: "analyst", state: { tenant: "acme" } },
    pipeline: stages.map((s, i): StageJson => ({
      kind: "scripted",
      name: `stage_${i}`,
      outcome: s.outcome,
      protects_forced: s.protects_forced,
      detail: s.detail,
      degraded: s.degraded,
      ...("select" in s.outcome ? { reasons: s.reasons } : {}),
    })),
  }));

export function runJson(json: FixtureJson, file = "generated.turn.json"): Promise<RunReport> {
  return run(json, noCatalogFile, file);
}

export interface LogShape {
  /** Log the offered and final tools (else a reader must rebuild them from the records). */
  readonly lists: boolean;
  /** Log `degraded` and `reasons` (symfonic's Python record lacks them). */
  readonly extras: boolean;
}

/** The trace as a service logs it: snake_case records, the turn, an id and a time. */
export function logged(
  report: RunReport,
  turn: FixtureJson["turn"],
  shape: LogShape,
  id = "turn-1",
): Record<string, unknown> {
  const trace = report.trace.map((record) => {
    const json: Record<string, unknown> = { ...recordToJson(record) };
    if (!shape.extras) {
      delete json.degraded;
      delete json.reasons;
    }
    return json;
  });
  return {
    ts: "2025-03-14T09:26:53.589Z",
    turn_id: id,
    trace,
    ...(shape.lists ? { offered: report.offered, tools: report.names } : {}),
    forced_choice: report.forcedChoice,
    error: report.error ? { kind: report.error.kind, message: report.error.message } : null,
    turn,
  };
}

/** One logged record as JSON: every list empty, no force, no detail, unless `fields` says so. */
export function loggedRecord(stage: string, action: string, fields: object = {}): object {
  return {
    stage,
    action,
    kept: [],
    dropped: [],
    added: [],
    reinstated: [],
    forced_choice: null,
    detail: "",
    ...fields,
  };
}
