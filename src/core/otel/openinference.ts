/**
 * OpenInference (Arize Phoenix's instrumentations): an inference span has
 * `openinference.span.kind` LLM, its model `llm.model_name`; it offers the tools of
 * `llm.tools.N.tool.json_schema` (each the tool as sent, JSON), sends the `tool_choice` inside the
 * JSON of `llm.invocation_parameters`, and calls
 * `llm.output_messages.N.message.tool_calls.M.tool_call.function.name`. A tool runs in a TOOL span
 * named by `tool.name`.
 */
import { isJsonObject } from "../traces/trace.js";
import {
  attributePath,
  definitionName,
  hasKeyStarting,
  indexed,
  indexedNames,
  pushName,
  structured,
  text,
  type ConventionReader,
} from "./span-view.js";
import { requestToolChoice } from "./tool-choice.js";

const KIND = "openinference.span.kind";
const MODEL = "llm.model_name";
const PARAMETERS = "llm.invocation_parameters";
const TOOL_NAME = "tool.name";
const TOOLS = /^llm\.tools\.(\d+)\.tool\.json_schema$/;
const CALLS =
  /^llm\.output_messages\.(\d+)\.message\.(?:tool_calls\.(\d+)\.tool_call\.function\.name|function_call_name)$/;

export const openInference: ConventionReader = {
  convention: "openinference",
  keys: [KIND, MODEL, PARAMETERS, TOOL_NAME],
  read(span) {
    const kind = span.value(KIND);
    if (kind === "TOOL") {
      const tool = span.value(TOOL_NAME);
      return typeof tool === "string" ? { kind: "tool", name: tool } : undefined;
    }
    if (kind !== "LLM") return undefined;
    const { attributes } = span;
    const parameters = span.value(PARAMETERS);
    const sent =
      parameters === undefined || parameters === null
        ? undefined
        : structured(parameters, PARAMETERS_AT, `'${PARAMETERS}'`);
    const offered = offeredTools(attributes, sent !== undefined);
    return {
      kind: "inference",
      convention: "openinference",
      model: text(span.value(MODEL)),
      offered,
      called: hasKeyStarting(attributes, "llm.output_messages.")
        ? indexedNames(attributes, CALLS, "'llm.output_messages'")
        : null,
      toolChoice:
        sent === undefined
          ? null
          : requestToolChoice(isJsonObject(sent) ? sent["tool_choice"] : undefined, offered),
    };
  },
};

const PARAMETERS_AT = attributePath(PARAMETERS);

/** The tools of `llm.tools`; none when the request's parameters were recorded without any, else null. */
function offeredTools(attributes: readonly unknown[], recorded: boolean): string[] | null {
  const tools = indexed(attributes, TOOLS);
  if (tools.length === 0) return recorded ? [] : null;
  const names: string[] = [];
  for (const { value, path } of tools) {
    const what = "'llm.tools'";
    pushName(names, definitionName(structured(value, path, what)), path, what);
  }
  return names;
}
