import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { JsonDocument } from "../../src/core/json/document.js";
import { MAX_JSON_DEPTH } from "../../src/core/json/syntax.js";

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

  it("finds a duplicate key in an object of many keys (past the short list) and nested in arrays", () => {
    const keys = Array.from({ length: 20 }, (_, i) => `"k${i}": ${i}`);
    for (const at of [16, 17, 19]) {
      const text = `{"list": [0, {${[...keys.slice(0, at), '"k3": 0', ...keys.slice(at)].join(", ")}}]}`;
      const { duplicates } = parsed(text);
      expect(duplicates.map((d) => d.path)).toEqual([["list", 1, "k3"]]);
      const d = duplicates[0]!;
      expect(text.slice(d.offset, d.offset + d.length)).toBe('"k3"');
      expect(d.offset).toBe(text.lastIndexOf('"k3"'));
    }
    expect(parsed(`{${keys.join(", ")}}`).duplicates).toEqual([]);
  });

  it("names a duplicate under keys that need escaping in a pointer", () => {
    const { duplicates } = parsed('{"a/b": {"~x": {"k": 1, "k": 2}}}');
    expect(duplicates.map((d) => d.path)).toEqual([["a/b", "~x", "k"]]);
  });

  it("marks an object or array by its first character, a scalar or a key whole", () => {
    const text =
      '{\n  "a": {"b": [1, 2]},\n  "s": "long text",\n  "n": -12.5e3\t,\n  "t": true\r\n}';
    const { document } = parsed(text);
    const range = (path: (string | number)[], key = false) => {
      const r = document.rangeOf(path, document.locateAll([path]), key);
      return [r.start.line, r.start.character, r.end.line, r.end.character];
    };
    expect(range(["a"])).toEqual([1, 7, 1, 8]);
    expect(range(["a", "b"])).toEqual([1, 13, 1, 14]);
    expect(range(["a", "b", 1])).toEqual([1, 17, 1, 18]);
    expect(range(["s"])).toEqual([2, 7, 2, 18]);
    expect(range(["s"], true)).toEqual([2, 2, 2, 5]);
    expect(range(["n"])).toEqual([3, 7, 3, 14]);
    expect(range(["t"])).toEqual([4, 7, 4, 11]);
    expect(range([])).toEqual([0, 0, 0, 1]);
    // A missing member is marked at its nearest present ancestor, the value not the key.
    expect(range(["a", "missing", 3], true)).toEqual([1, 7, 1, 8]);
    expect(range(["s", 0])).toEqual([2, 7, 2, 18]);
    // An array item has no key: asking for it marks the value.
    expect(range(["a", "b", 0], true)).toEqual([1, 14, 1, 15]);
    // Nothing located at all: the start of the text.
    expect(document.rangeOf(["a"], new Map())).toEqual({
      start: { line: 0, character: 0 },
      end: { line: 0, character: 0 },
    });
  });

  it("locates values after commas in arrays and objects, and a scalar root", () => {
    const text = '[true,false, null ,{"x":[],"y":{}},"z"]';
    const { document } = parsed(text);
    const paths = [[0], [1], [2], [3, "x"], [3, "y"], [4]];
    const located = document.locateAll(paths);
    expect(
      paths.map((p) => {
        const at = located.get("/" + p.join("/"))!.value;
        return text.slice(at.offset, at.offset + at.length);
      }),
    ).toEqual(["true", "false", "null", "[]", "{}", '"z"']);
    const scalar = parsed(" 42 ").document;
    expect(scalar.locateAll([[]]).get("")).toEqual({
      key: undefined,
      value: { offset: 1, length: 2 },
    });
  });

  it("locates members whose keys hold / and ~, as JSON pointers escape them", () => {
    const text = '{"a/b": {"~x": [true]}, "a~1b": 2}';
    const { document } = parsed(text);
    const range = (path: (string | number)[]) => {
      const r = document.rangeOf(path, document.locateAll([path]));
      return text.slice(r.start.character, r.end.character);
    };
    expect(range(["a/b", "~x", 0])).toBe("true");
    expect(range(["a~1b"])).toBe("2");
  });

  it("accepts a leading byte order mark and leaves it out of the text", () => {
    const { document } = parsed('\ufeff{"a": 1}');
    expect(document.text).toBe('{"a": 1}');
    expect(document.value).toEqual({ a: 1 });
    const error = JsonDocument.parse("\ufeff{,}");
    expect("error" in error && [error.error.offset, error.text]).toEqual([1, "{,}"]);
  });

  it("refuses valid JSON nested one level past the limit at its deepest bracket, and takes it at the limit", () => {
    const deep = (n: number) => "[".repeat(n) + "]".repeat(n);
    expect("document" in JsonDocument.parse(deep(MAX_JSON_DEPTH))).toBe(true);
    const refused = JsonDocument.parse(" " + deep(MAX_JSON_DEPTH + 1));
    expect("error" in refused && refused.error).toEqual({
      offset: MAX_JSON_DEPTH + 1,
      length: 1,
      message: `nested deeper than ${MAX_JSON_DEPTH} levels; the limit is ${MAX_JSON_DEPTH}`,
    });
    expect("error" in refused && refused.lines.position(3)).toEqual({ line: 0, character: 3 });
  });

  it("a syntax error comes with the text's line index", () => {
    const result = JsonDocument.parse('{\n  "a": 1,\n}');
    expect("error" in result && result.lines.position(result.error.offset)).toEqual({
      line: 2,
      character: 0,
    });
  });
});
