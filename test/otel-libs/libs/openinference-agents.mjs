/**
 * The OpenAI Agents SDK (`@openai/agents`) with its OpenAI client instrumented by OpenInference's
 * `@arizeai/openinference-instrumentation-openai` (the SDK has no OpenTelemetry exporter of its own;
 * its own tracing, which uploads to OpenAI, is turned off). An agent turn is a model call, the tool
 * run, and a second model call with the tool's result; the Responses API by default, or Chat
 * Completions.
 */
import { createRequire } from "node:module";
import { registerInstrumentations } from "@opentelemetry/instrumentation";
import { OpenAIInstrumentation } from "@arizeai/openinference-instrumentation-openai";
import {
  Agent,
  run,
  setDefaultOpenAIClient,
  setOpenAIAPI,
  setTraceProcessors,
  setTracingDisabled,
  tool,
} from "@openai/agents";
import { z } from "zod";
import { INSTRUCTIONS, MODEL, TOOLS, drain, startRecorder, versionOf } from "../common.mjs";

const require = createRequire(import.meta.url);
const recorder = await startRecorder({
  dir: "openinference-agents",
  service: "agent-openinference-agents",
  library: {
    name: "@arizeai/openinference-instrumentation-openai",
    version: versionOf("@arizeai/openinference-instrumentation-openai"),
  },
  client: { name: "@openai/agents", version: versionOf("@openai/agents") },
});
setTracingDisabled(true);
setTraceProcessors([]);
const instrumentation = new OpenAIInstrumentation();
registerInstrumentations({
  instrumentations: [instrumentation],
  tracerProvider: recorder.tracerProvider,
});
// The SDK needs openai 7, installed under an alias; any client of that major serves it.
const openaiModule = require("openai-7");
instrumentation.manuallyInstrument(openaiModule);
setDefaultOpenAIClient(
  new openaiModule.OpenAI({ baseURL: recorder.baseURL, apiKey: "test-key", maxRetries: 0 }),
);

function agentOf(scenario) {
  return new Agent({
    name: "weather agent",
    instructions: INSTRUCTIONS,
    model: MODEL,
    tools: scenario.offer.map((name) =>
      tool({
        name,
        description: TOOLS[name],
        parameters: z.object({ query: z.string().describe("what to look up") }),
        execute: async ({ query }) => `${name}: ${query} is sunny`,
      }),
    ),
    modelSettings: scenario.force ? { toolChoice: scenario.force } : {},
  });
}

async function turn(scenario, stream = false) {
  const result = await run(agentOf(scenario), scenario.query, { maxTurns: 3, stream });
  if (stream) {
    await drain(result);
    await result.completed;
  }
}

await recorder.variant("responses", { api: "responses" }, (s) => turn(s));
await recorder.variant("responses-stream", { api: "responses" }, (s) => turn(s, true));
await recorder.variant("forced", { api: "responses", scenarios: ["forced"] }, (s) => turn(s));
setOpenAIAPI("chat_completions");
await recorder.variant("chat", { api: "chat.completions", scenarios: ["plain"] }, (s) => turn(s));
await recorder.close();
