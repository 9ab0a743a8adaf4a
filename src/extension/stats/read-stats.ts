/** Reads a set of logs into palette statistics, keeping a few traces per tool and stage to list in the view. */
import { PaletteStats } from "../../core/stats/fold.js";
import type { Cancellation } from "../../core/traces/scan.js";
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

/** Folds traces into statistics as a scan finds them (readLogStats's scan, or the Selection Traces view's). */
export class StatsFold {
  readonly stats = new PaletteStats<TraceRef>({ samples: SAMPLES_PER_STAGE });
  private readonly problems: string[] = [];
  /** Traces that reached the statistics' cap on distinct tools or stages: each is a problem. */
  private limits = 0;

  constructor(private readonly inputs: readonly LogInput[]) {}

  trace(found: ScannedTrace, file: number): void {
    const reached = this.stats.add(found.trace, {
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

  /** The statistics once the scan is over. */
  done(scan: LogsScan): LogStats {
    this.stats.addProblems(scan.problemCount + this.limits);
    return {
      stats: this.stats,
      scan,
      files: this.inputs.map((input) => input.path ?? input.name),
      problems: this.problems,
    };
  }
}

/** Folds every trace of the files and folders (absolute paths) into statistics, as `traces` reads them. */
export async function readLogStats(
  paths: readonly string[],
  options: {
    readonly signal?: Cancellation;
    /** Bytes read so far, and the bytes of all the files on disk. */
    readonly onProgress?: (bytes: number, total: number) => void;
  } = {},
): Promise<LogStats> {
  // A log named twice (on its own and in its folder) is counted once.
  const inputs = await distinctInputs(await expandInputs(paths, (path) => path));
  const total = (await fileStamps(inputs)).reduce((sum, stamp) => sum + (stamp?.size ?? 0), 0);
  const fold = new StatsFold(inputs);
  const scan = await scanLogs(inputs, {
    signal: options.signal,
    checkpoints: true,
    onProgress: (bytes) => options.onProgress?.(bytes, total),
    onTrace: (found, file) => fold.trace(found, file),
    onProblem: (problem) => fold.problem(problem),
  });
  return fold.done(scan);
}

/** The OTLP set a file of these statistics was read in, for reading one of its traces again as the scan joined it. */
export function otlpSetOf(read: LogStats, path: string): OtlpSet | undefined {
  const file = read.files.indexOf(path);
  const records = read.scan.setRecords;
  return records && file !== -1 ? { records, file } : undefined;
}
