import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { formatJsonPath, LineIndex, pointerToPath } from "../../src/core/json/positions.js";

/** Line and character of `offset` by walking the text: the reference for the binary search. */
function walked(text: string, offset: number) {
  let line = 0;
  let start = 0;
  for (let i = 0; i < offset; i++) {
    const c = text[i];
    if (c === "\n" || (c === "\r" && text[i + 1] !== "\n")) {
      line++;
      start = i + 1;
    }
  }
  return { line, character: offset - start };
}

describe("LineIndex: offsets to line and character", () => {
  it("counts LF, CRLF and a lone CR each as one line break", () => {
    const lines = new LineIndex("a\nbc\r\nd\re");
    expect([0, 1, 2, 3, 4, 5, 6, 7, 8, 9].map((o) => lines.position(o))).toEqual([
      { line: 0, character: 0 },
      { line: 0, character: 1 },
      { line: 1, character: 0 },
      { line: 1, character: 1 },
      { line: 1, character: 2 },
      { line: 1, character: 3 },
      { line: 2, character: 0 },
      { line: 2, character: 1 },
      { line: 3, character: 0 },
      { line: 3, character: 1 },
    ]);
  });

  it("a range runs from its offset to offset + length, across lines", () => {
    expect(new LineIndex("ab\ncd").range(1, 3)).toEqual({
      start: { line: 0, character: 1 },
      end: { line: 1, character: 1 },
    });
  });

  it("agrees with a walk over the text for any text and offset", () => {
    const text = fc
      .array(fc.constantFrom("a", "\n", "\r", "\r\n", "é"), { maxLength: 40 })
      .map((parts) => parts.join(""));
    fc.assert(
      fc.property(text, fc.nat(), (t, n) => {
        const offset = n % (t.length + 1);
        expect(new LineIndex(t).position(offset)).toEqual(walked(t, offset));
      }),
      { numRuns: 500 },
    );
  });
});

describe("JSON paths as users read them", () => {
  it("writes identifiers with a dot, indices in brackets, and other keys quoted in brackets", () => {
    expect(formatJsonPath([])).toBe("$");
    expect(formatJsonPath(["pipeline", 2, "verdict"])).toBe("$.pipeline[2].verdict");
    expect(formatJsonPath(["_x", "$y", "a-b", "a1"])).toBe("$._x.$y.a-b.a1");
    expect(formatJsonPath(["role_tools", "data team", "1a", "-a", "", "a.b", 'q"'])).toBe(
      '$.role_tools["data team"]["1a"]["-a"][""]["a.b"]["q\\""]',
    );
    expect(formatJsonPath(["a b", "x\ny"])).toBe('$["a b"]["x\\ny"]');
  });

  it("reads a JSON pointer back into segments, unescaping ~1 and ~0 and turning indices into numbers", () => {
    expect(pointerToPath("")).toEqual([]);
    expect(pointerToPath("/pipeline/2/kind")).toEqual(["pipeline", 2, "kind"]);
    expect(pointerToPath("/a~1b/~0c/~01/0/10/01/1a/-1/")).toEqual([
      "a/b",
      "~c",
      "~1",
      0,
      10,
      "01",
      "1a",
      "-1",
      "",
    ]);
  });
});
