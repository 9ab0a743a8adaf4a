/**
 * The OTLP benches' requests: 100 spans, 50 turns each a selection event and its inference span,
 * written in the current GenAI convention (`body`), or their inference spans
 * written in each other convention the readers know, shaped after the recordings of the real libraries
 * (test/otel-libs/recordings): OpenInference, the older GenAI attributes, the AI SDK's `ai.*`, and
 * the official OpenAI instrumentation's spans whose calls are only in OTLP log records. Each span
 * offers tools a and b and calls a.
 */
/** Request `b`: its traces, spans and ids its own, the inference spans in the current GenAI convention. */
export function body(b: number): string {
  const spans = [];
  for (let i = 0; i < 100; i += 2) {
    const traceId = `${b.toString(16).padStart(8, "0")}${"0".repeat(22)}${(i >> 1).toString(16).padStart(2, "0")}`;
    const nanos = String(BigInt(1_700_000_000_000 + i) * 1_000_000n);
    const selection = JSON.stringify({
      turn_id: `t${b}-${i}`,
      trace: [
        {
          stage: "intent",
          action: "select",
          kept: ["a", "b"],
          dropped: ["c"],
          added: [],
          reinstated: [],
          forced_choice: null,
          detail: "",
        },
      ],
      tools: ["a", "b"],
    });
    spans.push(
      {
        traceId,
        spanId: `${b.toString(16).padStart(8, "0")}${i.toString(16).padStart(8, "0")}`,
        name: "turn",
        startTimeUnixNano: nanos,
        attributes: [],
        events: [
          {
            name: "symfonic.tool_selection",
            timeUnixNano: nanos,
            attributes: [{ key: "symfonic.selection", value: { stringValue: selection } }],
          },
        ],
      },
      {
        traceId,
        spanId: `${b.toString(16).padStart(8, "0")}${(i + 1).toString(16).padStart(8, "0")}`,
        name: "chat",
        startTimeUnixNano: nanos,
        attributes: [
          { key: "gen_ai.operation.name", value: { stringValue: "chat" } },
          { key: "gen_ai.tool.definitions", value: { stringValue: '[{"name":"a"},{"name":"b"}]' } },
          {
            key: "gen_ai.output.messages",
            value: {
              stringValue: '[{"role":"assistant","parts":[{"type":"tool_call","name":"a"}]}]',
            },
          },
        ],
      },
    );
  }
  return JSON.stringify({
    resourceSpans: [{ resource: { attributes: [] }, scopeSpans: [{ spans }] }],
  });
}

type Attribute = { key: string; value: unknown };
interface Span {
  traceId: string;
  spanId: string;
  name: string;
  startTimeUnixNano: string;
  attributes: Attribute[];
}

const str = (stringValue: string) => ({ stringValue });
const attrs = (values: Record<string, unknown>): Attribute[] =>
  Object.entries(values).map(([key, value]) => ({
    key,
    value: typeof value === "string" ? str(value) : value,
  }));
const TOOLS = ["a", "b"];

/** The inference span's attributes in each convention. */
export const CONVENTIONS = {
  current: null,
  openinference: () =>
    attrs({
      "openinference.span.kind": "LLM",
      "llm.model_name": "gpt-4o",
      "llm.invocation_parameters": '{"model":"gpt-4o","tool_choice":"auto"}',
      ...Object.fromEntries(
        TOOLS.map((name, i) => [
          `llm.tools.${i}.tool.json_schema`,
          JSON.stringify({ type: "function", function: { name } }),
        ]),
      ),
      "llm.output_messages.0.message.role": "assistant",
      "llm.output_messages.0.message.tool_calls.0.tool_call.function.name": "a",
    }),
  older: () =>
    attrs({
      "gen_ai.system": "OpenAI",
      "llm.request.type": "chat",
      "gen_ai.request.model": "gpt-4o",
      "gen_ai.prompt.0.role": "user",
      "gen_ai.prompt.0.content": "weather in Oslo",
      ...Object.fromEntries(TOOLS.map((name, i) => [`llm.request.functions.${i}.name`, name])),
      "gen_ai.completion.0.role": "assistant",
      "gen_ai.completion.0.tool_calls.0.name": "a",
    }),
  ai_sdk: () =>
    attrs({
      "ai.operationId": "ai.generateText.doGenerate",
      "ai.model.id": "gpt-4o",
      "ai.prompt.tools": {
        arrayValue: {
          values: TOOLS.map((name) => str(JSON.stringify({ type: "function", name }))),
        },
      },
      "ai.prompt.toolChoice": '{"type":"auto"}',
      "ai.response.toolCalls": '[{"toolCallId":"c1","toolName":"a","input":"{}"}]',
    }),
  /** The official instrumentation's span: the model and tools, its calls in a log record. */
  logs: () =>
    attrs({
      "gen_ai.operation.name": "chat",
      "gen_ai.request.model": "gpt-4o",
      "gen_ai.system": "openai",
    }),
} as const;

export type MixedConvention = keyof typeof CONVENTIONS;

function chatSpans(request: { resourceSpans: { scopeSpans: { spans: Span[] }[] }[] }): Span[] {
  return request.resourceSpans[0]!.scopeSpans[0]!.spans.filter((span) => span.name === "chat");
}

/** Request `b` of the receiver bench, its inference spans written in `convention`. */
export function bodyIn(convention: MixedConvention, b: number): string {
  const attributes = CONVENTIONS[convention];
  if (attributes === null) return body(b);
  const request = JSON.parse(body(b)) as Parameters<typeof chatSpans>[0];
  for (const span of chatSpans(request)) span.attributes = attributes();
  return JSON.stringify(request);
}

/** The ExportLogsServiceRequest of request `b`'s model calls: a `gen_ai.choice` record each, calling a. */
export function logsBody(b: number): string {
  const call = {
    kvlistValue: {
      values: [
        { key: "id", value: str("call_1") },
        { key: "type", value: str("function") },
        {
          key: "function",
          value: {
            kvlistValue: {
              values: [
                { key: "name", value: str("a") },
                { key: "arguments", value: str("{}") },
              ],
            },
          },
        },
      ],
    },
  };
  const logRecords = chatSpans(JSON.parse(body(b)) as Parameters<typeof chatSpans>[0]).map(
    (span) => ({
      timeUnixNano: span.startTimeUnixNano,
      traceId: span.traceId,
      spanId: span.spanId,
      attributes: attrs({ "event.name": "gen_ai.choice", "gen_ai.system": "openai" }),
      body: {
        kvlistValue: {
          values: [
            { key: "finish_reason", value: str("tool_calls") },
            { key: "index", value: { intValue: 0 } },
            {
              key: "message",
              value: {
                kvlistValue: {
                  values: [{ key: "tool_calls", value: { arrayValue: { values: [call] } } }],
                },
              },
            },
          ],
        },
      },
    }),
  );
  return JSON.stringify({
    resourceLogs: [
      {
        resource: { attributes: attrs({ "service.name": "agent" }) },
        scopeLogs: [{ scope: { name: "@opentelemetry/instrumentation-openai" }, logRecords }],
      },
    ],
  });
}
