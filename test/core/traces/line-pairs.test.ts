/** The id and time pairs of a line, found by testing characters as the regular expressions that say what a pair is would. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isSpace, nextPair, pairAt, type PairMatch } from "../../../src/core/traces/line-pairs.js";

const PAIR = /(turn_id|request_id|trace_id|timestamp|time|ts)=("[^"]*"|'[^']*'|\S+)/;
const PREFIX_PAIR = new RegExp(`(?:^|[\\s:])${PAIR.source}`, "g");
const PAIR_AT = new RegExp(PAIR.source, "y");

function byRegex(regex: RegExp, line: string, from: number): PairMatch | null {
  regex.lastIndex = from;
  const match = regex.exec(line);
  if (match === null) return null;
  const start = regex.sticky ? from : match.index;
  return { start, end: start + match[0].length, key: match[1]!, raw: match[2]! };
}

/** Lines made of the pieces a pair and what is around it are made of. */
const lines = fc
  .array(
    fc.constantFrom(
      ..."turn_id request_id trace_id timestamp time ts tim stamp _id id= t s = \" ' : x 1 Z".split(
        " ",
      ),
      " ",
      "\t",
      "\n",
      "\u00a0",
      "\u2028",
      "\u3000",
      "\ufeff",
      "\u0085",
      "é",
    ),
    { maxLength: 24 },
  )
  .map((pieces) => pieces.join(""));

describe("an id or time pair of a line", () => {
  it("is found from any place as the regular expression finds it", () => {
    fc.assert(
      fc.property(lines, fc.nat(40), (line, from) => {
        const at = Math.min(from, line.length);
        expect(nextPair(line, at)).toEqual(byRegex(PREFIX_PAIR, line, at));
        expect(pairAt(line, at)).toEqual(byRegex(PAIR_AT, line, at));
      }),
      { numRuns: 20_000 },
    );
  });

  it("starts at the line's start or after a blank or `:`, and ends at a closing quote or a blank", () => {
    expect(nextPair("turn_id=a b", 0)).toEqual({ start: 0, end: 9, key: "turn_id", raw: "a" });
    expect(nextPair("INFO:root:ts=5", 0)).toEqual({ start: 9, end: 14, key: "ts", raw: "5" });
    expect(nextPair("x time='a b' y", 0)).toEqual({ start: 1, end: 12, key: "time", raw: "'a b'" });
    expect(nextPair('x request_id="a', 0)).toEqual({
      start: 1,
      end: 15,
      key: "request_id",
      raw: '"a',
    });
    expect(nextPair("mytime=1 xts=2 ts= 3", 0)).toBeNull();
    expect(nextPair("ts=1 ts=2", 1)).toEqual({ start: 4, end: 9, key: "ts", raw: "2" });
    expect(pairAt("]trace_id=t-1", 1)).toEqual({ start: 1, end: 13, key: "trace_id", raw: "t-1" });
    expect(pairAt("timestamp", 0)).toBeNull();
  });

  it("counts as blank what a regular expression's \\s does, and nothing else", () => {
    const differ: string[] = [];
    for (let c = 0; c <= 0xffff; c++)
      if (isSpace(c) !== /\s/.test(String.fromCharCode(c))) differ.push(c.toString(16));
    expect(differ).toEqual([]);
  });
});
