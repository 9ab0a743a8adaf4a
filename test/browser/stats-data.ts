/** Statistics views for the browser tests and the benchmark: the example logs, and a synthetic one of many tools. */
import { resolve } from "node:path";
import type { Browser, Page } from "playwright-core";
import { compareStats } from "../../src/core/stats/comparison.js";
import { PaletteStats } from "../../src/core/stats/fold.js";
import { statsRows, type StatsRows } from "../../src/core/stats/rows.js";
import { splitTimeMs } from "../../src/core/stats/split.js";
import { validateTrace } from "../../src/core/traces/trace.js";
import { readLogStats, readSplitStats } from "../../src/extension/stats/read-stats.js";
import {
  comparisonView,
  toolColumns,
  type ComparisonView,
  type FromStatsView,
  type StatsView,
  type ToStatsView,
} from "../../src/stats-protocol.js";
import {
  openPanel,
  send,
  timeUntilPainted,
  waitForMessage,
  type OpenOptions,
  type PageGlobals,
} from "./page.js";

export const STATS_ENTRY = {
  script: "dist/stats-webview.js",
  style: "media/stats.css",
  title: "Palette Statistics",
};

export async function openStats(browser: Browser, options: OpenOptions = {}): Promise<Page> {
  return openPanel(browser, { ...options, entry: STATS_ENTRY });
}

/** The statistics of examples/logs/, as the host sends them. */
export async function exampleStats(): Promise<StatsView> {
  const { stats, scan, files } = await readLogStats([`${process.cwd()}/examples/logs`]);
  return {
    sources: ["file:///workspace/examples/logs"],
    files: files.map((file) => file.slice(process.cwd().length + 1)),
    ...wire(statsRows(stats)),
    unreadableTimes: stats.timeline.unreadable,
    cancelled: scan.cancelled,
  };
}

/** Two logs, 10 and 12 March (40 traces each, none a forced-choice failure): a set with a gap in time. */
export const BEFORE_AFTER = "examples/before-after";

/** The statistics of examples/before-after/, as the host sends them. */
export async function beforeAfterStats(): Promise<StatsView> {
  const { stats, scan, files } = await readLogStats([resolve(BEFORE_AFTER)]);
  return {
    sources: [`file://${resolve(BEFORE_AFTER)}`],
    files: files.map((file) => file.slice(process.cwd().length + 1)),
    ...wire(statsRows(stats)),
    unreadableTimes: stats.timeline.unreadable,
    cancelled: scan.cancelled,
  };
}

/** What the host answers to a split of examples/before-after/ at `at`: the set read again and cut there. */
export async function hostSplit(at: string): Promise<ComparisonView> {
  const atMs = splitTimeMs(at)!;
  const read = await readSplitStats([resolve(BEFORE_AFTER)], at, atMs);
  if ("error" in read.split) throw new Error(read.split.error);
  return comparisonView(
    read.files.map((file) => file.slice(process.cwd().length + 1)),
    compareStats(read.old, read.new),
    { old: read.old.timeline, new: read.new.timeline },
    { at, atMs, untimed: read.split.untimed },
  );
}

/** `tools` distinct tools over `traces` traces of four stages, an hour apart in time. */
export function syntheticStats(
  tools: number,
  traces = 400,
  names?: (i: number) => string,
): StatsView {
  const stats = new PaletteStats();
  const name = names ?? ((i: number) => `tool_${String(i).padStart(5, "0")}`);
  const perTrace = Math.ceil(tools / traces) + 5;
  for (let t = 0; t < traces; t++) {
    const offered = Array.from({ length: perTrace }, (_, k) =>
      name((t * (perTrace - 5) + k) % tools),
    );
    const kept = offered.filter((_, k) => k % 3 !== 0);
    // The palette narrows and widens over the day, so the chart has a shape.
    const final = kept.filter((_, k) => k % (2 + (t % 4)) !== 0);
    const result = validateTrace({
      ts: new Date(Date.UTC(2025, 2, 14) + t * 3_600_000).toISOString(),
      offered,
      trace: [
        { stage: "intent", action: "select", kept, dropped: offered.filter((_, k) => k % 3 === 0) },
        {
          stage: "forced",
          action: t % 5 === 0 ? "force" : "abstain",
          kept,
          forced_choice: t % 5 === 0 ? kept[0] : null,
        },
        {
          stage: "role",
          action: t % 17 === 0 ? "error" : "select",
          kept: final,
          dropped: kept.filter((_, k) => k % 4 === 0),
        },
        { stage: "policy", action: "abstain", kept: final },
      ],
      tools: final,
      forced_choice: t % 5 === 0 ? kept[0] : null,
      error: t % 10 === 0 ? { kind: "ForcedToolUnavailable", message: "gone" } : null,
    });
    if ("problem" in result) throw new Error(result.problem);
    stats.add(result.trace);
  }
  return {
    sources: ["file:///workspace/big.log"],
    files: ["big.log"],
    ...wire(statsRows(stats)),
    unreadableTimes: 0,
    cancelled: false,
  };
}

/** The rows as the host sends them. */
function wire(rows: StatsRows) {
  const { traces, problems, errors, stages, timeline } = rows;
  return { traces, problems, errors, stages, timeline, tools: toolColumns(rows.tools) };
}

export const sendStats: (page: Page, message: ToStatsView) => Promise<void> = send;

/** Waits for the view to post a message of this type after the first `after`, and returns it. */
export async function waitForStatsPosted<T extends FromStatsView["type"]>(
  page: Page,
  type: T,
  after = 0,
): Promise<Extract<FromStatsView, { type: T }>> {
  return (await waitForMessage(page, type, after)) as Extract<FromStatsView, { type: T }>;
}

export async function postedCount(page: Page): Promise<number> {
  return page.evaluate(() => (globalThis as unknown as PageGlobals).__posted.length);
}

/** Milliseconds from posting the statistics until the table's rows are in the DOM and a frame is painted. */
export async function timeStatsFirstPaint(page: Page, view: StatsView): Promise<number> {
  return timeUntilPainted(page, { type: "stats", view }, ".tools-body .tools-row");
}
