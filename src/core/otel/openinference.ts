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
  attributeNames,
  attributePath,
  definitionName,
  nameList,
  pushName,
  structured,
  text,
  TextCache,
  type ConventionReader,
} from "./span-view.js";
import { requestToolChoice } from "./tool-choice.js";
import { indexedKeys, inIndexOrder } from "./openinference-keys.js";

const KIND = "openinference.span.kind";
const MODEL = "llm.model_name";
const PARAMETERS = "llm.invocation_parameters";
const TOOL_NAME = "tool.name";

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
    const sent = sentParameters(span.value(PARAMETERS));
    const keys = indexedKeys(attributes);
    const offered = offeredTools(inIndexOrder(attributes, keys.tools), sent);
    return {
      kind: "inference",
      convention: "openinference",
      model: text(span.value(MODEL)),
      offered,
      // An output message that records only its role (LangChain's Responses API calls) is no output.
      called: keys.output
        ? attributeNames(inIndexOrder(attributes, keys.calls), "'llm.output_messages'")
        : null,
      toolChoice:
        sent === undefined
          ? null
          : requestToolChoice(isJsonObject(sent) ? sent["tool_choice"] : undefined, offered),
    };
  },
};

const PARAMETERS_AT = attributePath(PARAMETERS);

/** Each tool's name by its JSON text, and each request's parameters. */
const toolNames = new TextCache((text) => {
  const tool = parsed(text);
  return tool === NOT_JSON ? NOT_JSON : definitionName(tool);
});
const parameters = new TextCache(parsed);

/** The request's parameters (parsed once per text); undefined when not recorded. */
function sentParameters(value: unknown): unknown {
  if (value === undefined || value === null) return undefined;
  const cached = typeof value === "string" ? parameters.of(value) : NOT_JSON;
  return cached !== NOT_JSON ? cached : structured(value, PARAMETERS_AT, `'${PARAMETERS}'`);
}

/** A JSON text's value, or a marker that it is not JSON (the error is made where its path is known). */
function parsed(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return NOT_JSON;
  }
}

const NOT_JSON = Symbol("not JSON");

/**
 * The tools of `llm.tools`, or else of the `tools` of the request's parameters (hideInputs drops
 * the first only); none when the parameters were recorded without any; null when neither was.
 */
function offeredTools(tools: readonly Attribute[], sent: unknown): string[] | null {
  if (tools.length === 0) {
    if (sent === undefined) return null;
    const listed = isJsonObject(sent) ? sent["tools"] : undefined;
    const what = `'${PARAMETERS}' tools`;
    return listed === undefined || listed === null
      ? []
      : nameList(listed, `${PARAMETERS_AT}.tools`, what, definitionName);
  }
  const names: string[] = [];
  const what = "'llm.tools'";
  for (const { value, key } of tools) {
    const path = () => attributePath(key);
    // A tool's text is parsed once (an error is JSON.parse's own, said again with its path).
    const cached = typeof value === "string" ? toolNames.of(value) : NOT_JSON;
    const name = cached !== NOT_JSON ? cached : definitionName(structured(value, path(), what));
    pushName(names, name, path, what);
  }
  return names;
}

type Attribute = { readonly value: unknown; readonly key: string };
