/**
 * The traces of a log set as three flat tables for a warehouse (docs/formats.md, "palette-inspector
 * export"): `traces`, `stages` and `tool_events`, each row a plain object keyed by column name.
 */
import { loggedFinalNames, loggedForcedChoice } from "./final.js";
import type { FoundTrace } from "./scan.js";

/** A column's type: `strings` is a list of text; every type has one meaning in Parquet and in JSON. */
export type ColumnType = "int64" | "int32" | "string" | "boolean" | "strings";

export interface Column {
  readonly name: string;
  readonly type: ColumnType;
  readonly nullable: boolean;
}

export type TableName = "traces" | "stages" | "tool_events";

const column = (name: string, type: ColumnType, nullable = false): Column => ({
  name,
  type,
  nullable,
});

/** The columns of each table, in order. */
export const TABLES: Readonly<Record<TableName, readonly Column[]>> = {
  traces: [
    column("trace", "int64"),
    column("file", "string"),
    column("line", "int64"),
    column("time", "string", true),
    column("id", "string", true),
    column("stage_count", "int32"),
    column("names", "strings", true),
    column("forced_choice", "string", true),
    column("error_kind", "string", true),
    column("error_names", "strings", true),
    column("otel_trace_id", "string", true),
    column("otel_span_id", "string", true),
    column("model_convention", "string", true),
    column("model_offered", "strings", true),
    column("model_called", "strings", true),
    column("model_tool_choice", "string", true),
  ],
  stages: [
    column("trace", "int64"),
    column("stage_index", "int32"),
    column("stage", "string"),
    column("action", "string"),
    column("degraded", "boolean"),
    column("forced_choice", "string", true),
    column("detail", "string"),
  ],
  tool_events: [
    column("trace", "int64"),
    column("stage_index", "int32"),
    column("tool", "string"),
    column("event", "string"),
  ],
};

/** One row: its values in the order of its table's columns. */
export type Row = readonly (string | number | boolean | readonly string[] | null)[];

export type RowSink = (table: TableName, row: Row) => void;

const EVENTS = ["kept", "dropped", "added", "reinstated"] as const;

/** A logged time or id as text: a number as JSON writes it, so that the column has one type. */
function text(value: string | number | null): string | null {
  return typeof value === "number" ? String(value) : value;
}

/** Hands on the rows of one trace: its `traces` row, a `stages` row per record, a `tool_events` row per listed name. */
export function traceRows(found: FoundTrace, file: string, sink: RowSink): void {
  const { trace, index } = found;
  const names = loggedFinalNames(trace);
  const failed = trace.error !== null;
  // A failed turn has no palette; what the pipeline left is kept apart, as `stats` counts it final.
  sink("traces", [
    index,
    file,
    found.line,
    text(trace.time),
    text(trace.id),
    trace.records.length,
    failed ? null : names,
    loggedForcedChoice(trace),
    trace.error?.kind ?? null,
    failed ? names : null,
    // Null for a trace from a log: only OpenTelemetry gives these ids.
    trace.otel?.trace_id ?? null,
    trace.otel?.span_id ?? null,
    // Null when no model call was joined, and each field the instrumentation did not record.
    trace.model?.convention ?? null,
    trace.model?.offered ?? null,
    trace.model?.called ?? null,
    trace.model?.tool_choice ?? null,
  ]);
  trace.records.forEach((record, stageIndex) => {
    sink("stages", [
      index,
      stageIndex,
      record.stage,
      record.action,
      record.degraded ?? record.action === "error",
      record.forced_choice,
      record.detail,
    ]);
    for (const event of EVENTS)
      for (const tool of record[event]) sink("tool_events", [index, stageIndex, tool, event]);
  });
}
