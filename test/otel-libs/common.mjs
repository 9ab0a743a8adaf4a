/**
 * What every library's runner shares: the OpenTelemetry SDK set up to write OTLP/JSON lines (the
 * Collector file exporter's shape, serialised by the SDK's own `@opentelemetry/otlp-transformer`),
 * the fake model server, the turns an agent plays, and the truth file of what each turn sent.
 */
import { createHash } from "node:crypto";
import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { context, logs, trace } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import {
  JsonLogsSerializer,
  JsonTraceSerializer,
  ProtobufLogsSerializer,
  ProtobufTraceSerializer,
} from "@opentelemetry/otlp-transformer";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { BatchLogRecordProcessor, LoggerProvider } from "@opentelemetry/sdk-logs";
import { BatchSpanProcessor, TracerProvider } from "@opentelemetry/sdk-trace";
import { startFakeModelServer } from "./server.mjs";

export const RECORDINGS = new URL("./recordings/", import.meta.url).pathname;

/** The installed version of a package (by its folder in node_modules, so an npm alias works too). */
export const versionOf = (name) =>
  JSON.parse(readFileSync(new URL(`./node_modules/${name}/package.json`, import.meta.url), "utf8"))
    .version;

/** The model every scenario asks for, and the agent's system prompt. */
export const MODEL = "gpt-4o-mini";
export const INSTRUCTIONS = "You are a weather agent.";

/** Every tool takes the same argument, so every library's schema validation accepts the fake call. */
export const PARAMETERS = {
  type: "object",
  properties: { query: { type: "string", description: "what to look up" } },
  required: ["query"],
  additionalProperties: false,
};
export const TOOLS = {
  get_weather: "The weather for a city.",
  search: "Searches the web.",
  sql: "Runs a read-only SQL query.",
  send_email: "Sends an email.",
  final_answer: "Answers the user.",
};

/** Chat Completions tool definitions of these names. */
export const chatTools = (names) =>
  names.map((name) => ({
    type: "function",
    function: { name, description: TOOLS[name], parameters: PARAMETERS },
  }));
/** Responses API tool definitions of these names. */
export const responsesTools = (names) =>
  names.map((name) => ({
    type: "function",
    name,
    description: TOOLS[name],
    parameters: PARAMETERS,
    strict: false,
  }));

const record = (stage, action, kept, dropped, forced = null, detail = `${stage} stage`) => ({
  stage,
  action,
  kept,
  dropped,
  added: [],
  reinstated: [],
  forced_choice: forced,
  detail,
});

/**
 * The turns an agent plays. `offer` is what the agent sends the model; `force` the tool its request
 * forces (null: tool_choice left out). `dropped` offers a tool the pipeline dropped; `forced_not_sent`
 * is a pipeline that forced a tool whose request did not force it.
 */
export const SCENARIOS = {
  plain: {
    query: "weather in Oslo",
    trace: [
      record("intent", "select", ["get_weather", "final_answer"], ["search", "sql", "send_email"]),
    ],
    tools: ["get_weather", "final_answer"],
    forced_choice: null,
    offer: ["get_weather", "final_answer"],
    force: null,
  },
  follow_up: {
    query: "email it to me",
    trace: [
      record("intent", "select", ["send_email", "final_answer"], ["get_weather", "search", "sql"]),
    ],
    tools: ["send_email", "final_answer"],
    forced_choice: null,
    offer: ["send_email", "final_answer"],
    force: null,
  },
  dropped: {
    query: "weather in Oslo, and search the news",
    trace: [
      record("intent", "select", ["get_weather", "final_answer"], ["search", "sql", "send_email"]),
    ],
    tools: ["get_weather", "final_answer"],
    forced_choice: null,
    offer: ["search", "get_weather", "final_answer"],
    force: null,
  },
  forced: {
    query: "weather in Oslo now",
    trace: [
      record("intent", "select", ["get_weather", "search", "final_answer"], ["sql", "send_email"]),
      record(
        "forced",
        "force",
        ["get_weather", "search", "final_answer"],
        [],
        "get_weather",
        "resolver forces 'get_weather'",
      ),
    ],
    tools: ["get_weather", "search", "final_answer"],
    forced_choice: "get_weather",
    offer: ["get_weather", "search", "final_answer"],
    force: "get_weather",
  },
  forced_not_sent: {
    query: "weather in Bergen now",
    trace: [
      record("intent", "select", ["get_weather", "search", "final_answer"], ["sql", "send_email"]),
      record(
        "forced",
        "force",
        ["get_weather", "search", "final_answer"],
        [],
        "get_weather",
        "resolver forces 'get_weather'",
      ),
    ],
    tools: ["get_weather", "search", "final_answer"],
    forced_choice: "get_weather",
    offer: ["search", "get_weather", "final_answer"],
    force: null,
  },
};

/** The scenarios of each usual variant, in turn order. */
export const VARIANT_SCENARIOS = {
  chat: ["plain", "follow_up"],
  stream: ["plain"],
  responses: ["plain"],
  "responses-stream": ["plain"],
  dropped: ["dropped"],
  forced: ["forced", "forced_not_sent"],
  "capture-off": ["plain"],
};

/** JSON indented for review, with each list of plain values (tool names) on one line. */
const PLAIN = String.raw`(?:"(?:[^"\\]|\\.)*"|-?[\d.eE+-]+|true|false|null)`;
const PLAIN_LIST = new RegExp(String.raw`\[\s+${PLAIN}(?:,\s+${PLAIN})*\s+\]`, "g");
const readableJson = (value) =>
  JSON.stringify(value, null, 2).replace(
    PLAIN_LIST,
    (list) =>
      `[${JSON.parse(list)
        .map((item) => JSON.stringify(item))
        .join(", ")}]`,
  );

/** Reads a stream to its end (the instrumentation ends its span there); returns how many items it held. */
export async function drain(stream) {
  let count = 0;
  for await (const item of stream) if (item !== undefined) count++;
  return count;
}

/**
 * One turn's model call through an `openai` client: Chat Completions or the Responses API, plain or
 * streamed, offering the scenario's tools and forcing its tool when it forces one.
 */
export function openaiCalls(openai) {
  async function chat(scenario, stream = false) {
    const request = {
      model: MODEL,
      messages: [
        { role: "system", content: INSTRUCTIONS },
        { role: "user", content: scenario.query },
      ],
      tools: chatTools(scenario.offer),
      ...(scenario.force && {
        tool_choice: { type: "function", function: { name: scenario.force } },
      }),
    };
    if (!stream) return openai.chat.completions.create(request);
    await drain(
      await openai.chat.completions.create({
        ...request,
        stream: true,
        stream_options: { include_usage: true },
      }),
    );
  }
  async function responses(scenario, stream = false) {
    const request = {
      model: MODEL,
      instructions: INSTRUCTIONS,
      input: scenario.query,
      tools: responsesTools(scenario.offer),
      ...(scenario.force && { tool_choice: { type: "function", name: scenario.force } }),
    };
    if (!stream) return openai.responses.create(request);
    await drain(await openai.responses.create({ ...request, stream: true }));
  }
  return { chat, responses };
}

/**
 * Appends each batch as one OTLP/JSON line, as the Collector's file exporter does; with a
 * `protobufPath`, also writes the batch as the protobuf request body an OTLP/HTTP exporter sends.
 */
class LineExporter {
  constructor(serializer, protobuf) {
    this.serializer = serializer;
    this.protobuf = protobuf;
    this.path = null;
    this.protobufPath = null;
  }
  export(items, done) {
    if (this.path && items.length > 0) {
      appendFileSync(
        this.path,
        Buffer.from(this.serializer.serializeRequest(items)).toString("utf8") + "\n",
      );
    }
    if (this.protobufPath && items.length > 0) {
      writeFileSync(this.protobufPath, this.protobuf.serializeRequest(items));
    }
    done({ code: 0 });
  }
  forceFlush() {
    return Promise.resolve();
  }
  shutdown() {
    return Promise.resolve();
  }
}

/**
 * Trace and span ids drawn from a hash of the variant's name and a counter, so that recording again
 * gives the same ids (the times still change) and no two variants share a trace id.
 */
class VariantIds {
  seed = "";
  count = 0;
  start(seed) {
    this.seed = seed;
    this.count = 0;
  }
  next(hexDigits) {
    return createHash("sha256")
      .update(`${this.seed}:${this.count++}`)
      .digest("hex")
      .slice(0, hexDigits);
  }
  generateTraceId() {
    return this.next(32);
  }
  generateSpanId() {
    return this.next(16);
  }
}

/**
 * Registers a tracer and a logger provider globally, starts the fake model server, and returns a
 * recorder whose `variant` runs turns into a variant's files and truth.
 */
export async function startRecorder({ dir, service, library, client }) {
  const contextManager = new AsyncLocalStorageContextManager().enable();
  context.setGlobalContextManager(contextManager);
  const resource = resourceFromAttributes({ "service.name": service });
  const spanExporter = new LineExporter(JsonTraceSerializer, ProtobufTraceSerializer);
  const logExporter = new LineExporter(JsonLogsSerializer, ProtobufLogsSerializer);
  // Exported only when a turn ends (forceFlush): one line per turn and signal.
  const batch = {
    scheduledDelayMillis: 3_600_000,
    maxQueueSize: 10_000,
    maxExportBatchSize: 10_000,
  };
  const ids = new VariantIds();
  const tracerProvider = new TracerProvider({
    resource,
    idGenerator: ids,
    spanProcessors: [new BatchSpanProcessor({ exporter: spanExporter, ...batch })],
  });
  const loggerProvider = new LoggerProvider({
    resource,
    processors: [new BatchLogRecordProcessor({ exporter: logExporter, ...batch })],
  });
  trace.setGlobalTracerProvider(tracerProvider);
  logs.setGlobalLoggerProvider(loggerProvider);
  const agentTracer = tracerProvider.getTracer("palette-inspector/otel-libs/agent");
  const server = await startFakeModelServer();
  const folder = join(RECORDINGS, dir);
  mkdirSync(folder, { recursive: true });

  /** Exports what the turn wrote: spans then log records, or log records first. */
  async function flush(logsFirst = false) {
    const providers = logsFirst
      ? [loggerProvider, tracerProvider]
      : [tracerProvider, loggerProvider];
    for (const provider of providers) await provider.forceFlush();
  }

  /**
   * Records one variant: `files` "mixed" writes spans and log records to one file, "logs-first" the
   * same with each turn's log records before its spans (a Collector writes each signal's batch when
   * it comes), "separate" to two files. `protobuf` (a variant of one turn) also writes each
   * signal's request as protobuf. `play(scenario)` makes the model call(s) of one turn inside the
   * turn's span.
   */
  async function variant(
    name,
    { capture = true, files = "mixed", protobuf = false, scenarios = VARIANT_SCENARIOS[name], api },
    play,
  ) {
    const base = join(folder, name);
    const paths =
      files === "separate"
        ? { spans: `${base}.spans.otlp.jsonl`, logs: `${base}.logs.otlp.jsonl` }
        : { spans: `${base}.otlp.jsonl`, logs: `${base}.otlp.jsonl` };
    for (const path of new Set(Object.values(paths))) writeFileSync(path, "");
    if (protobuf && scenarios.length !== 1)
      throw new Error(`${name}: protobuf holds one turn's request`);
    const protobufPaths = protobuf
      ? { spans: `${base}.spans.otlp.pb`, logs: `${base}.logs.otlp.pb` }
      : { spans: null, logs: null };
    spanExporter.protobufPath = protobufPaths.spans;
    logExporter.protobufPath = protobufPaths.logs;
    ids.start(`${dir}/${name}`);
    spanExporter.path = paths.spans;
    logExporter.path = paths.logs;
    const turns = [];
    for (const [index, key] of scenarios.entries()) {
      const scenario = SCENARIOS[key];
      const selection = {
        turn_id: `${dir}-${name}-${index + 1}`,
        trace: scenario.trace,
        tools: scenario.tools,
        forced_choice: scenario.forced_choice,
        turn: { query: scenario.query },
      };
      const first = server.received.length;
      const root = agentTracer.startSpan("agent.turn");
      root.addEvent("symfonic.tool_selection", { "symfonic.selection": JSON.stringify(selection) });
      const { traceId, spanId } = root.spanContext();
      try {
        await context.with(trace.setSpan(context.active(), root), () => play(scenario, selection));
      } finally {
        root.end();
        await flush(files === "logs-first");
      }
      turns.push({
        turn_id: selection.turn_id,
        scenario: key,
        trace_id: traceId,
        span_id: spanId,
        selection,
        sent: server.received.slice(first),
      });
    }
    spanExporter.path = spanExporter.protobufPath = null;
    logExporter.path = logExporter.protobufPath = null;
    const truth = {
      library,
      client,
      variant: name,
      api,
      capture,
      layout: files,
      files: [...new Set(Object.values(paths))].map((path) => path.slice(folder.length + 1)),
      ...(protobuf && {
        protobuf: Object.values(protobufPaths)
          .filter((path) => existsSync(path))
          .map((path) => path.slice(folder.length + 1)),
      }),
      turns,
    };
    writeFileSync(`${base}.truth.json`, readableJson(truth) + "\n");
    console.log(
      `${dir}/${name}: ${turns.length} turns, ${turns.reduce((n, t) => n + t.sent.length, 0)} requests`,
    );
  }

  async function close() {
    await flush();
    await server.close();
    await tracerProvider.shutdown();
    await loggerProvider.shutdown();
  }

  return { baseURL: server.baseURL, tracerProvider, loggerProvider, variant, close };
}
