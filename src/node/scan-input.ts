/**
 * One input of a set read through the trace scanner in fixed-size chunks: what a scan worker
 * does with its file (scan-worker.ts), and what the set's scan does with a stream.
 */
import { setImmediate as nextTurn } from "node:timers/promises";
import {
  ScanCancelled,
  TraceScanner,
  type Cancellation,
  type FoundTrace,
} from "../core/traces/scan.js";
import { LogReadError, logChunks, looksBinary, type LogInput } from "./log-source.js";
import { nodeAscii } from "./ascii.js";
import { RecentBytes } from "./range-hash.js";
import { summarizeTrace, traceEntryTail, type TraceSummary } from "../core/traces/summary.js";
import type { LogProblem, ScannedTrace } from "./scanned.js";
import type { OtlpSet } from "../core/otel/set-records.js";

/** Longest stretch of scanning before the event loop gets a turn (for Cancel, progress and a worker's messages). */
const BUSY_MS = 15;
/** A chunk is fed to the scanner in slices this big, so a turn can come between any two. */
const SLICE_BYTES = 64 * 1024;

/** Where an input's traces and problems go, in the order they are found; `found.index` counts within the input. */
export interface ScanSink {
  readonly onTrace: (found: ScannedTrace, file: number) => void;
  readonly onProblem: (problem: LogProblem) => void;
  /** With `entryMargin`: each trace instead as the rest of its `traces --json` entry (traceEntryTail). */
  readonly onEntry?: (tail: string, file: number) => void;
  /** With `summaries`: each trace instead as its summary (summarizeTrace). */
  readonly onSummary?: (summary: TraceSummary, file: number) => void;
  /** With `wanted`: how many traces were passed over (counted, not handed on), before the next item. */
  readonly onPassed?: (count: number, file: number) => void;
}

export interface InputScanOptions {
  readonly sink: ScanSink;
  readonly signal?: Cancellation;
  readonly maxLineBytes?: number;
  /** Hash each trace of a gzip (range-hash.ts) and say so, for a checkpoint walk after the scan. */
  readonly checkpoints?: boolean;
  /** Hand traces on to `sink.onEntry` as their entries' text, at this margin. */
  readonly entryMargin?: string;
  /** Hand traces on to `sink.onSummary` as their summaries. */
  readonly summaries?: boolean;
  /** With `summaries`: only the trace of this index within the input is summarized; the rest go to `sink.onPassed` as a count. */
  readonly wanted?: number;
  /** Bytes of this input read so far (compressed bytes for a gzip), after every chunk. */
  readonly onProgress?: (bytes: number) => void;
  /** Called after every slice; the scan waits for what it returns (a worker's room to send). */
  readonly between?: () => Promise<void> | undefined;
  /** The OTLP set the input is read in (its file's number in it): its spans join the other files' log records. */
  readonly otlpSet?: OtlpSet;
}

/** How the scan of one input ended. */
export interface InputScan {
  readonly bytes: number;
  /** Nothing of it could be read (missing, a folder, not allowed). */
  readonly unreadable: boolean;
  readonly cancelled: boolean;
  /** The gzip to walk for checkpoints once the set is scanned, when `checkpoints` asked for it. */
  readonly gzipPath: string | null;
  /** With `otlpSet`: the set's log records that name an inference span of this input. */
  readonly setJoined?: readonly number[];
}

/**
 * Scans one input; nothing rejects: a file that cannot be read, a binary file, a truncated or
 * corrupt gzip is a problem of that file. Cancellation is checked between chunks.
 */
export async function scanInput(
  input: LogInput,
  file: number,
  options: InputScanOptions,
): Promise<InputScan> {
  const { sink } = options;
  let bytes = 0;
  let gzipPath: string | null = null;
  // Cancel counts only while something is left to read: pressed after the last file, it changes nothing.
  if (isCancelled(options.signal)) return { bytes, unreadable: false, cancelled: true, gzipPath };
  // Traces passed over since the last item: their count goes before whatever comes next.
  let passed = 0;
  const pass = () => {
    if (passed > 0) sink.onPassed!(passed, file);
    passed = 0;
  };
  const problem = (line: number | null, message: string, unreadable = false) => {
    pass();
    sink.onProblem(unreadable ? { file, line, message, unreadable } : { file, line, message });
  };
  // Set by onGzip (a callback, so typed by a cast: TypeScript would narrow a plain null).
  let recent = null as RecentBytes | null;
  const { entryMargin, summaries, wanted } = options;
  const { onEntry, onSummary } = sink;
  const passOver = summaries && wanted !== undefined;
  // A trace goes on as the form its reader asked for: its entry's text, its summary, or itself.
  const onTrace = (found: FoundTrace) => {
    if (passOver && found.index !== wanted) {
      passed++;
      return;
    }
    pass();
    if (entryMargin !== undefined && onEntry) onEntry(traceEntryTail(found, entryMargin), file);
    else if (summaries && onSummary) onSummary(summarizeTrace(found), file);
    else
      sink.onTrace(
        recent ? { ...found, hash: recent.hash(found.offset, found.length) } : found,
        file,
      );
  };
  const setJoined: number[] = [];
  const scanner = new TraceScanner({
    otlpSet: options.otlpSet,
    onSetJoined: (index) => setJoined.push(index),
    maxLineBytes: options.maxLineBytes,
    signal: options.signal,
    ascii: nodeAscii,
    onTrace,
    onProblem: (found) => problem(found.line, found.message),
  });
  let turn = performance.now();
  let first = true;
  try {
    for await (const chunk of logChunks(input, {
      onRead: (read) => options.onProgress?.((bytes = read)),
      onNotice: (message) => problem(null, message),
      onGzip: () => {
        if (!options.checkpoints || input.path === null) return;
        gzipPath = input.path;
        recent = new RecentBytes();
      },
    })) {
      if (first && looksBinary(chunk)) {
        problem(null, "binary file (it holds NUL bytes); it was not read");
        break;
      }
      first = false;
      recent?.add(chunk);
      for (let at = 0; at < chunk.length;) {
        const next = sliceEnd(chunk, at);
        scanner.push(chunk.subarray(at, next));
        at = next;
        const wait = options.between?.();
        if (wait) await wait;
        if (performance.now() - turn > BUSY_MS) {
          await nextTurn();
          turn = performance.now();
        }
      }
    }
    if (!first) scanner.end();
  } catch (error) {
    if (error instanceof ScanCancelled)
      return { bytes, unreadable: false, cancelled: true, gzipPath };
    if (!(error instanceof LogReadError)) throw error;
    // The text after the last line break is cut off: it is not read, the break is the problem.
    problem(error.unreadable ? null : scanner.currentLine, error.message, error.unreadable);
    return { bytes, unreadable: error.unreadable, cancelled: false, gzipPath };
  } finally {
    pass();
  }
  return { bytes, unreadable: false, cancelled: false, gzipPath, setJoined };
}

/**
 * Where the slice from `at` ends: after the last line feed within SLICE_BYTES, so that the
 * scanner need not keep a piece of line between slices; at SLICE_BYTES inside a longer line.
 */
function sliceEnd(chunk: Uint8Array, at: number): number {
  const limit = at + SLICE_BYTES;
  if (limit >= chunk.length) return chunk.length;
  // Searched within the slice: a long line must not send the search back over the whole chunk.
  const lf = chunk.subarray(at, limit).lastIndexOf(10);
  return lf === -1 ? limit : at + lf + 1;
}

export function isCancelled(signal: Cancellation | undefined): boolean {
  if (!signal) return false;
  return "aborted" in signal ? signal.aborted : signal.isCancellationRequested;
}
