/**
 * Webview render benchmark: the first screen of a 2,000-tool × 20-stage report next to a 20-tool
 * one, measured in the same headless Chromium run on the real panel page (CSP, toolkit, codicons).
 */
import type { Browser } from "playwright-core";
import { launchChromium, openPanel, timeFirstScreen } from "../test/browser/page.js";
import { largeFixture, load, showFixture } from "../test/browser/reports.js";

/** Runs each case this many times and reports the median, since a loaded machine is noisy. */
const RUNS = 5;
/** The bound for the large case. */
const BUDGET_MS = 500;

async function median(browser: Browser, tools: number, stages: number): Promise<number> {
  const message = showFixture(await load(largeFixture(tools, stages), `bench-${tools}.turn.json`));
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const page = await openPanel(browser);
    times.push(await timeFirstScreen(page, message));
    await page.close();
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)]!;
}

/** One line per case; needs dist/ built and Chromium at /usr/bin/chromium (or $CHROMIUM). */
export async function benchRender(): Promise<string[]> {
  const browser = await launchChromium();
  try {
    const small = await median(browser, 20, 20);
    const large = await median(browser, 2000, 20);
    return [
      `webview first screen, 20 tools × 20 stages: ${small.toFixed(0)} ms (median of ${RUNS})`,
      `webview first screen, 2,000 tools × 20 stages: ${large.toFixed(0)} ms (median of ${RUNS}; budget ${BUDGET_MS} ms: ${large < BUDGET_MS ? "within" : "OVER"})`,
    ];
  } finally {
    await browser.close();
  }
}
