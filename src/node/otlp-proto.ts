/**
 * OTLP/protobuf trace messages, decoded by protobufjs from the OTLP definitions
 * (opentelemetry-proto: collector/trace/v1, trace/v1, common/v1, resource/v1; only the fields
 * traces use), and turned into OTLP/JSON so one reader serves both encodings.
 */
import protobuf from "protobufjs";

const OTLP_TRACE_PROTO = `
syntax = "proto3";
package opentelemetry.proto;

message ExportTraceServiceRequest { repeated ResourceSpans resource_spans = 1; }
message ExportTraceServiceResponse { ExportTracePartialSuccess partial_success = 1; }
message ExportTracePartialSuccess { int64 rejected_spans = 1; string error_message = 2; }
// google.rpc.Status, the body of an OTLP/HTTP error answer (its details are never sent).
message Status { int32 code = 1; string message = 2; }

message ResourceSpans { Resource resource = 1; repeated ScopeSpans scope_spans = 2; string schema_url = 3; }
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
`;

const root = protobuf.parse(OTLP_TRACE_PROTO).root;
const Request = root.lookupType("opentelemetry.proto.ExportTraceServiceRequest");
const Response = root.lookupType("opentelemetry.proto.ExportTraceServiceResponse");
const Status = root.lookupType("opentelemetry.proto.Status");

/** A body that is not an ExportTraceServiceRequest in protobuf. */
export class ProtobufError extends Error {}

/** Decodes a protobuf request into its OTLP/JSON form (ids hex, int64 and times decimal strings). */
export function decodeTraceRequest(body: Uint8Array): unknown {
  let message: protobuf.Message;
  try {
    message = Request.decode(body);
  } catch (error) {
    // protobufjs refuses nesting past its recursion limit and truncated or malformed bytes alike.
    throw new ProtobufError(
      `not an OTLP ExportTraceServiceRequest in protobuf: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  const object = Request.toObject(message, { longs: String, bytes: String, oneofs: false });
  return hexIds(object);
}

/** OTLP/JSON writes trace and span ids as hex, protobufjs's bytes come as base64. */
function hexIds(object: { [key: string]: unknown }): unknown {
  for (const resource of list(object.resourceSpans))
    for (const scope of list(resource.scopeSpans))
      for (const span of list(scope.spans)) {
        for (const key of ["traceId", "spanId", "parentSpanId"])
          if (typeof span[key] === "string") span[key] = base64ToHex(span[key]);
        for (const link of list(span.links))
          for (const key of ["traceId", "spanId"])
            if (typeof link[key] === "string") link[key] = base64ToHex(link[key]);
      }
  return object;
}

function list(value: unknown): { [key: string]: unknown }[] {
  return Array.isArray(value) ? (value as { [key: string]: unknown }[]) : [];
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
