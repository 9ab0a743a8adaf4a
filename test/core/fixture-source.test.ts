/**
 * Before any parsing: a file's bytes that are not
 * UTF-8, and a file or text past the size limit, are one problem at their place.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { formatProblem } from "../../src/core/fixture/problems.js";
import {
  decodeSource,
  firstInvalidUtf8,
  MAX_SOURCE_BYTES,
  sizeProblem,
  textSource,
  utf8Length,
} from "../../src/core/fixture/source.js";

const FILE = "hostile.turn.json";

describe("invalid UTF-8 and size, before parsing", () => {
  const bytes = (...parts: (string | number[])[]) =>
    new Uint8Array(
      parts.flatMap((part) =>
        typeof part === "string" ? [...new TextEncoder().encode(part)] : part,
      ),
    );

  it.each([
    ["a lone continuation byte", bytes('{\n  "offered": ["é', [0x80], '"]}'), "2:17", "0x80"],
    ["a truncated sequence", bytes('{"offered": ["', [0xe2, 0x82], '"]}'), "1:15", "0xE2"],
    ["an overlong encoding", bytes('{"a":\r\n"', [0xc0, 0xaf], '"}'), "2:2", "0xC0"],
    ["a UTF-16 surrogate", bytes('["😀', [0xed, 0xa0, 0x80], '"]'), "1:5", "0xED"],
    ["a code point past U+10FFFF", bytes("[", [0xf4, 0x90, 0x80, 0x80], "]"), "1:2", "0xF4"],
  ])(
    "invalid UTF-8 (%s) is an error at the byte's line and column",
    (_what, input, where, byte) => {
      const source = decodeSource(FILE, "fixture", input);
      expect("problems" in source && source.problems.map(formatProblem)).toEqual([
        `${FILE}:${where}: error: invalid UTF-8 (byte ${byte}); save the fixture as UTF-8`,
      ]);
    },
  );

  it("valid UTF-8 (a BOM, 4-byte characters) is decoded unchanged", () => {
    expect(decodeSource(FILE, "fixture", bytes([0xef, 0xbb, 0xbf], '["😀é"]'))).toEqual({
      file: FILE,
      text: '["😀é"]',
    });
  });

  it("size limit: a fixture over 10 MB is one problem at line 1, 'fixture is N MB; the limit is 10 MB'", () => {
    const source = decodeSource(FILE, "fixture", new Uint8Array(MAX_SOURCE_BYTES + 1));
    expect("problems" in source && source.problems.map(formatProblem)).toEqual([
      `${FILE}:1:1: error: fixture is 10.1 MB; the limit is 10 MB`,
    ]);
    const text = textSource("c.catalog.json", "catalogue", "é".repeat(MAX_SOURCE_BYTES / 2 + 1));
    expect("problems" in text && text.problems[0]!.message).toBe(
      "catalogue is 10.1 MB; the limit is 10 MB",
    );
    expect(textSource(FILE, "fixture", "[]")).toEqual({ file: FILE, text: "[]" });
  });

  /** The reference: the longest prefix the platform's strict decoder accepts ends at the first bad byte. */
  const longestValidPrefix = (input: Uint8Array) => {
    const strict = new TextDecoder("utf-8", { fatal: true });
    for (let end = input.length; ; end--) {
      try {
        strict.decode(input.subarray(0, end));
        return end;
      } catch {
        // a shorter prefix, then
      }
    }
  };

  it("the first bad byte agrees with the platform's strict decoder for any byte string", () => {
    // Bytes at every edge of UTF-8's ranges: lead bytes, the narrowed second bytes, continuations.
    const edges = [
      0x00, 0x22, 0x7f, 0x80, 0x8f, 0x90, 0x9f, 0xa0, 0xbf, 0xc0, 0xc1, 0xc2, 0xdf, 0xe0, 0xe1,
      0xec, 0xed, 0xee, 0xef, 0xf0, 0xf1, 0xf3, 0xf4, 0xf5, 0xff,
    ];
    // Whole four-byte sequences at the edges of their lead byte's narrowed second-byte range.
    const sequences = [
      [0xf0, 0x90, 0x80, 0x80],
      [0xf0, 0x8f, 0xbf, 0xbf],
      [0xf1, 0x80, 0x80, 0x80],
      [0xf4, 0x8f, 0xbf, 0xbf],
      [0xf4, 0x90, 0x80, 0x80],
    ];
    const chunkArb = fc.oneof(
      fc.constantFrom(...edges).map((byte) => [byte]),
      fc.integer({ min: 0, max: 255 }).map((byte) => [byte]),
      fc.constantFrom(...sequences),
    );
    fc.assert(
      fc.property(fc.array(chunkArb, { maxLength: 8 }), (chunks) => {
        const input = Uint8Array.from(chunks.flat());
        expect(firstInvalidUtf8(input)).toBe(longestValidPrefix(input));
      }),
      { numRuns: 3000 },
    );
  });

  it("size limit: a text's size is its UTF-8 length, a lone surrogate counted as the U+FFFD it is saved as", () => {
    const pieces = [
      "a",
      "\u007f",
      "\u0080",
      "é",
      "\u07ff",
      "\u0800",
      "€",
      "\uffff",
      "😀",
      "\ud83d",
      "\ude00",
      // The edges of the two surrogate ranges and the code unit just past them.
      "\ud800",
      "\udbff",
      "\udc00",
      "\udfff",
      "\ue000",
    ];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...pieces), { maxLength: 12 }), (parts) => {
        const text = parts.join("");
        expect(utf8Length(text)).toBe(new TextEncoder().encode(text).length);
      }),
      { numRuns: 1000 },
    );
  });

  it("size limit: text already in memory is accepted at exactly the limit in UTF-8 bytes, refused one byte past it", () => {
    const euros = Math.floor(MAX_SOURCE_BYTES / 3);
    const text = "€".repeat(euros) + "a".repeat(MAX_SOURCE_BYTES - 3 * euros);
    expect(textSource(FILE, "fixture", text)).toEqual({ file: FILE, text });
    expect("problems" in textSource(FILE, "fixture", text + "a")).toBe(true);
  });

  it("size limit: a file's size in MB is rounded up to a tenth below 100 MB and to a whole MB above", () => {
    const message = (bytes: number) => sizeProblem("f", "catalogue", bytes)?.problems[0]!.message;
    expect(sizeProblem("f", "catalogue", MAX_SOURCE_BYTES)).toBeNull();
    expect(message(MAX_SOURCE_BYTES + 1)).toBe("catalogue is 10.1 MB; the limit is 10 MB");
    expect(message(99.95 * 1024 * 1024)).toBe("catalogue is 100 MB; the limit is 10 MB");
    expect(message(100 * 1024 * 1024)).toBe("catalogue is 100 MB; the limit is 10 MB");
    expect(message(250.4 * 1024 * 1024)).toBe("catalogue is 250 MB; the limit is 10 MB");
    expect(message(250.6 * 1024 * 1024)).toBe("catalogue is 251 MB; the limit is 10 MB");
    expect(sizeProblem("f", "catalogue", 2 ** 40)?.problems.map(formatProblem)).toEqual([
      "f:1:1: error: catalogue is 1048576 MB; the limit is 10 MB",
    ]);
  });
});
