/**
 * One OTLP `ExportTraceServiceRequest` (as OTLP/JSON writes it, already parsed) read into what the
 * selection traces need: the selections (docs/formats.md, "Selection traces in OpenTelemetry"),
 * the GenAI inference spans and the execute_tool spans. A span that cannot be read is counted as
 * rejected with a problem naming its JSON path; the rest of the request is read.
 */
import {
  isJsonObject,
  MAX_TRACE_NAMES,
  own,
  validateTrace,
  type LoggedTrace,
} from "../traces/trace.js";
import { attribute, OtlpValueError } from "./any-value.js";
import { allSteps } from "./steps.js";

export const SELECTION_NAME = "symfonic.tool_selection";
export const SELECTION_ATTRIBUTE = "symfonic.selection";
const INFERENCE_OPERATIONS = new Set(["chat", "text_completion", "generate_content"]);

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
  return isJsonObject(value) && Array.isArray(own(value, "resourceSpans"));
}

export function readRequest(request: { readonly resourceSpans: readonly unknown[] }): OtlpRead {
  return allSteps(readRequestInSteps(request));
}

/** Spans read between two steps of readRequestInSteps. */
const SPANS_PER_STEP = 256;

/** readRequest, yielding every SPANS_PER_STEP spans so that a caller can let other work run. */
export function* readRequestInSteps(request: {
  readonly resourceSpans: readonly unknown[];
}): Generator<void, OtlpRead> {
  let spansRead = 0;
  const read: OtlpRead = {
    selections: [],
    inferences: [],
    toolSpans: [],
    rejected: 0,
    problems: [],
  };
  for (const [r, resourceSpans] of request.resourceSpans.entries()) {
    const at = `resourceSpans[${r}]`;
    const scopes = isJsonObject(resourceSpans) ? own(resourceSpans, "scopeSpans") : undefined;
    if (!Array.isArray(scopes)) {
      if (scopes !== undefined || !isJsonObject(resourceSpans))
        read.problems.push({ path: at, message: "must be an object with a 'scopeSpans' array" });
      continue;
    }
    let service: string | null = null;
    try {
      const resource = own(resourceSpans as object as Record<string, unknown>, "resource");
      const name = isJsonObject(resource)
        ? attribute(own(resource, "attributes"), "service.name", `${at}.resource.attributes`)
        : undefined;
      service = typeof name === "string" ? name : null;
    } catch (error) {
      if (!(error instanceof OtlpValueError)) throw error;
      read.problems.push({ path: error.path, message: messageOf(error) });
    }
    for (const [s, scope] of scopes.entries()) {
      const spans = isJsonObject(scope) ? own(scope, "spans") : undefined;
      if (!Array.isArray(spans)) {
        if (spans !== undefined || !isJsonObject(scope))
          read.problems.push({
            path: `${at}.scopeSpans[${s}]`,
            message: "must be an object with a 'spans' array",
          });
        continue;
      }
      for (const [i, span] of spans.entries()) {
        const path = `${at}.scopeSpans[${s}].spans[${i}]`;
        try {
          readSpan(span, path, service, read);
        } catch (error) {
          if (!(error instanceof OtlpValueError)) throw error;
          read.rejected++;
          read.problems.push({ path: error.path, message: messageOf(error) });
        }
        if (++spansRead % SPANS_PER_STEP === 0) yield;
      }
    }
  }
  return read;
}

function messageOf(error: OtlpValueError): string {
  return error.message.slice(error.path.length + 2);
}

function readSpan(span: unknown, path: string, service: string | null, read: OtlpRead): void {
  if (!isJsonObject(span)) throw new OtlpValueError(path, "a span must be an object");
  const traceId = hexId(own(span, "traceId"), 32, `${path}.traceId`);
  const spanId = hexId(own(span, "spanId"), 16, `${path}.spanId`);
  const start = nanos(own(span, "startTimeUnixNano"), `${path}.startTimeUnixNano`);
  const name = own(span, "name");
  const attributes = own(span, "attributes");
  const attributesAt = `${path}.attributes`;
  if (name === SELECTION_NAME) {
    const value = attribute(attributes, SELECTION_ATTRIBUTE, attributesAt);
    if (value !== undefined)
      read.selections.push({
        traceId,
        spanId,
        service,
        time: start,
        trace: selection(value, attributesAt),
      });
  }
  const events = own(span, "events") ?? [];
  if (!Array.isArray(events)) throw new OtlpValueError(`${path}.events`, "must be an array");
  for (const [e, event] of events.entries()) {
    const at = `${path}.events[${e}]`;
    if (!isJsonObject(event) || own(event, "name") !== SELECTION_NAME) continue;
    const value = attribute(own(event, "attributes"), SELECTION_ATTRIBUTE, `${at}.attributes`);
    if (value === undefined) continue;
    const time = nanos(own(event, "timeUnixNano"), `${at}.timeUnixNano`);
    read.selections.push({
      traceId,
      spanId,
      service,
      time,
      trace: selection(value, `${at}.attributes`),
    });
  }
  const operation = attribute(attributes, "gen_ai.operation.name", attributesAt);
  if (typeof operation === "string" && INFERENCE_OPERATIONS.has(operation)) {
    const model = attribute(attributes, "gen_ai.request.model", attributesAt);
    read.inferences.push({
      traceId,
      spanId,
      start,
      model: typeof model === "string" ? model : null,
      offered: definitionNames(
        attribute(attributes, "gen_ai.tool.definitions", attributesAt),
        attributesAt,
      ),
      called: toolCallNames(
        attribute(attributes, "gen_ai.output.messages", attributesAt),
        attributesAt,
      ),
    });
  } else if (operation === "execute_tool") {
    const tool = attribute(attributes, "gen_ai.tool.name", attributesAt);
    if (typeof tool === "string") read.toolSpans.push({ traceId, start, name: tool });
  }
}

/** Trace and span ids are hex in OTLP/JSON; kept lowercase. */
function hexId(value: unknown, digits: number, path: string): string {
  if (typeof value !== "string" || value.length !== digits || !/^[0-9a-fA-F]+$/.test(value))
    throw new OtlpValueError(path, `must be ${digits} hex digits`);
  return value.toLowerCase();
}

/** Unix nanoseconds, a decimal string (OTLP/JSON's int64) or a number. */
function nanos(value: unknown, path: string): bigint {
  if (typeof value === "string" && /^\d{1,20}$/.test(value)) return BigInt(value);
  if (typeof value === "number" && Number.isSafeInteger(value) && value >= 0) return BigInt(value);
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

function selection(value: unknown, path: string): LoggedTrace {
  const at = `${path}['${SELECTION_ATTRIBUTE}']`;
  const candidate = structured(value, at, `'${SELECTION_ATTRIBUTE}'`);
  if (!isJsonObject(candidate) || !Array.isArray(own(candidate, "trace")))
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
  for (const [i, item] of list.entries()) {
    const found = name(item);
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

function definitionNames(value: unknown, path: string): string[] | null {
  if (value === undefined || value === null) return null;
  const at = `${path}['gen_ai.tool.definitions']`;
  const list = structured(value, at, "'gen_ai.tool.definitions'");
  return nameList(list, at, "'gen_ai.tool.definitions'", (item) => {
    if (!isJsonObject(item)) return null;
    const fn = own(item, "function");
    // OpenAI's shape nests the name under `function`.
    return own(item, "name") ?? (isJsonObject(fn) ? own(fn, "name") : undefined) ?? null;
  });
}

function toolCallNames(value: unknown, path: string): string[] | null {
  if (value === undefined || value === null) return null;
  const at = `${path}['gen_ai.output.messages']`;
  const messages = structured(value, at, "'gen_ai.output.messages'");
  if (!Array.isArray(messages))
    throw new OtlpValueError(at, "'gen_ai.output.messages' must be an array");
  const names: string[] = [];
  for (const [m, message] of messages.entries()) {
    const parts = isJsonObject(message) ? own(message, "parts") : undefined;
    if (!Array.isArray(parts)) continue;
    names.push(
      ...nameList(parts, `${at}[${m}].parts`, "'gen_ai.output.messages'", (part) =>
        isJsonObject(part) && own(part, "type") === "tool_call"
          ? (own(part, "name") ?? null)
          : undefined,
      ),
    );
  }
  return names.length > 0 ? names : null;
}
