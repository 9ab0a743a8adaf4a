/**
 * OpenInference (what Phoenix users run), `@arizeai/openinference-instrumentation-openai`, around the
 * `openai` client: Chat Completions (plain and streaming) and the Responses API. Its trace config is
 * fixed when it is made, so `capture-off` (inputs and outputs hidden) is a run of its own.
 *
 *   node libs/openinference-openai.mjs [capture-off]
 */
import { createRequire } from "node:module";
import { registerInstrumentations } from "@opentelemetry/instrumentation";
import { OpenAIInstrumentation } from "@arizeai/openinference-instrumentation-openai";
import { openaiCalls, startRecorder, versionOf } from "../common.mjs";

const captureOff = process.argv[2] === "capture-off";
const require = createRequire(import.meta.url);
const recorder = await startRecorder({
  dir: "openinference-openai",
  service: "agent-openinference-openai",
  library: {
    name: "@arizeai/openinference-instrumentation-openai",
    version: versionOf("@arizeai/openinference-instrumentation-openai"),
  },
  client: { name: "openai", version: versionOf("openai") },
});
const instrumentation = new OpenAIInstrumentation({
  traceConfig: captureOff ? { hideInputs: true, hideOutputs: true } : {},
});
registerInstrumentations({
  instrumentations: [instrumentation],
  tracerProvider: recorder.tracerProvider,
});
const openaiModule = require("openai");
instrumentation.manuallyInstrument(openaiModule);
const openai = new openaiModule.OpenAI({
  baseURL: recorder.baseURL,
  apiKey: "test-key",
  maxRetries: 0,
});
const { chat, responses } = openaiCalls(openai);

if (captureOff) {
  await recorder.variant("capture-off", { api: "chat.completions", capture: false }, (s) =>
    chat(s),
  );
} else {
  await recorder.variant("chat", { api: "chat.completions" }, (s) => chat(s));
  await recorder.variant("stream", { api: "chat.completions" }, (s) => chat(s, true));
  await recorder.variant("responses", { api: "responses" }, (s) => responses(s));
  await recorder.variant("responses-stream", { api: "responses" }, (s) => responses(s, true));
  await recorder.variant("dropped", { api: "chat.completions" }, (s) => chat(s));
  await recorder.variant("forced", { api: "chat.completions" }, (s) => chat(s));
  await recorder.variant("forced-responses", { api: "responses", scenarios: ["forced"] }, (s) =>
    responses(s),
  );
}
await recorder.close();
