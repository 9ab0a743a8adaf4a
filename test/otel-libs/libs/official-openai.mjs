/**
 * The official OpenTelemetry instrumentation, `@opentelemetry/instrumentation-openai`, around the
 * `openai` client: Chat Completions (plain and streaming) and the Responses API, with message
 * content captured (written as OTLP log records) and without.
 */
import { createRequire } from "node:module";
import { registerInstrumentations } from "@opentelemetry/instrumentation";
import { OpenAIInstrumentation } from "@opentelemetry/instrumentation-openai";
import { openaiCalls, startRecorder, versionOf } from "../common.mjs";

const require = createRequire(import.meta.url);

const recorder = await startRecorder({
  dir: "official-openai",
  service: "agent-official-openai",
  library: {
    name: "@opentelemetry/instrumentation-openai",
    version: versionOf("@opentelemetry/instrumentation-openai"),
  },
  client: { name: "openai", version: versionOf("openai") },
});
const instrumentation = new OpenAIInstrumentation({ captureMessageContent: true });
registerInstrumentations({
  instrumentations: [instrumentation],
  tracerProvider: recorder.tracerProvider,
  loggerProvider: recorder.loggerProvider,
});
// Required after the instrumentation is registered, so that it is patched.
const { OpenAI } = require("openai");
const openai = new OpenAI({ baseURL: recorder.baseURL, apiKey: "test-key", maxRetries: 0 });

const { chat, responses } = openaiCalls(openai);

await recorder.variant("chat", { api: "chat.completions" }, (s) => chat(s));
await recorder.variant(
  "chat-separate-files",
  { api: "chat.completions", files: "separate", protobuf: true, scenarios: ["plain"] },
  (s) => chat(s),
);
await recorder.variant(
  "chat-logs-first",
  { api: "chat.completions", files: "logs-first", scenarios: ["plain", "follow_up"] },
  (s) => chat(s),
);
await recorder.variant("stream", { api: "chat.completions" }, (s) => chat(s, true));
await recorder.variant("responses", { api: "responses" }, (s) => responses(s));
await recorder.variant("responses-stream", { api: "responses" }, (s) => responses(s, true));
await recorder.variant("dropped", { api: "chat.completions" }, (s) => chat(s));
await recorder.variant("forced", { api: "chat.completions" }, (s) => chat(s));
await recorder.variant("forced-responses", { api: "responses", scenarios: ["forced"] }, (s) =>
  responses(s),
);
instrumentation.setConfig({ captureMessageContent: false });
await recorder.variant("capture-off", { api: "chat.completions", capture: false }, (s) => chat(s));
await recorder.close();
