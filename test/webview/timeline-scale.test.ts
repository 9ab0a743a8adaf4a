import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Timeline, type TimeBucket } from "../../src/core/stats/timeline.js";
import {
  BASELINE,
  failureLabels,
  paletteRuns,
  scaleOf,
  sizeLabels,
} from "../../webview/stats/timeline-scale.js";

const HOUR = 3_600_000;
const START = Date.UTC(2025, 2, 10);

/** Hourly buckets from START: each [traces, mean palette, failures]. */
function hourly(counts: readonly (readonly [number, number, number])[]): TimeBucket[] {
  return counts.map(([traces, meanPalette, forcedFailures], i) => ({
    start: START + i * HOUR,
    width: HOUR,
    traces,
    meanPalette: traces === 0 ? 0 : meanPalette,
    forcedFailures: traces === 0 ? 0 : forcedFailures,
  }));
}

/** A timeline with one trace of palette `size` (no failure) at each of these hours after `from`. */
function timelineAt(from: number, hours: readonly number[], size = 3): Timeline {
  const timeline = new Timeline();
  for (const h of hours) timeline.add(from + h * HOUR, size, false);
  return timeline;
}

/** The number a label's text says (its unit left off). */
const said = (text: string) => Number(text.split(" ")[0]);

describe("the timeline chart's axes", () => {
  it("a set without failures has a failure axis of 0 alone, never one made up at 1", () => {
    const scale = scaleOf(
      hourly([
        [4, 5, 0],
        [3, 6, 0],
      ]),
      640,
    );
    expect(failureLabels(scale)).toEqual([{ value: 0, y: BASELINE, text: "0 failures" }]);
  });

  it("a set whose every final palette is empty has a size axis of 0 alone, its line on the baseline", () => {
    const scale = scaleOf(
      hourly([
        [4, 0, 1],
        [3, 0, 2],
      ]),
      640,
    );
    expect(sizeLabels(scale)).toEqual([{ value: 0, y: BASELINE, text: "0 tools" }]);
    expect(scale.ySize(0)).toBe(BASELINE);
    expect(failureLabels(scale).map((l) => l.text)).toEqual(["2 failures", "0"]);
  });

  it("a mean just under a round number is labelled at what it reaches, not rounded up past it", () => {
    const scale = scaleOf(
      hourly([
        [4, 2.96, 0],
        [3, 1, 0],
      ]),
      640,
    );
    expect(sizeLabels(scale).map((l) => l.text)).toEqual(["2.9 tools", "1.4", "0"]);
  });

  it("every number on either axis is a value the data reaches, drawn where that value is", () => {
    const bucket = fc.tuple(fc.nat(5), fc.double({ min: 0, max: 80, noNaN: true }), fc.nat(30));
    fc.assert(
      fc.property(fc.array(bucket, { minLength: 2, maxLength: 64 }), (counts) => {
        const buckets = hourly(counts);
        const scale = scaleOf(buckets, 320 + (counts.length % 3) * 160);
        const held = buckets.filter((b) => b.traces > 0);
        const axes = [
          {
            labels: sizeLabels(scale),
            max: Math.max(0, ...held.map((b) => b.meanPalette)),
            y: scale.ySize,
            unit: / tools$/,
          },
          {
            labels: failureLabels(scale),
            max: Math.max(0, ...buckets.map((b) => b.forcedFailures)),
            y: scale.yFail,
            unit: / failures?$/,
          },
        ];
        for (const { labels, max, y, unit } of axes) {
          expect(labels[0]!.text).toMatch(unit);
          expect(labels.at(-1)!.value).toBe(0);
          for (const label of labels) {
            expect(label.value).toBeGreaterThanOrEqual(0);
            expect(label.value).toBeLessThanOrEqual(max + 1e-9);
            expect(said(label.text)).toBeCloseTo(label.value, 9);
            expect(label.y).toBeCloseTo(y(label.value), 9);
            expect(label.y).toBeLessThanOrEqual(BASELINE);
          }
          // Top to bottom, each a different value.
          const values = labels.map((l) => l.value);
          expect(values).toEqual([...new Set(values)].sort((a, b) => b - a));
        }
      }),
    );
  });
});

describe("the timeline chart's palette line", () => {
  it("within one set, breaks at buckets without traces, and keeps a bucket alone as a run of one", () => {
    const buckets = hourly([
      [2, 5, 0],
      [1, 4, 0],
      [3, 6, 0],
      [0, 0, 0], // a night without traces
      [0, 0, 0],
      [2, 5, 0],
      [0, 0, 0],
      [4, 3, 1],
      [1, 2, 0],
    ]);
    expect(paletteRuns(buckets)).toEqual([[0, 1, 2], [5], [7, 8]]);
  });

  it("two sets compared on one timeline: no line across the days between them", () => {
    const old = timelineAt(START + 9 * HOUR, [0, 1, 2, 3]);
    const now = timelineAt(START + 57 * HOUR, [0, 1, 2]);
    const buckets = Timeline.joined(old, now).list();
    const runs = paletteRuns(buckets, [old.period(), now.period()]);
    expect(runs).toHaveLength(2);
    const times = runs.map((run) => run.map((i) => buckets[i]!.start));
    expect(Math.max(...times[0]!)).toBeLessThanOrEqual(old.period()!.to);
    expect(Math.min(...times[1]!)).toBeGreaterThanOrEqual(
      Math.floor(now.period()!.from / HOUR) * HOUR,
    );
  });

  it("a set split where both sides have traces in the buckets beside the split: the line breaks at the split", () => {
    const buckets = hourly([
      [2, 5, 0],
      [1, 4, 0],
      [3, 6, 0],
      [2, 6, 0],
    ]);
    const split = buckets[2]!.start;
    const periods = [
      { from: buckets[0]!.start, to: split - 1 },
      { from: split, to: buckets[3]!.start },
    ];
    expect(paletteRuns(buckets, periods)).toEqual([
      [0, 1],
      [2, 3],
    ]);
  });

  it("every bucket with traces is in one run, every run a stretch of neighbours with traces", () => {
    fc.assert(
      fc.property(fc.array(fc.nat(2), { minLength: 1, maxLength: 64 }), (traces) => {
        const buckets = hourly(traces.map((n) => [n, 3, 0]));
        const runs = paletteRuns(buckets);
        expect(runs.flat()).toEqual(traces.flatMap((n, i) => (n > 0 ? [i] : [])));
        for (const run of runs) run.forEach((i, k) => k === 0 || expect(i).toBe(run[k - 1]! + 1));
        for (let r = 1; r < runs.length; r++)
          expect(runs[r]![0]! - runs[r - 1]!.at(-1)!).toBeGreaterThan(1);
      }),
    );
  });
});
