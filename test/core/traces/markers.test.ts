/** Where a line may hold a trace: the markers, the first one alone, and the bracket cursor agree. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  firstMarker,
  MarkerCursor,
  markersIn,
  mayHoldMarker,
} from "../../../src/core/traces/markers.js";

/** Pieces that make markers, near-misses and plain text when joined in any order. */
const PIECES = [
  '"trace": [',
  "'trace': (",
  "trace=(",
  'trace="[',
  "trace='(",
  "trace= \t[",
  '\\"trace\\": [',
  '"trace" :\t[',
  "StageRecord(",
  "xStageRecord(",
  "_StageRecord(",
  "StageRecord ",
  "trace",
  "trace==[",
  "trace =[",
  "trace_id=",
  "retrace=(",
  "9trace=(",
  '"trace": 1',
  "'trace\"",
  '"trace"x[',
  "{",
  "[",
  "(",
  ":",
  "=",
  '"',
  "'",
  " ",
  "\t",
  "a",
  "z",
  "A",
  "Z",
  "0",
  "9",
  "_",
  "@",
  "`",
  "/",
  "\\",
];

const line = fc.array(fc.constantFrom(...PIECES), { maxLength: 12 }).map((p) => p.join(""));

/** The markers as the docs describe them, by patterns tried where each word starts. */
function markersByPattern(text: string): { at: number; kind: string }[] {
  const quoted = /(["'])trace\\?\1[ \t\r\n]*:[ \t\r\n]*([[(])/y;
  const argument = /(?<![A-Za-z0-9_"'])trace=(?!=)["']?[ \t\r\n]*[[(]/y;
  const call = /(?<![A-Za-z0-9_])StageRecord\(/y;
  const out: { at: number; kind: string }[] = [];
  for (const { index: at } of text.matchAll(/trace|StageRecord/g)) {
    if (text.startsWith("StageRecord", at)) {
      call.lastIndex = at;
      if (call.test(text)) out.push({ at, kind: "python" });
      continue;
    }
    quoted.lastIndex = at - 1;
    const key = at > 0 ? quoted.exec(text) : null;
    argument.lastIndex = at;
    if (key) {
      const json = key[1] === '"' && key[2] === "[" && text[at - 2] !== "\\";
      out.push({ at, kind: json ? "json" : "python" });
    } else if (argument.test(text)) out.push({ at, kind: "python" });
  }
  return out;
}

/** The bracket each marker ends with: the first `[` or `(` from where it starts. */
function bracketsOf(text: string): number[] {
  return markersIn(text).map(({ at }) => {
    const brackets = [text.indexOf("[", at), text.indexOf("(", at)].filter((i) => i !== -1);
    return Math.min(...brackets);
  });
}

function stops(cursor: MarkerCursor): number[] {
  const out: number[] = [];
  for (let at = cursor.next(0); at !== -1; at = cursor.next(at + 1)) out.push(at);
  return out;
}

describe("markersIn", () => {
  it("reads each kind of key and call, JSON only for an unescaped double-quoted key before [", () => {
    expect(markersIn('{"trace": [')).toEqual([{ at: 2, kind: "json" }]);
    expect(markersIn('{"trace" :\t(')).toEqual([{ at: 2, kind: "python" }]);
    expect(markersIn("{'trace': [")).toEqual([{ at: 2, kind: "python" }]);
    expect(markersIn('s="{\\"trace\\": [')).toEqual([{ at: 6, kind: "python" }]);
    expect(markersIn("f(trace=(")).toEqual([{ at: 2, kind: "python" }]);
    expect(markersIn('k trace="[')).toEqual([{ at: 2, kind: "python" }]);
    expect(markersIn("k trace=  [")).toEqual([{ at: 2, kind: "python" }]);
    expect(markersIn("(StageRecord(StageRecord(")).toEqual([
      { at: 1, kind: "python" },
      { at: 13, kind: "python" },
    ]);
  });

  it("skips near-misses (and so does the bracket cursor): a longer name, a comparison, no bracket, a mismatched quote", () => {
    for (const text of [
      "retrace=(",
      "trace_x=[",
      "trace==[",
      "trace =[",
      '"trace": 1',
      "'trace\": [",
      '"tracex": [',
      "xStageRecord(",
      "StageRecord (",
      "StageRecords(",
      "trace=",
      '"trace":',
    ]) {
      expect(markersIn(text), text).toEqual([]);
      expect(stops(MarkerCursor.ofText(text)), text).toEqual([]);
      expect(stops(MarkerCursor.ofBytes(Buffer.from(text))), text).toEqual([]);
    }
  });

  it("finds what the patterns of a key, an argument and a call find, on any mix of pieces", () => {
    fc.assert(
      fc.property(line, (text) => {
        expect(markersIn(text)).toEqual(markersByPattern(text));
      }),
      { numRuns: 500 },
    );
  });

  it("in a window finds what the text cut at its end holds from its start", () => {
    fc.assert(
      fc.property(line, fc.nat(), fc.nat(), (text, a, b) => {
        const [from, to] = [a % (text.length + 1), b % (text.length + 1)].sort((x, y) => x - y);
        expect(markersIn(text, from, to)).toEqual(
          markersIn(text.slice(0, to)).filter((marker) => marker.at >= from),
        );
      }),
    );
  });

  it("reads blanks and line breaks between a key and its bracket", () => {
    expect(markersIn('"trace":\r\n [')).toEqual([{ at: 1, kind: "json" }]);
    expect(markersIn('"trace": [', 0, 9)).toEqual([]);
  });
});

describe("firstMarker", () => {
  it("is the first of markersIn on any mix of markers and near-misses", () => {
    fc.assert(
      fc.property(line, (text) => {
        expect(firstMarker(text)).toEqual(markersIn(text)[0] ?? null);
      }),
    );
  });

  it("finds a record call before the first trace key, and a trace key past near-misses", () => {
    expect(firstMarker(`log StageRecord('a') {"trace": [`)).toEqual({ at: 4, kind: "python" });
    expect(firstMarker(`trace_id=1 retrace=( {"trace": [`)).toEqual({ at: 23, kind: "json" });
    expect(firstMarker("StageRecord trace")).toBeNull();
  });
});

describe("mayHoldMarker", () => {
  it("is true exactly when either word starts inside the window", () => {
    fc.assert(
      fc.property(line, fc.nat(), fc.nat(), (text, a, b) => {
        const [from, to] = [a % (text.length + 1), b % (text.length + 1)].sort((x, y) => x - y);
        const starts = [...text.matchAll(/trace|StageRecord/g)].map((m) => m.index);
        expect(mayHoldMarker(text, from, to)).toBe(starts.some((at) => at >= from && at < to));
      }),
    );
  });
});

describe("MarkerCursor", () => {
  it("over text and over its bytes stops at every bracket that ends a marker, and only at brackets", () => {
    fc.assert(
      fc.property(line, (text) => {
        const expected = bracketsOf(text);
        for (const cursor of [
          MarkerCursor.ofText(text),
          MarkerCursor.ofBytes(Buffer.from(text, "latin1")),
        ]) {
          const found = stops(cursor);
          // A pre-filter: it may stop at a bracket that is no marker (`"trace="[`), never miss one.
          expect(found).toEqual(expect.arrayContaining(expected));
          for (const at of found) expect("[(").toContain(text[at]);
        }
      }),
      { numRuns: 300 },
    );
  });

  it("finds the next marker from any point, not only moving forward one stop at a time", () => {
    const text = '"trace": [ StageRecord( x trace=( ';
    const cursor = MarkerCursor.ofText(text);
    expect(cursor.next(0)).toBe(9);
    expect(cursor.next(20)).toBe(22);
    expect(cursor.next(23)).toBe(32);
    expect(cursor.next(33)).toBe(-1);
  });
});
