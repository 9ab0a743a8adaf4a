/** Where a line may hold a trace: the first marker alone answers as all the markers do. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { firstMarker, markersIn } from "../../../src/core/traces/markers.js";

/** Pieces that make markers, near-misses and plain text when joined in any order. */
const PIECES = [
  '"trace": [',
  "'trace': (",
  "trace=(",
  'trace="[',
  "StageRecord(",
  "xStageRecord(",
  "StageRecord ",
  "trace",
  "trace_id=",
  "retrace=(",
  '"trace": 1',
  "{",
  " ",
  "a",
];

describe("firstMarker", () => {
  it("is the first of markersIn on any mix of markers and near-misses", () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...PIECES), { maxLength: 12 }), (pieces) => {
        const text = pieces.join("");
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
