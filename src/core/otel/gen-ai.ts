/**
 * The OpenTelemetry GenAI conventions as they are now: an inference span is named by
 * `gen_ai.operation.name` (chat, text_completion, generate_content), offers
 * `gen_ai.tool.definitions` and calls the `tool_call` parts of `gen_ai.output.messages`; a tool
 * runs in an `execute_tool` span named by `gen_ai.tool.name`.
 */
import { pushAll } from "../arrays.js";
import { isJsonObject } from "../traces/trace.js";
import { OtlpValueError } from "./any-value.js";
import {
  attributePath,
  definitionName,
  nameList,
  structured,
  text,
  type ConventionReader,
} from "./span-view.js";

const OPERATION = "gen_ai.operation.name";
const MODEL = "gen_ai.request.model";
const DEFINITIONS = "gen_ai.tool.definitions";
export const OUTPUT_MESSAGES = "gen_ai.output.messages";
const TOOL_NAME = "gen_ai.tool.name";
const INFERENCE_OPERATIONS = new Set(["chat", "text_completion", "generate_content"]);

export const genAi: ConventionReader = {
  convention: "gen_ai",
  keys: [OPERATION, MODEL, DEFINITIONS, OUTPUT_MESSAGES, TOOL_NAME],
  read(span) {
    const operation = span.value(OPERATION);
    if (typeof operation === "string" && INFERENCE_OPERATIONS.has(operation))
      return {
        kind: "inference",
        convention: "gen_ai",
        model: text(span.value(MODEL)),
        offered: definitionNames(span.value(DEFINITIONS)),
        called: toolCallNames(span.value(OUTPUT_MESSAGES), OUTPUT_AT),
        toolChoice: null,
      };
    if (operation !== "execute_tool") return undefined;
    const tool = span.value(TOOL_NAME);
    return typeof tool === "string" ? { kind: "tool", name: tool } : undefined;
  },
};

const DEFINITIONS_AT = attributePath(DEFINITIONS);
const OUTPUT_AT = attributePath(OUTPUT_MESSAGES);

/**
 * The names of definitions lately read as JSON text, by that text: an agent sends the same tools,
 * often kilobytes of schemas, with every model call. The lists are frozen, being shared.
 */
const definitionsRead = new Map<string, readonly string[]>();
const DEFINITIONS_KEPT = 64;

function definitionNames(value: unknown): readonly string[] | null {
  if (value === undefined || value === null) return null;
  const known = typeof value === "string" ? definitionsRead.get(value) : undefined;
  if (known) return known;
  const list = structured(value, DEFINITIONS_AT, `'${DEFINITIONS}'`);
  const names = nameList(list, DEFINITIONS_AT, `'${DEFINITIONS}'`, definitionName);
  if (typeof value !== "string") return names;
  if (definitionsRead.size === DEFINITIONS_KEPT) definitionsRead.clear();
  definitionsRead.set(value, Object.freeze(names));
  return names;
}

/**
 * The names of the `tool_call` parts of output messages (JSON text or structured), in order; null
 * when the messages are not recorded, or record nothing (only empty text: OpenLLMetry 0.27 writes
 * that for a Responses API call whatever it answered). `at` is where the value is, for an error.
 */
export function toolCallNames(value: unknown, at: string): string[] | null {
  if (value === undefined || value === null) return null;
  const what = `'${OUTPUT_MESSAGES}'`;
  const messages = structured(value, at, what);
  if (!Array.isArray(messages)) throw new OtlpValueError(at, `${what} must be an array`);
  const names: string[] = [];
  let said = false;
  for (let m = 0; m < messages.length; m++) {
    const message: unknown = messages[m];
    const parts = isJsonObject(message) ? message["parts"] : undefined;
    if (!Array.isArray(parts)) continue;
    said ||= parts.some(saysSomething);
    try {
      pushAll(names, nameList(parts, "", what, toolCallName));
    } catch (error) {
      // The path is made only for a message that is wrong.
      throw error instanceof OtlpValueError ? error.under(`${at}[${m}].parts`) : error;
    }
  }
  // Cut to size: a list pushed to holds room for more, and the join keeps this one.
  return said ? names.slice() : null;
}

/** A part other than an empty text. */
function saysSomething(part: unknown): boolean {
  return !(isJsonObject(part) && part["type"] === "text" && !part["content"]);
}

function toolCallName(part: unknown): unknown {
  return isJsonObject(part) && part["type"] === "tool_call" ? (part["name"] ?? null) : undefined;
}
