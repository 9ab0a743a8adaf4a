/**
 * The Vercel AI SDK's own telemetry, around its OpenAI provider (`openai.chat` for Chat Completions,
 * `openai.responses` for the Responses API), with `generateText` and `streamText` and tools that run:
 * AI SDK 7 with `@ai-sdk/otel`'s `OpenTelemetry` integration (the GenAI attributes; `toolChoice: true`
 * records the tool choice) or its `LegacyOpenTelemetry` (the older `ai.*` spans), or AI SDK 6's
 * built-in `experimental_telemetry` (`ai.*` spans).
 *
 *   node libs/ai-sdk.mjs 7-otel|7-legacy|6
 */
import { LegacyOpenTelemetry, OpenTelemetry } from "@ai-sdk/otel";
import { z } from "zod";
import { INSTRUCTIONS, MODEL, TOOLS, drain, startRecorder, versionOf } from "../common.mjs";

const v7 = (integration) => ({
  ai: "ai",
  provider: "@ai-sdk/openai",
  library: {
    name: "@ai-sdk/otel",
    version: versionOf("@ai-sdk/otel"),
    integration: integration.name,
  },
  telemetry: (capture) => ({
    telemetry: { integrations: integration(), recordInputs: capture, recordOutputs: capture },
  }),
});
const LINES = {
  "7-otel": v7(function OpenTelemetryIntegration() {
    return new OpenTelemetry({ toolChoice: true });
  }),
  "7-legacy": v7(function LegacyOpenTelemetryIntegration() {
    return new LegacyOpenTelemetry();
  }),
  6: {
    ai: "ai-6",
    provider: "ai-sdk-openai-3",
    library: { name: "ai", version: versionOf("ai-6"), integration: "experimental_telemetry" },
    telemetry: (capture) => ({
      experimental_telemetry: { isEnabled: true, recordInputs: capture, recordOutputs: capture },
    }),
  },
};
const lineName = process.argv[2];
const line = LINES[lineName];
if (!line) throw new Error(`usage: node libs/ai-sdk.mjs ${Object.keys(LINES).join("|")}`);

const { generateText, streamText, tool } = await import(line.ai);
const { createOpenAI } = await import(line.provider);
const recorder = await startRecorder({
  dir: `ai-sdk-${lineName}`,
  service: `agent-ai-sdk-${lineName}`,
  library: line.library,
  client: {
    name: "ai",
    version: versionOf(line.ai),
    provider: `@ai-sdk/openai ${versionOf(line.provider)}`,
  },
});
const openai = createOpenAI({ baseURL: recorder.baseURL, apiKey: "test-key" });

function request(scenario, { api, capture }) {
  return {
    model: api === "responses" ? openai.responses(MODEL) : openai.chat(MODEL),
    system: INSTRUCTIONS,
    prompt: scenario.query,
    maxRetries: 0,
    tools: Object.fromEntries(
      scenario.offer.map((name) => [
        name,
        tool({
          description: TOOLS[name],
          inputSchema: z.object({ query: z.string().describe("what to look up") }),
          execute: async ({ query }) => `${name}: ${query} is sunny`,
        }),
      ]),
    ),
    ...(scenario.force && { toolChoice: { type: "tool", toolName: scenario.force } }),
    ...line.telemetry(capture),
  };
}

async function turn(scenario, { api = "chat.completions", stream = false, capture = true } = {}) {
  if (!stream) return generateText(request(scenario, { api, capture }));
  await drain(streamText(request(scenario, { api, capture })).fullStream);
}

await recorder.variant("chat", { api: "chat.completions" }, (s) => turn(s));
await recorder.variant("stream", { api: "chat.completions" }, (s) => turn(s, { stream: true }));
await recorder.variant("responses", { api: "responses" }, (s) => turn(s, { api: "responses" }));
await recorder.variant("dropped", { api: "chat.completions" }, (s) => turn(s));
await recorder.variant("forced", { api: "chat.completions" }, (s) => turn(s));
await recorder.variant("capture-off", { api: "chat.completions", capture: false }, (s) =>
  turn(s, { capture: false }),
);
await recorder.close();
