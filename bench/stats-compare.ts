/**
 * Comparing two sets costs no more than counting each: `stats A --against B` against `stats A` +
 * `stats B`, whole processes over generated logs (docs/formats.md, "stats --against").
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runCli } from "./child.js";
import { verdict } from "./measure.js";
import { generateLog } from "./traces.js";

const MB = 1024 * 1024;
const ROUNDS = 3;

export function benchStatsCompare(): string[] {
  const dir = mkdtempSync(join(tmpdir(), "pi-bench-compare-"));
  const cli = join(__dirname, "cli.js");
  try {
    const [a, b] = [join(dir, "a.jsonl"), join(dir, "b.jsonl")];
    generateLog(a, 100 * MB);
    // Another mix of traces and events, so the two sets differ.
    generateLog(b, 100 * MB, 4);
    const one: number[] = [];
    const both: number[] = [];
    // Interleaved rounds, best of each: other processes on the machine slow all alike.
    for (let round = 0; round < ROUNDS; round++) {
      one.push(
        runCli(dir, cli, ["stats", a, "--json"]).ms + runCli(dir, cli, ["stats", b, "--json"]).ms,
      );
      both.push(runCli(dir, cli, ["stats", a, "--against", b, "--json"]).ms);
    }
    const [separate, compared] = [Math.min(...one), Math.min(...both)];
    return [
      "statistics compared",
      `  2 × 100 MB: stats A --against B ${(compared / 1000).toFixed(2)} s, stats A + stats B ${(separate / 1000).toFixed(2)} s → ${verdict(compared / separate, 1.1, true)}`,
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
