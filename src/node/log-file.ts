/**
 * A log file read through the trace scanner in fixed-size chunks, never as one string (V8 cannot
 * hold one over ~512 MiB). Only summaries stay in memory; one trace is re-read from its byte
 * range when it is opened.
 */
import { createReadStream } from "node:fs";
import { open } from "node:fs/promises";
import {
  scanText,
  ScanCancelled,
  TraceScanner,
  type Cancellation,
  type FoundTrace,
  type ScanProblem,
} from "../core/traces/scan.js";
import { summarizeTrace, type TraceSummary } from "../core/traces/summary.js";

export const CHUNK_BYTES = 1024 * 1024;
export const MAX_PROBLEMS = 1000;

export interface LogScanOptions {
  readonly signal?: Cancellation;
  readonly maxLineBytes?: number;
  /** Called for every trace as it is found (progress, streaming output). */
  readonly onTrace?: (summary: TraceSummary) => void;
  /** Called for every trace with all it holds, before it is summarised (statistics). */
  readonly onFound?: (found: FoundTrace) => void;
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

/** Scans a file; rejects only when it cannot be read (the message names the file and why). */
export function scanLogFile(file: string, options: LogScanOptions = {}): Promise<LogScan> {
  return scanLogStream(createReadStream(file, { highWaterMark: CHUNK_BYTES }), file, options);
}

/** Scans a stream (a file, standard input); rejects only when it cannot be read, naming `name`. */
export async function scanLogStream(
  stream: AsyncIterable<Uint8Array> & { destroy(): void },
  name: string,
  options: LogScanOptions = {},
): Promise<LogScan> {
  const traces: TraceSummary[] = [];
  const problems: ScanProblem[] = [];
  const maxProblems = options.maxProblems ?? MAX_PROBLEMS;
  let problemCount = 0;
  let traceCount = 0;
  let bytes = 0;
  const keep = options.keep ?? true;
  const scanner = new TraceScanner({
    maxLineBytes: options.maxLineBytes,
    signal: options.signal,
    onTrace: (found) => {
      traceCount++;
      options.onFound?.(found);
      if (!keep && !options.onTrace) return;
      const summary = summarizeTrace(found);
      if (keep) traces.push(summary);
      options.onTrace?.(summary);
    },
    onProblem: (problem) => {
      if (problemCount++ < maxProblems) problems.push(problem);
    },
  });
  const result = (cancelled: boolean): LogScan => ({
    traces,
    problems,
    problemCount,
    traceCount,
    bytes,
    cancelled,
  });
  try {
    for await (const chunk of stream) {
      scanner.push(chunk);
      bytes += chunk.length;
      options.onProgress?.(bytes);
    }
    scanner.end();
  } catch (error) {
    if (error instanceof ScanCancelled) return result(true);
    throw new Error(`cannot read ${name}: ${reason(error)}`, { cause: error });
  } finally {
    stream.destroy();
  }
  return result(false);
}

/** Re-reads one trace from the byte range its summary recorded; rejects if the file changed since. */
export async function readTraceAt(
  file: string,
  summary: Pick<TraceSummary, "index" | "line" | "offset" | "length" | "ordinal">,
): Promise<FoundTrace> {
  let bytes: Uint8Array;
  try {
    const handle = await open(file, "r");
    try {
      const buffer = Buffer.alloc(summary.length);
      const { bytesRead } = await handle.read(buffer, 0, summary.length, summary.offset);
      bytes = buffer.subarray(0, bytesRead);
    } finally {
      await handle.close();
    }
  } catch (error) {
    throw new Error(`cannot read ${file}: ${reason(error)}`, { cause: error });
  }
  const found = scanText(bytes, { firstLine: summary.line, firstOffset: summary.offset }).traces[
    summary.ordinal
  ];
  if (!found || found.line !== summary.line)
    throw new Error(
      `${file} changed: the trace of line ${summary.line} is no longer there; scan the file again`,
    );
  return { ...found, index: summary.index };
}

function reason(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === "ENOENT") return "no such file";
  if (code === "EISDIR") return "it is a folder";
  if (code === "EACCES" || code === "EPERM") return "permission denied";
  return error instanceof Error ? error.message : String(error);
}
