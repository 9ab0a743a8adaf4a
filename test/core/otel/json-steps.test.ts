import { describe, expect, it } from "vitest";
import { parseJsonInSteps } from "../../../src/core/otel/json-steps.js";

interface Drained {
  readonly value: unknown;
  readonly steps: number;
  /** The longest text handed to JSON.parse: the whole text only when the walk gave up. */
  readonly longest: number;
}

function drained(text: string): Drained {
  const bytes = new TextEncoder().encode(text);
  // ignoreBOM keeps a byte order mark in the text, as JSON.parse of the whole body would see it.
  const decoder = new TextDecoder("utf-8", { ignoreBOM: true });
  let longest = 0;
  const steps = parseJsonInSteps(bytes, (start, end) => {
    longest = Math.max(longest, end - start);
    return decoder.decode(bytes.subarray(start, end));
  });
  let count = 0;
  for (let next = steps.next(); ; next = steps.next(), count++)
    if (next.done) return { value: next.value, steps: count, longest };
}

const KIB = 1024;
/** A string too long to be parsed whole: a container holding it is walked. */
const PAD = JSON.stringify("p".repeat(70 * KIB));

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
      const { value, steps, longest } = drained(text);
      expect(value).toEqual(JSON.parse(text));
      // A step for about every 64 KiB read, and no text of over 64 KiB given to JSON.parse at once.
      expect(steps).toBeGreaterThan(text.length / (128 * KIB));
      expect(steps).toBeLessThan(text.length / (32 * KIB));
      expect(longest).toBeLessThanOrEqual(64 * KIB);
    }
  });

  it("reads each value of a large container whatever ends it, and parses each small one whole", () => {
    // 1,000 members: walked, each would be decoded on its own; parsed whole, together.
    const small = JSON.stringify(
      Object.fromEntries(Array.from({ length: 1000 }, (_, i) => [`k${i}`, i])),
    );
    const texts = [
      `[${PAD}, 1 ,2\t,3\r,4\n,true,-0.5e-3]`,
      `{"pad": ${PAD}, "a": null, "b" :false\n, "c": "q\\\\", "d": "e\\"f", "small": ${small}, "z": 7}`,
      `[${PAD},[${PAD}, {"x": 1}], {"y": [${PAD}]}, ${small}]`,
      `[${" ".repeat(70 * KIB)}]`,
      `{${" ".repeat(70 * KIB)}}`,
    ];
    for (const text of texts) {
      const { value, longest } = drained(text);
      expect(value).toEqual(JSON.parse(text));
      expect(longest).toBeLessThan(text.length);
    }
    expect(drained(texts[1]!).longest).toBeGreaterThanOrEqual(small.length);
    expect(drained(texts[2]!).longest).toBeGreaterThanOrEqual(small.length);
  });

  it("takes a step at each level of a deep text whose containers are all too large to parse whole", () => {
    // Each level's search for its end reads up to 64 KiB before the walk goes in.
    const text = `${"[".repeat(40)}${JSON.stringify("x".repeat(70_000))}${"]".repeat(40)}`;
    const { value, steps } = drained(text);
    expect(value).toEqual(JSON.parse(text));
    expect(steps).toBeGreaterThanOrEqual(40);
  });

  it("keeps __proto__ a key, and the last of repeated keys, as JSON.parse does", () => {
    const text = `{"__proto__": {"polluted": 1}, "a": 1, "a": 2, "pad": ${JSON.stringify("y".repeat(70_000))}}`;
    const { value } = drained(text);
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptors(value)).toEqual(
      Object.getOwnPropertyDescriptors(JSON.parse(text)),
    );
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
      // Wrong between the members of a container walked, not parsed whole: each would read as
      // a value if the walk let it pass.
      `[${PAD} x1]`,
      `{"pad": ${PAD} x"a": 1}`,
      `{"pad": ${PAD}, 1 : 2}`,
      `[${PAD}, [1, 2`,
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
