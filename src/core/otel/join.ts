/**
 * Joins each selection to the model call it fed (docs/formats.md, "Selection traces in
 * OpenTelemetry"): the first GenAI inference span of the same OTel trace that starts at or after
 * the selection and before that trace's next selection, from this request or a later one.
 */
import { loggedFinalNames } from "../traces/final.js";
import type { LoggedTrace } from "../traces/trace.js";
import type { OtlpInference, OtlpRead, OtlpSelection, OtlpToolSpan } from "./request.js";
import { allSteps } from "./steps.js";

export interface OtelIds {
  readonly trace_id: string;
  readonly span_id: string;
  readonly service: string | null;
}

export interface ModelCall {
  readonly span_id: string;
  readonly model: string | null;
  readonly offered: readonly string[] | null;
  readonly called: readonly string[];
  readonly final_not_offered: readonly string[];
  readonly offered_not_final: readonly string[];
  readonly called_not_offered: readonly string[];
}

/** OTel traces whose spans are remembered for joins at least; past twice as many, the least recently seen are forgotten. */
export const MAX_OPEN_TRACES = 10_000;
/** Spans of each kind remembered per OTel trace; later ones are not joined. */
export const MAX_SPANS_PER_TRACE = 10_000;
/** Spans remembered between two steps of addInSteps. */
const SPANS_PER_STEP = 1024;

interface TraceSpans {
  readonly selections: bigint[];
  readonly inferences: OtlpInference[];
  readonly toolSpans: OtlpToolSpan[];
}

export class OtelJoin {
  private traces = new Map<string, TraceSpans>();
  /** The trace last used, already last in the map's order. */
  private last: { traceId: string; spans: TraceSpans } | null = null;

  /** Remembers a request's spans; the OTel traces it touched, for callers that re-join. */
  add(read: OtlpRead): Set<string> {
    return allSteps(this.addInSteps(read));
  }

  /** add, yielding every SPANS_PER_STEP spans. */
  *addInSteps(read: OtlpRead): Generator<void, Set<string>> {
    const touched = new Set<string>();
    let added = 0;
    for (const s of read.selections) {
      push(this.spans(s.traceId, touched).selections, s.time);
      if (++added % SPANS_PER_STEP === 0) yield;
    }
    for (const i of read.inferences) {
      push(this.spans(i.traceId, touched).inferences, i);
      if (++added % SPANS_PER_STEP === 0) yield;
    }
    for (const t of read.toolSpans) {
      push(this.spans(t.traceId, touched).toolSpans, t);
      if (++added % SPANS_PER_STEP === 0) yield;
    }
    return touched;
  }

  /** The model call a selection fed, as far as the spans seen so far say; null when none is joined. */
  model(selection: OtlpSelection): ModelCall | null {
    const spans = this.traces.get(selection.traceId);
    if (!spans) return null;
    const next = earliest(spans.selections, (time) => time, selection.time, true);
    const call = earliest(spans.inferences, (i) => i.start, selection.time, false, next);
    if (!call) return null;
    const called = call.called ?? this.toolsAfter(spans, call);
    return modelCall(call, called, loggedFinalNames(selection.trace));
  }

  private toolsAfter(spans: TraceSpans, call: OtlpInference): readonly string[] {
    const next = earliest(spans.inferences, (i) => i.start, call.start, true)?.start;
    return spans.toolSpans
      .filter((t) => t.start > call.start && (next === undefined || t.start < next))
      .sort((a, b) => (a.start < b.start ? -1 : a.start > b.start ? 1 : 0))
      .map((t) => t.name);
  }

  /** Forgets what an OTel trace's spans said (the receiver's oldest turns dropped with it). */
  forget(traceId: string): void {
    this.traces.delete(traceId);
    if (this.last?.traceId === traceId) this.last = null;
  }

  private spans(traceId: string, touched: Set<string>): TraceSpans {
    touched.add(traceId);
    if (this.last?.traceId === traceId) return this.last.spans;
    let spans = this.traces.get(traceId);
    if (spans) this.traces.delete(traceId);
    else spans = { selections: [], inferences: [], toolSpans: [] };
    // Re-inserted so that the map's order is the order of last use.
    this.traces.set(traceId, spans);
    // Forgotten in bulk: deleting a Map's first key one at a time walks the holes left before it.
    if (this.traces.size > 2 * MAX_OPEN_TRACES)
      this.traces = new Map([...this.traces].slice(-MAX_OPEN_TRACES));
    this.last = { traceId, spans };
    return spans;
  }
}

function push<T>(list: T[], item: T): void {
  if (list.length < MAX_SPANS_PER_TRACE) list.push(item);
}

/** The item of least time at or after `from` (after it when `strict`), before `before`. */
function earliest<T>(
  items: readonly T[],
  time: (item: T) => bigint,
  from: bigint,
  strict: boolean,
  before?: bigint,
): T | undefined {
  let best: T | undefined;
  for (const item of items) {
    const t = time(item);
    if (t < from || (strict && t === from) || (before !== undefined && t >= before)) continue;
    if (best === undefined || t < time(best)) best = item;
  }
  return best;
}

function modelCall(
  call: OtlpInference,
  called: readonly string[],
  final: readonly string[],
): ModelCall {
  const offered = call.offered;
  const against = new Set(offered ?? final);
  const finals = new Set(final);
  return {
    span_id: call.spanId,
    model: call.model,
    offered,
    called,
    final_not_offered: offered ? final.filter((name) => !against.has(name)) : [],
    offered_not_final: offered ? offered.filter((name) => !finals.has(name)) : [],
    called_not_offered: called.filter((name) => !against.has(name)),
  };
}

/** A selection as a logged trace: its time the event's, with its OTel ids and its model call. */
export function joinedTrace(selection: OtlpSelection, model: ModelCall | null): LoggedTrace {
  return {
    ...selection.trace,
    time: isoTime(selection.time),
    otel: { trace_id: selection.traceId, span_id: selection.spanId, service: selection.service },
    model,
  };
}

export function isoTime(nanos: bigint): string {
  return new Date(Number(nanos / 1_000_000n)).toISOString();
}
