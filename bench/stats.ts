/**
 * Palette statistics: `stats --json` against `traces --json` over the same generated
 * log, each in its own process (its peak memory is measured in commands.ts); and the statistics
 * view's first paint for 10,000 tools in headless Chromium, next to 10 tools.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { launchChromium } from "../test/browser/page.js";
import { openStats, syntheticStats, timeStatsFirstPaint } from "../test/browser/stats-data.js";
import { runCli } from "./child.js";
import { verdict } from "./measure.js";
import { generateLog } from "./traces.js";

const MB = 1024 * 1024;
const RUNS = 5;
const PAINT_BUDGET_MS = 500;

export async function benchStats(): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), "pi-bench-stats-"));
  const cli = join(__dirname, "cli.js");
  const lines = ["statistics"];
  try {
    const big = join(dir, "big.jsonl");
    generateLog(big, 400 * MB);
    const traces: number[] = [];
    const stats: number[] = [];
    // Interleaved rounds, best of each: other processes on the machine slow both alike.
    for (let round = 0; round < 3; round++) {
      traces.push(runCli(dir, cli, ["traces", big, "--json"]).ms);
      stats.push(runCli(dir, cli, ["stats", big, "--json"]).ms);
    }
    const [t, s] = [Math.min(...traces), Math.min(...stats)];
    lines.push(
      `  speed, 400 MB: stats ${(s / 1000).toFixed(2)} s, traces ${(t / 1000).toFixed(2)} s → ${verdict(s / t, 1.3, true)}`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const browser = await launchChromium();
  try {
    const paint = async (tools: number) => {
      const view = syntheticStats(tools);
      const times: number[] = [];
      for (let i = 0; i < RUNS; i++) {
        const page = await openStats(browser);
        times.push(await timeStatsFirstPaint(page, view));
        await page.close();
      }
      return times.sort((a, b) => a - b)[Math.floor(RUNS / 2)]!;
    };
    const few = await paint(10);
    const many = await paint(10_000);
    lines.push(
      `  statistics view first paint: 10 tools ${few.toFixed(0)} ms, 10,000 tools ${many.toFixed(0)} ms (median of ${RUNS}; budget ${PAINT_BUDGET_MS} ms: ${many < PAINT_BUDGET_MS ? "within" : "OVER"})`,
    );
  } finally {
    await browser.close();
  }
  return lines;
}
