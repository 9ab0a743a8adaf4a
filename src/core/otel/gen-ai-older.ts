/**
 * The older OpenTelemetry GenAI attributes (OpenLLMetry before 0.25): an inference span has
 * `llm.request.type` chat or completion and no `gen_ai.operation.name`; it offers
 * `llm.request.functions.N.name` and calls `gen_ai.completion.N.tool_calls.M.name` (or the older
 * `gen_ai.completion.N.function_call.name`). Offered tools are known when the prompt was recorded
 * (`gen_ai.prompt.*`), calls when the completion was (`gen_ai.completion.*`).
 */
import { hasKeyMatching, indexedNames, text, type ConventionReader } from "./span-view.js";

const REQUEST_TYPE = "llm.request.type";
const MODEL = "gen_ai.request.model";
const FUNCTIONS = /^llm\.request\.functions\.(\d+)\.name$/;
const PROMPT = /^gen_ai\.prompt\./;
const COMPLETION = /^gen_ai\.completion\./;
const CALLS = /^gen_ai\.completion\.(\d+)\.(?:tool_calls\.(\d+)\.name|function_call\.name)$/;

export const genAiOlder: ConventionReader = {
  convention: "gen_ai_older",
  keys: [REQUEST_TYPE, MODEL],
  read(span) {
    const type = span.value(REQUEST_TYPE);
    if (type !== "chat" && type !== "completion") return undefined;
    const { attributes } = span;
    return {
      kind: "inference",
      convention: "gen_ai_older",
      model: text(span.value(MODEL)),
      offered: hasKeyMatching(attributes, "gen_ai.prompt.", PROMPT)
        ? indexedNames(attributes, "llm.request.functions.", FUNCTIONS, "'llm.request.functions'")
        : null,
      called: hasKeyMatching(attributes, "gen_ai.completion.", COMPLETION)
        ? indexedNames(attributes, "gen_ai.completion.", CALLS, "'gen_ai.completion'")
        : null,
      toolChoice: null,
    };
  },
};
