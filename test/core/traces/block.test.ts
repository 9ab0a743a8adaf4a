/** A JSON value pretty-printed over lines, read line by line (the scanner's `{`/`[` blocks). */
import { describe, expect, it } from "vitest";
import { JsonBlock, opensBlock, type BlockValue } from "../../../src/core/traces/block.js";

/** Feeds ASCII lines (1 byte per character, LF ends) from line 1, offset 0; returns each step and each value. */
function feedLines(lines: readonly string[], maxBytes = 1_000_000) {
  const values: BlockValue[] = [];
  const block = new JsonBlock(maxBytes, (value) => values.push(value));
  const steps: string[] = [];
  let offset = 0;
  lines.forEach((text, i) => {
    steps.push(block.feed(text, i + 1, offset, text.length, (k) => k));
    offset += text.length + 1;
  });
  return { block, steps, values };
}

describe("a line that opens a pretty-printed value", () => {
  it("holds only `{` or `[`, maybe with blanks around, within the range given", () => {
    for (const line of ["{", "[", "  {", "\t[\t", "{  "])
      expect(opensBlock(line, 0, line.length)).toBe(true);
    for (const line of ["", "  ", "{{", "[{", "{x", "x{", "}", "]", "(", "{,"])
      expect(opensBlock(line, 0, line.length)).toBe(false);
    expect(opensBlock("ab{cd", 2, 3)).toBe(true);
    expect(opensBlock("ab{cd", 2, 4)).toBe(false);
    expect(opensBlock("x{", 1, 2)).toBe(true);
  });
});

describe("JsonBlock", () => {
  it("gives a top-level object as one value with its first line and byte range", () => {
    const lines = ["{", '  "a": {"b": [1, "}]"]},', '  "c": "\\"{"', "}"];
    const { steps, values } = feedLines(lines);
    expect(steps).toEqual(["open", "open", "open", "closed"]);
    expect(values).toEqual([
      {
        text: lines.join("\n"),
        line: 1,
        offset: 0,
        length: lines.join("\n").length,
        tooLong: false,
      },
    ]);
  });

  it("splits a top-level array into its elements, each with its own line and range", () => {
    const lines = ["[", '  {"x": 1},', "  {", '    "y": [2]', "  }", "]"];
    const { steps, values } = feedLines(lines);
    expect(steps).toEqual(["open", "open", "open", "open", "open", "closed"]);
    const offsetOf = (line: number, column: number) =>
      lines.slice(0, line - 1).reduce((n, l) => n + l.length + 1, 0) + column;
    expect(values).toEqual([
      { text: '{"x": 1}', line: 2, offset: offsetOf(2, 2), length: 8, tooLong: false },
      {
        text: '{\n    "y": [2]\n  }',
        line: 3,
        offset: offsetOf(3, 2),
        length: offsetOf(5, 3) - offsetOf(3, 2),
        tooLong: false,
      },
    ]);
  });

  it("counts offsets in bytes through the caller's measure and from the line's offset", () => {
    const values: BlockValue[] = [];
    const block = new JsonBlock(1000, (value) => values.push(value));
    // Each character before i counts 2 bytes, as if the line were all 2-byte UTF-8.
    block.feed("[", 7, 100, 1, (i) => 2 * i);
    block.feed(' {"é": 1}', 8, 102, 18, (i) => 2 * i);
    expect(values).toEqual([
      { text: '{"é": 1}', line: 8, offset: 104, length: 16, tooLong: false },
    ]);
  });

  it("knows where the value still open started and what of it was read", () => {
    const { block } = feedLines(["[", '  {"trace": [', "    1,"]);
    expect(block.openLine).toBe(2);
    expect(block.openText).toBe('{"trace": [\n    1,\n');
    expect(feedLines(["["]).block.openLine).toBeNull();
    expect(feedLines(["["]).block.openText).toBe("");
    const closed = feedLines(["[", '  {"x": 1},', "  ,"]).block;
    expect([closed.openLine, closed.openText]).toEqual([null, ""]);
    // Past the cap nothing of it is held.
    const long = feedLines(["[", '  {"trace": [', '    "0123456789",'], 16).block;
    expect([long.openLine, long.openText]).toEqual([2, ""]);
  });

  it("is broken by a line that cannot be pretty-printed JSON, or a string left open at its end", () => {
    expect(feedLines(["{", "INFO next line"]).steps).toEqual(["open", "broken"]);
    expect(feedLines(["{", '  "a": "open']).steps).toEqual(["open", "broken"]);
    // Blank lines and lines starting with any JSON token's first character are plausible.
    const plausible = [
      "",
      "   ",
      '  "k": 1,',
      "\t-1,",
      " 0,",
      "9,",
      " true,",
      "false,",
      "null,",
      " {",
      "}",
    ];
    for (const line of plausible)
      expect(feedLines(["[", "[", line]).steps[2], JSON.stringify(line)).not.toBe("broken");
    expect(feedLines(["[", "   x"]).steps).toEqual(["open", "broken"]);
    expect(feedLines(["[", "\tx"]).steps).toEqual(["open", "broken"]);
  });

  it("gives a value over the cap as too long and empty, then reads the next one whole", () => {
    const lines = ["[", '  {"a": "0123456789"},', '  {"b": 1}', "]"];
    const { values } = feedLines(lines, 12);
    expect(values.map((v) => [v.text, v.line, v.length, v.tooLong])).toEqual([
      ["", 2, 19, true],
      ['{"b": 1}', 3, 8, false],
    ]);
    // Exactly at the cap is not over it.
    // The cap counts the bytes of the lines the value is on: exactly at it is not over it.
    expect(feedLines(["[", '  {"b": 12}', "]"], 11).values[0]).toMatchObject({
      text: '{"b": 12}',
      tooLong: false,
    });
    expect(feedLines(["[", '  {"b": 12}', "]"], 10).values[0]).toMatchObject({ tooLong: true });
    // The line break of a line the value goes on past counts too: 3 + 1 + 1 bytes.
    expect(feedLines(["[", "  {", "}", "]"], 5).values[0]).toMatchObject({ text: "{\n}" });
    expect(feedLines(["[", "  {", "}", "]"], 4).values[0]).toMatchObject({ tooLong: true });
  });
});
