/**
 * The extension's scan of a set (Find Selection Traces): scanLogs with the view's index and
 * statistics fold, in this already running process as in the extension host, against the CLI's
 * `traces --json` on the same log as a whole process (goal: at most 1.2× its time), and the
 * longest stretch the host's event loop waited meanwhile. `BENCH_SHAPES_MB` sets the size.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { StatsFold } from "../src/extension/stats/read-stats.js";
import { scanLogs } from "../src/node/log-file.js";
import { TraceIndex } from "../src/node/trace-index.js";
import { runCli } from "./child.js";
import { seconds } from "./commands.js";
import { load, verdict } from "./measure.js";
import { generateLog, SPARSE_TEXT } from "./traces.js";

const MB = 1024 * 1024;
const ROUNDS = 3;

export async function benchHostScan(): Promise<string[]> {
  const size = Number(process.env.BENCH_SHAPES_MB ?? 300);
  const cli = join(__dirname, "cli.js");
  const dir = mkdtempSync(join(tmpdir(), "pi-bench-host-"));
  try {
    const log = join(dir, "app.log");
    const count = generateLog(log, size * MB, 100, SPARSE_TEXT);
    let host = Infinity;
    let command = Infinity;
    let stall = 0;
    for (let round = 0; round < ROUNDS; round++) {
      const run = await hostScan(log, count);
      host = Math.min(host, run.ms);
      stall = Math.max(stall, run.stall);
      command = Math.min(command, runCli(dir, cli, ["traces", log, "--json"]).ms);
    }
    return [
      `the extension's scan of a ${size} MB text log (1 line in 100 a trace, ${count} traces), best of ${ROUNDS}:`,
      `  host ${seconds(host)}, CLI traces --json ${seconds(command)} → time ${verdict(host / command, 1.2, true)}; the host's loop waited at most ${stall.toFixed(0)} ms (${load()})`,
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** One scan as the Selection Traces view runs it, and the longest wait of this event loop meanwhile. */
async function hostScan(log: string, count: number): Promise<{ ms: number; stall: number }> {
  const inputs = [{ name: log, path: log }];
  const index = new TraceIndex();
  const fold = new StatsFold(inputs);
  let stall = 0;
  let tick = performance.now();
  const probe = setInterval(() => {
    const now = performance.now();
    stall = Math.max(stall, now - tick);
    tick = now;
  }, 1);
  const start = performance.now();
  try {
    const scan = await scanLogs(inputs, {
      checkpoints: true,
      onTrace: (found, file) => {
        index.add(found, file);
        fold.trace(found, file);
      },
      onProblem: (problem) => {
        index.addProblem(problem);
        fold.problem(problem);
      },
    });
    index.finish();
    fold.done(scan);
    if (scan.traceCount !== count || scan.problemCount !== 0)
      throw new Error(
        `the host's scan found ${scan.traceCount} of ${count} traces and ${scan.problemCount} problems`,
      );
    return { ms: performance.now() - start, stall };
  } finally {
    clearInterval(probe);
  }
}
