import fc from "fast-check";
import { parseTree, printParseErrorCode, type ParseError } from "jsonc-parser";
import { describe, expect, it } from "vitest";
import { firstSyntaxError, MAX_JSON_DEPTH } from "../../src/core/json/syntax.js";

/** What jsonc-parser's recursive parser reports first (the reference the scan must agree with). */
function referenceError(text: string) {
  const errors: ParseError[] = [];
  parseTree(text, errors, { disallowComments: true, allowTrailingComma: false });
  const first = errors[0];
  return (
    first && { offset: first.offset, length: first.length, code: printParseErrorCode(first.error) }
  );
}

const words = (message: string) => message.replace(/^malformed JSON: /, "");
const codeWords = (code: string) => {
  const text = code.replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase();
  return text === "value expected" ? "a value was expected" : text;
};

describe("the first syntax error, by an iterative scan", () => {
  it("agrees with jsonc-parser's parser on the first error of any damaged JSON text", () => {
    const damaged = fc
      .tuple(
        fc.jsonValue({ maxDepth: 5 }),
        fc.nat(),
        fc.constantFrom(
          "",
          "{",
          "}",
          "[",
          "]",
          ",",
          ":",
          '"',
          "x",
          "//",
          "/*",
          "\\",
          "-",
          "1e",
          " ",
        ),
        fc.nat(3),
      )
      .map(([value, at, insert, cut]) => {
        const text = JSON.stringify(value, null, 1);
        const i = text.length === 0 ? 0 : at % text.length;
        return text.slice(0, i) + insert + text.slice(i + cut);
      });
    fc.assert(
      fc.property(damaged, (text) => {
        const reference = referenceError(text);
        const found = firstSyntaxError(text);
        if (!reference) expect(found).toBeNull();
        else {
          expect(found).not.toBeNull();
          expect([found!.offset, found!.length, words(found!.message)]).toEqual([
            reference.offset,
            reference.length,
            codeWords(reference.code),
          ]);
        }
      }),
      { numRuns: 2000 },
    );
  });

  it("first syntax error: 1,000,000 unclosed brackets stop at the first one past the depth limit", () => {
    expect(firstSyntaxError("[".repeat(1_000_000))).toEqual({
      offset: MAX_JSON_DEPTH,
      length: 1,
      message: `nested deeper than ${MAX_JSON_DEPTH} levels; the limit is ${MAX_JSON_DEPTH}`,
    });
  });

  it("first syntax error: a long flat unclosed array is reported at its end, with no stack", () => {
    const text = "[" + "1,".repeat(500_000) + "1";
    expect(firstSyntaxError(text)).toEqual({
      offset: text.length,
      length: 0,
      message: "malformed JSON: close bracket expected",
    });
  });
});
