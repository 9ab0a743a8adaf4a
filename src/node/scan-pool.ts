/**
 * Files of a set scanned in worker threads, `jobs` at a time, each file by a worker of its own
 * (scan-worker.ts), a worker taking the next file when it is done with one: what this thread does is take in their batches and hand each trace and
 * problem on in set order, in slices of at most BUSY_MS, so a hostile log never holds its event
 * loop. A worker that fails (an error, out of memory) is a problem of its file; Cancel ends the
 * workers at once.
 */
import { setImmediate as nextTurn } from "node:timers/promises";
import type { Worker, WorkerOptions } from "node:worker_threads";
import { keepWorker, takeWorker } from "./kept-workers.js";
import type { TraceSummary } from "../core/traces/summary.js";
import type { LogInput } from "./log-source.js";
import { KEY } from "./range-hash.js";
import type { LogProblem, ScannedTrace } from "./scanned.js";
import { isCancelled, type InputScan, type InputScanOptions } from "./scan-input.js";
import { workerFailure, workerScript } from "./worker-script.js";
import type { OtlpSet } from "../core/otel/set-records.js";

/** What a worker is given: its file and how to read it. */
export interface WorkerJob {
  readonly input: LogInput;
  readonly maxLineBytes?: number;
  readonly checkpoints?: boolean;
  /** Post traces as the text of their `traces --json` entries at this margin (traceEntryTail). */
  readonly entryMargin?: string;
  /** Post traces as their summaries (summarizeTrace). */
  readonly summaries?: boolean;
  /** With `summaries`: post only the summary of this trace (its index in the file), the rest as counts. */
  readonly wanted?: number;
  /** Its items are handed on as they come (it is the set's first file not yet handed on). */
  readonly handedOn?: boolean;
  /** The OTLP set it is read in, with its number there. */
  readonly otlpSet?: OtlpSet;
}

/** Tells a worker that its file's items are now handed on as they come (Outbox.handedOn). */
export const HANDED_ON = "handedOn";

/**
 * A trace; a problem as line, message and whether nothing of the file could be read; a trace as
 * the rest of its entry's text, or as its summary (either costs far less to send and take in
 * than the trace's objects); a count of traces passed over (LogsScanOptions.wanted).
 */
export type WorkerItem =
  | [0, ScannedTrace]
  | [1, number | null, string, boolean]
  | [2, string]
  | [3, TraceSummary]
  | [4, number];

export type WorkerMessage =
  | { readonly kind: "items"; readonly items: WorkerItem[] }
  | { readonly kind: "progress"; readonly bytes: number }
  | { readonly kind: "done"; readonly scan: InputScan; readonly items: WorkerItem[] };

/** How workers are started: their script and heap (tests make them fail). */
export interface WorkerSetup {
  readonly script?: string;
  /** The heap a worker may use; past it, it stops and its file has a problem. */
  readonly heapMb?: number;
}

/** Longest stretch of handing on before the event loop gets a turn. */
const BUSY_MS = 15;
/** How often a running scan looks for Cancel while it waits for its workers. */
const CANCEL_POLL_MS = 20;
const HEAP_MB = 2048;
/**
 * A worker's young generation: what it holds between two scavenges is a few batches, and V8's
 * default (grown to 48 MB as the scan goes on) made a worker's heap grow with the log it read.
 */
const YOUNG_MB = 8;
/** Files started ahead of the one being handed on, per job: a long first file must not let the rest pile up. */
const AHEAD_PER_JOB = 4;

/** The scan worker's bundle, dist/scan-worker.js. */
export const scanWorkerScript = (): string => workerScript("scan-worker.js");

interface FileState {
  readonly batches: WorkerItem[][];
  /** Items of the first batch already handed on. */
  taken: number;
  bytes: number;
  end: InputScan | null;
  worker: Worker | null;
}

export interface PoolOptions extends Omit<InputScanOptions, "between"> {
  readonly jobs: number;
  readonly worker?: WorkerSetup;
}

/** Scans `inputs` (files on disk; the first is file `first` of the set), handing everything on in their order. */
export function scanInWorkers(
  inputs: readonly LogInput[],
  first: number,
  options: PoolOptions,
): Promise<InputScan[]> {
  const script = options.worker?.script ?? scanWorkerScript();
  const files: FileState[] = inputs.map(() => ({
    batches: [],
    taken: 0,
    bytes: 0,
    end: null,
    worker: null,
  }));
  let current = 0;
  let started = 0;
  let running = 0;
  let cancelled = false;
  let pumping = false;

  return new Promise<InputScan[]>((settle, fail) => {
    const poll = setInterval(() => {
      if (isCancelled(options.signal)) cancel();
    }, CANCEL_POLL_MS);

    /** Workers that finished a file and wait for the next: a fresh one would compile the scanner again. */
    const idle: Worker[] = [];
    const setup: WorkerOptions = {
      workerData: { rangeHashKey: KEY },
      resourceLimits: {
        maxOldGenerationSizeMb: options.worker?.heapMb ?? HEAP_MB,
        maxYoungGenerationSizeMb: YOUNG_MB,
      },
    };
    const end = (worker: Worker) => {
      worker.removeAllListeners();
      worker.on("error", () => undefined);
      worker.terminate().catch(() => undefined);
    };

    const finish = () => {
      clearInterval(poll);
      for (const worker of idle.splice(0)) keepWorker(script, setup, worker);
      // A file not handed on to its end when Cancel came was cut short, even if its worker had finished.
      settle(
        files.map((file, k) => {
          const scanned = file.end ?? { bytes: file.bytes, unreadable: false, gzipPath: null };
          return { ...scanned, cancelled: cancelled && k >= current };
        }),
      );
    };

    const cancel = () => {
      if (cancelled) return;
      cancelled = true;
      for (const file of files) release(file, false);
      finish();
    };

    /** The file's worker is done with it: kept for the next file, or ended. */
    const release = (file: FileState, keep: boolean) => {
      const worker = file.worker;
      file.worker = null;
      if (!worker) return;
      running--;
      if (keep && !cancelled) idle.push(worker);
      else end(worker);
    };

    const progress = () => options.onProgress?.(files.reduce((sum, file) => sum + file.bytes, 0));

    /** A kept worker or a new one, listened to for this scan. */
    const enlist = (): Worker => {
      const worker = takeWorker(script, setup);
      const fileOf = () => files.find((file) => file.worker === worker);
      worker.on("message", (message: WorkerMessage) => {
        const file = fileOf();
        if (!file) return;
        if (message.kind === "items") file.batches.push(message.items);
        else if (message.kind === "progress") {
          file.bytes = message.bytes;
          progress();
        } else {
          if (message.items.length > 0) file.batches.push(message.items);
          file.end = message.scan;
          release(file, true);
          start();
        }
        pump();
      });
      const failed = (reason: string) => {
        const file = fileOf();
        const waiting = idle.indexOf(worker);
        if (waiting !== -1) idle.splice(waiting, 1);
        if (!file || file.end !== null || cancelled) return;
        // What was found before it stopped is kept; the failure is the file's last problem.
        file.batches.push([[1, null, `the scan of this file stopped: ${reason}`, false]]);
        file.end = { bytes: file.bytes, unreadable: false, cancelled: false, gzipPath: null };
        release(file, false);
        start();
        pump();
      };
      worker.on("error", (error) => failed(workerFailure(error)));
      worker.on("exit", (code) => failed(`its worker thread ended (exit code ${code})`));
      return worker;
    };

    const start = () => {
      while (
        !cancelled &&
        running < options.jobs &&
        started < files.length &&
        started < current + options.jobs * AHEAD_PER_JOB
      ) {
        const k = started++;
        const job: WorkerJob = {
          input: {
            name: inputs[k]!.name,
            path: inputs[k]!.path,
            text: inputs[k]!.text,
            roots: inputs[k]!.roots,
          },
          maxLineBytes: options.maxLineBytes,
          checkpoints: options.checkpoints,
          entryMargin: options.entryMargin,
          summaries: options.summaries,
          // Only the first file's numbers are known as it starts: the others' come after theirs.
          wanted: k === 0 ? options.wanted : undefined,
          handedOn: k === current,
          otlpSet: options.otlpSet && { records: options.otlpSet.records, file: first + k },
        };
        const worker = idle.pop() ?? enlist();
        files[k]!.worker = worker;
        running++;
        worker.postMessage(job);
      }
    };

    /**
     * Hands on what has come in, in set order, a turn of the event loop at least every BUSY_MS;
     * from the next turn on, so that taking in messages and handing on never share one.
     */
    const pump = () => {
      if (pumping || cancelled) return;
      pumping = true;
      void (async () => {
        await nextTurn();
        let turn = performance.now();
        while (current < files.length && !cancelled) {
          const file = files[current]!;
          const batch = file.batches[0];
          if (batch === undefined) {
            if (file.end === null) break;
            current++;
            files[current]?.worker?.postMessage(HANDED_ON);
            start();
            continue;
          }
          while (file.taken < batch.length && performance.now() - turn <= BUSY_MS) {
            // Nothing is handed on once Cancel is seen, as a scan on this thread stops at once.
            if (isCancelled(options.signal)) return cancel();
            hand(batch[file.taken++]!, first + current);
          }
          if (file.taken === batch.length) {
            file.batches.shift();
            file.taken = 0;
            file.worker?.postMessage(1);
          }
          if (performance.now() - turn > BUSY_MS) {
            await nextTurn();
            turn = performance.now();
          }
        }
        pumping = false;
        if (current === files.length && !cancelled) finish();
      })().catch((error: unknown) => {
        // A caller's callback threw: the scan stops and says so, as a scan on this thread would.
        cancelled = true;
        for (const file of files) release(file, false);
        clearInterval(poll);
        for (const worker of idle.splice(0)) end(worker);
        fail(error);
      });
    };

    const hand = (item: WorkerItem, file: number) => {
      if (item[0] === 0) options.sink.onTrace(item[1], file);
      else if (item[0] === 2) options.sink.onEntry!(item[1], file);
      else if (item[0] === 3) options.sink.onSummary!(item[1], file);
      else if (item[0] === 4) options.sink.onPassed!(item[1], file);
      else {
        const problem: LogProblem = item[3]
          ? { file, line: item[1], message: item[2], unreadable: true }
          : { file, line: item[1], message: item[2] };
        options.sink.onProblem(problem);
      }
    };

    if (isCancelled(options.signal)) return cancel();
    start();
  });
}
