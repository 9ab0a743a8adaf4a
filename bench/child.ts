/**
 * Scans timed in processes of their own, several per side taken in turn: on a shared virtual
 * machine one process may run at half the speed of the next for its whole life, and a process
 * that held a million traces before collects garbage more slowly than a fresh one. The best of
 * each side is compared.
 */
import { spawnSync } from "node:child_process";
import { createReadStream, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createGunzip } from "node:zlib";
import { CHUNK_BYTES, scanLogFile, scanLogs } from "../src/node/log-file.js";
import { TraceIndex } from "../src/node/trace-index.js";

export const MEASURE_FLAG = "--measure-scan";

const ROUNDS = 5;
const PROCESSES = 3;

export interface Times {
  /** Milliseconds of CPU: user and system, the reading, inflating and GC threads included. */
  readonly cpu: number;
  readonly wall: number;
  /** Traces found or lines parsed, as the run counts them. */
  readonly traces: number;
}

/** What a user would write without the scanner: read as text, split lines, parse those naming "trace". */
export async function baselineScan(file: string): Promise<number> {
  let parsed = 0;
  let tail = "";
  for await (const chunk of createReadStream(file, {
    encoding: "utf8",
    highWaterMark: CHUNK_BYTES,
  }) as AsyncIterable<string>) {
    const lines = (tail + chunk).split("\n");
    tail = lines.pop()!;
    for (const line of lines) if (line.includes('"trace"')) parsed += JSON.parse(line) ? 1 : 0;
  }
  return parsed;
}

/** The command line's scan: traces counted, none kept. */
async function scanner(file: string): Promise<number> {
  return (await scanLogFile(file, { keep: false })).traceCount;
}

/** The extension's scan: every trace into the index. */
async function index(file: string): Promise<number> {
  const built = new TraceIndex();
  await scanLogs([{ name: file, path: file }], {
    onTrace: (found, n) => built.add(found, n),
    onProblem: (problem) => built.addProblem(problem),
  });
  return built.count;
}

/** zlib alone inflating a gzip, the output thrown away: what reading a .gz cannot beat. */
async function inflate(file: string): Promise<number> {
  const stream = createReadStream(file, { highWaterMark: CHUNK_BYTES }).pipe(
    createGunzip({ chunkSize: 256 * 1024 }),
  );
  for await (const chunk of stream as AsyncIterable<Buffer>) if (chunk.length < 0) break;
  return 0;
}

const RUNS = { baseline: baselineScan, scanner, index, inflate };
export type Run = keyof typeof RUNS;

/**
 * The best times of each run over PROCESSES processes each, the runs' processes taken in turn;
 * `file` is every run's, or each run's in order (two sides on two files taken in turn too).
 */
export function interleaved(runs: readonly Run[], file: string | readonly string[]): Times[] {
  const best = runs.map(() => ({ cpu: Infinity, wall: Infinity, traces: 0 }));
  for (let p = 0; p < PROCESSES; p++)
    runs.forEach((run, k) => {
      const times = bestInChild(run, typeof file === "string" ? file : file[k]!);
      best[k] = {
        cpu: Math.min(best[k]!.cpu, times.cpu),
        wall: Math.min(best[k]!.wall, times.wall),
        traces: times.traces,
      };
    });
  return best;
}

function bestInChild(run: Run, file: string): Times {
  const child = spawnSync(process.execPath, [__filename, MEASURE_FLAG, run, file], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
  });
  if (child.status !== 0) throw new Error(`the ${run} measurement exited with ${child.status}`);
  return JSON.parse(child.stdout) as Times;
}

/** In the child: one warm-up run (the JIT), then ROUNDS measured runs; prints the best as JSON. */
export async function measureInChild(run: string, file: string): Promise<void> {
  if (!(run in RUNS)) throw new Error(`no measurement called ${run}`);
  const measured = RUNS[run as Run];
  let traces = await measured(file);
  const best = { cpu: Infinity, wall: Infinity };
  for (let round = 0; round < ROUNDS; round++) {
    const start = performance.now();
    const cpu = process.cpuUsage();
    traces = await measured(file);
    const used = process.cpuUsage(cpu);
    best.cpu = Math.min(best.cpu, (used.user + used.system) / 1000);
    best.wall = Math.min(best.wall, performance.now() - start);
  }
  process.stdout.write(JSON.stringify({ ...best, traces }));
}

/** How `interleaved` measures, for the lines the bench prints. */
export const METHOD = `best of ${ROUNDS} runs after a warm-up in each of ${PROCESSES} processes per side, taken in turn`;

/** Wall time and peak RSS (MB) of one run of the built CLI in a child process, its output discarded. */
export function runCli(
  dir: string,
  cli: string,
  args: readonly string[],
): { ms: number; rss: number } {
  const report = join(dir, "rss.txt");
  const preload = join(dir, "peak.cjs");
  writeFileSync(
    preload,
    `process.on("exit", () => require("fs").writeFileSync(${JSON.stringify(report)}, String(process.resourceUsage().maxRSS)));\n`,
  );
  const start = performance.now();
  const child = spawnSync(process.execPath, ["--require", preload, cli, ...args], {
    stdio: ["ignore", "ignore", "pipe"],
    encoding: "utf8",
  });
  const ms = performance.now() - start;
  if (child.status !== 0)
    throw new Error(`${args[0]} exited with ${child.status}: ${child.stderr}`);
  return { ms, rss: Number(readFileSync(report, "utf8")) / 1024 };
}
