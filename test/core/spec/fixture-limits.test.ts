/**
 * Issue 14 "Fixtures" and issue 8 findings 2 and 9, at the loader: every hostile input is a
 * problem with its file, line and column, never a crash or a silently wrong value.
 */
import { readFileSync } from "node:fs";
import { Ajv } from "ajv";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { formatProblem } from "../../../src/core/fixture/problems.js";
import {
  decodeSource,
  firstInvalidUtf8,
  MAX_SOURCE_BYTES,
  sizeProblem,
  textSource,
  utf8Length,
} from "../../../src/core/fixture/source.js";
import { MAX_JSON_DEPTH } from "../../../src/core/json/syntax.js";
import { at, catalogFiles, FILE, load, problemsOf, run } from "./helpers.js";

/** A tool object nested `depth` objects deep, as text. */
const nestedTool = (depth: number) =>
  '{"name": "t", "schema": ' + '{"x": '.repeat(depth) + "{}" + "}".repeat(depth) + "}";

describe("issue 14: deep nesting is a problem at its line, not a crash", () => {
  it("deep nesting: 6,000 unclosed brackets in a fixture are refused at the bracket past the limit", async () => {
    const text = "{\n" + '"offered": ' + "[".repeat(6000);
    const problems = await problemsOf(text);
    expect(problems).toHaveLength(1);
    expect(at(problems[0]!)).toBe(`2:${12 + MAX_JSON_DEPTH - 1}`);
    expect(problems[0]!.message).toBe(
      `nested deeper than ${MAX_JSON_DEPTH} levels; the limit is ${MAX_JSON_DEPTH}`,
    );
  });

  it("deep nesting: 6,000 unclosed brackets in the catalogue a fixture names are refused in the catalogue", async () => {
    const problems = await problemsOf(
      { catalog: "deep.catalog.json" },
      catalogFiles({ "deep.catalog.json": "[".repeat(6000) }),
    );
    expect(problems.map(formatProblem)).toEqual([
      `deep.catalog.json:1:${MAX_JSON_DEPTH + 1}: error: nested deeper than ${MAX_JSON_DEPTH} levels; the limit is ${MAX_JSON_DEPTH}`,
    ]);
  });

  it("deep nesting: a valid fixture whose offered tool object nests 4,500 deep is refused at its line", async () => {
    const text = `{\n  "offered": [\n    ${nestedTool(4500)}\n  ]\n}`;
    const problems = await problemsOf(text);
    expect(problems).toHaveLength(1);
    expect(problems[0]!.range.start.line).toBe(2);
    expect(problems[0]!.message).toMatch(/nested deeper than 64 levels/);
  });

  it("deep nesting: 100,000 levels of valid JSON are refused without recursion (issue 8 finding 9)", async () => {
    const problems = await problemsOf(`{"offered": ${"[".repeat(100_000)}${"]".repeat(100_000)}}`);
    expect(problems.map(at)).toEqual([`1:${13 + MAX_JSON_DEPTH - 1}`]);
  });

  it("deep nesting: a tool object exactly at the limit (64 levels in all) still runs", async () => {
    const report = await run({ offered: [JSON.parse(nestedTool(MAX_JSON_DEPTH - 4))] });
    expect(report.offered).toEqual(["t"]);
  });
});

describe("issue 14: values the schema cannot describe", () => {
  it.each([
    [
      "budget_usd",
      '{"offered": [], "pipeline": [{"kind": "policy", "budget_usd": 1e400}]}',
      ["pipeline", 0, "budget_usd"],
    ],
    ["cost_usd", '{"catalog": [{"name": "a", "cost_usd": -1e400}]}', ["catalog", 0, "cost_usd"]],
  ])(
    "numbers that overflow: %s of ±1e400 is 'out of range', not 'found number null'",
    async (_key, text, path) => {
      const problems = await problemsOf(text);
      expect(problems.map((p) => [p.path, p.message])).toEqual([
        [path, "number out of range (beyond ±1.8e308, the largest a double holds)"],
      ]);
      expect(problems[0]!.message).not.toMatch(/null/);
    },
  );

  it('"expect": {"error": null} is accepted by the loader and by the generated editor schema alike', async () => {
    const fixture = { offered: ["a"], expect: { error: null } };
    expect((await load(fixture)).ok).toBe(true);
    const ajv = new Ajv({ discriminator: true, strict: false });
    const schema = JSON.parse(readFileSync("media/schemas/turn-fixture.schema.json", "utf8"));
    const validate = ajv.compile({ ...schema, $schema: undefined });
    expect(validate(fixture)).toBe(true);
    expect(validate({ ...fixture, expect: { error: "Other" } })).toBe(false);
  });

  it("an unknown key inside a scripted outcome is named and marked at the key", async () => {
    const text =
      '{"offered": ["a"], "pipeline": [{"kind": "scripted", "name": "s",\n  "outcome": {"select": ["a"], "because": "x"}}]}';
    const problems = await problemsOf(text);
    expect(problems.map(formatProblem)).toEqual([
      `${FILE}:2:32: error: unknown key 'because'; expected one of { "abstain": true }, { "select": [names] }, { "force": name or null }, { "raise": message } (at $.pipeline[0].outcome.because)`,
    ]);
  });
});

describe("issue 14: invalid UTF-8 and issue 8 finding 2: size", () => {
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
      expect("problems" in source).toBe(true);
      if (!("problems" in source)) return;
      expect(source.problems.map(at)).toEqual([where]);
      expect(source.problems[0]!.message).toBe(
        `invalid UTF-8 (byte ${byte}); save the fixture as UTF-8`,
      );
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
    const byteArb = fc.oneof(fc.constantFrom(...edges), fc.integer({ min: 0, max: 255 }));
    fc.assert(
      fc.property(fc.array(byteArb, { maxLength: 12 }), (list) => {
        const input = Uint8Array.from(list);
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
