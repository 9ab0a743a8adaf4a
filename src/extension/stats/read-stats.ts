/** Reads a set of logs into palette statistics, keeping a few traces per tool and stage to list in the view. */
import { PaletteStats } from "../../core/stats/fold.js";
import type { Cancellation } from "../../core/traces/scan.js";
import { scanLogs, type LogsScan, type TraceLocation } from "../../node/log-file.js";
import { expandInputs } from "../../node/log-source.js";

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

/** Folds every trace of the files and folders (absolute paths) into statistics, as `traces` reads them. */
export async function readLogStats(
  paths: readonly string[],
  options: { readonly signal?: Cancellation; readonly onProgress?: (bytes: number) => void } = {},
): Promise<LogStats> {
  const inputs = await expandInputs(paths, (path) => path);
  const stats = new PaletteStats<TraceRef>({ samples: SAMPLES_PER_STAGE });
  const problems: string[] = [];
  const scan = await scanLogs(inputs, {
    signal: options.signal,
    checkpoints: true,
    onProgress: options.onProgress,
    onTrace: (found, file) =>
      stats.add(found.trace, {
        path: inputs[file]!.path!,
        index: found.index,
        line: found.line,
        offset: found.offset,
        length: found.length,
        ordinal: found.ordinal,
        ...(found.crc === undefined ? {} : { crc: found.crc }),
        time: found.trace.time,
        id: found.trace.id,
      }),
    onProblem: (problem) => {
      if (problems.length < PROBLEMS_KEPT)
        problems.push(
          `${inputs[problem.file]!.name}${problem.line === null ? "" : `:${problem.line}`}: ${problem.message}`,
        );
    },
  });
  stats.addProblems(scan.problemCount);
  return { stats, scan, files: inputs.map((input) => input.path ?? input.name), problems };
}
