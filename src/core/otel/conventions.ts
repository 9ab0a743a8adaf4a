/**
 * Which instrumentation convention reads a span: the readers in the order they are tried, the
 * first that claims a span decides what it is. A span none claims is not an inference or tool span.
 * The current GenAI convention comes first, so its spans cost what they did before the others.
 */
import { attributeAt, findAttributes, OtlpValueError } from "./any-value.js";
import { aiSdk } from "./ai-sdk.js";
import { genAi } from "./gen-ai.js";
import { genAiOlder } from "./gen-ai-older.js";
import { openInference } from "./openinference.js";
import type { ConventionReader, SpanCall, SpanTool, SpanView } from "./span-view.js";

export const CONVENTION_READERS: readonly ConventionReader[] = [
  genAi,
  genAiOlder,
  openInference,
  aiSdk,
];

/**
 * Each fixed key any reader reads, with its slot; `extra` keys (the selection's) come first, so
 * one pass over a span's attributes finds them all.
 */
export function conventionKeys(extra: readonly string[]): Map<string, number> {
  const keys = new Map<string, number>();
  for (const key of [...extra, ...CONVENTION_READERS.flatMap((reader) => reader.keys)])
    if (!keys.has(key)) keys.set(key, keys.size);
  return keys;
}

/** A span's attributes found once into slots, read by the readers through `value`. */
export class FoundSpan implements SpanView {
  name: unknown = undefined;
  attributes: readonly unknown[] = [];
  private readonly slots: Int32Array;

  constructor(private readonly keys: ReadonlyMap<string, number>) {
    this.slots = new Int32Array(keys.size);
  }

  /** Finds the keys in a span's attribute list (an error's path is relative to the span). */
  find(name: unknown, attributes: unknown): this {
    this.name = name;
    this.attributes = findAttributes(attributes, this.keys, this.slots, ".attributes");
    return this;
  }

  value(key: string): unknown {
    return attributeAt(this.attributes, this.slots[this.keys.get(key)!]!, ".attributes");
  }
}

/**
 * What the first reader that claims the span makes of it; undefined when none does; an
 * OtlpValueError (its path relative to the span) when the claiming reader found bad input.
 */
export function readSpanCall(span: SpanView): SpanCall | SpanTool | OtlpValueError | undefined {
  try {
    for (const reader of CONVENTION_READERS) {
      const read = reader.read(span);
      if (read !== undefined) return read;
    }
    return undefined;
  } catch (error) {
    if (error instanceof OtlpValueError) return error;
    throw error;
  }
}
