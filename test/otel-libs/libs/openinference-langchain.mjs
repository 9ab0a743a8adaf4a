/**
 * OpenInference's LangChain instrumentation, `@arizeai/openinference-instrumentation-langchain`,
 * around LangChain.js's `ChatOpenAI` (tools bound with `bindTools`; Chat Completions, streaming and
 * the Responses API) and a LangGraph agent (a model node and a tool node, so a turn is two model
 * calls and a tool run). Its trace config is fixed when it is made, so `capture-off` is a run of its own.
 *
 *   node libs/openinference-langchain.mjs [capture-off]
 */
import { LangChainInstrumentation } from "@arizeai/openinference-instrumentation-langchain";
import * as CallbackManagerModule from "@langchain/core/callbacks/manager";
import { tool } from "@langchain/core/tools";
import { END, MessagesAnnotation, START, StateGraph } from "@langchain/langgraph";
import { ToolNode } from "@langchain/langgraph/prebuilt";
import { ChatOpenAI } from "@langchain/openai";
import { z } from "zod";
import {
  INSTRUCTIONS,
  MODEL,
  TOOLS,
  chatTools,
  drain,
  startRecorder,
  versionOf,
} from "../common.mjs";

const captureOff = process.argv[2] === "capture-off";
const recorder = await startRecorder({
  dir: "openinference-langchain",
  service: "agent-openinference-langchain",
  library: {
    name: "@arizeai/openinference-instrumentation-langchain",
    version: versionOf("@arizeai/openinference-instrumentation-langchain"),
  },
  client: { name: "@langchain/openai", version: versionOf("@langchain/openai") },
});
const instrumentation = new LangChainInstrumentation({
  tracerProvider: recorder.tracerProvider,
  traceConfig: captureOff ? { hideInputs: true, hideOutputs: true } : {},
});
instrumentation.manuallyInstrument(CallbackManagerModule);

const model = (useResponsesApi = false) =>
  new ChatOpenAI({
    model: MODEL,
    apiKey: "test-key",
    configuration: { baseURL: recorder.baseURL },
    maxRetries: 0,
    useResponsesApi,
  });
const messages = (scenario) => [
  { role: "system", content: INSTRUCTIONS },
  { role: "user", content: scenario.query },
];
const bound = (scenario, useResponsesApi = false) =>
  model(useResponsesApi).bindTools(
    chatTools(scenario.offer),
    scenario.force ? { tool_choice: scenario.force } : {},
  );

async function chat(scenario, { stream = false, useResponsesApi = false } = {}) {
  const runnable = bound(scenario, useResponsesApi);
  return stream
    ? drain(await runnable.stream(messages(scenario)))
    : runnable.invoke(messages(scenario));
}

/** A LangGraph agent: the model node, then its tool calls run by a tool node, then the model again. */
async function graph(scenario) {
  const tools = scenario.offer.map((name) =>
    tool(async ({ query }) => `${name}: ${query} is sunny`, {
      name,
      description: TOOLS[name],
      schema: z.object({ query: z.string().describe("what to look up") }),
    }),
  );
  const agentModel = model().bindTools(tools);
  const app = new StateGraph(MessagesAnnotation)
    .addNode("agent", async (state) => ({ messages: [await agentModel.invoke(state.messages)] }))
    .addNode("tools", new ToolNode(tools))
    .addEdge(START, "agent")
    .addConditionalEdges("agent", (state) =>
      state.messages.at(-1).tool_calls?.length ? "tools" : END,
    )
    .addEdge("tools", "agent")
    .compile();
  return app.invoke({ messages: messages(scenario) }, { recursionLimit: 6 });
}

if (captureOff) {
  await recorder.variant("capture-off", { api: "chat.completions", capture: false }, (s) =>
    chat(s),
  );
} else {
  await recorder.variant("chat", { api: "chat.completions" }, (s) => chat(s));
  await recorder.variant("stream", { api: "chat.completions" }, (s) => chat(s, { stream: true }));
  await recorder.variant("responses", { api: "responses" }, (s) =>
    chat(s, { useResponsesApi: true }),
  );
  await recorder.variant("dropped", { api: "chat.completions" }, (s) => chat(s));
  await recorder.variant("forced", { api: "chat.completions" }, (s) => chat(s));
  await recorder.variant("langgraph", { api: "chat.completions", scenarios: ["plain"] }, (s) =>
    graph(s),
  );
}
await recorder.close();
