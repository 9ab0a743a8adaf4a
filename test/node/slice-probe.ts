/**
 * Run in a process of its own by hostile-slices.test.ts (the CPU time of a test worker counts
 * every thread of the process, other test files included): `node probe.js LOG RUNS` scans LOG
 * with `scanLogs` RUNS times and prints, as JSON, the least over the runs of the longest CPU time
 * between two turns of the event loop, and what the last run found.
 */
import { scanLogs } from "../../src/node/log-file.js";

async function longestSlice(
  path: string,
): Promise<{ ms: number; traces: number; problems: string[] }> {
  let longest = 0;
  let last = process.cpuUsage();
  let scanning = true;
  const turn = () => {
    const { user, system } = process.cpuUsage(last);
    longest = Math.max(longest, (user + system) / 1000);
    last = process.cpuUsage();
    if (scanning) setImmediate(turn);
  };
  setImmediate(turn);
  let traces = 0;
  const problems: string[] = [];
  await scanLogs([{ name: path, path }], {
    jobs: 0,
    onTrace: () => traces++,
    onProblem: (problem) => problems.push(problem.message),
  });
  scanning = false;
  return { ms: longest, traces, problems };
}

async function main(): Promise<void> {
  const [path, runs] = process.argv.slice(2);
  const measured = [];
  // Runs after the first start with the readers compiled, as on a host that has read a log before.
  for (let run = 0; run < Number(runs); run++) measured.push(await longestSlice(path!));
  const { traces, problems } = measured.at(-1)!;
  const ms = Math.min(...measured.map((one) => one.ms));
  process.stdout.write(JSON.stringify({ ms, traces, problems }));
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exitCode = 1;
});
