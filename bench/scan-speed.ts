/**
 * The trace scanner's byte-level pre-filter: on a generated JSONL
 * log where 1 line in 100 holds a trace, its MB/s as a ratio to a split + JSON.parse loop over
 * the same file in the same run (goal ≥ 3×); and its speed over a log holding no trace
 * (goal ≥ 1 GB/s). Goals are judged on CPU time (wall time is printed too: on a shared machine
 * it counts the waits for a core), each side measured in a process of its own. 100 MB by
 * default, 400 MB with BENCH_FULL=1, any size with BENCH_SCAN_MB.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { interleaved, METHOD } from "./child.js";
import { load, verdict } from "./measure.js";
import { generateLog } from "./traces.js";

const MB = 1024 * 1024;

export async function benchScanSpeed(): Promise<string[]> {
  const size = Number(process.env.BENCH_SCAN_MB ?? (process.env.BENCH_FULL === "1" ? 400 : 100));
  const dir = mkdtempSync(join(tmpdir(), "pi-bench-scan-"));
  const lines = [`trace pre-filter (JSONL, ${size} MB per log)`];
  try {
    const mixed = join(dir, "mixed.jsonl");
    generateLog(mixed, size * MB, 100);
    const [base, ours] = interleaved(["baseline", "scanner"], mixed);
    const found = ours.traces;
    lines.push(
      `  1 line in 100 a trace, ${found} traces: scanner ${rate(size, ours.cpu)} MB/s, split+JSON.parse ${rate(size, base.cpu)} MB/s of CPU → ${verdict(base.cpu / ours.cpu, 3, false)}; wall ${rate(size, ours.wall)} vs ${rate(size, base.wall)} MB/s → ${(base.wall / ours.wall).toFixed(2)}×`,
    );
    rmSync(mixed);

    const plain = join(dir, "plain.jsonl");
    generateLog(plain, size * MB, 0);
    const [none] = interleaved(["scanner"], plain);
    const gbs = size / 1024 / (none.cpu / 1000);
    lines.push(
      `  no trace: scanner ${(gbs * 1024).toFixed(0)} MB/s of CPU → ${gbs.toFixed(2)} GB/s (goal ≥ 1 GB/s) ${gbs >= 1 ? "ok" : "MISSED"}; wall ${rate(size, none.wall)} MB/s${process.env.BENCH_FULL === "1" ? "" : " (400 MB with BENCH_FULL=1)"}`,
    );
    lines.push(`  (${METHOD}; ${load()})`);
    return lines;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const rate = (mb: number, ms: number) => (mb / (ms / 1000)).toFixed(0);
