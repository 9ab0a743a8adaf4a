import fc from "fast-check";
import { validateTrace, type LoggedTrace } from "../../../src/core/traces/trace.js";

/** A logged trace from its JSON, as the scanner would validate it. */
export function logged(json: Record<string, unknown>): LoggedTrace {
  const result = validateTrace(json);
  if ("problem" in result) throw new Error(result.problem);
  return result.trace;
}

// Small alphabets so that names repeat across records and traces.
const NAMES = ["a", "b", "c", "d", "10", "__proto__"];
const STAGES = ["intent", "role", "policy", "2"];
const names = fc.uniqueArray(fc.constantFrom(...NAMES), { maxLength: 4 });
const record = fc.record({
  stage: fc.constantFrom(...STAGES),
  action: fc.constantFrom("select", "abstain", "force", "error"),
  kept: names,
  dropped: names,
  added: names,
  reinstated: names,
  forced_choice: fc.option(fc.constantFrom(...NAMES), { nil: null }),
  degraded: fc.boolean(),
});
export const traceJson = fc.record(
  {
    trace: fc.array(record, { maxLength: 5 }),
    tools: fc.option(names, { nil: undefined }),
    offered: fc.option(names, { nil: undefined }),
    forced_choice: fc.option(fc.constantFrom(...NAMES), { nil: null }),
    error: fc.option(
      fc.record({
        kind: fc.constantFrom("ForcedToolUnavailable", "Other"),
        message: fc.constant(""),
      }),
      { nil: null },
    ),
  },
  { requiredKeys: ["trace"] },
);
