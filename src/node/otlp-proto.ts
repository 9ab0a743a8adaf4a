/**
 * OTLP/protobuf trace and log messages, decoded by protobufjs from the OTLP definitions
 * (opentelemetry-proto: collector/trace/v1, collector/logs/v1, trace/v1, logs/v1, common/v1,
 * resource/v1; only the fields they use), and turned into OTLP/JSON so one reader serves both
 * encodings. A request is decoded a span or record at a time, so that a large one can be decoded
 * in steps. ResourceLogs and ScopeLogs number their fields as ResourceSpans and ScopeSpans do.
 */
import protobuf from "protobufjs";

/** The OTLP definitions decoded with (exported for the tests that check the decoding against a whole-message decode). */
export const OTLP_TRACE_PROTO = `
syntax = "proto3";
package opentelemetry.proto;

message ExportTraceServiceRequest { repeated ResourceSpans resource_spans = 1; }
message ExportTraceServiceResponse { ExportTracePartialSuccess partial_success = 1; }
message ExportTracePartialSuccess { int64 rejected_spans = 1; string error_message = 2; }
// google.rpc.Status, the body of an OTLP/HTTP error answer (its details are never sent).
message Status { int32 code = 1; string message = 2; }

message ResourceSpans { Resource resource = 1; repeated ScopeSpans scope_spans = 2; string schema_url = 3; }
// ResourceSpans and ScopeSpans without their repeated field, which is decoded an element at a time.
message ResourceSpansHead { Resource resource = 1; string schema_url = 3; }
message ScopeSpansHead { InstrumentationScope scope = 1; string schema_url = 3; }
message Resource { repeated KeyValue attributes = 1; uint32 dropped_attributes_count = 2; }
message ScopeSpans { InstrumentationScope scope = 1; repeated Span spans = 2; string schema_url = 3; }
message InstrumentationScope {
  string name = 1; string version = 2; repeated KeyValue attributes = 3; uint32 dropped_attributes_count = 4;
}
message Span {
  bytes trace_id = 1; bytes span_id = 2; string trace_state = 3; bytes parent_span_id = 4;
  fixed32 flags = 16; string name = 5; int32 kind = 6;
  fixed64 start_time_unix_nano = 7; fixed64 end_time_unix_nano = 8;
  repeated KeyValue attributes = 9; uint32 dropped_attributes_count = 10;
  repeated Event events = 11; uint32 dropped_events_count = 12;
  repeated Link links = 13; uint32 dropped_links_count = 14; SpanStatus status = 15;
  message Event {
    fixed64 time_unix_nano = 1; string name = 2; repeated KeyValue attributes = 3; uint32 dropped_attributes_count = 4;
  }
  message Link {
    bytes trace_id = 1; bytes span_id = 2; string trace_state = 3; repeated KeyValue attributes = 4;
    uint32 dropped_attributes_count = 5; fixed32 flags = 6;
  }
}
message SpanStatus { string message = 2; int32 code = 3; }
message KeyValue { string key = 1; AnyValue value = 2; }
message AnyValue {
  oneof value {
    string string_value = 1; bool bool_value = 2; int64 int_value = 3; double double_value = 4;
    ArrayValue array_value = 5; KeyValueList kvlist_value = 6; bytes bytes_value = 7;
  }
}
message ArrayValue { repeated AnyValue values = 1; }
message KeyValueList { repeated KeyValue values = 1; }

message ExportLogsServiceResponse { ExportLogsPartialSuccess partial_success = 1; }
message ExportLogsPartialSuccess { int64 rejected_log_records = 1; string error_message = 2; }
message LogRecord {
  fixed64 time_unix_nano = 1; fixed64 observed_time_unix_nano = 11; int32 severity_number = 2;
  string severity_text = 3; AnyValue body = 5; repeated KeyValue attributes = 6;
  uint32 dropped_attributes_count = 7; fixed32 flags = 8; bytes trace_id = 9; bytes span_id = 10;
  string event_name = 12;
}
`;

const root = protobuf.parse(OTLP_TRACE_PROTO).root;
const Response = root.lookupType("opentelemetry.proto.ExportTraceServiceResponse");
const Status = root.lookupType("opentelemetry.proto.Status");

const ResourceSpansHead = root.lookupType("opentelemetry.proto.ResourceSpansHead");
const ScopeSpansHead = root.lookupType("opentelemetry.proto.ScopeSpansHead");
const Span = root.lookupType("opentelemetry.proto.Span");
const LogRecord = root.lookupType("opentelemetry.proto.LogRecord");
const LogsResponse = root.lookupType("opentelemetry.proto.ExportLogsServiceResponse");

/** How a signal's request nests its items in OTLP/JSON, and the item's message. */
interface Signal {
  readonly name: string;
  readonly resources: string;
  readonly scopes: string;
  readonly items: string;
  readonly item: protobuf.Type;
}

const TRACES: Signal = {
  name: "ExportTraceServiceRequest",
  resources: "resourceSpans",
  scopes: "scopeSpans",
  items: "spans",
  item: Span,
};
const LOGS: Signal = {
  name: "ExportLogsServiceRequest",
  resources: "resourceLogs",
  scopes: "scopeLogs",
  items: "logRecords",
  item: LogRecord,
};
const TO_JSON: protobuf.IConversionOptions = { longs: String, bytes: String, oneofs: false };
/** Spans decoded between two steps. */
const SPANS_PER_STEP = 64;

/** A body that is not an ExportTraceServiceRequest (or ExportLogsServiceRequest) in protobuf. */
export class ProtobufError extends Error {}

/** A request holding more than `max` spans or log records (its resource and scope entries counted with them). */
export class TooManySpans extends Error {
  constructor(readonly max: number) {
    super(`the request holds more than ${max.toLocaleString("en-US")} spans or log records`);
  }
}

/**
 * Decodes a protobuf request into its OTLP/JSON form (ids hex, int64 and times decimal strings),
 * yielding every SPANS_PER_STEP spans; past `maxSpans` entries it stops, throwing TooManySpans.
 */
export function decodeTraceRequestInSteps(
  body: Uint8Array,
  maxSpans = Number.POSITIVE_INFINITY,
): Generator<void, unknown> {
  return decodeInSteps(body, TRACES, maxSpans);
}

/** decodeTraceRequestInSteps, of an ExportLogsServiceRequest (a step every SPANS_PER_STEP records). */
export function decodeLogsRequestInSteps(
  body: Uint8Array,
  maxRecords = Number.POSITIVE_INFINITY,
): Generator<void, unknown> {
  return decodeInSteps(body, LOGS, maxRecords);
}

function* decodeInSteps(body: Uint8Array, signal: Signal, max: number): Generator<void, unknown> {
  try {
    return yield* request(protobuf.Reader.create(body), signal, { left: max, max });
  } catch (error) {
    if (error instanceof TooManySpans) throw error;
    // protobufjs refuses nesting past its recursion limit and truncated or malformed bytes alike.
    throw new ProtobufError(
      `not an OTLP ${signal.name} in protobuf: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}

type Json = { [key: string]: unknown };
type Range = readonly [start: number, end: number];

/**
 * What `Request.toObject(Request.decode(body))` gives, with the same depths counted against
 * protobufjs's recursion limit (request 0, resource spans 1, scope spans 2, span 3), each field
 * in the order toObject writes it.
 */
function* request(reader: protobuf.Reader, signal: Signal, budget: Budget): Generator<void, Json> {
  const resources: Json[] = [];
  let decoded = 0;
  for (const resource of elements(reader, [0, reader.len], 1, 0, budget)) {
    const scopes: Json[] = [];
    for (const scope of elements(reader, resource, 2, 1, budget)) {
      const items: Json[] = [];
      for (const item of elements(reader, scope, 2, 2, budget)) {
        items.push(hexIds(message(signal.item, reader, item, 3)));
        if (++decoded % SPANS_PER_STEP === 0) yield;
      }
      const { scope: about, schemaUrl } = message(ScopeSpansHead, reader, scope, 2);
      scopes.push(
        present({
          scope: about,
          [signal.items]: items.length > 0 ? items : undefined,
          schemaUrl,
        }),
      );
    }
    const { resource: about, schemaUrl } = message(ResourceSpansHead, reader, resource, 1);
    resources.push(
      present({
        resource: about,
        [signal.scopes]: scopes.length > 0 ? scopes : undefined,
        schemaUrl,
      }),
    );
  }
  return resources.length > 0 ? { [signal.resources]: resources } : {};
}

/** Entries (resources, scopes, spans) a request may still hold: counted as they are found, before any is decoded. */
interface Budget {
  left: number;
  readonly max: number;
}

/**
 * Where each `field` (a message) of the message at `range` is, in order; every other field is
 * skipped by protobufjs, as its decoder of that message would skip it.
 */
function elements(
  reader: protobuf.Reader,
  range: Range,
  field: number,
  depth: number,
  budget: Budget,
): Range[] {
  const [start, end] = range;
  const found: Range[] = [];
  const limit = reader.len;
  reader.pos = start;
  reader.len = end;
  while (reader.pos < end) {
    const tag = reader.tag();
    if (tag >>> 3 !== field || (tag & 7) !== 2) {
      reader.skipType(tag & 7, depth, tag >>> 3);
      continue;
    }
    const size = reader.uint32();
    if (reader.pos + size > end) throw RangeError("index out of range");
    if (--budget.left < 0) throw new TooManySpans(budget.max);
    found.push([reader.pos, reader.pos + size]);
    reader.pos += size;
  }
  reader.len = limit;
  return found;
}

/** protobufjs's decoders and toObject take the depth reached as a further argument, as they pass it to each other. */
type DecodeAt = (
  reader: protobuf.Reader,
  length: number,
  group: undefined,
  depth: number,
) => protobuf.Message;
type ToObjectAt = (
  message: protobuf.Message,
  options: protobuf.IConversionOptions,
  depth: number,
) => Json;

function message(type: protobuf.Type, reader: protobuf.Reader, range: Range, depth: number): Json {
  reader.pos = range[0];
  const decoded = (type.decode as unknown as DecodeAt).call(
    type,
    reader,
    range[1] - range[0],
    undefined,
    depth,
  );
  return (type.toObject as unknown as ToObjectAt).call(type, decoded, TO_JSON, depth);
}

/** The fields that are there, in the order given. */
function present(fields: Json): Json {
  const object: Json = {};
  for (const [key, value] of Object.entries(fields)) if (value !== undefined) object[key] = value;
  return object;
}

/** OTLP/JSON writes trace and span ids as hex, protobufjs's bytes come as base64. */
function hexIds(span: Json): Json {
  for (const key of ["traceId", "spanId", "parentSpanId"])
    if (typeof span[key] === "string") span[key] = base64ToHex(span[key]);
  for (const link of list(span.links))
    for (const key of ["traceId", "spanId"])
      if (typeof link[key] === "string") link[key] = base64ToHex(link[key]);
  return span;
}

function list(value: unknown): Json[] {
  return Array.isArray(value) ? (value as Json[]) : [];
}

function base64ToHex(text: string): string {
  return Buffer.from(text, "base64").toString("hex");
}

/** An ExportTraceServiceResponse, with partial_success when spans were rejected. */
export function encodeTraceResponse(rejected: number, errorMessage: string): Uint8Array {
  return Response.encode(
    Response.fromObject(
      rejected > 0 ? { partialSuccess: { rejectedSpans: rejected, errorMessage } } : {},
    ),
  ).finish();
}

/** An ExportLogsServiceResponse, with partial_success when log records were rejected. */
export function encodeLogsResponse(rejected: number, errorMessage: string): Uint8Array {
  return LogsResponse.encode(
    LogsResponse.fromObject(
      rejected > 0 ? { partialSuccess: { rejectedLogRecords: rejected, errorMessage } } : {},
    ),
  ).finish();
}

/** Decodes a logs response (for tests). */
export function decodeLogsResponse(body: Uint8Array): unknown {
  return LogsResponse.toObject(LogsResponse.decode(body), { longs: Number });
}

/** Decodes a response (for tests and the example's checks). */
export function decodeTraceResponse(body: Uint8Array): unknown {
  return Response.toObject(Response.decode(body), { longs: Number });
}

/** An error answer's google.rpc.Status. */
export function encodeStatus(code: number, message: string): Uint8Array {
  return Status.encode(Status.fromObject({ code, message })).finish();
}

/** Decodes an error answer (for tests). */
export function decodeStatus(body: Uint8Array): unknown {
  return Status.toObject(Status.decode(body));
}
