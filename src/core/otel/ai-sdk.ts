/**
 * The AI SDK's own `ai.*` spans (AI SDK 6, and AI SDK 7's LegacyOpenTelemetry): a model call is an
 * `ai.generateText.doGenerate` or `ai.streamText.doStream` span (`ai.operationId`), its model
 * `ai.model.id`; it offers `ai.prompt.tools` (a list of JSON texts, one per tool), sends
 * `ai.prompt.toolChoice` (JSON) and calls `ai.response.toolCalls` (JSON). A tool runs in an
 * `ai.toolCall` span named by `ai.toolCall.name`. Inputs are recorded when `ai.prompt.messages`
 * is, outputs when `ai.response.text` or `ai.response.toolCalls` is.
 */
import { isJsonObject } from "../traces/trace.js";
import {
  attributePath,
  definitionName,
  nameList,
  structured,
  text,
  type ConventionReader,
} from "./span-view.js";
import { requestToolChoice } from "./tool-choice.js";

const OPERATION = "ai.operationId";
const MODEL = "ai.model.id";
const MESSAGES = "ai.prompt.messages";
const TOOLS = "ai.prompt.tools";
const TOOL_CHOICE = "ai.prompt.toolChoice";
const TEXT = "ai.response.text";
const TOOL_CALLS = "ai.response.toolCalls";
const TOOL_NAME = "ai.toolCall.name";
const MODEL_CALLS = new Set(["ai.generateText.doGenerate", "ai.streamText.doStream"]);

export const aiSdk: ConventionReader = {
  convention: "ai_sdk",
  keys: [OPERATION, MODEL, MESSAGES, TOOLS, TOOL_CHOICE, TEXT, TOOL_CALLS, TOOL_NAME],
  read(span) {
    const operation = span.value(OPERATION);
    if (operation === "ai.toolCall") {
      const tool = span.value(TOOL_NAME);
      return typeof tool === "string" ? { kind: "tool", name: tool } : undefined;
    }
    if (typeof operation !== "string" || !MODEL_CALLS.has(operation)) return undefined;
    const inputs = span.value(MESSAGES) !== undefined;
    const offered = offeredTools(span.value(TOOLS), inputs);
    const choice = span.value(TOOL_CHOICE);
    return {
      kind: "inference",
      convention: "ai_sdk",
      model: text(span.value(MODEL)),
      offered,
      called: calledTools(span.value(TOOL_CALLS), span.value(TEXT) !== undefined),
      toolChoice:
        choice === undefined
          ? null
          : requestToolChoice(structured(choice, CHOICE_AT, WHAT_CHOICE), offered),
    };
  },
};

const TOOLS_AT = attributePath(TOOLS);
const CHOICE_AT = attributePath(TOOL_CHOICE);
const CALLS_AT = attributePath(TOOL_CALLS);
const WHAT_CHOICE = `'${TOOL_CHOICE}'`;

function offeredTools(value: unknown, inputs: boolean): string[] | null {
  if (value === undefined || value === null) return inputs ? [] : null;
  const what = `'${TOOLS}'`;
  // Each tool is its own JSON text in a list of strings.
  const list = Array.isArray(value)
    ? value.map((item, i) => structured(item, `${TOOLS_AT}[${i}]`, what))
    : value;
  return nameList(list, TOOLS_AT, what, definitionName);
}

function calledTools(value: unknown, outputs: boolean): string[] | null {
  if (value === undefined || value === null) return outputs ? [] : null;
  const what = `'${TOOL_CALLS}'`;
  return nameList(structured(value, CALLS_AT, what), CALLS_AT, what, (call) =>
    isJsonObject(call) ? (call["toolName"] ?? null) : null,
  );
}
