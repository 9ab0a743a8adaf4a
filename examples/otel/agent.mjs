#!/usr/bin/env node
/**
 * Plays three turns of an agent through the OpenTelemetry JS SDK: each turn's span holds a
 * `symfonic.tool_selection` event, a GenAI inference span carries the tools sent to the model
 * and its output, and the tools it ran are execute_tool spans (docs/formats.md, "Selection
 * traces in OpenTelemetry").
 *
 *   node examples/otel/agent.mjs --url http://127.0.0.1:4318/v1/traces [--protocol json|protobuf]
 *   node examples/otel/agent.mjs --file turns.otlp.jsonl
 */
import { appendFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { BasicTracerProvider, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { OTLPTraceExporter as JsonExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { OTLPTraceExporter as ProtoExporter } from "@opentelemetry/exporter-trace-otlp-proto";
import { JsonTraceSerializer } from "@opentelemetry/otlp-transformer";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { context, trace } from "@opentelemetry/api";

const { values } = parseArgs({
  options: {
    url: { type: "string" },
    protocol: { type: "string", default: "json" },
    file: { type: "string" },
  },
});

/** Writes each batch as one OTLP/JSON line, as the Collector's file exporter does. */
class FileExporter {
  constructor(path) {
    this.path = path;
  }
  export(spans, done) {
    appendFileSync(this.path, Buffer.from(JsonTraceSerializer.serializeRequest(spans)).toString() + "\n");
    done({ code: 0 });
  }
  shutdown() {
    return Promise.resolve();
  }
}

if (!values.file && !values.url) {
  console.error("usage: node examples/otel/agent.mjs --url http://127.0.0.1:4318/v1/traces | --file FILE");
  process.exit(2);
}
const inner = values.file
  ? new FileExporter(values.file)
  : values.protocol === "protobuf"
    ? new ProtoExporter({ url: values.url })
    : new JsonExporter({ url: values.url });
/** What the exporter delivered and what it could not, to say at the end. */
const sent = { spans: 0, failures: [] };
const exporter = {
  export(spans, done) {
    inner.export(spans, (result) => {
      if (result.code === 0) sent.spans += spans.length;
      else sent.failures.push(result.error?.message ?? "the export failed");
      done(result);
    });
  },
  shutdown: () => inner.shutdown(),
  forceFlush: () => inner.forceFlush?.() ?? Promise.resolve(),
};
const provider = new BasicTracerProvider({
  resource: resourceFromAttributes({ "service.name": "weather-agent" }),
  spanProcessors: [new SimpleSpanProcessor(exporter)],
});
const tracer = provider.getTracer("examples/otel/agent");

const record = (stage, kept, dropped, added = []) => ({
  stage,
  action: "select",
  kept,
  dropped,
  added,
  reinstated: [],
  forced_choice: null,
  detail: `${stage} stage`,
});

/** What each turn selected, what the model was sent, and what it called. */
const TURNS = [
  {
    id: "turn-1",
    query: "weather in Oslo",
    trace: [record("intent", ["get_weather", "final_answer"], ["search", "sql"])],
    tools: ["get_weather", "final_answer"],
    offered: ["get_weather", "final_answer"],
    calls: { messages: ["get_weather"] },
  },
  {
    id: "turn-2",
    query: "and tomorrow?",
    trace: [record("intent", ["get_weather", "final_answer"], ["search"])],
    tools: ["get_weather", "final_answer"],
    // The runtime added a tool after the selection: the model got what the pipeline did not decide.
    offered: ["get_weather", "final_answer", "search"],
    calls: { executed: ["get_weather", "search"] },
  },
  {
    id: "turn-3",
    query: "email it to me",
    trace: [record("intent", ["send_email", "final_answer"], ["sql"])],
    tools: ["send_email", "final_answer"],
    offered: ["final_answer"],
    calls: { messages: ["send_email"] },
  },
];

let clock = Date.UTC(2026, 11, 1, 9, 0, 0);
const at = () => new Date((clock += 10));

for (const turn of TURNS) {
  const root = tracer.startSpan("agent.turn", { startTime: at() });
  root.addEvent(
    "symfonic.tool_selection",
    {
      "symfonic.selection": JSON.stringify({
        turn_id: turn.id,
        trace: turn.trace,
        tools: turn.tools,
        turn: { query: turn.query },
      }),
    },
    at(),
  );
  const parent = trace.setSpan(context.active(), root);
  const chatStart = at();
  const chat = tracer.startSpan(
    "chat gpt-4o",
    {
      startTime: chatStart,
      attributes: {
        "gen_ai.operation.name": "chat",
        "gen_ai.request.model": "gpt-4o",
        "gen_ai.tool.definitions": JSON.stringify(
          turn.offered.map((name) => ({ type: "function", function: { name } })),
        ),
        ...(turn.calls.messages && {
          "gen_ai.output.messages": JSON.stringify([
            {
              role: "assistant",
              parts: turn.calls.messages.map((name, i) => ({
                type: "tool_call",
                id: `call_${i}`,
                name,
                arguments: {},
              })),
            },
          ]),
        }),
      },
    },
    parent,
  );
  chat.end(at());
  for (const name of turn.calls.executed ?? []) {
    const tool = tracer.startSpan(
      `execute_tool ${name}`,
      { startTime: at(), attributes: { "gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": name } },
      parent,
    );
    tool.end(at());
  }
  root.end(at());
}
try {
  await provider.forceFlush();
  await provider.shutdown();
} catch (error) {
  // The SDK rejects with the exporter's errors (a list of them); it said them in the failures too.
  const first = Array.isArray(error) ? error[0] : error;
  sent.failures.push(first instanceof Error ? first.message : String(first));
}
const where = values.file ?? `${values.url} (OTLP/HTTP, ${values.protocol})`;
if (sent.failures.length > 0) {
  console.error(`Could not send every span to ${where}: ${sent.failures[0]}`);
  process.exitCode = 1;
} else console.log(`Sent ${TURNS.length} turns (${sent.spans} spans) to ${where}.`);
