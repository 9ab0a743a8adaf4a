/**
 * The extension's side of reading logs: heap per trace of the index of a set of logs
 * at 100k and 1M traces against the summaries it replaces; the longest stretch a scan keeps the
 * event loop busy and how soon it stops when cancelled; and a gzip scanned against the same log
 * uncompressed (the gzip layer), with zlib inflating it alone beside.
 */
import { createReadStream, createWriteStream, mkdtempSync, readFileSync, rmSync } from "node:fs";
import * as os from "node:os";
import { join } from "node:path";
import { finished } from "node:stream/promises";
import { createGzip } from "node:zlib";
import type { FoundTrace } from "../src/core/traces/scan.js";
import type { LoggedRecord, LoggedTrace } from "../src/core/traces/trace.js";
import { summarizeTrace, type TraceSummary } from "../src/core/traces/summary.js";
import {
  checkpointBytes,
  checkpointsOf,
  forgetCheckpoints,
  recordCheckpoints,
} from "../src/node/gzip-checkpoints.js";
import { readTraceAt, scanLogs } from "../src/node/log-file.js";
import type { LogInput } from "../src/node/log-source.js";
import { TraceIndex } from "../src/node/trace-index.js";
import { interleaved, METHOD, type Times } from "./child.js";
import { load, timed, verdict } from "./measure.js";

const MB = 1024 * 1024;
const SIZE_MB = 100;
const TOOLS = ["search", "get_weather", "sql", "delete_rows", "send_email", "calendar_lookup"];

export async function benchLogIndex(): Promise<string[]> {
  const lines = ["logs in the extension (index, event loop, cancel, gzip)"];
  lines.push(...heapPerTrace());
  const dir = mkdtempSync(join(os.tmpdir(), "pi-bench-logs-"));
  try {
    const busy = join(dir, "busy.log");
    await writeLog(busy, SIZE_MB * MB, 5);
    lines.push(...(await responsiveness(busy)));
    rmSync(busy);
    const quiet = join(dir, "app.log");
    await writeLog(quiet, SIZE_MB * MB, 100);
    lines.push(...(await gzipRatio(dir, quiet)));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return lines;
}

/** A trace as a scan finds it, with fresh arrays as JSON.parse would make them. */
function foundTrace(i: number): FoundTrace {
  const kept = TOOLS.filter((_, k) => (k + i) % 3 !== 0);
  const dropped = TOOLS.filter((_, k) => (k + i) % 3 === 0);
  const forced = i % 4 === 0 ? kept[0]! : null;
  const record = (stage: string, action: LoggedRecord["action"], drop: string[] = []) => ({
    stage,
    action,
    kept: [...kept],
    dropped: drop,
    added: [],
    reinstated: [],
    forced_choice: forced,
    detail: `${stage} decided`,
  });
  const trace: LoggedTrace = {
    records: [
      record("intent", "select", [...dropped]),
      record("forced", forced ? "force" : "abstain"),
      record("role", "select"),
      record("policy", "select", kept.slice(3)),
      record("allowlist", "abstain"),
    ],
    tools: kept.slice(0, 3),
    forcedChoice: forced,
    error: null,
    offered: [...TOOLS],
    turn: null,
    time: new Date(Date.UTC(2025, 2, 14) + i * 37).toISOString(),
    id: `t-${(0x4f1c2a + i).toString(16)}`,
  };
  return { index: i, line: i * 5 + 3, offset: i * 2100, length: 2000, ordinal: 0, trace };
}

/** The JS heap and the typed arrays' buffers (kept outside it), after collecting garbage. */
function heapAfterGc(): number {
  global.gc!();
  global.gc!();
  const { heapUsed, arrayBuffers } = process.memoryUsage();
  return heapUsed + arrayBuffers;
}

/** Heap bytes per trace held by what `build` returns. */
function heapOf<T>(count: number, build: () => T): number {
  const before = heapAfterGc();
  const kept = build();
  const after = heapAfterGc();
  if (kept === null) throw new Error("unreachable");
  return (after - before) / count;
}

function heapPerTrace(): string[] {
  if (typeof global.gc !== "function")
    return ["  heap per trace: skipped (run node with --expose-gc, as `npm run bench` does)"];
  const index = (count: number) =>
    heapOf(count, () => {
      const built = new TraceIndex();
      for (let i = 0; i < count; i++) built.add(foundTrace(i), i % 3);
      built.finish();
      return built;
    });
  const summaries = heapOf(100_000, () => {
    const kept: TraceSummary[] = [];
    for (let i = 0; i < 100_000; i++) kept.push(summarizeTrace(foundTrace(i)));
    return kept;
  });
  const small = index(100_000);
  const large = index(1_000_000);
  return [
    `  heap per trace, index: 100k traces ${small.toFixed(0)} B, 1M traces ${large.toFixed(0)} B (goal ≤ 150 B: ${large <= 150 && small <= 150 ? "ok" : "MISSED"}; 1M traces hold ${((large * 1e6) / MB).toFixed(0)} MB)`,
    `  heap per trace, summaries kept before (100k): ${summaries.toFixed(0)} B → index / summaries ${verdict(small / summaries, 0.125, true)}`,
  ];
}

/** CPU time this thread has run, in milliseconds (Linux; elsewhere the process's, workers included). */
function threadCpuMs(): number {
  try {
    return Number(readFileSync("/proc/thread-self/schedstat", "utf8").split(" ")[0]) / 1e6;
  } catch {
    const { user, system } = process.cpuUsage();
    return (user + system) / 1000;
  }
}

/** Longest event-loop block during a scan that builds the index, and how soon Cancel stops it. */
async function responsiveness(file: string): Promise<string[]> {
  const input: LogInput[] = [{ name: file, path: file }];
  const scan = (signal: { aborted: boolean }) => {
    const index = new TraceIndex();
    return scanLogs(input, {
      signal,
      onTrace: (found, n) => index.add(found, n),
      onProblem: (problem) => index.addProblem(problem),
    });
  };
  // Each gap between two turns of the loop, in wall time and in this thread's CPU time: on a
  // machine shared with other work the wall time also counts the waits for a core, and the
  // process's CPU time the scan workers' beside it.
  let longest = 0;
  let longestCpu = 0;
  let last = performance.now();
  let lastCpu = threadCpuMs();
  let ticking = true;
  const tick = () => {
    const now = performance.now();
    const cpu = threadCpuMs();
    longest = Math.max(longest, now - last);
    longestCpu = Math.max(longestCpu, cpu - lastCpu);
    last = now;
    lastCpu = cpu;
    if (ticking) setImmediate(tick);
  };
  setImmediate(tick);
  const start = performance.now();
  const whole = await scan({ aborted: false });
  const ms = performance.now() - start;
  ticking = false;

  let slowestStop = 0;
  for (const after of [150, 700, 1300]) {
    const signal = { aborted: false };
    let asked = 0;
    const timer = setTimeout(() => {
      signal.aborted = true;
      asked = performance.now();
    }, after);
    const result = await scan(signal);
    clearTimeout(timer);
    if (result.cancelled) slowestStop = Math.max(slowestStop, performance.now() - asked);
  }
  return [
    `  scan of ${SIZE_MB} MB, one line in 5 a trace (${whole.traceCount}), into the index: ${(SIZE_MB / (ms / 1000)).toFixed(0)} MB/s`,
    `  longest event-loop block: ${longestCpu.toFixed(1)} ms of CPU (goal ≤ 50 ms: ${longestCpu <= 50 ? "ok" : "MISSED"}), ${longest.toFixed(1)} ms of wall time (${os.loadavg()[0]!.toFixed(1)} runnable tasks on ${os.cpus().length} cores)`,
    `  cancel: the slowest of 3 scans stopped ${slowestStop.toFixed(1)} ms after Cancel (goal ≤ 100 ms: ${slowestStop <= 100 ? "ok" : "MISSED"})`,
  ];
}

/**
 * Scanning a gzip into the index against zlib alone inflating it, and against scanning the same
 * log uncompressed (what the gzip layer itself costs), each in processes of their own (child.ts).
 */
async function gzipRatio(dir: string, file: string): Promise<string[]> {
  const gz = join(dir, "app.log.gz");
  await finished(createReadStream(file).pipe(createGzip()).pipe(createWriteStream(gz)));
  // The two scans in turn, so that a change in the machine's load falls on both sides alike.
  const sides = interleaved(["inflate", "index", "index"], [gz, gz, file]);
  const [zlib, scanGz, scanPlain] = sides as [Times, Times, Times];
  // Inflating runs in a thread beside the scan, so the goal is on wall time; the CPU times show
  // whether the scan keeps up with zlib (it must use less CPU than inflating to hide behind it).
  // The goal is on the gzip layer alone; zlib's own time is shown for what it bounds.
  return [
    `  gzip layer (${SIZE_MB} MB inflated, one line in 100 a trace): scan of the .gz ${scanGz.wall.toFixed(0)} ms, of the plain log ${scanPlain.wall.toFixed(0)} ms → ${verdict(scanGz.wall / scanPlain.wall, 1.2, true)} (${METHOD}; ${load()})`,
    `  gzip CPU: zlib inflating alone ${zlib.cpu.toFixed(0)} ms (${zlib.wall.toFixed(0)} ms wall; the scan of the .gz takes ${(scanGz.wall / zlib.wall).toFixed(2)}× that), scanning the plain log ${scanPlain.cpu.toFixed(0)} ms, scanning the .gz ${scanGz.cpu.toFixed(0)} ms`,
    ...(await openLastTrace(gz)),
  ];
}

/**
 * Opening the last trace of the gzip from a checkpoint against inflating it from the start, and
 * what the checkpoints cost: the walk after the scan, their memory.
 */
async function openLastTrace(gz: string): Promise<string[]> {
  let last: FoundTrace | undefined;
  const started = performance.now();
  const scan = await scanLogs([{ name: gz, path: gz }], {
    checkpoints: true,
    onTrace: (found) => (last = found),
    onProblem: () => {},
  });
  const scanned = performance.now() - started;
  await scan.checkpointed;
  const walked = performance.now() - started;
  const count = (await checkpointsOf(gz)).length;
  const rounds: [number[], number[]] = [[], []];
  for (let round = 0; round < 3; round++) {
    rounds[0].push(await timed(() => readTraceAt(gz, last!)));
    forgetCheckpoints(gz);
    rounds[1].push(await timed(() => readTraceAt(gz, last!)));
    await recordCheckpoints(gz, () => false);
  }
  const [fromCheckpoint, fromStart] = rounds.map((times) => Math.min(...times)) as [number, number];
  return [
    `  open the last trace of the gzip: from a checkpoint ${fromCheckpoint.toFixed(1)} ms, from the start ${fromStart.toFixed(0)} ms → ${(fromStart / fromCheckpoint).toFixed(0)}× faster`,
    `  checkpoints: ${count} (${(checkpointBytes(gz) / 1024).toFixed(0)} KiB); the walk after the scan ended ${walked.toFixed(0)} ms after it began (the scan itself ${scanned.toFixed(0)} ms)`,
  ];
}

/** A text log: request lines, and one line in `every` a trace after a logger prefix. */
async function writeLog(file: string, bytes: number, every: number): Promise<void> {
  const out = createWriteStream(file);
  let written = 0;
  for (let i = 0; written < bytes; i++) {
    const stamp = new Date(Date.UTC(2025, 2, 14) + i * 37).toISOString();
    const line =
      i % every === every - 1
        ? `${stamp} INFO symfonic.capabilities.tools tool_selection ${JSON.stringify(selectionJson(i))}\n`
        : `${stamp} INFO agent.http request POST /v1/chat request_id=r-${i} status=200 duration_ms=${800 + (i % 300)}\n`;
    written += line.length;
    if (!out.write(line)) await new Promise<void>((resolve) => out.once("drain", () => resolve()));
  }
  out.end();
  await finished(out);
}

function selectionJson(i: number) {
  const { trace } = foundTrace(i);
  return {
    turn_id: trace.id,
    ts: trace.time,
    offered: trace.offered,
    trace: trace.records,
    tools: trace.tools,
    forced_choice: trace.forcedChoice,
    error: null,
  };
}
