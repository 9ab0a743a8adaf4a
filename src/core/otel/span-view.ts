/**
 * What every convention reader shares (docs/formats.md, "Instrumentation conventions"): the view
 * of one span it reads, what it makes of it, and the helpers that read names out of attribute
 * values. A reader reports bad input by throwing OtlpValueError with the value's path relative to
 * the span; conventions.ts turns that into the span's problem, so no reader's error escapes.
 */
import { isJsonObject, MAX_TRACE_NAMES } from "../traces/trace.js";
import type { Convention, ToolChoice } from "../traces/model-call.js";
import { attributeAt, OtlpValueError } from "./any-value.js";

/** One span as a reader sees it. */
export interface SpanView {
  readonly name: unknown;
  /** The span's attribute list (OTLP key-value pairs), for attributes with indexes in their keys. */
  readonly attributes: readonly unknown[];
  /** The value of an attribute one of the readers lists in `keys`; undefined when the span has none. */
  value(key: string): unknown;
}

/** An inference span's model call as its span records it; null where it records nothing. */
export interface SpanCall {
  readonly kind: "inference";
  readonly convention: Convention;
  readonly model: string | null;
  readonly offered: readonly string[] | null;
  /** The tools it called; null when its output is not recorded (tool spans or log records may tell). */
  readonly called: readonly string[] | null;
  readonly toolChoice: ToolChoice;
}

/** A span that ran a tool the model called. */
export interface SpanTool {
  readonly kind: "tool";
  readonly name: string;
}

/** One convention's reader: one module per convention, tried in the order conventions.ts lists. */
export interface ConventionReader {
  readonly convention: Convention;
  /** The attributes it reads by a fixed key: every span's are found in one pass over its list. */
  readonly keys: readonly string[];
  /** The span as this convention's inference or tool span; undefined when the convention does not claim it. */
  read(span: SpanView): SpanCall | SpanTool | undefined;
}

/** A string attribute's value, or null. */
export function text(value: unknown): string | null {
  return typeof value === "string" ? value : null;
}

/** A JSON string is parsed; a structured value is taken as it is; `path` and `what` name it in an error. */
export function structured(value: unknown, path: string, what: string): unknown {
  if (typeof value !== "string") return value;
  try {
    return JSON.parse(value) as unknown;
  } catch (error) {
    throw new OtlpValueError(
      path,
      `${what} is not valid JSON: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}

/** Why a found name cannot be added to `names` (not text, or one too many); null when it can. */
function refusal(names: readonly string[], found: unknown, what: string): string | null {
  if (typeof found !== "string") return `${what}: a tool name must be a string`;
  if (names.length === MAX_TRACE_NAMES)
    return `${what} names more than ${MAX_TRACE_NAMES.toLocaleString("en-US")} tools`;
  return null;
}

/** Adds a tool name, refusing a non-string one and more than MAX_TRACE_NAMES; `path` is made only then. */
export function pushName(names: string[], found: unknown, path: () => string, what: string): void {
  const why = refusal(names, found, what);
  if (why !== null) throw new OtlpValueError(path(), why);
  names.push(found as string);
}

/** The names `name` finds in a list (undefined: the item names no tool). */
export function nameList(
  list: unknown,
  path: string,
  what: string,
  name: (item: unknown) => unknown,
): string[] {
  if (!Array.isArray(list)) throw new OtlpValueError(path, `${what} must be an array`);
  const names: string[] = [];
  for (let i = 0; i < list.length; i++) {
    const found = name(list[i]);
    if (found === undefined) continue;
    const why = refusal(names, found, what);
    // The path is made only for a name that is wrong.
    if (why !== null) throw new OtlpValueError(`${path}[${i}]`, why);
    names.push(found as string);
  }
  return names;
}

/**
 * What `derive` made lately of a JSON text, by that text: an agent sends the same tools and
 * parameters with every model call, often kilobytes of schemas, so each is parsed once.
 */
export class TextCache<T> {
  private readonly known = new Map<string, T>();

  constructor(private readonly derive: (text: string) => T) {}

  of(text: string): T {
    let found = this.known.get(text);
    if (found === undefined && !this.known.has(text)) {
      found = this.derive(text);
      if (this.known.size === TEXTS_KEPT) this.known.clear();
      this.known.set(text, found);
    }
    return found as T;
  }
}

const TEXTS_KEPT = 64;

/** A tool definition's name: `name`, or OpenAI's `function.name`; null when it has neither. */
export function definitionName(item: unknown): unknown {
  if (!isJsonObject(item)) return null;
  const fn = item["function"];
  return item["name"] ?? (isJsonObject(fn) ? fn["name"] : undefined) ?? null;
}

/** Where an attribute is, relative to its span. */
export const attributePath = (key: string) => `.attributes['${key}']`;

/**
 * The attributes whose keys start with `prefix` and match `pattern` (its groups the decimal indexes
 * in the key), in the order of those indexes, with their keys. A key whose index is not a plain
 * decimal is left out.
 */
export function indexed(
  attributes: readonly unknown[],
  prefix: string,
  pattern: RegExp,
): { readonly value: unknown; readonly key: string }[] {
  const found: { value: unknown; key: string; at: number[] }[] = [];
  for (let i = 0; i < attributes.length; i++) {
    const pair: unknown = attributes[i];
    const key = isJsonObject(pair) ? pair["key"] : undefined;
    if (typeof key !== "string" || !key.startsWith(prefix)) continue;
    const match = pattern.exec(key);
    if (!match) continue;
    // A group the key does not have (a legacy function call's, which has no call index) sorts first.
    const at = match.slice(1).map((group) => (group === undefined ? -1 : Number(group)));
    if (!at.every(Number.isSafeInteger)) continue;
    found.push({ value: attributeAt(attributes, i, ".attributes"), key, at });
  }
  return found.length < 2 ? found : found.sort((a, b) => compareIndexes(a.at, b.at));
}

function compareIndexes(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return 0;
}

/** Whether any attribute's key starts with `prefix` and matches `pattern` (output recorded, even without a tool call). */
export function hasKeyMatching(
  attributes: readonly unknown[],
  prefix: string,
  pattern: RegExp,
): boolean {
  for (const pair of attributes) {
    const key = isJsonObject(pair) ? pair["key"] : undefined;
    if (typeof key === "string" && key.startsWith(prefix) && pattern.test(key)) return true;
  }
  return false;
}

/** The names of indexed attributes, each a string, in index order. */
export function indexedNames(
  attributes: readonly unknown[],
  prefix: string,
  pattern: RegExp,
  what: string,
): string[] {
  return attributeNames(indexed(attributes, prefix, pattern), what);
}

/** The names that attributes hold, each a string, in their order. */
export function attributeNames(
  found: readonly { readonly value: unknown; readonly key: string }[],
  what: string,
): string[] {
  const names: string[] = [];
  for (const { value, key } of found) pushName(names, value, () => attributePath(key), what);
  return names;
}
