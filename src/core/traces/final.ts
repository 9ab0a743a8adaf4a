import { toolNames } from "../tools.js";
import { nameOrder } from "./order.js";
import type { LoggedTrace } from "./trace.js";

/** The trace's final tool names: the logged `tools`, or when absent what the last record leaves. */
export function loggedFinalNames(trace: LoggedTrace): readonly string[] {
  return trace.tools
    ? toolNames(trace.tools)
    : nameOrder(trace.records, trace.offered && toolNames(trace.offered), null).final;
}

/** The trace's forced choice: the logged one, or when absent the last record's. */
export function loggedForcedChoice(trace: LoggedTrace): string | null {
  return trace.forcedChoice !== undefined
    ? trace.forcedChoice
    : (trace.records.at(-1)?.forced_choice ?? null);
}
