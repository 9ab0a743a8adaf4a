/** Reads a set of logs into palette statistics, keeping a few traces per tool and stage to list in the view. */
import type { Split } from "../../core/stats/comparison-json.js";
import { PaletteStats } from "../../core/stats/fold.js";
import { SplitStats } from "../../core/stats/split.js";
import type { Cancellation } from "../../core/traces/scan.js";
import type { LoggedTrace } from "../../core/traces/trace.js";
import type { OtlpSet } from "../../core/otel/set-records.js";
import {
  fileStamps,
  scanLogs,
  type LogProblem,
  type LogsScan,
  type ScannedTrace,
  type TraceLocation,
} from "../../node/log-file.js";
import { distinctInputs, expandInputs, type LogInput } from "../../node/log-source.js";

/** Traces kept per tool and stage in `missing`, so a click lists them without reading the logs again. */
export const SAMPLES_PER_STAGE = 20;

/** Where a trace is, to read it again: its file and byte range. */
export interface TraceRef extends TraceLocation {
  /** Absolute path of its file. */
  readonly path: string;
  readonly time: string | number | null;
  readonly id: string | number | null;
}

export interface LogStats {
  readonly stats: PaletteStats<TraceRef>;
  readonly scan: LogsScan;
  /** The files read, in order (a folder stands for the logs in it). */
  readonly files: readonly string[];
  /** Problems, each naming its file; the first few are kept, all are counted in the statistics. */
  readonly problems: readonly string[];
}

const PROBLEMS_KEPT = 100;

/** What traces are folded into: one set's statistics, or both sides of a set split at a time. */
interface TraceSink {
  add(trace: LoggedTrace, ref: TraceRef): readonly string[];
}

/** Folds traces into a sink as a scan finds them, keeping the first problems, each naming its file. */
class RefFold<Sink extends TraceSink> {
  protected readonly problems: string[] = [];
  /** Traces that reached the statistics' cap on distinct tools or stages: each is a problem. */
  protected limits = 0;

  constructor(
    protected readonly inputs: readonly LogInput[],
    readonly sink: Sink,
  ) {}

  trace(found: ScannedTrace, file: number): void {
    const reached = this.sink.add(found.trace, {
      path: this.inputs[file]!.path!,
      index: found.index,
      line: found.line,
      offset: found.offset,
      length: found.length,
      ordinal: found.ordinal,
      ...(found.hash === undefined ? {} : { hash: found.hash }),
      time: found.trace.time,
      id: found.trace.id,
    });
    for (const message of reached) {
      this.limits++;
      this.problem({ file, line: found.line, message });
    }
  }

  problem(problem: Pick<LogProblem, "file" | "line" | "message">): void {
    if (this.problems.length < PROBLEMS_KEPT)
      this.problems.push(
        `${this.inputs[problem.file]!.name}${problem.line === null ? "" : `:${problem.line}`}: ${problem.message}`,
      );
  }

  /** The files read, in order (a folder stands for the logs in it). */
  protected get files(): string[] {
    return this.inputs.map((input) => input.path ?? input.name);
  }
}

/** Folds traces into statistics as a scan finds them (readLogStats's scan, or the Selection Traces view's). */
export class StatsFold extends RefFold<PaletteStats<TraceRef>> {
  constructor(inputs: readonly LogInput[]) {
    super(inputs, new PaletteStats<TraceRef>({ samples: SAMPLES_PER_STAGE }));
  }

  /** The statistics once the scan is over. */
  done(scan: LogsScan): LogStats {
    this.sink.addProblems(scan.problemCount + this.limits);
    return {
      stats: this.sink,
      scan,
      files: this.files,
      problems: this.problems,
    };
  }
}

/** One set read again and cut at a time, as `stats --split-at` cuts it; each side keeps traces to list. */
export interface SplitRead {
  readonly old: PaletteStats<TraceRef>;
  readonly new: PaletteStats<TraceRef>;
  /** How it was cut, or why the time cannot cut the set (outside its times, or no times at all). */
  readonly split: Split | { readonly error: string };
  readonly scan: LogsScan;
  readonly files: readonly string[];
  readonly problems: readonly string[];
}

class SplitFold extends RefFold<SplitStats<TraceRef>> {
  done(scan: LogsScan): SplitRead {
    const { old, new: now } = this.sink;
    return {
      old,
      new: now,
      split: this.sink.result(scan.problemCount + this.limits),
      scan,
      files: this.files,
      problems: this.problems,
    };
  }
}

export interface ReadOptions {
  readonly signal?: Cancellation;
  /** Bytes read so far, and the bytes of all the files on disk. */
  readonly onProgress?: (bytes: number, total: number) => void;
}

/** Folds every trace of the files and folders (absolute paths) into statistics, as `traces` reads them. */
export async function readLogStats(
  paths: readonly string[],
  options: ReadOptions = {},
): Promise<LogStats> {
  const inputs = await logInputs(paths);
  const fold = new StatsFold(inputs);
  return fold.done(await scanInto(inputs, fold, options));
}

/**
 * Reads the set again, cut at `at` (`atMs`, as `splitTimeMs` reads it): OLD before it, NEW from
 * it, as `stats --split-at` counts them.
 */
export async function readSplitStats(
  paths: readonly string[],
  at: string,
  atMs: number,
  options: ReadOptions = {},
): Promise<SplitRead> {
  const inputs = await logInputs(paths);
  const fold = new SplitFold(
    inputs,
    new SplitStats<TraceRef>(at, atMs, { samples: SAMPLES_PER_STAGE }),
  );
  return fold.done(await scanInto(inputs, fold, options));
}

/** The logs of the files and folders, a log named twice (on its own and in its folder) once. */
async function logInputs(paths: readonly string[]): Promise<LogInput[]> {
  return distinctInputs(await expandInputs(paths, (path) => path));
}

async function scanInto(
  inputs: readonly LogInput[],
  fold: RefFold<TraceSink>,
  options: ReadOptions,
): Promise<LogsScan> {
  const total = (await fileStamps(inputs)).reduce((sum, stamp) => sum + (stamp?.size ?? 0), 0);
  return scanLogs(inputs, {
    signal: options.signal,
    checkpoints: true,
    onProgress: (bytes) => options.onProgress?.(bytes, total),
    onTrace: (found, file) => fold.trace(found, file),
    onProblem: (problem) => fold.problem(problem),
  });
}

/** The OTLP set a file of these statistics was read in, for reading one of its traces again as the scan joined it. */
export function otlpSetOf(
  read: Pick<LogStats, "files" | "scan">,
  path: string,
): OtlpSet | undefined {
  const file = read.files.indexOf(path);
  const records = read.scan.setRecords;
  return records && file !== -1 ? { records, file } : undefined;
}
