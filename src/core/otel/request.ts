/**
 * One OTLP `ExportTraceServiceRequest` (as OTLP/JSON writes it, already parsed) read into what the
 * selection traces need: the selections (docs/formats.md, "Selection traces in OpenTelemetry"),
 * the GenAI inference spans and the execute_tool spans. A span that cannot be read is counted as
 * rejected with a problem naming its JSON path; the rest of the request is read. OTLP's fields are
 * read as plain properties: parsed JSON inherits only Object.prototype, which names none of them,
 * so each read is an own read, without own()'s cost on every span.
 */
import { isJsonObject, MAX_TRACE_NAMES, validateTrace, type LoggedTrace } from "../traces/trace.js";
import { pushAll } from "../arrays.js";
import { attribute, attributeAt, findAttributes, OtlpValueError } from "./any-value.js";
import { allSteps } from "./steps.js";

export const SELECTION_NAME = "symfonic.tool_selection";
export const SELECTION_ATTRIBUTE = "symfonic.selection";
const INFERENCE_OPERATIONS = new Set(["chat", "text_completion", "generate_content"]);
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
  /** The tool_call parts of its output messages; null when it has none. */
  readonly called: readonly string[] | null;
}

export interface OtlpToolSpan {
  readonly traceId: string;
  readonly start: bigint;
  readonly name: string;
}

export interface OtlpRead {
  readonly selections: OtlpSelection[];
  readonly inferences: OtlpInference[];
  readonly toolSpans: OtlpToolSpan[];
  /** Spans that could not be read (OTLP's partial_success.rejected_spans). */
  rejected: number;
  readonly problems: OtlpProblem[];
}

/** Whether a parsed value is an ExportTraceServiceRequest at all (an object with a `resourceSpans` array). */
export function isOtlpRequest(
  value: unknown,
): value is { readonly resourceSpans: readonly unknown[] } {
  return isJsonObject(value) && Array.isArray(value["resourceSpans"]);
}

export function readRequest(request: { readonly resourceSpans: readonly unknown[] }): OtlpRead {
  return allSteps(readRequestInSteps(request));
}

/** Spans read between two steps of readRequestInSteps. */
const SPANS_PER_STEP = 64;

/**
 * readRequest, yielding every SPANS_PER_STEP spans so that a caller can let other work run; only
 * the first `maxProblems` problems are kept (every rejected span is counted).
 */
export function* readRequestInSteps(
  request: { readonly resourceSpans: readonly unknown[] },
  maxProblems = Number.POSITIVE_INFINITY,
): Generator<void, OtlpRead> {
  let spansRead = 0;
  const read: OtlpRead = {
    selections: [],
    inferences: [],
    toolSpans: [],
    rejected: 0,
    problems: [],
  };
  const problem = (path: string, message: string) => {
    if (read.problems.length < maxProblems) read.problems.push({ path, message });
  };
  const resources = request.resourceSpans;
  for (let r = 0; r < resources.length; r++) {
    const resourceSpans: unknown = resources[r];
    const at = `resourceSpans[${r}]`;
    const scopes = isJsonObject(resourceSpans) ? resourceSpans["scopeSpans"] : undefined;
    if (!Array.isArray(scopes)) {
      if (scopes !== undefined || !isJsonObject(resourceSpans))
        problem(at, "must be an object with a 'scopeSpans' array");
      continue;
    }
    let service: string | null = null;
    try {
      const resource = (resourceSpans as Record<string, unknown>)["resource"];
      const name = isJsonObject(resource)
        ? attribute(resource["attributes"], "service.name", `${at}.resource.attributes`)
        : undefined;
      service = typeof name === "string" ? name : null;
    } catch (error) {
      if (!(error instanceof OtlpValueError)) throw error;
      problem(error.path, error.reason);
    }
    for (let s = 0; s < scopes.length; s++) {
      const scope: unknown = scopes[s];
      const spans = isJsonObject(scope) ? scope["spans"] : undefined;
      if (!Array.isArray(spans)) {
        if (spans !== undefined || !isJsonObject(scope))
          problem(`${at}.scopeSpans[${s}]`, "must be an object with a 'spans' array");
        continue;
      }
      for (let i = 0; i < spans.length; i++) {
        try {
          readSpan(spans[i], service, read);
        } catch (error) {
          if (!(error instanceof OtlpValueError)) throw error;
          read.rejected++;
          // The span's path is built only for a span that cannot be read, and kept.
          if (read.problems.length < maxProblems)
            problem(`${at}.scopeSpans[${s}].spans[${i}]${error.path}`, error.reason);
        }
        if (++spansRead % SPANS_PER_STEP === 0) yield;
      }
    }
  }
  return read;
}

/** The attributes a span is read for: each one's slot in SPAN_SLOTS. */
const SLOT = { selection: 0, operation: 1, model: 2, definitions: 3, output: 4, tool: 5 } as const;
const SPAN_KEYS = new Map<string, number>([
  [SELECTION_ATTRIBUTE, SLOT.selection],
  ["gen_ai.operation.name", SLOT.operation],
  ["gen_ai.request.model", SLOT.model],
  ["gen_ai.tool.definitions", SLOT.definitions],
  ["gen_ai.output.messages", SLOT.output],
  ["gen_ai.tool.name", SLOT.tool],
]);
/** Where readSpan found each of SPAN_KEYS in the span it reads (one span is read at a time). */
const SPAN_SLOTS = new Int32Array(SPAN_KEYS.size);

/** The value of a span's attribute, found by findAttributes into SPAN_SLOTS. */
function spanAttribute(list: readonly unknown[], slot: number): unknown {
  return attributeAt(list, SPAN_SLOTS[slot]!, ".attributes");
}

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
  let list: readonly unknown[] | null = null;
  if (name === SELECTION_NAME) {
    list = findAttributes(attributes, SPAN_KEYS, SPAN_SLOTS, ".attributes");
    const selected = spanAttribute(list, SLOT.selection);
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
  list ??= findAttributes(attributes, SPAN_KEYS, SPAN_SLOTS, ".attributes");
  const operation = spanAttribute(list, SLOT.operation);
  if (typeof operation === "string" && INFERENCE_OPERATIONS.has(operation)) {
    const model = spanAttribute(list, SLOT.model);
    read.inferences.push({
      traceId,
      spanId,
      start: BigInt(startTime),
      model: typeof model === "string" ? model : null,
      offered: definitionNames(spanAttribute(list, SLOT.definitions)),
      called: toolCallNames(spanAttribute(list, SLOT.output)),
    });
  } else if (operation === "execute_tool") {
    const tool = spanAttribute(list, SLOT.tool);
    if (typeof tool === "string")
      read.toolSpans.push({ traceId, start: BigInt(startTime), name: tool });
  }
}

const NO_EVENTS: readonly unknown[] = Object.freeze([]);

/**
 * The trace id read last. A request's spans mostly come trace by trace: one string for all of a
 * trace's spans is hashed once by the join's maps and kept once. It starts as a valid id, so that
 * whatever equals it is one.
 */
let lastTraceId = "0".repeat(32);

function traceIdOf(value: unknown): string {
  if (value === lastTraceId) return lastTraceId;
  lastTraceId = hexId(value, 32, ".traceId");
  return lastTraceId;
}

/** Trace and span ids are hex in OTLP/JSON; kept lowercase. */
function hexId(value: unknown, digits: number, path: string): string {
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
function checkedNanos(value: unknown, path: string): string | number {
  if (typeof value === "string" && /^\d{1,20}$/.test(value)) return value;
  if (typeof value === "number" && Number.isSafeInteger(value) && value >= 0) return value;
  throw new OtlpValueError(path, "must be a time in Unix nanoseconds");
}

/** A JSON string is parsed; a structured value is taken as it is. */
function structured(value: unknown, path: string, what: string): unknown {
  if (typeof value !== "string") return value;
  try {
    return JSON.parse(value) as unknown;
  } catch (error) {
    throw new OtlpValueError(
      path,
      `${what} is not valid JSON: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}

/** Where each attribute read as JSON is, relative to its span or event (paths are made once, not per span). */
const SELECTION_AT = `.attributes['${SELECTION_ATTRIBUTE}']`;
const SELECTION_QUOTED = `'${SELECTION_ATTRIBUTE}'`;
const DEFINITIONS_AT = ".attributes['gen_ai.tool.definitions']";
const OUTPUT_AT = ".attributes['gen_ai.output.messages']";

function selection(
  value: unknown,
  traceId: string,
  spanId: string,
  service: string | null,
  time: bigint,
): OtlpSelection {
  const length = typeof value === "string" ? value.length : (JSON.stringify(value)?.length ?? 0);
  if (length > MAX_SELECTION_CHARS)
    throw new OtlpValueError(
      SELECTION_AT,
      `is ${length.toLocaleString("en-US")} characters of JSON, over the ${MAX_SELECTION_CHARS.toLocaleString("en-US")} a selection may have`,
    );
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

function nameList(
  list: unknown,
  path: string,
  what: string,
  name: (item: unknown) => unknown,
): string[] {
  if (!Array.isArray(list)) throw new OtlpValueError(path, `${what} must be an array`);
  const names: string[] = [];
  for (let i = 0; i < list.length; i++) {
    const found = name(list[i]);
    if (found === undefined) continue;
    if (typeof found !== "string")
      throw new OtlpValueError(`${path}[${i}]`, `${what}: a tool name must be a string`);
    if (names.length === MAX_TRACE_NAMES)
      throw new OtlpValueError(
        path,
        `${what} names more than ${MAX_TRACE_NAMES.toLocaleString("en-US")} tools`,
      );
    names.push(found);
  }
  return names;
}

/**
 * The names of definitions lately read as JSON text, by that text: an agent sends the same tools,
 * often kilobytes of schemas, with every model call. The lists are frozen, being shared.
 */
const definitionsRead = new Map<string, readonly string[]>();
const DEFINITIONS_KEPT = 64;

function definitionNames(value: unknown): readonly string[] | null {
  if (value === undefined || value === null) return null;
  const known = typeof value === "string" ? definitionsRead.get(value) : undefined;
  if (known) return known;
  const list = structured(value, DEFINITIONS_AT, "'gen_ai.tool.definitions'");
  const names = nameList(list, DEFINITIONS_AT, "'gen_ai.tool.definitions'", definitionName);
  if (typeof value !== "string") return names;
  if (definitionsRead.size === DEFINITIONS_KEPT) definitionsRead.clear();
  definitionsRead.set(value, Object.freeze(names));
  return names;
}

function definitionName(item: unknown): unknown {
  if (!isJsonObject(item)) return null;
  const fn = item["function"];
  // OpenAI's shape nests the name under `function`.
  return item["name"] ?? (isJsonObject(fn) ? fn["name"] : undefined) ?? null;
}

function toolCallNames(value: unknown): string[] | null {
  if (value === undefined || value === null) return null;
  const messages = structured(value, OUTPUT_AT, "'gen_ai.output.messages'");
  if (!Array.isArray(messages))
    throw new OtlpValueError(OUTPUT_AT, "'gen_ai.output.messages' must be an array");
  const names: string[] = [];
  for (let m = 0; m < messages.length; m++) {
    const message: unknown = messages[m];
    const parts = isJsonObject(message) ? message["parts"] : undefined;
    if (!Array.isArray(parts)) continue;
    try {
      pushAll(names, nameList(parts, "", "'gen_ai.output.messages'", toolCallName));
    } catch (error) {
      // The path is made only for a message that is wrong.
      throw error instanceof OtlpValueError ? error.under(`${OUTPUT_AT}[${m}].parts`) : error;
    }
  }
  // Cut to size: a list pushed to holds room for more, and the join keeps this one.
  return names.length > 0 ? names.slice() : null;
}

function toolCallName(part: unknown): unknown {
  return isJsonObject(part) && part["type"] === "tool_call" ? (part["name"] ?? null) : undefined;
}
