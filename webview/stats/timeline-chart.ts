/**
 * Final palette size (mean per time bucket, a line) and forced-choice failures (bars) over time:
 * an SVG template, its text set as text, its colours from the theme's CSS classes. A comparison
 * marks its two periods on it, each a band with its name (not told apart by colour alone).
 */
import { html, nothing, svg, type SVGTemplateResult, type TemplateResult } from "lit";
import type { TimeBucket } from "../../src/core/stats/timeline.js";
import type { Period } from "../../src/stats-protocol.js";
import { count } from "../dom.js";
import {
  BASELINE,
  failureLabels,
  HEIGHT,
  PAD,
  paletteRuns,
  scaleOf,
  periodSpan,
  sizeLabels,
  type AxisLabel,
  type Scale,
} from "./timeline-scale.js";

/** The chart's width in its own units: about a pixel each, so its text reads at its size in a narrow view too. */
export const CHART_WIDTH = { min: 320, max: 640 };
/** Room above the plot for the periods' names, when it has periods. */
const MARKS_H = 28;

/** "2025-03-14 09:26" (UTC), or with seconds when the buckets are narrower than a minute. */
export function timeLabel(ms: number, width: number): string {
  const iso = new Date(ms).toISOString().replace("T", " ");
  return width < 60_000 ? iso.slice(0, 19) : iso.slice(0, 16);
}

/** The chart's width (its own units) for a view this many pixels wide. */
export function chartWidth(viewWidth: number): number {
  return Math.round(Math.min(CHART_WIDTH.max, Math.max(CHART_WIDTH.min, viewWidth)));
}

/** What a comparison marks on the timeline: when each side's traces are, and where the set was split. */
export interface PeriodMarks {
  readonly old: Period | null;
  readonly new: Period | null;
  /** The split time, in milliseconds (a line, named). */
  readonly split?: number;
}

/** The boundaries between buckets where a set can be split: before bucket 1 … before the last. */
export function splitBoundaries(buckets: readonly TimeBucket[]): number {
  return Math.max(0, buckets.length - 1);
}

/** The time (ms) of boundary k, before bucket k. */
export const boundaryMs = (buckets: readonly TimeBucket[], k: number) => buckets[k]!.start;

/** The boundary nearest to a point `fraction` of the way across a chart `width` wide (1 … n − 1). */
export function boundaryAt(
  buckets: readonly TimeBucket[],
  fraction: number,
  width: number,
): number {
  const plotW = width - PAD.left - PAD.right;
  const k = Math.round(((fraction * width - PAD.left) / plotW) * buckets.length);
  return Math.min(Math.max(k, 1), buckets.length - 1);
}

/**
 * The chart, `width` units wide (chartWidth), or null when fewer than two buckets hold traces
 * (nothing to see over time). `id` names its title, for a page that draws two.
 */
export function timelineChart(
  buckets: readonly TimeBucket[],
  width: number,
  marks: PeriodMarks | null = null,
  id = "timeline",
): TemplateResult | null {
  const filled = buckets.filter((b) => b.traces > 0);
  if (filled.length < 2) return null;
  const scale = scaleOf(buckets, width);
  const bucketWidth = buckets[0]!.width;
  const top = marks ? MARKS_H : 0;
  return html`<figure class="timeline">
    <svg
      viewBox="0 ${-top} ${width} ${HEIGHT + top}"
      class="timeline-chart"
      role="img"
      aria-labelledby=${`${id}-title`}
    >
      <title id=${`${id}-title`}>${chartTitle(buckets, filled, scale)}${marks ? marksTitle(marks, bucketWidth) : ""}</title>
      ${marks ? periodMarks(buckets, scale, marks, id) : nothing}
      <line
        class="axis"
        x1=${PAD.left}
        x2=${width - PAD.right}
        y1=${BASELINE}
        y2=${BASELINE}
      ></line>
      ${failureBars(buckets, scale)} ${paletteLine(buckets, scale, marks)} ${ticks(buckets, scale)}
    </svg>
    <figcaption class="legend">
      <span class="key"><span class="swatch palette-swatch"></span>final palette size (mean)</span>
      <span class="key"><span class="swatch failures-swatch"></span>forced-choice failures</span>
      ${
        marks
          ? html`<span class="key"><span class="swatch period-old-swatch"></span>before (OLD)</span>
              <span class="key"><span class="swatch period-new-swatch"></span>after (NEW)</span>`
          : nothing
      }
      <span class="muted">per ${durationText(bucketWidth)}, UTC</span>
    </figcaption>
  </figure>`;
}

function chartTitle(buckets: readonly TimeBucket[], filled: readonly TimeBucket[], scale: Scale) {
  const first = buckets[0]!;
  const last = buckets.at(-1)!;
  const failures = buckets.reduce((n, b) => n + b.forcedFailures, 0);
  const least = Math.min(...filled.map((b) => b.meanPalette)).toFixed(1);
  return `Final palette size per ${durationText(first.width)} from ${timeLabel(first.start, first.width)} to ${timeLabel(last.start + last.width, first.width)} UTC: between ${least} and ${scale.maxSize.toFixed(1)} tools; ${count(failures)} forced-choice failures`;
}

function failureBars(buckets: readonly TimeBucket[], scale: Scale): SVGTemplateResult[] {
  return buckets.flatMap((b, i) =>
    b.forcedFailures === 0
      ? []
      : [
          svg`<rect
            class="failures"
            x=${scale.x(i) - Math.max(1, scale.step * 0.35)}
            width=${Math.max(2, scale.step * 0.7)}
            y=${scale.yFail(b.forcedFailures)}
            height=${BASELINE - scale.yFail(b.forcedFailures)}
          ><title>${timeLabel(b.start, b.width)}: ${count(b.forcedFailures)} forced-choice failures</title></rect>`,
        ],
  );
}

/** The line through the buckets that hold traces, broken where paletteRuns says, and a dot on each. */
function paletteLine(
  buckets: readonly TimeBucket[],
  scale: Scale,
  marks: PeriodMarks | null,
): SVGTemplateResult {
  const point = (i: number) =>
    `${scale.x(i).toFixed(1)},${scale.ySize(buckets[i]!.meanPalette).toFixed(1)}`;
  const runs = paletteRuns(buckets, marks ? [marks.old, marks.new] : []);
  const path = runs.map((run) => `M${run.map(point).join(" L")}`).join(" ");
  return svg`<path class="palette" d=${path}></path>${runs.flat().map((i) => {
    const b = buckets[i]!;
    return svg`<circle class="palette-dot" cx=${scale.x(i)} cy=${scale.ySize(b.meanPalette)} r="2.5"><title>${timeLabel(b.start, b.width)}: ${b.meanPalette.toFixed(1)} tools on average over ${count(b.traces)} traces</title></circle>`;
  })}`;
}

function ticks(buckets: readonly TimeBucket[], scale: Scale): SVGTemplateResult {
  const first = buckets[0]!;
  const last = buckets.at(-1)!;
  return svg`<text class="tick" x=${PAD.left} y=${HEIGHT - 6}>${timeLabel(first.start, first.width)}</text>
    <text class="tick" x=${scale.width - PAD.right} y=${HEIGHT - 6} text-anchor="end">${timeLabel(last.start + last.width, first.width)}</text>
    ${sizeLabels(scale).map(
      (label) =>
        svg`<text class="tick palette-text" x=${PAD.left - 4} y=${textY(label)} text-anchor="end">${label.text}</text>`,
    )}
    ${failureLabels(scale).map(
      (label) =>
        svg`<text class="tick failures-text" x=${scale.width - PAD.right + 4} y=${textY(label)}>${label.text}</text>`,
    )}`;
}

/** A label's text line: 0 sits on the baseline, one at the plot's top hangs below it, others are centred on their value. */
function textY(label: AxisLabel): number {
  if (label.value === 0) return label.y;
  return label.y < PAD.top + 8 ? label.y + 8 : label.y + 4;
}

function durationText(ms: number): string {
  const units: [number, string][] = [
    [86_400_000, "day"],
    [3_600_000, "hour"],
    [60_000, "minute"],
    [1000, "second"],
  ];
  for (const [size, unit] of units)
    if (ms >= size) {
      const n = Math.round(ms / size);
      return n === 1 ? unit : `${n} ${unit}s`;
    }
  return `${ms} ms`;
}

/** Where a time falls across the plot. */
function xOf(buckets: readonly TimeBucket[], scale: Scale, ms: number): number {
  const first = buckets[0]!;
  return PAD.left + (scale.plotW * (ms - first.start)) / (first.width * buckets.length);
}

/** A side's band covers the buckets its traces are in; its name sits above the plot, OLD's row above NEW's. */
function periodMarks(
  buckets: readonly TimeBucket[],
  scale: Scale,
  marks: PeriodMarks,
  id: string,
): SVGTemplateResult {
  const width = buckets[0]!.width;
  const band = (side: "old" | "new", period: Period | null, row: number) => {
    if (!period) return nothing;
    const span = periodSpan(period, width);
    const from = xOf(buckets, scale, span.from);
    const to = xOf(buckets, scale, span.to);
    const name = side === "old" ? "before (OLD)" : "after (NEW)";
    // OLD's name ends at its band and NEW's starts at its band, away from each other and the split
    // line between them; either turns round where the chart has no room for it.
    const start = side === "old" ? to < 90 : scale.width - from >= 90;
    return svg`<rect class=${`period period-${side}`} x=${from} width=${Math.max(2, to - from)}
        y=${-MARKS_H + 2 + row * 13} height=${BASELINE + MARKS_H - 2 - row * 13}
        fill=${side === "old" ? `url(#${id}-hatch)` : nothing}
      ><title>${name}: ${timeLabel(period.from, width)} to ${timeLabel(period.to, width)} UTC</title></rect>
      <text class="period-label" x=${start ? from + 3 : to - 3} y=${-MARKS_H + 12 + row * 13}
        text-anchor=${start ? "start" : "end"}>${name}</text>`;
  };
  const split = marks.split;
  return svg`<defs>
      <pattern id=${`${id}-hatch`} width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">
        <rect class="period-hatch-ground" width="6" height="6"></rect>
        <line class="period-hatch" x1="0" y1="0" x2="0" y2="6"></line>
      </pattern>
    </defs>
    ${band("old", marks.old, 0)} ${band("new", marks.new, 1)}
    ${
      split === undefined
        ? nothing
        : splitLine(xOf(buckets, scale, split), timeLabel(split, width), scale)
    }`;
}

/** The marks in words, for the chart's title. */
function marksTitle(marks: PeriodMarks, width: number): string {
  const period = (name: string, p: Period | null) =>
    p
      ? `${name} from ${timeLabel(p.from, width)} to ${timeLabel(p.to, width)} UTC`
      : `${name}: no times`;
  const split = marks.split === undefined ? "" : `; split at ${timeLabel(marks.split, width)} UTC`;
  return `. ${period("Before (OLD)", marks.old)}; ${period("after (NEW)", marks.new)}${split}`;
}

/** The split: a line, and under the plot's top its time, on the side of the line with room for it. */
function splitLine(x: number, time: string, scale: Scale): SVGTemplateResult {
  const right = scale.width - PAD.right - x >= 140;
  return svg`<line class="split-line" x1=${x} x2=${x} y1=${-MARKS_H + 2} y2=${BASELINE}></line>
    <text class="split-label" x=${right ? x + 4 : x - 4} y=${BASELINE - 4} text-anchor=${right ? "start" : "end"}>split ${time}</text>`;
}
