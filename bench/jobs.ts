/**
 * Several files read in parallel: `traces --json` over 4 sparse logs of 40 MB (1 line in 100 a
 * trace) with the default `--jobs` (the cores) against `--jobs 1`, whole processes taken in turn,
 * the best of each side compared.
 */
import { spawnSync } from "node:child_process";
import { closeSync, mkdtempSync, openSync, rmSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import { load, verdict } from "./measure.js";
import { generateLog } from "./traces.js";

const MB = 1024 * 1024;
const FILES = 4;
const ROUNDS = 3;

export function benchJobs(): string[] {
  const dir = mkdtempSync(join(tmpdir(), "pi-bench-jobs-"));
  const cli = join(__dirname, "cli.js");
  try {
    const files = Array.from({ length: FILES }, (_, k) => join(dir, `app.log.${k + 1}`));
    for (const file of files) generateLog(file, 40 * MB, 100);
    const run = (extra: string[]) => {
      const out = openSync("/dev/null", "w");
      try {
        const start = performance.now();
        const child = spawnSync("node", [cli, "traces", ...files, "--json", ...extra], {
          stdio: ["ignore", out, "pipe"],
        });
        if (child.status !== 0)
          throw new Error(`traces exited with ${child.status}: ${child.stderr}`);
        return performance.now() - start;
      } finally {
        closeSync(out);
      }
    };
    const parallel: number[] = [];
    const serial: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      parallel.push(run([]));
      serial.push(run(["--jobs", "1"]));
    }
    const best = (times: number[]) => Math.min(...times);
    return [
      `jobs (\`traces --json\`, ${FILES} sparse logs of 40 MB, whole processes, best of ${ROUNDS}; ${load()})`,
      `  default (${availableParallelism()} jobs) ${best(parallel).toFixed(0)} ms, --jobs 1 ${best(serial).toFixed(0)} ms → ${verdict(best(serial) / best(parallel), 1.6, false)}`,
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
