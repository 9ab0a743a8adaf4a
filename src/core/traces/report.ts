import { droppedBy, type ReportOrigin, type RunError, type RunReport } from "../report.js";
import { toolNames } from "../tools.js";
import type { StageRecord } from "../contract.js";
import { nameOrder } from "./order.js";
import type { FoundTrace } from "./scan.js";
import type { LoggedRecord, LoggedTrace } from "./trace.js";

/** A logged trace as the RunReport every view reads: read-only, its stages known only by name. */
export function reportFromTrace(found: FoundTrace, file: string): RunReport {
  return reportFromLoggedTrace(
    found.trace,
    { kind: "log", line: found.line, index: found.index },
    file,
    describeTrace(found),
  );
}

/** A live turn received over OpenTelemetry, at its place under the receiver (`otlp://live/3`). */
export function reportFromTurn(found: FoundTrace, place: string): RunReport {
  return reportFromLoggedTrace(
    found.trace,
    { kind: "received", index: found.index },
    place,
    describeTrace(found, false),
  );
}

/** A trace from anywhere (a log, a debuggee) as a read-only RunReport. */
export function reportFromLoggedTrace(
  trace: LoggedTrace,
  origin: ReportOrigin,
  file: string,
  description: string,
): RunReport {
  const order = nameOrder(
    trace.records,
    trace.offered && toolNames(trace.offered),
    trace.tools && toolNames(trace.tools),
  );
  const records = trace.records.map(stageRecord);
  const names = trace.tools ? toolNames(trace.tools) : order.final;
  const forcedChoice =
    trace.forcedChoice !== undefined ? trace.forcedChoice : (records.at(-1)?.forcedChoice ?? null);
  return {
    origin,
    file,
    description,
    offered: trace.offered ? toolNames(trace.offered) : (order.inputs[0] ?? order.final),
    tools: trace.tools ?? names,
    names,
    forcedChoice,
    trace: records,
    stages: records.map((record) => ({
      name: record.stage,
      kind: "logged",
      enabled: true,
      protectsForced: true,
    })),
    error: runError(trace, records, forcedChoice),
    manifest: [],
    capability: null,
    durationMs: 0,
    ...(trace.otel && { model: trace.model ?? null }),
  };
}

/** The camelCase record; a log without `degraded` means what the engine does: degraded exactly when the stage raised. */
export function stageRecord(record: LoggedRecord): StageRecord {
  return {
    stage: record.stage,
    action: record.action,
    kept: record.kept,
    dropped: record.dropped,
    added: record.added,
    reinstated: record.reinstated,
    forcedChoice: record.forced_choice,
    detail: record.detail,
    degraded: record.degraded ?? record.action === "error",
    reasons: record.reasons ?? {},
  };
}

/** "#4 · line 120 · id t-42 · 2024-05-01T12:00:00Z": a person reads trace numbers 1-based (`index` + 1). */
export function describeTrace(found: FoundTrace, hasLine = true): string {
  const parts = hasLine ? [`#${found.index + 1}`, `line ${found.line}`] : [`#${found.index + 1}`];
  if (found.trace.id !== null) parts.push(`id ${found.trace.id}`);
  if (found.trace.time !== null) parts.push(String(found.trace.time));
  return parts.join(" · ");
}

function runError(
  trace: LoggedTrace,
  records: readonly StageRecord[],
  forcedChoice: string | null,
): RunError | null {
  const error = trace.error;
  if (!error) return null;
  const tool = error.tool ?? forcedChoice ?? "";
  const message =
    error.kind === "ForcedToolUnavailable" ? error.message : `${error.kind}: ${error.message}`;
  return { kind: "ForcedToolUnavailable", message, tool, droppedBy: droppedBy(records, tool) };
}
