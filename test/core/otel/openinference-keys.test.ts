import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { indexedKeys, inIndexOrder } from "../../../src/core/otel/openinference-keys.js";
import { str } from "./otlp.js";

/** The keys as the OpenInference reader first matched them, by pattern: the scan must agree with them. */
const TOOLS = /^llm\.tools\.(\d+)\.tool\.json_schema$/;
const CALLS =
  /^llm\.output_messages\.(\d+)\.message\.(?:tool_calls\.(\d+)\.tool_call\.function\.name|function_call_name)$/;
const OUTPUT =
  /^llm\.output_messages\.\d+\.message\.(?:content|contents\.|tool_calls\.|function_call)/;

function byPattern(keys: readonly string[], pattern: RegExp): number[][] {
  const found: number[][] = [];
  keys.forEach((key, at) => {
    const match = pattern.exec(key);
    const indexes = match?.slice(1).map((group) => (group === undefined ? -1 : Number(group)));
    if (indexes?.every(Number.isSafeInteger)) found.push([at, ...indexes]);
  });
  return found;
}

/** Keys made of the fragments the patterns look for, near misses and indexes of every shape. */
const index = fc.oneof(
  fc.constantFrom("0", "1", "007", "10", "", "x", "-1", "1.5", "٣"),
  fc.nat().map(String),
  fc.constantFrom("9007199254740991", "9007199254740992", "99999999999999999999"),
);
const key = fc
  .array(
    fc.oneof(
      index,
      fc.constantFrom(
        "llm.",
        "tools.",
        ".tool.json_schema",
        "output_messages.",
        ".message.",
        "content",
        "contents.",
        "tool_calls.",
        ".tool_call.function.name",
        "function_call",
        "function_call_name",
        "role",
        ".",
        "\n",
      ),
    ),
    { maxLength: 8 },
  )
  .map((parts) => parts.join(""));
const keyLike = fc.oneof(
  key,
  key.map((k) => `llm.${k}`),
  fc
    .tuple(index, index)
    .map(([n, m]) => `llm.output_messages.${n}.message.tool_calls.${m}.tool_call.function.name`),
  index.map((n) => `llm.tools.${n}.tool.json_schema`),
  fc.tuple(index, key).map(([n, tail]) => `llm.tools.${n}${tail}`),
  fc.tuple(index, key).map(([n, tail]) => `llm.output_messages.${n}.message.${tail}`),
  fc
    .tuple(index, index, key)
    .map(([n, m, tail]) => `llm.output_messages.${n}.message.tool_calls.${m}${tail}`),
);

describe("OpenInference's indexed keys", () => {
  it("finds the tools, calls and output the key patterns find, in attribute order", () => {
    fc.assert(
      fc.property(fc.array(keyLike, { maxLength: 12 }), (keys) => {
        const found = indexedKeys(keys.map((k) => ({ key: k, value: str("v") })));
        expect(found.tools.map((t) => [t.at, t.first])).toEqual(byPattern(keys, TOOLS));
        expect(found.calls.map((c) => [c.at, c.first, c.second])).toEqual(byPattern(keys, CALLS));
        expect(found.output).toBe(keys.some((k) => OUTPUT.test(k)));
      }),
      { numRuns: 2000 },
    );
  });

  it("puts values in the order of their indexes, equal indexes in attribute order", () => {
    const attributes = [
      "llm.output_messages.1.message.tool_calls.0.tool_call.function.name",
      "llm.output_messages.0.message.tool_calls.10.tool_call.function.name",
      "llm.output_messages.0.message.tool_calls.2.tool_call.function.name",
      "llm.output_messages.00.message.tool_calls.2.tool_call.function.name",
    ].map((k, i) => ({ key: k, value: str(`v${i}`) }));
    const { calls } = indexedKeys(attributes);
    expect(inIndexOrder(attributes, calls).map((c) => c.value)).toEqual(["v2", "v3", "v1", "v0"]);
  });

  it("skips pairs that are not objects with a string key", () => {
    expect(indexedKeys([null, 3, [], { key: 1 }, { value: str("v") }])).toEqual({
      tools: [],
      calls: [],
      output: false,
    });
  });
});
