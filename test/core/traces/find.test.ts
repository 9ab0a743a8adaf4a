import { describe, expect, it } from "vitest";
import { MAX_NESTING, tracesInValue } from "../../../src/core/traces/find.js";
import type { Found } from "../../../src/core/traces/find.js";

const TRACE = { trace: [{ stage: "s", action: "abstain", kept: ["a"] }] };
const LINE = { time: "line time", id: "line id" };

/** Each found trace's time and id, or its problem. */
const seen = (found: Found[]) =>
  found.map((f) => ("trace" in f ? [f.trace.time, f.trace.id] : f.problem));

describe("traces inside one JSON value", () => {
  it("the value itself, or each element of a top-level array, in order; other values hold none", () => {
    expect(seen(tracesInValue(TRACE, LINE))).toEqual([["line time", "line id"]]);
    expect(seen(tracesInValue([TRACE, 1, { ...TRACE, ts: 5 }], LINE))).toEqual([
      ["line time", "line id"],
      [5, "line id"],
    ]);
    for (const value of [null, 3, "trace", [], { trace: "x" }])
      expect(tracesInValue(value, LINE)).toEqual([]);
  });

  it(`looks ${MAX_NESTING} levels into a log event, through objects and lists alike`, () => {
    const inTwo = { event: { selection: TRACE } };
    expect(tracesInValue(inTwo, LINE)).toHaveLength(1);
    expect(seen(tracesInValue({ results: [TRACE, TRACE] }, LINE))).toHaveLength(2);
    expect(seen(tracesInValue([[TRACE]], LINE))).toEqual([["line time", "line id"]]);
  });

  it("says that a trace nested deeper than that was not read, once per value", () => {
    const deep = `a trace nested 3 levels deep in a log event was not read; traces are read at most ${MAX_NESTING} levels deep`;
    const inThree = { event: { selection: { result: TRACE, again: TRACE } } };
    expect(seen(tracesInValue(inThree, LINE))).toEqual([deep]);
    expect(seen(tracesInValue({ a: [[TRACE]], b: TRACE }, LINE))).toEqual([
      ["line time", "line id"],
      deep,
    ]);
    expect(seen(tracesInValue([{ a: { b: [TRACE] } }, TRACE], LINE))).toEqual([
      deep,
      ["line time", "line id"],
    ]);
  });

  it("a trace takes the nearest event's time and id, then the line's; an event's odd field is skipped", () => {
    const event = {
      timestamp: "outer",
      request_id: 7,
      a: { ...TRACE },
      b: { "@timestamp": "inner", trace_id: true, c: TRACE },
      d: { ...TRACE, turn_id: "own" },
    };
    expect(seen(tracesInValue(event, LINE))).toEqual([
      ["outer", 7],
      ["inner", 7],
      ["outer", "own"],
    ]);
    expect(seen(tracesInValue({ x: TRACE, time: null, turn_id: {} }, LINE))).toEqual([
      ["line time", "line id"],
    ]);
  });

  it("a candidate that fails validation is found as its problem", () => {
    const found = tracesInValue({ event: { trace: [{ stage: 1 }] } }, LINE);
    expect(found).toHaveLength(1);
    expect(found[0]).toEqual({ problem: expect.stringContaining("stage") });
  });
});
