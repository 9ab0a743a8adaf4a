/**
 * One OTLP `ExportTraceServiceRequest` or `ExportLogsServiceRequest` (as OTLP/JSON writes it,
 * already parsed) read into what the selection traces need: the selections (docs/formats.md,
 * "Selection traces in OpenTelemetry"), the inference and tool spans as the convention readers
 * (conventions.ts) see them, and the log records that say what an inference span called. A span or
 * record that cannot be read is counted as
 * rejected with a problem naming its JSON path; the rest of the request is read. OTLP's fields are
 * read as plain properties: parsed JSON inherits only Object.prototype, which names none of them,
 * so each read is an own read, without own()'s cost on every span.
 */
import { isJsonObject, validateTrace, type LoggedTrace } from "../traces/trace.js";
import type { Convention, ToolChoice } from "../traces/model-call.js";
import { attribute, OtlpValueError } from "./any-value.js";
import { conventionKeys, FoundSpan, readSpanCall } from "./conventions.js";
import { NO_IDS, recordCalls } from "./gen-ai-logs.js";
import { structured } from "./span-view.js";
import { allSteps } from "./steps.js";

export const SELECTION_NAME = "symfonic.tool_selection";
export const SELECTION_ATTRIBUTE = "symfonic.selection";
/** The longest selection read, as JSON text (a structured one as its JSON): a live turn is kept whole, in memory and in its spool. */
export const MAX_SELECTION_CHARS = 4 * 1024 * 1024;

export interface OtlpProblem {
  /** JSON path in the request, from its root (`resourceSpans[0].scopeSpans[0].spans[3]`). */
  readonly path: string;
  readonly message: string;
}

export interface OtlpSelection {
  readonly traceId: string;
  readonly spanId: string;
  readonly service: string | null;
  /** Unix nanoseconds: the event's time, or the selection span's start. */
  readonly time: bigint;
  readonly trace: LoggedTrace;
  /** The attribute's JSON text, when it came as one: the trace is what validateTrace makes of JSON.parse of it. */
  readonly text?: string;
}

export interface OtlpInference {
  readonly traceId: string;
  readonly spanId: string;
  readonly start: bigint;
  readonly model: string | null;
  readonly offered: readonly string[] | null;
  /** The tools its span says it called; null when the span does not record its output. */
  readonly called: readonly string[] | null;
  readonly toolChoice: ToolChoice;
  readonly convention: Convention;
}

export interface OtlpToolSpan {
  readonly traceId: string;
  readonly start: bigint;
  readonly name: string;
}

/** What log records of an inference span say it called (the official OpenAI instrumentation writes its output only so). */
export interface OtlpRecord {
  readonly traceId: string;
  readonly spanId: string;
  readonly called: readonly string[];
}

export interface OtlpRead {
  readonly selections: OtlpSelection[];
  readonly inferences: OtlpInference[];
  readonly toolSpans: OtlpToolSpan[];
  readonly records: OtlpRecord[];
  /** Spans that could not be read (OTLP's partial_success.rejected_spans). */
  rejected: number;
  readonly problems: OtlpProblem[];
}

/** An ExportTraceServiceRequest or an ExportLogsServiceRequest, as OTLP/JSON writes them. */
export type OtlpRequest =
  { readonly resourceSpans: readonly unknown[] } | { readonly resourceLogs: readonly unknown[] };

/** Whether a parsed value is an OTLP request at all (an object with a `resourceSpans` or `resourceLogs` array). */
export function isOtlpRequest(value: unknown): value is OtlpRequest {
  return (
    isJsonObject(value) &&
    (Array.isArray(value["resourceSpans"]) || Array.isArray(value["resourceLogs"]))
  );
}

export function readRequest(request: OtlpRequest): OtlpRead {
  return allSteps(readRequestInSteps(request));
}

/** Spans or log records read between two steps of readRequestInSteps. */
const ITEMS_PER_STEP = 64;

/** How one OTLP signal nests its items, and how one of them is read. */
interface Signal {
  readonly scopes: string;
  readonly items: string;
  read(item: unknown, service: string | null, read: OtlpRead): void;
}

const SPANS: Signal = { scopes: "scopeSpans", items: "spans", read: readSpan };
const LOGS: Signal = { scopes: "scopeLogs", items: "logRecords", read: readLogRecord };

/**
 * readRequest, yielding every ITEMS_PER_STEP spans or records so that a caller can let other work
 * run; only the first `maxProblems` problems are kept (every rejected item is counted).
 */
export function* readRequestInSteps(
  request: OtlpRequest,
  maxProblems = Number.POSITIVE_INFINITY,
): Generator<void, OtlpRead> {
  const read: OtlpRead = {
    selections: [],
    inferences: [],
    toolSpans: [],
    records: [],
    rejected: 0,
    problems: [],
  };
  const problem = (path: string, message: string) => {
    if (read.problems.length < maxProblems) read.problems.push({ path, message });
  };
  if ("resourceSpans" in request)
    yield* readSignal(request.resourceSpans, "resourceSpans", SPANS, read, problem, maxProblems);
  if ("resourceLogs" in request)
    yield* readSignal(request.resourceLogs, "resourceLogs", LOGS, read, problem, maxProblems);
  return read;
}

function* readSignal(
  resources: readonly unknown[],
  key: string,
  signal: Signal,
  read: OtlpRead,
  problem: (path: string, message: string) => void,
  maxProblems: number,
): Generator<void> {
  let itemsRead = 0;
  for (let r = 0; r < resources.length; r++) {
    const resource: unknown = resources[r];
    const at = `${key}[${r}]`;
    const scopes = isJsonObject(resource) ? resource[signal.scopes] : undefined;
    if (!Array.isArray(scopes)) {
      if (scopes !== undefined || !isJsonObject(resource))
        problem(at, `must be an object with a '${signal.scopes}' array`);
      continue;
    }
    const service = serviceOf(resource as Record<string, unknown>, at, problem);
    for (let s = 0; s < scopes.length; s++) {
      const scope: unknown = scopes[s];
      const items = isJsonObject(scope) ? scope[signal.items] : undefined;
      if (!Array.isArray(items)) {
        if (items !== undefined || !isJsonObject(scope))
          problem(
            `${at}.${signal.scopes}[${s}]`,
            `must be an object with a '${signal.items}' array`,
          );
        continue;
      }
      for (let i = 0; i < items.length; i++) {
        try {
          signal.read(items[i], service, read);
        } catch (error) {
          if (!(error instanceof OtlpValueError)) throw error;
          read.rejected++;
          // The item's path is built only for one that cannot be read, and kept.
          if (read.problems.length < maxProblems)
            problem(
              `${at}.${signal.scopes}[${s}].${signal.items}[${i}]${error.path}`,
              error.reason,
            );
        }
        if (++itemsRead % ITEMS_PER_STEP === 0) yield;
      }
    }
  }
}

/** The resource's `service.name`, or null (a problem when its attributes are not OTLP's). */
function serviceOf(
  resource: Record<string, unknown>,
  at: string,
  problem: (path: string, message: string) => void,
): string | null {
  try {
    const attributes = resource["resource"];
    const name = isJsonObject(attributes)
      ? attribute(attributes["attributes"], "service.name", `${at}.resource.attributes`)
      : undefined;
    return typeof name === "string" ? name : null;
  } catch (error) {
    if (!(error instanceof OtlpValueError)) throw error;
    problem(error.path, error.reason);
    return null;
  }
}

/** Reads one log record into `read` when it says what its span called; an error's path is relative to it. */
function readLogRecord(record: unknown, _service: string | null, read: OtlpRead): void {
  if (!isJsonObject(record)) throw new OtlpValueError("", "a log record must be an object");
  const called = recordCalls(record);
  if (called === undefined) return;
  // OTLP/JSON writes an absent id as "" (or leaves it out).
  if (!record["traceId"] || !record["spanId"]) throw NO_IDS;
  const traceId = traceIdOf(record["traceId"]);
  const spanId = hexId(record["spanId"], 16, ".spanId");
  read.records.push({ traceId, spanId, called });
}

/** The attributes every span is looked at for: the selection's and the convention readers'. */
const FOUND = new FoundSpan(conventionKeys([SELECTION_ATTRIBUTE]));

/** Reads one span into `read`; an error's path is relative to the span. */
function readSpan(span: unknown, service: string | null, read: OtlpRead): void {
  if (!isJsonObject(span)) throw new OtlpValueError("", "a span must be an object");
  const traceId = traceIdOf(span["traceId"]);
  const spanId = hexId(span["spanId"], 16, ".spanId");
  // Checked for every span, made a number only for a span whose start is used.
  const startTime = checkedNanos(span["startTimeUnixNano"], ".startTimeUnixNano");
  const name = span["name"];
  const attributes = span["attributes"];
  // The attributes are looked for where they were read one by one, so the same error comes first.
  let found: FoundSpan | null = null;
  if (name === SELECTION_NAME) {
    found = FOUND.find(name, attributes);
    const selected = found.value(SELECTION_ATTRIBUTE);
    if (selected !== undefined)
      read.selections.push(selection(selected, traceId, spanId, service, BigInt(startTime)));
  }
  const events = span["events"] ?? NO_EVENTS;
  if (!Array.isArray(events)) throw new OtlpValueError(".events", "must be an array");
  for (let e = 0; e < events.length; e++) {
    const event: unknown = events[e];
    if (!isJsonObject(event) || event["name"] !== SELECTION_NAME) continue;
    try {
      const selected = attribute(event["attributes"], SELECTION_ATTRIBUTE, ".attributes");
      if (selected === undefined) continue;
      const time = BigInt(checkedNanos(event["timeUnixNano"], ".timeUnixNano"));
      read.selections.push(selection(selected, traceId, spanId, service, time));
    } catch (error) {
      throw error instanceof OtlpValueError ? error.under(`.events[${e}]`) : error;
    }
  }
  const call = readSpanCall(found ?? FOUND.find(name, attributes));
  if (call === undefined) return;
  if (call instanceof OtlpValueError) throw call;
  if (call.kind === "tool")
    read.toolSpans.push({ traceId, start: BigInt(startTime), name: call.name });
  else
    read.inferences.push({
      traceId,
      spanId,
      start: BigInt(startTime),
      model: call.model,
      offered: call.offered,
      called: call.called,
      toolChoice: call.toolChoice,
      convention: call.convention,
    });
}

const NO_EVENTS: readonly unknown[] = Object.freeze([]);

/**
 * The trace id read last. A request's spans mostly come trace by trace: one string for all of a
 * trace's spans is hashed once by the join's maps and kept once. It starts as a valid id, so that
 * whatever equals it is one.
 */
let lastTraceId = "0".repeat(32);

export function traceIdOf(value: unknown): string {
  if (value === lastTraceId) return lastTraceId;
  lastTraceId = hexId(value, 32, ".traceId");
  return lastTraceId;
}

/** Trace and span ids are hex in OTLP/JSON; kept lowercase. */
export function hexId(value: unknown, digits: number, path: string): string {
  if (typeof value !== "string" || value.length !== digits) throw notHex(path, digits);
  // Exporters write lowercase: the usual id is taken as it is.
  if (LOWER_HEX.test(value)) return value;
  if (!/^[0-9a-fA-F]+$/.test(value)) throw notHex(path, digits);
  return value.toLowerCase();
}

const LOWER_HEX = /^[0-9a-f]+$/;
const notHex = (path: string, digits: number) =>
  new OtlpValueError(path, `must be ${digits} hex digits`);

/** Unix nanoseconds, a decimal string (OTLP/JSON's int64) or a number, as it came: BigInt() of it is the time. */
export function checkedNanos(value: unknown, path: string): string | number {
  if (typeof value === "string" && /^\d{1,20}$/.test(value)) return value;
  if (typeof value === "number" && Number.isSafeInteger(value) && value >= 0) return value;
  throw new OtlpValueError(path, "must be a time in Unix nanoseconds");
}

/** Where each attribute read as JSON is, relative to its span or event (paths are made once, not per span). */
const SELECTION_AT = `.attributes['${SELECTION_ATTRIBUTE}']`;
const SELECTION_QUOTED = `'${SELECTION_ATTRIBUTE}'`;

/**
 * A selection at `nanos`, its time cut to the millisecond: OpenTelemetry JS stamps span starts to
 * the millisecond, so a model call made in the selection's millisecond may start "before" it.
 */
function selection(
  value: unknown,
  traceId: string,
  spanId: string,
  service: string | null,
  nanos: bigint,
): OtlpSelection {
  const length = typeof value === "string" ? value.length : (JSON.stringify(value)?.length ?? 0);
  if (length > MAX_SELECTION_CHARS)
    throw new OtlpValueError(
      SELECTION_AT,
      `is ${length.toLocaleString("en-US")} characters of JSON, over the ${MAX_SELECTION_CHARS.toLocaleString("en-US")} a selection may have`,
    );
  const time = nanos - (nanos % 1_000_000n);
  const trace = selectionTrace(structured(value, SELECTION_AT, SELECTION_QUOTED), SELECTION_AT);
  return typeof value === "string"
    ? { traceId, spanId, service, time, trace, text: value }
    : { traceId, spanId, service, time, trace };
}

/** The trace of a selection read before from `text` (OtlpSelection.text), read again. */
export function textSelection(text: string): LoggedTrace {
  return selectionTrace(JSON.parse(text) as unknown, SELECTION_QUOTED);
}

/** A selection attribute's value (parsed when it was JSON text) as a logged trace; `at` names it in an error. */
export function selectionTrace(candidate: unknown, at: string): LoggedTrace {
  if (!isJsonObject(candidate) || !Array.isArray(candidate["trace"]))
    throw new OtlpValueError(at, "must be a selection trace: an object with a 'trace' array");
  const checked = validateTrace(candidate);
  if ("problem" in checked) throw new OtlpValueError(at, checked.problem);
  return checked.trace;
}
