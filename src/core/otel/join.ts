/**
 * Joins each selection to the model call it fed (docs/formats.md, "Selection traces in
 * OpenTelemetry"): the first GenAI inference span of the same OTel trace that starts at or after
 * the selection and before that trace's next selection, from this request or a later one.
 */
import { loggedFinalNames } from "../traces/final.js";
import type { LoggedTrace } from "../traces/trace.js";
import type { Convention, ModelCall, OtelIds } from "../traces/model-call.js";
import type {
  OtlpInference,
  OtlpRead,
  OtlpRecord,
  OtlpSelection,
  OtlpToolSpan,
} from "./request.js";
import { allSteps } from "./steps.js";

/**
 * An inference span a selection fed, with the tools it called (its own, its log records', or its
 * tool spans'; null when none of them says) and the convention that said so.
 */
export interface Joined {
  readonly call: JoinedCall;
  readonly called: readonly string[] | null;
  readonly convention: Convention;
}

/** What of an inference span its model call says. */
export type JoinedCall = Pick<OtlpInference, "spanId" | "model" | "offered" | "toolChoice">;

/**
 * OTel traces whose spans are remembered for joins at least; past twice as many, the least
 * recently seen are forgotten, but never a pinned one or one the request being added touches.
 */
export const MAX_OPEN_TRACES = 10_000;
/** Spans of each kind remembered per OTel trace; later ones are not joined. */
export const MAX_SPANS_PER_TRACE = 10_000;
/**
 * The bytes the join's spans may take (as estimated by spanBytes): past them, the least recently
 * used traces that may be forgotten are, until a quarter is free again.
 */
export const MAX_JOIN_BYTES = 128 * 1024 * 1024;
/** Spans remembered between two steps of addInSteps. */
const SPANS_PER_STEP = 256;

/** Selection times `[from, to]` (both included) of one OTel trace. */
export type TimeWindow = readonly [from: bigint, to: bigint];

/**
 * The OTel traces a request touched, each with the windows of selection times whose model call
 * its spans may have changed; null when any may have (what was known of the trace was forgotten).
 */
export type Touched = Map<string, TimeWindow[] | null>;

/**
 * A trace's spans, each kind in time order (equal times in the order they came), so that a join is
 * a binary search (see Kind).
 */
interface TraceSpans extends KnownTrace<unknown> {
  selections: Kind<bigint>;
  inferences: Kind<OtlpInference>;
  toolSpans: Kind<OtlpToolSpan>;
  /** Log records of its inference spans, in the order they came. */
  records: Kind<OtlpRecord>;
  /** When it was last used (the join's clock), for forgetting the least recently used. */
  seen: number;
  /** What its spans take, as spanBytes estimates it. */
  bytes: number;
  /** What the request being added adds to it, while `seen` is that request's (then let go). */
  adding: Added | null;
}

/**
 * A trace the join knows, as its caller may hold it between requests (OtelJoin.trace): with what
 * the caller holds of the trace beside its spans. A trace that holds anything is pinned. The
 * receiver holds its kept turns so, each of them holding the trace: no lookup by id to find them
 * or to let them go.
 */
export interface KnownTrace<Held> {
  held: Held | undefined;
}

/** Times of the spans of one trace added by one request. */
interface Added {
  readonly traceId: string;
  readonly spans: TraceSpans;
  /** Null for a trace the join knew nothing of: any of its selections' joins may change, no window is worked out. */
  readonly selections: bigint[] | null;
  readonly starts: bigint[] | null;
}

export class OtelJoin<Held = never> {
  private readonly traces = new Map<string, TraceSpans>();
  /** Counts each use of a trace: a trace whose `seen` is past a request's first tick is that request's. */
  private clock = 0;
  /** Past this many traces the least recently used are forgotten: MAX_OPEN_TRACES more than were kept the last time. */
  private forgetAt = 2 * MAX_OPEN_TRACES;
  private held = 0;
  /** What was let go for want of room: traces forgotten to keep within maxBytes, spans past a full trace. */
  readonly dropped = { traces: 0, spans: 0 };

  /**
   * `pinned`: whether a trace has selections its caller will still ask the model call of; such a
   * trace, and one that holds something (KnownTrace), is never forgotten for lack of use (its caller
   * forgets it), as a join against what is left of a forgotten trace would be wrong.
   */
  constructor(
    private readonly pinned: (traceId: string) => boolean = () => false,
    readonly maxBytes = MAX_JOIN_BYTES,
    /** What log records kept elsewhere (a set's other files) say a span called; null when none does. */
    private readonly elsewhere?: (traceId: string, spanId: string) => readonly string[] | null,
  ) {}

  /** The bytes its spans take, as spanBytes estimates them. */
  get bytes(): number {
    return this.held;
  }

  /** Remembers a request's spans; the OTel traces it touched, for callers that re-join. */
  add(read: OtlpRead): Touched {
    return allSteps(this.addInSteps(read));
  }

  /** add, yielding every SPANS_PER_STEP spans. */
  *addInSteps(read: OtlpRead): Generator<void, Touched> {
    const first = this.clock + 1;
    const added: Added[] = [];
    // A request's spans mostly come trace by trace: a trace is looked up once for its run.
    let lastId: string | undefined;
    let last: Added | undefined;
    const entry = (traceId: string): Added => {
      if (traceId !== lastId) {
        lastId = traceId;
        last = this.added(traceId, first, added);
      }
      return last!;
    };
    let count = 0;
    for (const s of read.selections) {
      const trace = entry(s.traceId);
      const kind = insert(trace.spans.selections, s.time, timeOf);
      if (this.kept(trace.spans, kind, SELECTION_BYTES)) {
        trace.spans.selections = kind!;
        trace.selections?.push(s.time);
      }
      if (++count % SPANS_PER_STEP === 0) yield;
    }
    for (const i of read.inferences) {
      const trace = entry(i.traceId);
      // An inference span changes the joins of the selections before it, and those of the inference span before it.
      const kind = insert(trace.spans.inferences, i, startOf);
      if (this.kept(trace.spans, kind, inferenceBytes(i))) {
        trace.spans.inferences = kind!;
        trace.starts?.push(i.start);
      }
      if (++count % SPANS_PER_STEP === 0) yield;
    }
    for (const t of read.toolSpans) {
      const trace = entry(t.traceId);
      // A tool span changes what the inference span before it called.
      const kind = insert(trace.spans.toolSpans, t, startOf);
      if (this.kept(trace.spans, kind, TOOL_SPAN_BYTES + 2 * t.name.length)) {
        trace.spans.toolSpans = kind!;
        trace.starts?.push(t.start);
      }
      if (++count % SPANS_PER_STEP === 0) yield;
    }
    for (const r of read.records) {
      const trace = entry(r.traceId);
      // A record changes what its inference span called, once that span is known.
      const kind = insertLast(trace.spans.records, r);
      if (this.kept(trace.spans, kind, RECORD_BYTES + namesBytes(r.called))) {
        trace.spans.records = kind!;
        const span = listOf(trace.spans.inferences).find((i) => i.spanId === r.spanId);
        if (span) trace.starts?.push(span.start);
      }
      if (++count % SPANS_PER_STEP === 0) yield;
    }
    if (this.held > this.maxBytes) this.forgetForBytes(first);
    const touched: Touched = new Map();
    for (const { traceId, spans, selections, starts } of added) {
      spans.adding = null;
      touched.set(traceId, selections && starts && windows(spans, selections, starts));
      if (++count % SPANS_PER_STEP === 0) yield;
    }
    return touched;
  }

  /** The model call a selection fed, as far as the spans seen so far say; null when none is joined. */
  model(selection: OtlpSelection): ModelCall | null {
    const joined = this.joined(selection.traceId, selection.time);
    return joined && joinedModel(joined, selection.trace);
  }

  /**
   * The inference span that a selection of `traceId` at `time` fed and the tools it called, as far
   * as the spans seen so far say; null when none is joined. What the model call is, but for the
   * differences against the selection's final tools.
   */
  joined(traceId: string, time: bigint): Joined | null {
    const spans = this.traces.get(traceId);
    return spans ? this.joinedIn(spans as KnownTrace<Held>, time, traceId) : null;
  }

  /** joined, of a trace as trace() gave it (with its id, the records kept elsewhere are looked at too). */
  joinedIn(trace: KnownTrace<Held>, time: bigint, traceId?: string): Joined | null {
    const spans = trace as TraceSpans;
    const next = firstFrom(spans.selections, time, true, timeOf);
    const call = firstFrom(spans.inferences, time, false, startOf);
    if (!call || (next !== undefined && call.start >= next)) return null;
    let called = call.called;
    let convention = call.convention;
    if (called === null) {
      const here = spans.records === undefined ? null : recordedCalls(spans.records, call.spanId);
      const there = traceId === undefined ? null : (this.elsewhere?.(traceId, call.spanId) ?? null);
      called = here && there ? [...here, ...there] : (here ?? there);
      if (called !== null) convention = "gen_ai_logs";
    }
    // Tool spans say what was called where the call's own record names no tool.
    if (called === null || called.length === 0) {
      const ran = toolsAfter(spans, call);
      if (ran.length > 0) called = ran;
    }
    return { call, called, convention };
  }

  /** Forgets what an OTel trace's spans said, and what was held of it. */
  forget(traceId: string): void {
    const spans = this.traces.get(traceId);
    if (spans === undefined) return;
    this.held -= spans.bytes;
    this.traces.delete(traceId);
  }

  /** Whether a span was kept (insert gave its kind), counting its bytes; a span past a full trace is counted dropped. */
  private kept(spans: TraceSpans, kind: unknown, bytes: number): boolean {
    if (kind === null) {
      this.dropped.spans++;
      return false;
    }
    spans.bytes += bytes;
    this.held += bytes;
    return true;
  }

  /**
   * Forgets the least recently used traces that may be forgotten (as forgetOldest), until a
   * quarter of maxBytes is free; those of the request being added, pinned and held ones stay.
   */
  private forgetForBytes(first: number): void {
    const forgettable: TraceSpans[] = [];
    const ids = new Map<TraceSpans, string>();
    for (const [traceId, spans] of this.traces)
      if (spans.seen < first && spans.held === undefined && !this.pinned(traceId)) {
        forgettable.push(spans);
        ids.set(spans, traceId);
      }
    forgettable.sort((a, b) => a.seen - b.seen);
    for (const spans of forgettable) {
      if (this.held <= (this.maxBytes * 3) / 4) break;
      this.forget(ids.get(spans)!);
      this.dropped.traces++;
    }
  }

  /** A trace the join knows (its spans were added and it was not forgotten since). */
  trace(traceId: string): KnownTrace<Held> | undefined {
    return this.traces.get(traceId) as KnownTrace<Held> | undefined;
  }

  /** The trace's entry of the request whose first tick is `first`, made at its first span. */
  private added(traceId: string, first: number, added: Added[]): Added {
    const known = this.traces.get(traceId);
    if (known !== undefined && known.seen >= first) return known.adding!;
    const spans: TraceSpans = known ?? {
      selections: undefined,
      inferences: undefined,
      toolSpans: undefined,
      records: undefined,
      seen: 0,
      bytes: 0,
      adding: null,
      held: undefined,
    };
    if (!known) this.traces.set(traceId, spans);
    spans.seen = ++this.clock;
    const trace: Added = known
      ? { traceId, spans, selections: [], starts: [] }
      : { traceId, spans, selections: null, starts: null };
    spans.adding = trace;
    added.push(trace);
    if (this.traces.size > this.forgetAt) this.forgetOldest(first);
    return trace;
  }

  /**
   * Keeps the MAX_OPEN_TRACES most recently used traces, every pinned one, and those of the
   * request being added (used since its first tick: its spans go into them); in bulk, once per
   * MAX_OPEN_TRACES new ones.
   */
  private forgetOldest(first: number): void {
    const forgettable = (traceId: string, spans: TraceSpans) =>
      spans.seen < first && spans.held === undefined && !this.pinned(traceId);
    // When each forgettable trace was used (each a different time): the newest MAX_OPEN_TRACES are kept.
    const used = new Float64Array(this.traces.size);
    let count = 0;
    for (const [traceId, spans] of this.traces)
      if (forgettable(traceId, spans)) used[count++] = spans.seen;
    if (count > MAX_OPEN_TRACES) {
      const oldestKept = used.subarray(0, count).sort()[count - MAX_OPEN_TRACES]!;
      for (const [traceId, spans] of this.traces)
        if (spans.seen < oldestKept && forgettable(traceId, spans)) this.forget(traceId);
    }
    this.forgetAt = this.traces.size + MAX_OPEN_TRACES;
  }
}

/**
 * The selection times whose join the spans just added may have changed: before a new selection,
 * the selections up to it (their next selection moved); at or before a new span's time, the
 * selections since the last one at or before the inference span it follows, and those before it.
 * `added`: the times of the new selections; `starts`: those of the new inference and tool spans.
 */
function windows(
  spans: TraceSpans,
  added: readonly bigint[],
  starts: readonly bigint[],
): TimeWindow[] {
  const selections = listOf(spans.selections);
  const inferences = listOf(spans.inferences);
  // The latest selection time at or before `time` (before it when `strict`), or 0: every selection up to `time` since.
  const since = (time: bigint, strict: boolean): bigint =>
    selections[(strict ? atOrAfter : after)(selections, time, timeOf) - 1] ?? 0n;
  const found: TimeWindow[] = [];
  for (const time of added) found.push([since(time, true), time]);
  for (const start of starts) {
    found.push([since(start, false), start]);
    const before = inferences[atOrAfter(inferences, start, startOf) - 1];
    if (before) found.push([since(before.start, false), before.start]);
  }
  return found;
}

/** What an inference span's log records say it called, in the order they came; null when it has none. */
function recordedCalls(records: Kind<OtlpRecord>, spanId: string): readonly string[] | null {
  let called: string[] | null = null;
  for (const record of listOf(records))
    if (record.spanId === spanId) (called ??= []).push(...record.called);
  return called;
}

function toolsAfter(spans: TraceSpans, call: OtlpInference): readonly string[] {
  const inferences = listOf(spans.inferences);
  const next = inferences[after(inferences, call.start, startOf)]?.start;
  const tools = listOf(spans.toolSpans);
  const names: string[] = [];
  for (let i = after(tools, call.start, startOf); i < tools.length; i++) {
    if (next !== undefined && tools[i]!.start >= next) break;
    names.push(tools[i]!.name);
  }
  return names;
}

/** Estimated bytes of a selection, a tool span, an inference span and a log record without their names, as the join holds them. */
const SELECTION_BYTES = 48;
const TOOL_SPAN_BYTES = 96;
const INFERENCE_BYTES = 160;
const RECORD_BYTES = 96;

/** An inference span's estimated bytes: its names counted whole, shared or not (a list read from the same text is shared). */
function inferenceBytes(span: OtlpInference): number {
  return (
    INFERENCE_BYTES +
    2 * (span.model?.length ?? 0) +
    namesBytes(span.offered) +
    namesBytes(span.called)
  );
}

function namesBytes(names: readonly string[] | null): number {
  if (names === null) return 0;
  // A shared list (frozen) is measured once.
  const known = Object.isFrozen(names) ? sharedBytes.get(names) : undefined;
  if (known !== undefined) return known;
  let bytes = 16 + 8 * names.length;
  for (const name of names) bytes += 16 + 2 * name.length;
  if (Object.isFrozen(names)) sharedBytes.set(names, bytes);
  return bytes;
}

const sharedBytes = new WeakMap<readonly string[], number>();

const timeOf = (time: bigint) => time;
const startOf = (span: { readonly start: bigint }) => span.start;

/** The index of the first item whose time is at or after `time` (binary search over a list in time order). */
function atOrAfter<T>(items: readonly T[], time: bigint, timeOfItem: (item: T) => bigint): number {
  let [low, high] = [0, items.length];
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (timeOfItem(items[middle]!) < time) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** The index of the first item whose time is after `time` (binary search over a list in time order). */
export function after<T>(
  items: readonly T[],
  time: bigint,
  timeOfItem: (item: T) => bigint,
): number {
  let [low, high] = [0, items.length];
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (timeOfItem(items[middle]!) <= time) low = middle + 1;
    else high = middle;
  }
  return low;
}

/**
 * One kind of a trace's spans: none, the only one, or a list of two or more. A trace mostly has
 * one span of each kind, kept long enough to be promoted: a list would be two more objects for the
 * collector to copy and mark, each time.
 */
type Kind<T> = T | T[] | undefined;

/** A kind's spans as a list (a new one around an only span). */
function listOf<T>(kind: Kind<T>): readonly T[] {
  return kind === undefined ? NO_SPANS : Array.isArray(kind) ? kind : [kind];
}

const NO_SPANS: readonly never[] = Object.freeze([]);

/** The first of a kind's spans at or after `time` (after it when `strict`), without a list around an only span. */
function firstFrom<T>(
  kind: Kind<T>,
  time: bigint,
  strict: boolean,
  timeOfItem: (item: T) => bigint,
): T | undefined {
  if (kind === undefined) return undefined;
  if (Array.isArray(kind)) return kind[(strict ? after : atOrAfter)(kind, time, timeOfItem)];
  const at = timeOfItem(kind);
  return (strict ? at > time : at >= time) ? kind : undefined;
}

/** Appends, or null when the kind's list is full. */
function insertLast<T>(kind: Kind<T>, item: T): Kind<T> | null {
  if (kind === undefined) return item;
  const list = Array.isArray(kind) ? kind : [kind];
  if (list.length >= MAX_SPANS_PER_TRACE) return null;
  list.push(item);
  return list;
}

/**
 * Inserts in time order, after the items of the same time: what the kind is then (a list from a
 * second span on), or null when its list is full.
 */
function insert<T>(kind: Kind<T>, item: T, timeOfItem: (item: T) => bigint): Kind<T> | null {
  if (kind === undefined) return item;
  const list = Array.isArray(kind) ? kind : [kind];
  if (list.length >= MAX_SPANS_PER_TRACE) return null;
  const at = after(list, timeOfItem(item), timeOfItem);
  if (at === list.length) list.push(item);
  else list.splice(at, 0, item);
  return list;
}

/** The model call of a join, for the selection whose trace is `trace`. */
export function joinedModel({ call, called, convention }: Joined, trace: LoggedTrace): ModelCall {
  const final = loggedFinalNames(trace);
  const offered = call.offered;
  return {
    span_id: call.spanId,
    model: call.model,
    offered,
    called,
    tool_choice: call.toolChoice,
    convention,
    final_not_offered: offered && notIn(final, offered),
    offered_not_final: offered && notIn(offered, final),
    // Unoffered when the tools offered are not recorded: not in the final palette.
    called_not_offered: called && notIn(called, offered ?? final),
  };
}

/**
 * Whether two joins of one selection give the same model call: its differences are worked out
 * from the call's tools and calls against the same final tools, so they are the same when those are.
 */
export function sameJoin(a: Joined | null, b: Joined | null): boolean {
  if (a === null || b === null) return a === b;
  return (
    a.call.spanId === b.call.spanId &&
    a.call.model === b.call.model &&
    a.call.toolChoice === b.call.toolChoice &&
    a.convention === b.convention &&
    sameNames(a.call.offered, b.call.offered) &&
    sameNames(a.called, b.called)
  );
}

function sameNames(a: readonly string[] | null, b: readonly string[] | null): boolean {
  if (a === null || b === null) return a === b;
  return a.length === b.length && a.every((name, i) => name === b[i]);
}

/** No names: shared, as most differences are empty. */
const NONE: readonly string[] = Object.freeze([]);

/** The names of `list` not in `names`, in order; a set only for long lists, a new list only when one is missing. */
function notIn(list: readonly string[], names: readonly string[]): readonly string[] {
  const set = names.length > 16 ? new Set(names) : null;
  let missing: string[] | null = null;
  for (const name of list)
    if (!(set ? set.has(name) : names.includes(name))) (missing ??= []).push(name);
  return missing ?? NONE;
}

/** A selection as a logged trace: its time the event's, with its OTel ids and its model call. */
export function joinedTrace(selection: OtlpSelection, model: ModelCall | null): LoggedTrace {
  const otel = {
    trace_id: selection.traceId,
    span_id: selection.spanId,
    service: selection.service,
  };
  return withOtel(selection.trace, isoTime(selection.time), otel, model);
}

/** A selection's trace with its time (ISO), OTel ids and model call, as joinedTrace makes it. */
export function withOtel(
  trace: LoggedTrace,
  time: string,
  otel: OtelIds,
  model: ModelCall | null,
): LoggedTrace {
  const { records, tools, error, offered, turn, id, forcedChoice } = trace;
  // Field by field in the order validateTrace gives them (a spread is several times slower), time in its place.
  return forcedChoice === undefined
    ? { records, tools, error, offered, turn, time, id, otel, model }
    : { records, tools, error, offered, turn, time, id, forcedChoice, otel, model };
}

/** The second isoTime formatted last, and its text up to the milliseconds: turns come in time order, most in the same second as the one before. */
let formattedSecond = Number.NaN;
let secondText = "";

/** Unix nanoseconds as an ISO time to the millisecond (`Date.prototype.toISOString`'s text). */
export function isoTime(nanos: bigint): string {
  const ms = Number(nanos / 1_000_000n);
  const second = Math.floor(ms / 1000);
  if (second !== formattedSecond) {
    // Whatever the year's width, the text ends in ".000Z" at a whole second.
    secondText = new Date(second * 1000).toISOString().slice(0, -4);
    formattedSecond = second;
  }
  const fraction = ms - second * 1000;
  return `${secondText}${fraction < 10 ? "00" : fraction < 100 ? "0" : ""}${fraction}Z`;
}
