/**
 * Run in a process of its own by hostile-slices.test.ts (a test worker's thread shares its
 * process with other test files): `node probe.js LOG RUNS` scans LOG with `scanLogs` on this
 * thread RUNS times and prints, as JSON, the least over the runs of the longest CPU time of this
 * thread between two turns of its event loop, and what the last run found.
 */
import { scanLogs } from "../../src/node/log-file.js";
import { longestSlice } from "../helpers/host-cpu.js";

async function scan(path: string): Promise<{ ms: number; traces: number; problems: string[] }> {
  let traces = 0;
  const problems: string[] = [];
  const ms = await longestSlice(() =>
    scanLogs([{ name: path, path }], {
      jobs: 0,
      onTrace: () => traces++,
      onProblem: (problem) => problems.push(problem.message),
    }),
  );
  return { ms, traces, problems };
}

async function main(): Promise<void> {
  const [path, runs] = process.argv.slice(2);
  const measured = [];
  // Runs after the first start with the readers compiled, as in a worker that has read a log before.
  for (let run = 0; run < Number(runs); run++) measured.push(await scan(path!));
  const { traces, problems } = measured.at(-1)!;
  const ms = Math.min(...measured.map((one) => one.ms));
  process.stdout.write(JSON.stringify({ ms, traces, problems }));
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exitCode = 1;
});
