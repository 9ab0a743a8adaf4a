/**
 * The first pass over a set of several OTLP files: the log records of each (the lines of
 * `resourceLogs` only, the rest passed over undecoded), so that each file's scan joins its spans
 * to the records of the others. Files that are not OTLP cost one chunk; a set with fewer than two
 * OTLP inputs is not read further. A stream is not read twice: it is not read here, but counted as
 * one that may be OTLP, so its spans join the files' records; its own records join only its spans.
 */
import { setImmediate as nextTurn } from "node:timers/promises";
import { DEFAULT_MAX_LINE_BYTES, type Cancellation } from "../core/traces/scan.js";
import { looksOtlp, OtlpScanner } from "../core/otel/scanner.js";
import { MAX_SET_RECORDS, type SetRecord, type SetRecordsRead } from "../core/otel/set-records.js";
import { logChunks, looksBinary, type LogInput } from "./log-source.js";
import { isCancelled } from "./scan-input.js";

/** What is read of a file to tell whether it is OTLP: a set of many logs is not read twice. */
const HEAD_BYTES = 64 * 1024;
/** Longest stretch of reading before the event loop gets a turn. */
const BUSY_MS = 15;

/**
 * The log records of a set's OTLP files, in set order; null when it holds no OTLP file, fewer than
 * two OTLP files and streams (or on Cancel).
 */
export async function readSetRecords(
  inputs: readonly LogInput[],
  options: {
    readonly signal?: Cancellation;
    readonly maxLineBytes?: number;
    /** The most records kept (tests make it small). */
    readonly maxRecords?: number;
  } = {},
): Promise<SetRecordsRead | null> {
  const otlp: number[] = [];
  for (const [file, input] of inputs.entries())
    if (input.stream === undefined && (await opensOtlp(input))) otlp.push(file);
  const streams = inputs.filter((input) => input.stream !== undefined).length;
  if (otlp.length === 0 || otlp.length + streams < 2) return null;
  const max = options.maxRecords ?? MAX_SET_RECORDS;
  const records: SetRecord[] = [];
  let cut: SetRecordsRead["cut"] = null;
  let turn = performance.now();
  for (const file of otlp) {
    const scanner = new OtlpScanner({
      maxLineBytes: options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES,
      // The file's own scan says what is wrong with it.
      onTrace: () => undefined,
      onProblem: () => undefined,
      onRecords: (read, line) => {
        for (const record of read) {
          if (records.length < max) records.push({ ...record, file, line });
          else cut ??= { file, line };
        }
      },
    });
    try {
      for await (const chunk of logChunks(inputs[file]!)) {
        scanner.push(chunk);
        if (performance.now() - turn > BUSY_MS) {
          if (isCancelled(options.signal)) return null;
          await nextTurn();
          turn = performance.now();
        }
      }
      scanner.end();
    } catch {
      // A file that cannot be read to its end is its own scan's problem; its records up to there stay.
    }
  }
  return { records, cut, max };
}

/** Whether an input's first chunk opens an OTLP/JSON request (not a binary file, not one that cannot be read). */
async function opensOtlp(input: LogInput): Promise<boolean> {
  try {
    for await (const chunk of logChunks(input, { chunkBytes: HEAD_BYTES }))
      return !looksBinary(chunk) && looksOtlp(chunk);
  } catch {
    // Its own scan says why it cannot be read.
  }
  return false;
}
