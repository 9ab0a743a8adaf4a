// The statistics chart as drawn: its axes say only values the data reaches, and its palette line
// never crosses time without traces nor joins two compared periods; screenshots of a set with a
// night in it and of its split, in the light, dark and high-contrast themes at 380 and 1440 px
// (SCREENSHOTS_DIR/themes/, npm run screenshots:themes).
import assert from "node:assert/strict";
import { join } from "node:path";
import type { Locator, Page } from "playwright-core";
import { compareStats } from "../../src/core/stats/comparison.js";
import type { TimeBucket } from "../../src/core/stats/timeline.js";
import { readLogStats } from "../../src/extension/stats/read-stats.js";
import { comparisonView, type ComparisonView, type StatsView } from "../../src/stats-protocol.js";
import { test } from "./harness.js";
import { SCREENSHOTS_DIR, type PageGlobals } from "./page.js";
import {
  BEFORE_AFTER,
  beforeAfterStats,
  hostSplit,
  openStats,
  sendStats,
  waitForStatsPosted,
} from "./stats-data.js";

/** What a chart draws: its line's pieces (each a list of [x, y]), its dots, both axes' numbers, and where its split line is. */
interface Drawn {
  readonly runs: number[][][];
  readonly dots: { readonly x: number; readonly width: number }[];
  readonly left: string[];
  readonly right: string[];
  readonly split: number | null;
  readonly bands: [number, number][];
}

function drawn(chart: Locator): Promise<Drawn> {
  return chart.evaluate((svg) => {
    const d = svg.querySelector("path.palette")?.getAttribute("d") ?? "";
    const texts = (selector: string) =>
      Array.from(svg.querySelectorAll(selector), (t) => t.textContent ?? "");
    const split = svg.querySelector(".split-line");
    return {
      runs: d
        .split("M")
        .filter((piece) => piece.trim() !== "")
        .map((piece) => piece.split("L").map((point) => point.trim().split(",").map(Number))),
      dots: Array.from(svg.querySelectorAll("circle.palette-dot"), (dot) => ({
        x: Number(dot.getAttribute("cx")),
        width: dot.getBoundingClientRect().width,
      })),
      left: texts(".palette-text"),
      right: texts(".failures-text"),
      split: split ? Number(split.getAttribute("x1")) : null,
      bands: Array.from(svg.querySelectorAll("rect.period"), (r): [number, number] => {
        const x = Number(r.getAttribute("x"));
        return [x, x + Number(r.getAttribute("width"))];
      }),
    };
  });
}

/** Every piece of the line joins neighbouring buckets only (one step apart, `step` the distance between buckets). */
function joinsNeighboursOnly(chart: Drawn, step: number): void {
  for (const run of chart.runs)
    for (let i = 1; i < run.length; i++)
      assert.ok(
        run[i]![0]! - run[i - 1]![0]! <= step + 0.2,
        `a piece of the line spans ${(run[i]![0]! - run[i - 1]![0]!).toFixed(1)} units, more than a bucket (${step.toFixed(1)})`,
      );
}

/** The distance between neighbouring buckets on a chart `width` units wide (its plot is 136 units narrower). */
const stepOf = (buckets: readonly TimeBucket[], width: number) => (width - 136) / buckets.length;

const chartWidthOf = (chart: Locator) =>
  chart.evaluate((svg) => (svg as SVGSVGElement).viewBox.baseVal.width);

/** Answers the page's Compare with… by this comparison, and waits for it. */
async function compareWith(page: Page, view: ComparisonView): Promise<Locator> {
  await page.locator('[data-action="compare"]').click();
  const asked = await waitForStatsPosted(page, "compare");
  await sendStats(page, { type: "comparison", requestId: asked.requestId, view });
  const chart = page.locator(".periods .timeline-chart");
  await chart.waitFor();
  return chart;
}

const maxMean = (buckets: readonly TimeBucket[]) =>
  Math.max(...buckets.filter((b) => b.traces > 0).map((b) => b.meanPalette));

test("stats chart: a set without failures says 0 failures, and its line breaks at the night without traces", async (browser) => {
  const page = await openStats(browser);
  const view = await beforeAfterStats();
  await sendStats(page, { type: "stats", view });
  const chart = page.locator(".over-time .timeline-chart");
  await chart.waitFor();
  const d = await drawn(chart);
  assert.deepEqual(d.right, ["0 failures"]);
  assert.match(d.left[0]!, /^\d+(\.\d)? tools$/);
  assert.ok(Number(d.left[0]!.split(" ")[0]) <= maxMean(view.timeline));
  assert.equal(d.left.at(-1), "0");
  // 10 March and 12 March: two pieces, none across the 11th.
  assert.equal(d.runs.length, 2);
  joinsNeighboursOnly(d, stepOf(view.timeline, await chartWidthOf(chart)));
  assert.equal(d.dots.length, view.timeline.filter((b) => b.traces > 0).length);
  assert.deepEqual(await page.evaluate(() => (globalThis as unknown as PageGlobals).__errors), []);
  await page.close();
});

test("stats chart: a bucket with traces between two without is a dot of its own, joined to nothing", async (browser) => {
  const page = await openStats(browser);
  const view = await beforeAfterStats();
  const hour = 3_600_000;
  const start = Date.UTC(2025, 2, 10, 9);
  const bucket = (i: number, traces: number, meanPalette: number): TimeBucket => ({
    start: start + i * hour,
    width: hour,
    traces,
    meanPalette,
    forcedFailures: 0,
  });
  const timeline = [
    bucket(0, 3, 4),
    bucket(1, 2, 5),
    bucket(2, 0, 0),
    bucket(3, 1, 6),
    bucket(4, 0, 0),
    bucket(5, 2, 3),
    bucket(6, 4, 4.5),
  ];
  const lone: StatsView = { ...view, timeline };
  await sendStats(page, { type: "stats", view: lone });
  const chart = page.locator(".over-time .timeline-chart");
  await chart.waitFor();
  const d = await drawn(chart);
  assert.deepEqual(
    d.runs.map((run) => run.length),
    [2, 1, 2],
  );
  joinsNeighboursOnly(d, stepOf(timeline, await chartWidthOf(chart)));
  const alone = d.runs[1]![0]![0]!;
  const dot = d.dots.find((dot) => Math.abs(dot.x - alone) < 0.1);
  assert.ok(dot && dot.width >= 4, `the lone bucket's dot is drawn ${dot?.width ?? 0} px wide`);
  assert.deepEqual(d.right, ["0 failures"]);
  await page.close();
});

test("stats chart: a set split where both sides have traces beside the split: no line crosses the split or the night", async (browser) => {
  const page = await openStats(browser);
  await sendStats(page, { type: "stats", view: await beforeAfterStats() });
  const view = await hostSplit("2025-03-10 12:00");
  const chart = await compareWith(page, view);
  const d = await drawn(chart);
  assert.deepEqual(d.right, ["0 failures"]);
  assert.notEqual(d.split, null);
  // OLD's three hours, NEW's afternoon of the 10th, and NEW's 12th.
  assert.equal(d.runs.length, 3);
  for (const run of d.runs) {
    const xs = run.map(([x]) => x!);
    assert.ok(
      Math.max(...xs) < d.split! || Math.min(...xs) > d.split!,
      "a piece of the line crosses the split",
    );
  }
  joinsNeighboursOnly(d, stepOf(view.timeline, await chartWidthOf(chart)));
  await page.close();
});

test("stats chart: one set compared with another days later: a piece of line in each period, none between", async (browser) => {
  const page = await openStats(browser);
  await sendStats(page, { type: "stats", view: await beforeAfterStats() });
  const old = await readLogStats([join(BEFORE_AFTER, "before.jsonl")]);
  const now = await readLogStats([join(BEFORE_AFTER, "after.jsonl")]);
  const view = comparisonView(["before.jsonl"], compareStats(old.stats, now.stats), {
    old: old.stats.timeline,
    new: now.stats.timeline,
  });
  const d = await drawn(await compareWith(page, view));
  assert.equal(d.split, null);
  assert.equal(d.runs.length, 2);
  d.runs.forEach((run, i) => {
    const [from, to] = d.bands[i]!;
    for (const [x] of run) assert.ok(x! > from && x! < to, `piece ${i} leaves its period's band`);
  });
  assert.deepEqual(d.right, ["0 failures"]);
  await page.close();
});

for (const theme of ["light", "dark", "high-contrast"])
  for (const width of [380, 1440]) {
    test(`stats chart ${theme} ${width}: a set with a night in it and its split, its line broken at both, whole`, async (browser) => {
      const page = await openStats(browser, { theme, width, height: 900 });
      await sendStats(page, { type: "stats", view: await beforeAfterStats() });
      const chart = page.locator(".over-time .timeline");
      await chart.waitFor();
      await page.evaluate("document.fonts.ready");
      const dir = join(SCREENSHOTS_DIR, "themes");
      await chart.screenshot({ path: join(dir, `stats-gap-${theme}-${width}.png`) });
      await compareWith(page, await hostSplit("2025-03-10 12:00"));
      await page
        .locator(".periods")
        .screenshot({ path: join(dir, `stats-gap-split-${theme}-${width}.png`) });
      assert.ok(
        await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth),
        "the page does not scroll sideways",
      );
      await page.close();
    });
  }
