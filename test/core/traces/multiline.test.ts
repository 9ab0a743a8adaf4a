/** A value a logger spread over indented lines after a prefix, followed bracket by bracket. */
import { describe, expect, it } from "vitest";
import { LineBlock, MAX_BLOCK_BYTES, MAX_BLOCK_LINES } from "../../../src/core/traces/multiline.js";

const open = (first: string) => new LineBlock(3, 40, 1, "INFO selection ", first, "unclosed");

/** Feeds the lines after the first; the steps it took. */
function follow(block: LineBlock, lines: readonly string[]) {
  return lines.map((line) => block.feed(line));
}

describe("LineBlock", () => {
  it("keeps where it opened and the text before it", () => {
    const block = open("{'a': [");
    expect([block.line, block.offset, block.ordinalBase, block.prefix, block.unclosed]).toEqual([
      3,
      40,
      1,
      "INFO selection ",
      "unclosed",
    ]);
    expect(block.lineCount).toBe(1);
  });

  it("closes at the bracket that closes the first line's, and says where the line goes on", () => {
    const block = open("{'a': [1,");
    expect(follow(block, ["    2],", "  'b': (3, {4})} and after"])).toEqual([
      { state: "open" },
      { state: "closed", text: "{'a': [1,\n    2],\n  'b': (3, {4})}", tooLong: false, rest: 16 },
    ]);
    expect(block.lineCount).toBe(3);
  });

  it("takes lines indented with a blank or a tab, or a closing bracket at the margin", () => {
    expect(follow(open("{'a': ["), ["\t1,", "]}"]).at(-1)).toMatchObject({ state: "closed" });
    expect(follow(open("('a', ["), ["])"]).at(-1)).toMatchObject({ state: "closed" });
    expect(follow(open("['a',"), ["]"]).at(-1)).toMatchObject({ state: "closed" });
    for (const line of ["", "x)", "'a')", "INFO next"])
      expect(open("('a',").feed(line), JSON.stringify(line)).toEqual({ state: "broken" });
  });

  it("skips brackets inside strings of either quote, escaped quotes included", () => {
    const block = open("{'a': ')]}',");
    expect(follow(block, [`  "b": "}\\"]",`, "  'c': 'it\\'s }'}"]).at(-1)).toEqual({
      state: "closed",
      text: `{'a': ')]}',\n  "b": "}\\"]",\n  'c': 'it\\'s }'}`,
      tooLong: false,
      rest: 17,
    });
  });

  it("is broken by a string that does not close on its line", () => {
    expect(open("{'a': [").feed("  'no end]}")).toEqual({ state: "broken" });
    expect(open("{'a': [").feed('  "no end]}')).toEqual({ state: "broken" });
  });

  it("is marked once a line of the value may hold a marker, not text after its close", () => {
    const block = open("{'a': [");
    block.feed("  1,");
    expect(block.marked).toBe(false);
    block.feed("  StageRecord(stage='s'),");
    expect(block.marked).toBe(true);
    expect(open("{'trace': [").marked).toBe(true);
    const after = open("{'a': [");
    after.feed("]} trace=[1]");
    expect(after.marked).toBe(false);
  });

  it(`gives up past ${MAX_BLOCK_LINES} lines, counting the first`, () => {
    const fill = (n: number) => Array<string>(n).fill("  1,");
    const atCap = open("[");
    expect(follow(atCap, [...fill(MAX_BLOCK_LINES - 2), "]"]).at(-1)).toMatchObject({
      tooLong: false,
    });
    const overCap = open("[");
    expect(follow(overCap, [...fill(MAX_BLOCK_LINES - 1), "]"]).at(-1)).toEqual({
      state: "closed",
      text: "",
      tooLong: true,
      rest: 1,
    });
  });

  it(`gives up past ${MAX_BLOCK_BYTES} bytes, each line counted with its line break`, () => {
    // "[" and its break are 2 bytes; the closing line then fills the cap exactly, or one past it.
    const closing = (n: number) => ` ${"x".repeat(n)}]`;
    const exact = MAX_BLOCK_BYTES - 2 - 1 - 2;
    expect(open("[").feed(closing(exact))).toMatchObject({ state: "closed", tooLong: false });
    expect(open("[").feed(closing(exact + 1))).toEqual({
      state: "closed",
      text: "",
      tooLong: true,
      rest: exact + 3,
    });
    // Bytes, not UTF-16 units: é is two bytes, 😀 four.
    const wide = (n: number, c: string) => ` ${c.repeat(n)}]`;
    expect(open("[").feed(wide(exact / 2, "é"))).toMatchObject({ tooLong: false });
    expect(open("[").feed(wide(exact / 2 + 1, "é"))).toMatchObject({ tooLong: true });
    expect(open("[").feed(wide(Math.floor(exact / 4) + 1, "😀"))).toMatchObject({ tooLong: true });
  });
});
