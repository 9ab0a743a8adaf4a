/**
 * Logs read through the trace scanner in fixed-size chunks, never as one string (V8 cannot hold
 * one over ~512 MiB): one file, or several read as one set whose traces are numbered across the
 * files in the order given. One trace is re-read from its byte range when it is opened.
 */
import { stat } from "node:fs/promises";
import { availableParallelism } from "node:os";
import {
  scanText,
  ScanCancelled,
  type Cancellation,
  type FoundTrace,
  type ScanProblem,
} from "../core/traces/scan.js";
import type { TraceSummary } from "../core/traces/summary.js";
import { isGzip, LogReadError, logChunks, readReason, type LogInput } from "./log-source.js";
import { nodeAscii } from "./ascii.js";
import { inflateFromCheckpoint, recordCheckpoints } from "./gzip-checkpoints.js";
import { rangeHash } from "./range-hash.js";
import { isCancelled, scanInput, type ScanSink } from "./scan-input.js";
import { scanInWorkers, type WorkerSetup } from "./scan-pool.js";
import { openRegular } from "./safe-file.js";
import { readSetRecords } from "./otlp-set.js";
import { setProblems, type OtlpSet, type SetRecord } from "../core/otel/set-records.js";
import type { LogProblem, ScannedTrace } from "./scanned.js";

export { isCancelled } from "./scan-input.js";
export type { LogProblem, ScannedTrace } from "./scanned.js";
export { CHUNK_BYTES } from "./log-source.js";
export const MAX_PROBLEMS = 1000;

/** Traces as found, as their summaries, or as the text of their `traces --json` entries. */
export type LogsScanOptions = LogsScanCommon &
  (
    | {
        /**
         * `found.index` is the trace's number across the whole set, 0-based; in a gzip scanned
         * with `checkpoints`, `found.hash` is a keyed hash of its bytes (readTraceAt checks a
         * checkpoint by it: range-hash.ts).
         */
        readonly onTrace: (found: ScannedTrace, file: number) => void;
        readonly onSummary?: undefined;
        readonly wanted?: undefined;
        readonly entries?: undefined;
      }
    | {
        /**
         * Each trace's summary, made where it is found (in a worker, which then sends the
         * summary, not the trace); `summary.index` is its number across the set.
         */
        readonly onSummary: (summary: TraceSummary, file: number) => void;
        /**
         * Only the summary of this trace (its number across the set) is wanted: where its file's
         * first number is known as that file is started, the others are only counted (never
         * summarized nor sent); elsewhere every summary comes as without it.
         */
        readonly wanted?: number;
        readonly onTrace?: undefined;
        readonly entries?: undefined;
      }
    | {
        readonly entries: EntryOutput;
        readonly wanted?: undefined;
        readonly onTrace?: undefined;
        readonly onSummary?: undefined;
      }
  );

/**
 * Each trace as the rest of its `traces --json` entry (traceEntryTail), written where it is found
 * (in a worker, which then sends a string, not the trace), with its index across the set.
 */
export interface EntryOutput {
  readonly margin: string;
  readonly onEntry: (tail: string, index: number, file: number) => void;
}

interface LogsScanCommon {
  readonly signal?: Cancellation;
  readonly maxLineBytes?: number;
  readonly onProblem: (problem: LogProblem) => void;
  /** Bytes read from disk so far (compressed bytes for a gzip), after every chunk. */
  readonly onProgress?: (bytes: number) => void;
  /**
   * Also walk each gzip file's blocks for checkpoints (gzip-checkpoints.ts), so that a trace
   * opened later is inflated from the nearest one: for a reader that opens traces (the extension).
   */
  readonly checkpoints?: boolean;
  /**
   * Files on disk scanned at once, each in a worker thread of its own (default: the cores); 0
   * scans them one after another on this thread. Output is the same for any number.
   */
  readonly jobs?: number;
  /** How the workers are started (tests make them fail). */
  readonly worker?: WorkerSetup;
}

export interface LogsScan {
  readonly traceCount: number;
  readonly problemCount: number;
  /** Files of which nothing could be read (missing, a folder, not allowed). */
  readonly unreadable: number;
  readonly bytes: number;
  readonly cancelled: boolean;
  /** Settles when the checkpoint walks are over: they start when the scan has ended. */
  readonly checkpointed: Promise<void>;
  /** A set of several OTLP files: their log records, which a trace read again (readTraceAt's `otlpSet`) joins too. */
  readonly setRecords: readonly SetRecord[] | null;
}

/**
 * Scans the inputs in order, numbering traces across them. Nothing rejects: a file that cannot
 * be read, a binary file, a truncated or corrupt gzip is a problem of that file, and the next file
 * is read. Files on disk are scanned in worker threads, `jobs` at a time (scan-pool.ts); a stream
 * and `jobs: 0` on this thread, where the event loop gets a turn between two slices of input.
 */
export async function scanLogs(
  inputs: readonly LogInput[],
  options: LogsScanOptions,
): Promise<LogsScan> {
  const jobs = options.jobs ?? availableParallelism();
  let traceCount = 0;
  let problemCount = 0;
  let unreadable = 0;
  let bytes = 0;
  let cancelled = false;
  const gzipPaths: string[] = [];
  // Traces come in set order, so each one's number is the count before it.
  const { entries, onTrace, onSummary } = options;
  const sink: ScanSink = {
    onTrace: (found, file) => {
      const index = traceCount++;
      onTrace?.(found.index === index ? found : { ...found, index }, file);
    },
    onEntry: entries && ((tail, file) => entries.onEntry(tail, traceCount++, file)),
    onSummary:
      onSummary &&
      ((summary, file) => {
        const index = traceCount++;
        onSummary(summary.index === index ? summary : { ...summary, index }, file);
      }),
    onPassed: (count) => {
      traceCount += count;
    },
    onProblem: (problem) => {
      problemCount++;
      options.onProblem(problem);
    },
  };
  // Each OTLP file's spans join the log records of the set's other files (otlp-set.ts).
  const set =
    inputs.length > 1
      ? await readSetRecords(inputs, { signal: options.signal, maxLineBytes: options.maxLineBytes })
      : null;
  const setJoined = new Set<number>();
  for (let at = 0; at < inputs.length && !cancelled;) {
    // Consecutive files and texts go to the pool together; a stream is read here, in its turn.
    let end = at;
    if (jobs > 0) while (end < inputs.length && !inputs[end]!.stream) end++;
    const before = bytes;
    const context = {
      ...options,
      sink,
      entryMargin: entries?.margin,
      summaries: onSummary !== undefined,
      // Numbered from the traces before this input: known now, as its files start here.
      wanted:
        options.wanted !== undefined && options.wanted >= traceCount
          ? options.wanted - traceCount
          : undefined,
      onProgress: (read: number) => options.onProgress?.(before + read),
      otlpSet: set ? { records: set.records, file: at } : undefined,
    };
    const scanned =
      end > at
        ? await scanInWorkers(inputs.slice(at, end), at, { ...context, jobs })
        : [await scanInput(inputs[at]!, at, context)];
    at = Math.max(end, at + 1);
    for (const file of scanned) {
      bytes += file.bytes;
      if (file.unreadable) unreadable++;
      if (file.gzipPath !== null) gzipPaths.push(file.gzipPath);
      cancelled ||= file.cancelled;
      for (const index of file.setJoined ?? []) setJoined.add(index);
    }
  }
  if (set && !cancelled) for (const problem of setProblems(set, setJoined)) sink.onProblem(problem);
  // One file at a time once the scan is over: a walk inflates its file a second time, and beside
  // the scan it would halve the scan's speed on a busy extension host.
  const checkpointed = (async () => {
    for (const path of gzipPaths) await recordCheckpoints(path, () => isCancelled(options.signal));
  })();
  const setRecords = set?.records ?? null;
  return { traceCount, problemCount, unreadable, bytes, cancelled, checkpointed, setRecords };
}

export interface LogScanOptions {
  readonly signal?: Cancellation;
  readonly maxLineBytes?: number;
  /** Called for every trace as it is found (progress, streaming output). */
  readonly onTrace?: (summary: TraceSummary) => void;
  /** Called after every chunk with the bytes read so far. */
  readonly onProgress?: (bytes: number) => void;
  /** Keep the summaries in the result (default true); streaming callers pass false. */
  readonly keep?: boolean;
  /** Problems kept; the rest are only counted (a binary file must not fill memory with them). */
  readonly maxProblems?: number;
}

export interface LogScan {
  readonly traces: readonly TraceSummary[];
  readonly problems: readonly ScanProblem[];
  /** All problems, including those past `maxProblems`. */
  readonly problemCount: number;
  readonly traceCount: number;
  readonly bytes: number;
  readonly cancelled: boolean;
}

/** Scans one file (plain or gzip) into summaries; rejects only when it cannot be read at all. */
export async function scanLogFile(file: string, options: LogScanOptions = {}): Promise<LogScan> {
  const traces: TraceSummary[] = [];
  const problems: ScanProblem[] = [];
  const maxProblems = options.maxProblems ?? MAX_PROBLEMS;
  const keep = options.keep ?? true;
  let failure: string | null = null;
  const scan = await scanLogs([{ name: file, path: file }], {
    signal: options.signal,
    maxLineBytes: options.maxLineBytes,
    onProgress: options.onProgress,
    // Summarized where they are found: a worker sends a summary for far less than a trace.
    onSummary: (summary) => {
      if (keep) traces.push(summary);
      options.onTrace?.(summary);
    },
    onProblem: (problem) => {
      if (problem.line === null && failure === null) failure = problem.message;
      // A problem of the whole file (binary, not gzip) is shown at its first line.
      if (problems.length < maxProblems)
        problems.push({ line: problem.line ?? 1, message: problem.message });
    },
  });
  if (scan.unreadable > 0)
    throw new Error(`cannot read ${file}: ${failure!.replace(/^cannot read the file: /, "")}`);
  return {
    traces,
    problems,
    problemCount: scan.problemCount,
    traceCount: scan.traceCount,
    bytes: scan.bytes,
    cancelled: scan.cancelled,
  };
}

export interface TextScanOptions {
  readonly signal?: Cancellation;
  /** Stop after this many traces (default: all of them). */
  readonly limit?: number;
}

/**
 * The traces and first problems of a text held in memory (a file's text, a debuggee's string),
 * scanned in a worker thread so that a hostile text never holds this one. Rejects with
 * ScanCancelled when `signal` is set before the end.
 */
export async function scanTextOffThread(
  text: string,
  options: TextScanOptions = {},
): Promise<{ traces: FoundTrace[]; problems: ScanProblem[] }> {
  const traces: FoundTrace[] = [];
  const problems: ScanProblem[] = [];
  const limit = options.limit ?? Infinity;
  const enough = { aborted: false };
  const signal = options.signal;
  const scan = await scanLogs([{ name: "text", path: null, text }], {
    jobs: 1,
    signal: {
      get aborted() {
        return enough.aborted || isCancelled(signal);
      },
    },
    onTrace: (found) => {
      traces.push(found);
      if (traces.length >= limit) enough.aborted = true;
    },
    onProblem: (problem) => {
      if (problems.length < MAX_PROBLEMS)
        problems.push({ line: problem.line ?? 1, message: problem.message });
    },
  });
  if (scan.cancelled && !enough.aborted) throw new ScanCancelled();
  return { traces, problems };
}

/** A file's size and modification time, to tell whether it changed since it was read. */
export interface FileStamp {
  readonly size: number;
  readonly mtimeMs: number;
}

/** Each input's stamp (null for standard input or a file that cannot be read). */
export function fileStamps(inputs: readonly LogInput[]): Promise<(FileStamp | null)[]> {
  return Promise.all(
    inputs.map((input) =>
      input.path === null
        ? null
        : stat(input.path).then(
            ({ size, mtimeMs }) => ({ size, mtimeMs }),
            () => null,
          ),
    ),
  );
}

/** Whether every file has the stamp it had (none can be read, or standard input, is a change). */
export async function unchangedSince(
  inputs: readonly LogInput[],
  stamps: readonly (FileStamp | null)[],
): Promise<boolean> {
  const now = await fileStamps(inputs);
  return now.every(
    (stamp, i) =>
      stamp !== null && stamp.size === stamps[i]?.size && stamp.mtimeMs === stamps[i]?.mtimeMs,
  );
}

/**
 * Where a trace was found: enough to read it again; `hash`, its bytes' keyed hash, lets a gzip's
 * trace be inflated from a checkpoint (without it, or when the bytes there differ, from the start).
 */
export type TraceLocation = Pick<
  ScannedTrace,
  "index" | "line" | "offset" | "length" | "ordinal" | "hash"
>;

export interface ReadTraceOptions {
  readonly signal?: Cancellation;
  /** The OTLP set the file was scanned in (LogsScan.setRecords, the file's number): the trace joins its log records as the scan did. */
  readonly otlpSet?: OtlpSet;
  /** Where inflating a gzip began, in inflated bytes: a checkpoint's offset, or 0 for its start. */
  readonly onInflateFrom?: (offset: number) => void;
}

/**
 * Re-reads one trace from the byte range its scan recorded; rejects if the file changed since.
 * A plain file is read at the offset. A gzip is inflated from the nearest checkpoint before the
 * range that a scan with `checkpoints` recorded when that gives bytes of the hash the scan took
 * (`at.hash`), else from its start: the cost is inflating what lies between, at zlib's speed;
 * `signal` stops it (ScanCancelled).
 */
export async function readTraceAt(
  file: string,
  at: TraceLocation,
  options: ReadTraceOptions = {},
): Promise<FoundTrace> {
  let bytes: Uint8Array;
  try {
    bytes = await readRange(file, at, options);
  } catch (error) {
    if (error instanceof ScanCancelled) throw error;
    const reason = error instanceof LogReadError ? error.message : readReason(error);
    throw new Error(`cannot read ${file}: ${reason}`, { cause: error });
  }
  const found = scanText(bytes, {
    otlpSet: options.otlpSet,
    firstLine: at.line,
    firstOffset: at.offset,
    ascii: nodeAscii,
  }).traces[at.ordinal];
  if (!found || found.line !== at.line)
    throw new Error(
      `${file} changed: the trace of line ${at.line} is no longer there; scan the file again`,
    );
  return { ...found, index: at.index };
}

/** Bytes [offset, offset + length) of a file, a gzip's inflated (from its nearest checkpoint); fewer at its end. */
export async function readRange(
  file: string,
  { offset, length, hash }: Pick<TraceLocation, "offset" | "length" | "hash">,
  { signal, onInflateFrom }: ReadTraceOptions,
): Promise<Uint8Array> {
  const handle = await openRegular(file);
  try {
    const head = Buffer.alloc(2);
    await handle.read(head, 0, 2, 0);
    if (!isGzip(head)) {
      const buffer = Buffer.alloc(length);
      const { bytesRead } = await handle.read(buffer, 0, length, offset);
      return buffer.subarray(0, bytesRead);
    }
  } finally {
    await handle.close();
  }
  // A checkpoint is trusted only to give the bytes the scan saw: a crafted file can mislead a walk.
  if (hash !== undefined) {
    const fromCheckpoint = await inflateFromCheckpoint(
      file,
      offset,
      length,
      () => isCancelled(signal),
      (checkpoint) => onInflateFrom?.(checkpoint.out),
    );
    if (fromCheckpoint !== null && rangeHash(fromCheckpoint) === hash) return fromCheckpoint;
  }
  onInflateFrom?.(0);
  const out = new Uint8Array(length);
  let at = 0;
  let filled = 0;
  for await (const chunk of logChunks({ name: file, path: file })) {
    if (isCancelled(signal)) throw new ScanCancelled();
    const end = at + chunk.length;
    if (end > offset) {
      const from = Math.max(0, offset - at);
      const part = chunk.subarray(from, Math.min(chunk.length, offset + length - at));
      out.set(part, filled);
      filled += part.length;
    }
    at = end;
    if (at >= offset + length) break;
  }
  return out.subarray(0, filled);
}
