/** Builders of the trace panel's messages. */

/**
 * A `show` of `report` with nothing beside it (no levers, source, comparison, what-if, turn or
 * failed expectations) unless `view` gives it; untyped, so a test may build a malformed one.
 */
export function showOf(report: unknown, view: Record<string, unknown> = {}) {
  return {
    type: "show",
    view: {
      report,
      levers: null,
      source: null,
      compared: null,
      whatIf: null,
      turn: null,
      failed: [],
      ...view,
    },
  };
}
