/**
 * `traces --follow` against a log growing at RATE of plain text (1 line in 100 a trace, the
 * text+JSON shape): this process appends a MB every 10 ms for SECONDS while the CLI follows the
 * log, and each trace's lag is the time from the write of its line to the CLI printing it. It
 * keeps up when every trace is printed and no lag exceeds the goal (the poll interval plus the
 * read of what came meanwhile): a follower that falls behind shows a lag that grows all along.
 */
import { spawn } from "node:child_process";
import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { load, verdict } from "./measure.js";
import { generateLog, SPARSE_TEXT } from "./traces.js";

const MB = 1024 * 1024;
/** Bytes a second the log grows by. */
const RATE = 100 * MB;
const SECONDS = 3;
const STEP_MS = 10;
/** The longest lag that still keeps up: two polls (200 ms each) and the reading of one. */
const GOAL_MS = 600;

export async function benchFollow(): Promise<string[]> {
  const cli = join(__dirname, "cli.js");
  const dir = mkdtempSync(join(tmpdir(), "pi-bench-follow-"));
  try {
    // One step's lines, written again and again: the line numbers of the traces in it are known.
    const sample = join(dir, "step.log");
    generateLog(sample, (RATE * STEP_MS) / 1000, 100, SPARSE_TEXT);
    const step = readFileSync(sample);
    const lines = step.toString("latin1").split("\n").slice(0, -1);
    const traceLines = lines.flatMap((line, k) => (line.includes('"trace"') ? [k + 1] : []));
    const log = join(dir, "growing.log");
    writeFileSync(log, "");
    const child = spawn(process.execPath, [cli, "traces", "--follow", log, "--json"], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    const printed = new Map<number, number>();
    let tail = "";
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (text: string) => {
      const now = performance.now();
      const parts = (tail + text).split("\n");
      tail = parts.pop()!;
      for (const part of parts) printed.set((JSON.parse(part) as { line: number }).line, now);
    });
    // The follower starts at the end of the file: give it time to open it.
    await sleep(1000);
    const written: number[] = [];
    const steps = (SECONDS * 1000) / STEP_MS;
    const start = performance.now();
    for (let k = 0; k < steps; k++) {
      appendFileSync(log, step);
      written.push(performance.now());
      const next = start + (k + 1) * STEP_MS;
      await sleep(Math.max(0, next - performance.now()));
    }
    const wrote = performance.now() - start;
    const expected = steps * traceLines.length;
    for (let wait = 0; printed.size < expected && wait < 100; wait++) await sleep(50);
    child.kill("SIGTERM");
    const lags: number[] = [];
    for (let k = 0; k < steps; k++)
      for (const line of traceLines) {
        const at = printed.get(k * lines.length + line);
        if (at !== undefined) lags.push(at - written[k]!);
      }
    lags.sort((a, b) => a - b);
    const pick = (q: number) => lags[Math.min(lags.length - 1, Math.floor(q * lags.length))] ?? NaN;
    const max = lags[lags.length - 1] ?? Infinity;
    const rate = (steps * step.length) / MB / (wrote / 1000);
    return [
      `traces --follow on a log growing at ${rate.toFixed(0)} MB/s of text (1 line in 100 a trace) for ${SECONDS} s:`,
      `  ${lags.length} of ${expected} traces printed${lags.length === expected ? "" : " MISSED"}; lag median ${pick(0.5).toFixed(0)} ms, p99 ${pick(0.99).toFixed(0)} ms, max ${max.toFixed(0)} ms → max against ${GOAL_MS} ms: ${verdict(max / GOAL_MS, 1, true)}`,
      `  (${load()})`,
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
