import { toolNames } from "../tools.js";
import type { StageAction } from "../contract.js";
import { nameOrder } from "./order.js";
import type { FoundTrace } from "./scan.js";

/** What a list of traces shows and filters on; the full trace is re-read from its byte range on demand. */
export interface TraceSummary {
  readonly index: number;
  readonly line: number;
  /** Byte range and position in it, for `readTraceAt`. */
  readonly offset: number;
  readonly length: number;
  readonly ordinal: number;
  readonly time: string | number | null;
  readonly id: string | number | null;
  readonly stages: readonly {
    readonly stage: string;
    readonly action: StageAction;
    readonly dropped: readonly string[];
  }[];
  readonly names: readonly string[];
  readonly forcedChoice: string | null;
  readonly error: boolean;
  readonly degraded: boolean;
}

export function summarizeTrace(found: FoundTrace): TraceSummary {
  const { trace } = found;
  const { records } = trace;
  const names = trace.tools
    ? toolNames(trace.tools)
    : nameOrder(records, trace.offered && toolNames(trace.offered), null).final;
  return {
    index: found.index,
    line: found.line,
    offset: found.offset,
    length: found.length,
    ordinal: found.ordinal,
    time: trace.time,
    id: trace.id,
    stages: records.map((record) => ({
      stage: record.stage,
      action: record.action,
      dropped: record.dropped,
    })),
    names,
    forcedChoice:
      trace.forcedChoice !== undefined
        ? trace.forcedChoice
        : (records.at(-1)?.forced_choice ?? null),
    error: trace.error !== null,
    degraded: records.some((record) => record.degraded ?? record.action === "error"),
  };
}

/** One entry of `palette-inspector traces --json` (docs/formats.md, "Command line"). */
export function summaryToJson(summary: TraceSummary) {
  return {
    index: summary.index,
    line: summary.line,
    time: summary.time,
    id: summary.id,
    stage_count: summary.stages.length,
    names: summary.names,
    forced_choice: summary.forcedChoice,
  };
}
