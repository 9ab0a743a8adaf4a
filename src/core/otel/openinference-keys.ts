/**
 * OpenInference's indexed attributes, found in one pass over a span's keys: its tools
 * (`llm.tools.N.tool.json_schema`), its output messages' tool calls
 * (`llm.output_messages.N.message.tool_calls.M.tool_call.function.name`, and the legacy
 * `llm.output_messages.N.message.function_call_name`) and whether any output
 * message records more than its role. Keys are read by character, not by pattern, each once (then
 * known by the key), and no string is made per key: an OpenInference span carries twice the
 * attributes of a GenAI one.
 */
import { isJsonObject } from "../traces/trace.js";
import { attributeAt } from "./any-value.js";

/** An attribute found by its key's indexes (a tool's has one, a call's two; a legacy function call's second is -1). */
interface Found {
  readonly at: number;
  readonly key: string;
  readonly first: number;
  readonly second: number;
}

export interface IndexedKeys {
  readonly tools: readonly Found[];
  readonly calls: readonly Found[];
  /** Whether an output message records its content, contents, tool calls or function call. */
  readonly output: boolean;
}

const LLM = "llm.";
const TOOLS = "tools.";
const SCHEMA = ".tool.json_schema";
const OUTPUT = "output_messages.";
const MESSAGE = ".message.";
const TOOL_CALLS = "tool_calls.";
const CALL_NAME = ".tool_call.function.name";
const FUNCTION_CALL_NAME = "function_call_name";

/** What one key is to OpenInference: a tool's, a call's, or neither; and whether it records output. */
interface KeyKind {
  readonly kind: "tool" | "call" | null;
  readonly first: number;
  readonly second: number;
  readonly output: boolean;
}

const NEITHER: KeyKind = { kind: null, first: 0, second: 0, output: false };

/**
 * Each key's kind, by the key: spans repeat the same keys, whose hashes the search for the fixed
 * keys (findAttributes) has already taken, so a key is read by character once, not once per span.
 */
const kinds = new Map<string, KeyKind>();
/** Keys whose kinds are kept; past them the map starts again. */
const KINDS_KEPT = 4096;

/** The span's tools and calls in attribute order (a key whose index is not a plain safe decimal is left out). */
export function indexedKeys(attributes: readonly unknown[]): IndexedKeys {
  const tools: Found[] = [];
  const calls: Found[] = [];
  let output = false;
  for (let at = 0; at < attributes.length; at++) {
    const pair: unknown = attributes[at];
    const key = isJsonObject(pair) ? pair["key"] : undefined;
    if (typeof key !== "string") continue;
    let kind = kinds.get(key);
    if (kind === undefined) {
      kind = kindOf(key);
      if (kinds.size === KINDS_KEPT) kinds.clear();
      kinds.set(key, kind);
    }
    if (kind.output) output = true;
    if (kind.kind === "tool") tools.push({ at, key, first: kind.first, second: 0 });
    else if (kind.kind === "call") calls.push({ at, key, first: kind.first, second: kind.second });
  }
  return { tools, calls, output };
}

/** A key's kind, read by character. */
function kindOf(key: string): KeyKind {
  if (!key.startsWith(LLM)) return NEITHER;
  if (key.startsWith(TOOLS, LLM.length)) {
    const from = LLM.length + TOOLS.length;
    const end = digitsEnd(key, from);
    if (end === -1 || key.length !== end + SCHEMA.length || !key.startsWith(SCHEMA, end))
      return NEITHER;
    const first = decimal(key, from, end);
    return first === -1 ? NEITHER : { kind: "tool", first, second: 0, output: false };
  }
  if (!key.startsWith(OUTPUT, LLM.length)) return NEITHER;
  const from = LLM.length + OUTPUT.length;
  const end = digitsEnd(key, from);
  if (end === -1 || !key.startsWith(MESSAGE, end)) return NEITHER;
  const rest = end + MESSAGE.length;
  // `content` also covers `contents.`; `function_call_name` and `function_call.` are both output.
  const output =
    key.startsWith("content", rest) ||
    key.startsWith(TOOL_CALLS, rest) ||
    key.startsWith("function_call", rest);
  const none = output ? OUTPUT_ONLY : NEITHER;
  const first = decimal(key, from, end);
  // The legacy function call (`message.function_call_name`) comes before the message's tool calls.
  if (key.length === rest + FUNCTION_CALL_NAME.length && key.startsWith(FUNCTION_CALL_NAME, rest))
    return first === -1 ? none : { kind: "call", first, second: -1, output };
  if (!key.startsWith(TOOL_CALLS, rest)) return none;
  const callFrom = rest + TOOL_CALLS.length;
  const callEnd = digitsEnd(key, callFrom);
  if (callEnd === -1 || key.length !== callEnd + CALL_NAME.length) return none;
  if (!key.startsWith(CALL_NAME, callEnd)) return none;
  const second = decimal(key, callFrom, callEnd);
  return first === -1 || second === -1 ? none : { kind: "call", first, second, output };
}

const OUTPUT_ONLY: KeyKind = { kind: null, first: 0, second: 0, output: true };

/**
 * The found attributes' values, each read in attribute order (so a bad value is reported as
 * before), then put in the order of their indexes (a stable sort: equal indexes keep their order).
 */
export function inIndexOrder(
  attributes: readonly unknown[],
  found: readonly Found[],
): { readonly value: unknown; readonly key: string }[] {
  const values = found.map((item) => ({
    value: attributeAt(attributes, item.at, ".attributes"),
    key: item.key,
    first: item.first,
    second: item.second,
  }));
  return values.length < 2
    ? values
    : values.sort((a, b) => a.first - b.first || a.second - b.second);
}

/** Where the ASCII digits starting at `from` end; -1 when there are none. */
function digitsEnd(key: string, from: number): number {
  let end = from;
  while (end < key.length && isDigit(key.charCodeAt(end))) end++;
  return end === from ? -1 : end;
}

const isDigit = (code: number) => code >= 48 && code <= 57;

/** The digits' value; -1 past the largest safe integer (exact below it, as `Number` reads them). */
function decimal(key: string, from: number, end: number): number {
  let value = 0;
  for (let i = from; i < end; i++) value = value * 10 + (key.charCodeAt(i) - 48);
  return value <= Number.MAX_SAFE_INTEGER ? value : -1;
}
