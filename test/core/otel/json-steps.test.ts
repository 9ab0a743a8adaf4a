import { describe, expect, it } from "vitest";
import { parseJsonInSteps } from "../../../src/core/otel/json-steps.js";

function drained(text: string): { value: unknown; steps: number } {
  const bytes = new TextEncoder().encode(text);
  // ignoreBOM keeps a byte order mark in the text, as JSON.parse of the whole body would see it.
  const decoder = new TextDecoder("utf-8", { ignoreBOM: true });
  const steps = parseJsonInSteps(bytes, (start, end) => decoder.decode(bytes.subarray(start, end)));
  let count = 0;
  for (let next = steps.next(); ; next = steps.next(), count++)
    if (next.done) return { value: next.value, steps: count };
}

/** A text of `n` spans, megabytes long, with strings holding every character that ends a scan. */
function big(n: number, gap = ""): string {
  const spans = Array.from({ length: n }, (_, i) => ({
    id: i,
    name: `s"]},\\"${i}\\ é ✓ 𝄞`,
    values: [1.5e3, -0, true, false, null, "x".repeat(200), { "": [[], {}] }],
  }));
  return JSON.stringify({ resourceSpans: [{ scopeSpans: [{ spans }] }] }, null, gap);
}

describe("JSON.parse in steps", () => {
  it("gives JSON.parse's value for a large text, in many steps", () => {
    for (const text of [big(20_000), big(3_000, "\t \r\n")]) {
      const { value, steps } = drained(text);
      expect(value).toEqual(JSON.parse(text));
      expect(steps).toBeGreaterThan(text.length / (512 * 1024));
    }
  });

  it("keeps __proto__ a key, and the last of repeated keys, as JSON.parse does", () => {
    const text = `{"__proto__": {"polluted": 1}, "a": 1, "a": 2, "pad": ${JSON.stringify("y".repeat(70_000))}}`;
    const { value } = drained(text);
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.keys(value as object)).toEqual(["__proto__", "a", "pad"]);
    expect((value as Record<string, unknown>).a).toBe(2);
  });

  it("refuses with JSON.parse's own error whatever is wrong, however large", () => {
    const good = big(1_000);
    const cases = [
      good.slice(0, -1),
      good + ",",
      good.replace('"spans":[', '"spans":[,'),
      good.replace('"id":0,', '"id":0,,'),
      good.replace('"id":0', '"id" 0'),
      good.replace('"id":1,', '"id":1 '),
      good.replace("true", "tru"),
      good.replace("[]", "[}"),
      `${good.slice(0, -2)},]}`,
      "",
      " ",
      "\ufeff{}",
    ];
    for (const text of cases) {
      let expected = "";
      try {
        JSON.parse(text);
      } catch (error) {
        expected = (error as Error).message;
      }
      expect(expected).not.toBe("");
      expect(() => drained(text)).toThrow(expected);
    }
  });
});
