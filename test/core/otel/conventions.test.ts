import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { OtlpValueError } from "../../../src/core/otel/any-value.js";
import { conventionKeys, FoundSpan, readSpanCall } from "../../../src/core/otel/conventions.js";
import { readRequest } from "../../../src/core/otel/request.js";
import { attrs, str, TRACE_A } from "./otlp.js";

const found = new FoundSpan(conventionKeys([]));
const read = (attributes: Record<string, unknown>) =>
  readSpanCall(found.find("span", attrs(attributes)));

/** The attribute keys the readers look at, and values of every AnyValue kind, good and bad. */
const KEYS = [
  "gen_ai.operation.name",
  "gen_ai.tool.definitions",
  "gen_ai.output.messages",
  "llm.request.type",
  "llm.request.functions.0.name",
  "gen_ai.prompt.0.role",
  "gen_ai.completion.0.tool_calls.0.name",
  "openinference.span.kind",
  "llm.tools.0.tool.json_schema",
  "llm.invocation_parameters",
  "llm.output_messages.0.message.tool_calls.0.tool_call.function.name",
  "ai.operationId",
  "ai.prompt.messages",
  "ai.prompt.tools",
  "ai.prompt.toolChoice",
  "ai.response.toolCalls",
];
const text = fc.oneof(
  fc.constantFrom("chat", "LLM", "TOOL", "ai.generateText.doGenerate", "ai.toolCall", "{", "[]"),
  fc.json(),
  fc.string(),
);
const value = fc.oneof(
  text.map(str),
  fc.integer().map((intValue) => ({ intValue })),
  fc.array(text.map(str), { maxLength: 3 }).map((values) => ({ arrayValue: { values } })),
  fc.constant({ kvlistValue: { values: [{ key: "name", value: str("a") }] } }),
  fc.constant({ boolValue: "yes" }),
);

describe("the convention readers", () => {
  it("never throw: any attributes are a reading, nothing, or a problem naming where", () => {
    fc.assert(
      fc.property(fc.dictionary(fc.constantFrom(...KEYS), value), (attributes) => {
        const got = read(attributes);
        if (got instanceof OtlpValueError) expect(got.path).toMatch(/^\.attributes/);
      }),
      { numRuns: 2000 },
    );
  });

  it("name the JSON path of bad input in each convention", () => {
    const problem = (attributes: Record<string, unknown>) => {
      const got = read(attributes);
      return got instanceof OtlpValueError ? `${got.path}: ${got.reason}` : got;
    };
    expect(
      problem({ "openinference.span.kind": "LLM", "llm.tools.0.tool.json_schema": "{not json" }),
    ).toMatch(
      /^\.attributes\['llm\.tools\.0\.tool\.json_schema'\]: 'llm\.tools' is not valid JSON/,
    );
    expect(problem({ "openinference.span.kind": "LLM", "llm.invocation_parameters": "[" })).toMatch(
      /^\.attributes\['llm\.invocation_parameters'\]: 'llm\.invocation_parameters' is not valid JSON/,
    );
    expect(
      problem({
        "ai.operationId": "ai.streamText.doStream",
        "ai.prompt.tools": { arrayValue: { values: [str("{}"), str("x")] } },
      }),
    ).toMatch(/^\.attributes\['ai\.prompt\.tools'\]\[1\]: 'ai\.prompt\.tools' is not valid JSON/);
    expect(
      problem({
        "llm.request.type": "chat",
        "gen_ai.prompt.0.role": "user",
        "llm.request.functions.0.name": { intValue: 3 },
      }),
    ).toBe(
      ".attributes['llm.request.functions.0.name']: 'llm.request.functions': a tool name must be a string",
    );
  });

  it("are tried in order: a span with the current GenAI attributes is read as such, whatever else it has", () => {
    const both = { "gen_ai.operation.name": "chat", "openinference.span.kind": "LLM" };
    expect(read(both)).toMatchObject({ kind: "inference", convention: "gen_ai" });
    expect(read({ "openinference.span.kind": "LLM" })).toMatchObject({
      convention: "openinference",
    });
    expect(read({ "openinference.span.kind": "CHAIN" })).toBeUndefined();
    expect(read({ "ai.operationId": "ai.generateText" })).toBeUndefined();
    expect(read({ "openinference.span.kind": "TOOL", "tool.name": "t" })).toEqual({
      kind: "tool",
      name: "t",
    });
  });

  it("order indexed attributes by their indexes, not their place", () => {
    expect(
      read({
        "llm.request.type": "chat",
        "gen_ai.prompt.0.role": "user",
        "llm.request.functions.10.name": "k",
        "llm.request.functions.2.name": "c",
        "gen_ai.completion.1.tool_calls.0.name": "second",
        "gen_ai.completion.0.tool_calls.1.name": "b",
        "gen_ai.completion.0.tool_calls.0.name": "a",
      }),
    ).toMatchObject({ offered: ["c", "k"], called: ["a", "b", "second"], toolChoice: null });
  });
});

describe("a legacy function call", () => {
  it("is a call, before its message's tool calls, in the older GenAI attributes and in OpenInference's", () => {
    expect(
      read({
        "llm.request.type": "chat",
        "gen_ai.completion.1.tool_calls.0.name": "later",
        "gen_ai.completion.0.function_call.name": "get_weather",
      }),
    ).toMatchObject({ convention: "gen_ai_older", called: ["get_weather", "later"] });
    expect(
      read({
        "openinference.span.kind": "LLM",
        "llm.output_messages.0.message.tool_calls.0.tool_call.function.name": "after",
        "llm.output_messages.0.message.function_call_name": "get_weather",
      }),
    ).toMatchObject({ convention: "openinference", called: ["get_weather", "after"] });
  });
});

describe("log records", () => {
  const logs = (record: Record<string, unknown>) =>
    readRequest({ resourceLogs: [{ scopeLogs: [{ logRecords: [record] }] }] });
  const ids = { traceId: TRACE_A, spanId: "00000000000000a1" };

  it("give a gen_ai.choice record's tool calls, and none for a choice without any; other records are not read", () => {
    const choice = (message: unknown) => ({
      ...ids,
      attributes: attrs({ "event.name": "gen_ai.choice" }),
      body: { kvlistValue: { values: [{ key: "message", value: message }] } },
    });
    const call = (name: string) => ({
      kvlistValue: {
        values: [
          {
            key: "function",
            value: { kvlistValue: { values: [{ key: "name", value: str(name) }] } },
          },
        ],
      },
    });
    const calls = {
      kvlistValue: {
        values: [{ key: "tool_calls", value: { arrayValue: { values: [call("a"), call("b")] } } }],
      },
    };
    expect(logs(choice(calls)).records).toEqual([{ ...ids, called: ["a", "b"] }]);
    expect(logs(choice({ kvlistValue: { values: [] } })).records).toEqual([{ ...ids, called: [] }]);
    expect(
      logs({ ...ids, attributes: attrs({ "event.name": "gen_ai.user.message" }) }).records,
    ).toEqual([]);
    expect(logs({ attributes: attrs({ "event.name": "other" }) })).toMatchObject({
      records: [],
      problems: [],
    });
  });

  it("read an operation.details record's output messages, by its eventName", () => {
    const output = [{ role: "assistant", parts: [{ type: "tool_call", name: "get_weather" }] }];
    expect(
      logs({
        ...ids,
        eventName: "gen_ai.client.inference.operation.details",
        attributes: attrs({ "gen_ai.output.messages": JSON.stringify(output) }),
      }).records,
    ).toEqual([{ ...ids, called: ["get_weather"] }]);
  });
});
