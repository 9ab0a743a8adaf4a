/**
 * The timeline chart's geometry, in its own units: where a bucket and a value sit, the numbers on
 * its two axes, and which buckets its palette line joins. No DOM, so it is tested in plain Node.
 */
import type { TimeBucket } from "../../src/core/stats/timeline.js";
import { counted } from "../../src/core/words.js";
import type { Period } from "../../src/stats-protocol.js";

export const HEIGHT = 160;
/** Room beside the plot for each axis' numbers and what they count. */
export const PAD = { left: 60, right: 76, top: 10, bottom: 24 };
const PLOT_H = HEIGHT - PAD.top - PAD.bottom;
export const BASELINE = PAD.top + PLOT_H;

/** Where bucket i and a value sit on the chart; the maxima are the data's own (0 when a series is all zero). */
export interface Scale {
  readonly width: number;
  readonly plotW: number;
  readonly step: number;
  readonly maxSize: number;
  readonly maxFail: number;
  readonly x: (i: number) => number;
  readonly ySize: (v: number) => number;
  readonly yFail: (v: number) => number;
}

export function scaleOf(buckets: readonly TimeBucket[], width: number): Scale {
  const filled = buckets.filter((b) => b.traces > 0);
  const maxSize = Math.max(0, ...filled.map((b) => b.meanPalette));
  const maxFail = Math.max(0, ...buckets.map((b) => b.forcedFailures));
  const plotW = width - PAD.left - PAD.right;
  const step = plotW / buckets.length;
  // A series that is all zero lies on the baseline: its axis is 0 alone, never a made-up 1.
  const y = (max: number) => (v: number) => PAD.top + PLOT_H * (1 - (max === 0 ? 0 : v / max));
  return {
    width,
    plotW,
    step,
    maxSize,
    maxFail,
    x: (i) => PAD.left + step * (i + 0.5),
    ySize: y(maxSize),
    yFail: y(maxFail),
  };
}

/** A number on an axis: the value it stands for, where that value sits, and its text. */
export interface AxisLabel {
  readonly value: number;
  readonly y: number;
  readonly text: string;
}

/** Tenths at most, rounded down, so a label never says more than the data reaches. */
const tenthsDown = (v: number) => Math.floor(v * 10 + 1e-9) / 10;

/** The left axis, top to bottom: the largest tenth the means reach (naming tools), half of it, and 0. */
export function sizeLabels(scale: Scale): AxisLabel[] {
  const top = tenthsDown(scale.maxSize);
  if (top === 0) return [{ value: 0, y: scale.ySize(0), text: "0 tools" }];
  const middle = tenthsDown(top / 2);
  const values = middle > 0 && middle < top ? [top, middle, 0] : [top, 0];
  return values.map((value, i) => {
    const n = Number.isInteger(value) ? String(value) : value.toFixed(1);
    return { value, y: scale.ySize(value), text: i === 0 ? `${n} tools` : n };
  });
}

/** The right axis, top to bottom: the most failures in a bucket (naming failures), and 0. */
export function failureLabels(scale: Scale): AxisLabel[] {
  const zero = { value: 0, y: scale.yFail(0) };
  if (scale.maxFail === 0) return [{ ...zero, text: "0 failures" }];
  return [
    {
      value: scale.maxFail,
      y: scale.yFail(scale.maxFail),
      text: counted(scale.maxFail, "failure"),
    },
    { ...zero, text: "0" },
  ];
}

/** The time a period's band covers: from the start of its first bucket to the end of its last. */
export function periodSpan(period: Period, width: number): { from: number; to: number } {
  return {
    from: Math.floor(period.from / width) * width,
    to: (Math.floor(period.to / width) + 1) * width,
  };
}

/**
 * The buckets the palette line joins, as runs of indices: a run ends at a bucket without traces
 * (no data, not a zero) and where a compared period begins or ends, so the line never crosses
 * time nobody recorded, nor joins one period to the other. A run of one is a dot alone.
 */
export function paletteRuns(
  buckets: readonly TimeBucket[],
  periods: readonly (Period | null)[] = [],
): number[][] {
  const width = buckets[0]?.width ?? 1;
  // Which periods a bucket lies in, as the bands on the chart draw them.
  const spans = periods.map((p) => p && periodSpan(p, width));
  const sides = (b: TimeBucket) =>
    spans.map((span) => (span && span.from <= b.start && b.start < span.to ? 1 : 0)).join("");
  const runs: number[][] = [];
  let run: number[] = [];
  buckets.forEach((b, i) => {
    const previous = buckets[i - 1];
    if (b.traces === 0 || (previous && sides(previous) !== sides(b))) {
      if (run.length > 0) runs.push(run);
      run = [];
    }
    if (b.traces > 0) run.push(i);
  });
  if (run.length > 0) runs.push(run);
  return runs;
}
