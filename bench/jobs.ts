/**
 * Several files read in parallel: `traces --json` over 4 sparse logs of 40 MB (1 line in 100 a
 * trace) with the default `--jobs` (the cores) against `--jobs 1`, whole processes taken in turn,
 * the best of each side compared; the bound that the start of a process puts on the ratio; and
 * what this machine gives as many processes as there are jobs, sharing the files and nothing else.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import { load, verdict } from "./measure.js";
import { generateLog } from "./traces.js";

const MB = 1024 * 1024;
const FILES = 4;
const ROUNDS = 3;

/** Wall time of `traces LOGS --json EXTRA` for each group of logs, all groups at once, each a process. */
async function timed(cli: string, groups: string[][], extra: string[]): Promise<number> {
  const start = performance.now();
  await Promise.all(
    groups.map(
      (logs) =>
        new Promise<void>((done, fail) => {
          const child = spawn("node", [cli, "traces", ...logs, "--json", ...extra], {
            stdio: ["ignore", "ignore", "pipe"],
          });
          let stderr = "";
          child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
          child.on("error", fail);
          child.on("close", (code) =>
            code === 0 ? done() : fail(new Error(`traces exited with ${code}: ${stderr}`)),
          );
        }),
    ),
  );
  return performance.now() - start;
}

export async function benchJobs(): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), "pi-bench-jobs-"));
  const cli = join(__dirname, "cli.js");
  try {
    const files = Array.from({ length: FILES }, (_, k) => join(dir, `app.log.${k + 1}`));
    for (const file of files) generateLog(file, 40 * MB, 100);
    const tiny = join(dir, "one.log");
    writeFileSync(tiny, '{"trace": [{"stage": "intent", "action": "select", "kept": ["a"]}]}\n');
    const parallel: number[] = [];
    const serial: number[] = [];
    const start: number[] = [];
    const apart: number[] = [];
    const cores = availableParallelism();
    // As many processes as the default has jobs, each with its share of the files.
    const processes = Math.min(cores, FILES);
    const shares = Array.from({ length: processes }, (_, k) =>
      files.filter((_, f) => f % processes === k),
    );
    for (let round = 0; round < ROUNDS; round++) {
      parallel.push(await timed(cli, [files], []));
      serial.push(await timed(cli, [files], ["--jobs", "1"]));
      start.push(await timed(cli, [[tiny]], []));
      apart.push(await timed(cli, shares, ["--jobs", "1"]));
    }
    const best = (times: number[]) => Math.min(...times);
    // What no number of threads shortens: starting Node, the command and a worker.
    const fixed = best(start);
    const bound = best(serial) / (fixed + (best(serial) - fixed) / Math.min(cores, FILES));
    return [
      `jobs (\`traces --json\`, ${FILES} sparse logs of 40 MB, whole processes, best of ${ROUNDS}; ${load()})`,
      `  default (${cores} jobs) ${best(parallel).toFixed(0)} ms, --jobs 1 ${best(serial).toFixed(0)} ms → ${verdict(best(serial) / best(parallel), 1.6, false)}`,
      `  the same command on a one-line log takes ${fixed.toFixed(0)} ms: with the rest shared perfectly by ${cores} cores, the default could be at most ${bound.toFixed(2)}× faster`,
      // Threads of one process share more than two processes do: this is the machine's own ceiling.
      `  ${shares.length} processes of --jobs 1 at once, sharing the logs and nothing else: ${best(apart).toFixed(0)} ms, ${(best(serial) / best(apart)).toFixed(2)}× the speed of --jobs 1 on all ${FILES} (the most threads could hope for here)`,
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
