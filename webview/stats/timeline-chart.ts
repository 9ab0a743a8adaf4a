/**
 * Final palette size (mean per time bucket, a line) and forced-choice failures (bars) over time:
 * an SVG built with DOM calls, its text set as text, its colours from the theme's CSS classes.
 */
import type { TimeBucket } from "../../src/core/stats/timeline.js";
import { count, el } from "../dom.js";

const SVG = "http://www.w3.org/2000/svg";
const WIDTH = 640;
const HEIGHT = 160;
const PAD = { left: 36, right: 36, top: 10, bottom: 24 };

function svg<K extends keyof SVGElementTagNameMap>(
  tag: K,
  attrs: Record<string, string | number>,
  text?: string,
): SVGElementTagNameMap[K] {
  const node = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, String(value));
  if (text !== undefined) node.textContent = text;
  return node;
}

/** "2025-03-14 09:26" (UTC), or with seconds when the buckets are narrower than a minute. */
export function timeLabel(ms: number, width: number): string {
  const iso = new Date(ms).toISOString().replace("T", " ");
  return width < 60_000 ? iso.slice(0, 19) : iso.slice(0, 16);
}

/** The chart, or null when fewer than two buckets hold traces (nothing to see over time). */
export function renderTimeline(buckets: readonly TimeBucket[]): HTMLElement | null {
  const filled = buckets.filter((b) => b.traces > 0);
  if (filled.length < 2) return null;
  const plotW = WIDTH - PAD.left - PAD.right;
  const plotH = HEIGHT - PAD.top - PAD.bottom;
  const maxSize = Math.max(1, ...filled.map((b) => b.meanPalette));
  const maxFail = Math.max(1, ...buckets.map((b) => b.forcedFailures));
  const step = plotW / buckets.length;
  const x = (i: number) => PAD.left + step * (i + 0.5);
  const ySize = (v: number) => PAD.top + plotH * (1 - v / maxSize);
  const yFail = (v: number) => PAD.top + plotH * (1 - v / maxFail);
  const first = buckets[0]!;
  const last = buckets.at(-1)!;
  const failures = buckets.reduce((n, b) => n + b.forcedFailures, 0);

  const chart = svg("svg", {
    viewBox: `0 0 ${WIDTH} ${HEIGHT}`,
    class: "timeline-chart",
    role: "img",
    "aria-labelledby": "timeline-title",
  });
  chart.append(
    svg(
      "title",
      { id: "timeline-title" },
      `Final palette size per ${durationText(first.width)} from ${timeLabel(first.start, first.width)} to ${timeLabel(last.start + last.width, first.width)} UTC: between ${Math.min(...filled.map((b) => b.meanPalette)).toFixed(1)} and ${maxSize.toFixed(1)} tools; ${count(failures)} forced-choice failures`,
    ),
    svg("line", {
      class: "axis",
      x1: PAD.left,
      x2: WIDTH - PAD.right,
      y1: PAD.top + plotH,
      y2: PAD.top + plotH,
    }),
  );
  buckets.forEach((b, i) => {
    if (b.forcedFailures === 0) return;
    const bar = svg("rect", {
      class: "failures",
      x: x(i) - Math.max(1, step * 0.35),
      width: Math.max(2, step * 0.7),
      y: yFail(b.forcedFailures),
      height: PAD.top + plotH - yFail(b.forcedFailures),
    });
    bar.append(
      svg(
        "title",
        {},
        `${timeLabel(b.start, b.width)}: ${count(b.forcedFailures)} forced-choice failures`,
      ),
    );
    chart.append(bar);
  });
  // One line through the buckets that hold traces (an empty bucket is no data, not a zero), a dot on each.
  const points: string[] = [];
  const dots: SVGCircleElement[] = [];
  buckets.forEach((b, i) => {
    if (b.traces === 0) return;
    points.push(`${x(i).toFixed(1)},${ySize(b.meanPalette).toFixed(1)}`);
    const dot = svg("circle", { class: "palette-dot", cx: x(i), cy: ySize(b.meanPalette), r: 2.5 });
    dot.append(
      svg(
        "title",
        {},
        `${timeLabel(b.start, b.width)}: ${b.meanPalette.toFixed(1)} tools on average over ${count(b.traces)} traces`,
      ),
    );
    dots.push(dot);
  });
  chart.append(svg("polyline", { class: "palette", points: points.join(" ") }), ...dots);
  chart.append(
    svg("text", { class: "tick", x: PAD.left, y: HEIGHT - 6 }, timeLabel(first.start, first.width)),
    svg(
      "text",
      { class: "tick", x: WIDTH - PAD.right, y: HEIGHT - 6, "text-anchor": "end" },
      timeLabel(last.start + last.width, first.width),
    ),
    svg(
      "text",
      { class: "tick palette-text", x: PAD.left - 4, y: PAD.top + 8, "text-anchor": "end" },
      maxSize.toFixed(0),
    ),
    svg(
      "text",
      { class: "tick palette-text", x: PAD.left - 4, y: PAD.top + plotH, "text-anchor": "end" },
      "0",
    ),
    svg(
      "text",
      { class: "tick failures-text", x: WIDTH - PAD.right + 4, y: PAD.top + 8 },
      String(maxFail),
    ),
  );
  return el("figure", { class: "timeline" }, [
    chart,
    el("figcaption", { class: "legend" }, [
      el("span", { class: "key" }, [
        el("span", { class: "swatch palette-swatch" }),
        "final palette size (mean)",
      ]),
      el("span", { class: "key" }, [
        el("span", { class: "swatch failures-swatch" }),
        "forced-choice failures",
      ]),
      el("span", { class: "muted", text: `per ${durationText(first.width)}, UTC` }),
    ]),
  ]);
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
