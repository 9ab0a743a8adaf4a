import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { JsonDocument } from "../../src/core/json/document.js";

function parsed(text: string) {
  const result = JsonDocument.parse(text);
  if ("error" in result) throw new Error(result.error.message);
  return result;
}

describe("JsonDocument: the structural pass over parsed JSON", () => {
  it("finds a duplicate key even when the two are escaped differently", () => {
    const { duplicates } = parsed('{"a\\"b": 1, "x": "\\\\", "a\\u0022b": 2}');
    expect(duplicates.map((d) => [d.path, d.offset])).toEqual([[['a"b'], 23]]);
  });

  it("is not fooled by quotes, brackets and backslashes inside strings", () => {
    const text = '{"s": "he said \\"}]\\" \\\\", "t": [1, "\\\\\\"", {"u": 2}]}';
    const { document, duplicates } = parsed(text);
    expect(duplicates).toEqual([]);
    const located = document.locateAll([["t", 2, "u"]]);
    const at = located.get("/t/2/u")!;
    expect(text.slice(at.value.offset, at.value.offset + at.value.length)).toBe("2");
    expect(text.slice(at.key!.offset, at.key!.offset + at.key!.length)).toBe('"u"');
  });

  it("locates every value of any JSON document exactly where it is written", () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 4 }), fc.boolean(), (value, pretty) => {
        const text = JSON.stringify(value, null, pretty ? 2 : undefined);
        const { document, duplicates } = parsed(text);
        expect(duplicates).toEqual([]);
        // What the text says (JSON has no -0, so the generated value itself may differ).
        const reparsed: unknown = JSON.parse(text);
        const paths: (string | number)[][] = [];
        const walk = (v: unknown, path: (string | number)[]) => {
          paths.push(path);
          if (Array.isArray(v)) v.forEach((item, i) => walk(item, [...path, i]));
          else if (v !== null && typeof v === "object")
            for (const [k, item] of Object.entries(v)) walk(item, [...path, k]);
        };
        walk(reparsed, []);
        const located = document.locateAll(paths);
        for (const path of paths) {
          const pointer = path
            .map((s) => "/" + String(s).replace(/~/g, "~0").replace(/\//g, "~1"))
            .join("");
          const at = located.get(pointer)!;
          const written = text.slice(at.value.offset, at.value.offset + at.value.length);
          let expected: unknown = reparsed;
          for (const s of path) expected = (expected as Record<string | number, unknown>)[s];
          expect(JSON.parse(written)).toEqual(expected);
        }
      }),
      { numRuns: 200 },
    );
  });
});
