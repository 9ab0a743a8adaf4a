import type { StageAction } from "../contract.js";
import { loggedFinalNames, loggedForcedChoice } from "./final.js";
import type { FoundTrace } from "./scan.js";
import type { ModelCall, OtelIds } from "./model-call.js";

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
  /** Read from OpenTelemetry: its ids and the model call it fed (null when none was joined). */
  readonly otel?: OtelIds;
  readonly model?: ModelCall | null;
}

export function summarizeTrace(found: FoundTrace): TraceSummary {
  const { trace } = found;
  const { records } = trace;
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
    names: loggedFinalNames(trace),
    forcedChoice: loggedForcedChoice(trace),
    error: trace.error !== null,
    degraded: records.some((record) => record.degraded ?? record.action === "error"),
    ...(trace.otel && { otel: trace.otel, model: trace.model ?? null }),
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
    ...(summary.otel && { otel: summary.otel, model: summary.model ?? null }),
  };
}

/** One entry of `traces --json`: the summary and the file as given. */
export function traceEntryJson(summary: TraceSummary, file: string) {
  return { file, ...summaryToJson(summary) };
}

/**
 * The start of a trace's entry, up to its index (what a scan worker leaves to the set's order).
 * `traceEntryJson(summarizeTrace(found), file)` as `JSON.stringify(entry, null, 2)` prints it at
 * `margin` is `traceEntryHead(JSON.stringify(file), index, margin) + traceEntryTail(found, margin)`,
 * written directly: a trace that is only listed needs no summary object, no copy of its records
 * and no re-indenting (`traces --json` writes one per trace).
 */
export function traceEntryHead(fileJson: string, index: number, margin: string): string {
  const field = `\n${margin}  `;
  return `${margin}{${field}"file": ${fileJson},${field}"index": ${index},`;
}

/**
 * The rest of a trace's entry after its index: it depends on the trace alone, so
 * it is written where the trace is found, before its number across the set is known.
 */
export function traceEntryTail(found: FoundTrace, margin: string): string {
  const { trace } = found;
  const field = `\n${margin}  `;
  // A trace read from OpenTelemetry carries nested ids and a model call: the rare case, printed whole.
  if (trace.otel) {
    const json = JSON.stringify(summaryToJson(summarizeTrace(found)), null, 2);
    const text = json.replaceAll("\n", `\n${margin}`);
    // Past `{` and the index's line, which traceEntryHead writes.
    return text.slice(text.indexOf("\n", text.indexOf("\n") + 1));
  }
  const names = loggedFinalNames(trace);
  let list = "[";
  for (let i = 0; i < names.length; i++)
    list += `${i === 0 ? "" : ","}${field}  ${JSON.stringify(names[i])}`;
  list += names.length === 0 ? "]" : `${field}]`;
  return (
    `${field}"line": ${found.line},${field}"time": ${JSON.stringify(trace.time)},` +
    `${field}"id": ${JSON.stringify(trace.id)},${field}"stage_count": ${trace.records.length},` +
    `${field}"names": ${list},${field}"forced_choice": ${JSON.stringify(loggedForcedChoice(trace))}\n${margin}}`
  );
}

/** What a list of traces is narrowed to: a tool dropped, a stage's action, errors. */
export type TraceFilter =
  | { readonly kind: "dropped"; readonly tool: string }
  | { readonly kind: "stageAction"; readonly stage: string; readonly action: StageAction }
  | { readonly kind: "errors" };

/** Whether a trace passes a filter, as the Selection Traces view filters (errors: an error or a degraded stage). */
export function matchesFilter(summary: TraceSummary, filter: TraceFilter): boolean {
  switch (filter.kind) {
    case "errors":
      return summary.error || summary.degraded;
    case "dropped":
      return summary.stages.some((stage) => stage.dropped.includes(filter.tool));
    case "stageAction":
      return summary.stages.some(
        (stage) => stage.stage === filter.stage && stage.action === filter.action,
      );
  }
}
