/**
 * Traceloop's OpenLLMetry, `@traceloop/instrumentation-openai`, around the `openai` client: the
 * current line (0.27, the newer GenAI attributes, Chat Completions and the Responses API) or, with
 * `0.22`, the last of the older attributes (`llm.request.functions.N.name`, `gen_ai.prompt.N.*`;
 * it instruments Chat Completions only, and only `openai` < 6).
 *
 *   node libs/traceloop.mjs 0.27|0.22
 */
import { createRequire } from "node:module";
import { registerInstrumentations } from "@opentelemetry/instrumentation";
import { openaiCalls, startRecorder, versionOf } from "../common.mjs";

const LINES = {
  0.27: { instrumentation: "@traceloop/instrumentation-openai", client: "openai", responses: true },
  0.22: {
    instrumentation: "traceloop-instrumentation-openai-0.22",
    client: "openai-5",
    responses: false,
  },
};
const lineName = process.argv[2];
const line = LINES[lineName];
if (!line) throw new Error(`usage: node libs/traceloop.mjs ${Object.keys(LINES).join("|")}`);

const require = createRequire(import.meta.url);
const recorder = await startRecorder({
  dir: `traceloop-${lineName}`,
  service: `agent-traceloop-${lineName}`,
  library: { name: "@traceloop/instrumentation-openai", version: versionOf(line.instrumentation) },
  client: { name: "openai", version: versionOf(line.client) },
});
const { OpenAIInstrumentation } = require(line.instrumentation);
const instrumentation = new OpenAIInstrumentation({ traceContent: true });
registerInstrumentations({
  instrumentations: [instrumentation],
  tracerProvider: recorder.tracerProvider,
});
// The client may sit under an npm alias, which the module hook does not know: patch it by hand.
const { OpenAI } = require(line.client);
instrumentation.manuallyInstrument(OpenAI);
const openai = new OpenAI({ baseURL: recorder.baseURL, apiKey: "test-key", maxRetries: 0 });
const { chat, responses } = openaiCalls(openai);

await recorder.variant("chat", { api: "chat.completions" }, (s) => chat(s));
await recorder.variant("stream", { api: "chat.completions" }, (s) => chat(s, true));
if (line.responses) {
  await recorder.variant("responses", { api: "responses" }, (s) => responses(s));
  await recorder.variant("responses-stream", { api: "responses" }, (s) => responses(s, true));
}
await recorder.variant("dropped", { api: "chat.completions" }, (s) => chat(s));
await recorder.variant("forced", { api: "chat.completions" }, (s) => chat(s));
if (line.responses) {
  await recorder.variant("forced-responses", { api: "responses", scenarios: ["forced"] }, (s) =>
    responses(s),
  );
}
instrumentation.setConfig({ traceContent: false });
await recorder.variant("capture-off", { api: "chat.completions", capture: false }, (s) => chat(s));
await recorder.close();
