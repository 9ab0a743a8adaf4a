import protobuf from "protobufjs";
import { describe, expect, it } from "vitest";
import { allSteps } from "../../src/core/otel/steps.js";
import {
  decodeTraceRequestInSteps,
  OTLP_TRACE_PROTO,
  ProtobufError,
} from "../../src/node/otlp-proto.js";

const root = protobuf.parse(OTLP_TRACE_PROTO).root;
const Request = root.lookupType("opentelemetry.proto.ExportTraceServiceRequest");
const ResourceSpans = root.lookupType("opentelemetry.proto.ResourceSpans");

/** The request decoded in one go by protobufjs, ids turned to hex as OTLP/JSON writes them. */
function wholeDecode(body: Uint8Array): unknown {
  const object = Request.toObject(Request.decode(body), {
    longs: String,
    bytes: String,
    oneofs: false,
  });
  const hex = (o: Record<string, unknown>, keys: string[]) => {
    for (const key of keys)
      if (typeof o[key] === "string") o[key] = Buffer.from(o[key], "base64").toString("hex");
  };
  type Json = Record<string, unknown> & { [key: string]: Json[] | undefined };
  for (const resource of (object.resourceSpans ?? []) as Json[])
    for (const scope of resource.scopeSpans ?? [])
      for (const span of scope.spans ?? []) {
        hex(span, ["traceId", "spanId", "parentSpanId"]);
        for (const link of span.links ?? []) hex(link, ["traceId", "spanId"]);
      }
  return object;
}

const decode = (body: Uint8Array) => allSteps(decodeTraceRequestInSteps(body));

const id = (n: number, bytes: number) =>
  Buffer.from(n.toString(16).padStart(2 * bytes, "0"), "hex");
const attribute = (key: string, value: unknown) => ({ key, value });

function span(n: number) {
  return {
    traceId: id(n, 16),
    spanId: id(n, 8),
    traceState: "k=v",
    parentSpanId: id(n + 1, 8),
    flags: 1,
    name: `span ${n}`,
    kind: 2,
    startTimeUnixNano: 1_700_000_000_000 + n,
    endTimeUnixNano: 1_700_000_000_100 + n,
    attributes: [
      attribute("s", { stringValue: "x" }),
      attribute("i", { intValue: 7 }),
      attribute("d", { doubleValue: 0.5 }),
      attribute("b", { boolValue: true }),
      attribute("bytes", { bytesValue: Buffer.from("hi") }),
      attribute("list", { arrayValue: { values: [{ stringValue: "a" }, { intValue: 2 }] } }),
      attribute("map", { kvlistValue: { values: [attribute("k", { stringValue: "v" })] } }),
    ],
    droppedAttributesCount: 1,
    events: [
      {
        timeUnixNano: 1_700_000_000_050,
        name: "e",
        attributes: [attribute("s", { stringValue: "y" })],
      },
    ],
    links: [{ traceId: id(n + 2, 16), spanId: id(n + 2, 8), attributes: [], flags: 1 }],
    status: { message: "ok", code: 1 },
  };
}

const resource = (name: string) => ({
  attributes: [attribute("service.name", { stringValue: name })],
  droppedAttributesCount: 2,
});

function varint(n: number): number[] {
  const out: number[] = [];
  for (; n > 0x7f; n >>>= 7) out.push((n & 0x7f) | 0x80);
  out.push(n);
  return out;
}

describe("decoding an OTLP/protobuf request a span at a time", () => {
  it("gives what protobufjs gives decoding the whole request, every field in the same order", () => {
    const body = Request.encode(
      Request.fromObject({
        resourceSpans: [
          {
            resource: resource("agent"),
            schemaUrl: "https://opentelemetry.io/schemas/1.24.0",
            scopeSpans: [
              {
                scope: {
                  name: "s",
                  version: "1",
                  attributes: [attribute("a", { boolValue: false })],
                },
                spans: [span(1), span(2)],
                schemaUrl: "scope-schema",
              },
              { scope: { name: "empty" } },
              { spans: [span(3)] },
            ],
          },
          { scopeSpans: [] },
          { resource: resource("other"), scopeSpans: [{ spans: [span(4)] }] },
        ],
      }),
    ).finish();
    const ours = decode(body);
    expect(ours).toEqual(wholeDecode(body));
    expect(JSON.stringify(ours)).toBe(JSON.stringify(wholeDecode(body)));
  });

  it("merges a resource spans message sent in two parts and skips unknown fields, as protobufjs does", () => {
    const part = (fields: object) =>
      ResourceSpans.encode(ResourceSpans.fromObject(fields)).finish();
    const merged = [
      ...part({ resource: resource("first"), scopeSpans: [{ spans: [span(1)] }], schemaUrl: "a" }),
      // An unknown field (99, a varint) between the parts.
      ...[0x98, 0x06, 0x01],
      ...part({ resource: { droppedAttributesCount: 5 }, scopeSpans: [{ spans: [span(2)] }] }),
    ];
    const body = Uint8Array.from([
      ...[0x0a, ...varint(merged.length), ...merged],
      // An unknown length-delimited field (7) of the request.
      ...[0x3a, 0x02, 0x01, 0x02],
    ]);
    const ours = decode(body);
    expect(JSON.stringify(ours)).toBe(JSON.stringify(wholeDecode(body)));
    expect(ours).toMatchObject({ resourceSpans: [{ schemaUrl: "a" }] });
  });

  it("refuses nesting at the same depth as protobufjs's recursion limit, and truncated bytes", () => {
    // Built byte by byte: protobufjs's encoder has the same limit. Each array nests two messages
    // (AnyValue, ArrayValue); an odd number of levels ends in an empty ArrayValue.
    const field = (tag: number, bytes: number[]) => [tag, ...varint(bytes.length), ...bytes];
    const nested = (levels: number) => {
      let value = levels % 2 === 1 ? field(0x2a, []) : field(0x0a, [0x78]);
      for (let i = 0; i < levels >> 1; i++) value = field(0x2a, field(0x0a, value));
      const keyValue = [...field(0x0a, [0x6b]), ...field(0x12, value)];
      return Uint8Array.from(field(0x0a, field(0x12, field(0x12, field(0x4a, keyValue)))));
    };
    const refused = (decoder: (body: Uint8Array) => unknown, depth: number) => {
      try {
        decoder(nested(depth));
        return false;
      } catch {
        return true;
      }
    };
    // The least depth protobufjs refuses, searched for: the one limit both decoders must share.
    let depth = 1;
    while (!refused(wholeDecode, depth)) depth++;
    expect(depth).toBeGreaterThan(10);
    expect([refused(decode, depth - 1), refused(decode, depth)]).toEqual([false, true]);
    const body = Request.encode(
      Request.fromObject({ resourceSpans: [{ scopeSpans: [{ spans: [span(1)] }] }] }),
    ).finish();
    expect(() => decode(body.subarray(0, body.length - 3))).toThrow(ProtobufError);
    expect(() => decode(body.subarray(0, body.length - 3))).toThrow(
      /^not an OTLP ExportTraceServiceRequest in protobuf: /,
    );
  });
});
