/** Reads a set of logs into palette statistics, keeping a few traces per tool and stage to list in the view. */
import { PaletteStats } from "../../core/stats/fold.js";
import type { Cancellation } from "../../core/traces/scan.js";
import type { TraceSummary } from "../../core/traces/summary.js";
import { scanLogSet, type LogSetScan } from "../../node/log-set.js";

/** Traces kept per tool and stage in `missing`, so a click lists them without reading the logs again. */
export const SAMPLES_PER_STAGE = 20;

/** Where a trace is, to read it again: its file and byte range. */
export interface TraceRef extends Pick<
  TraceSummary,
  "index" | "line" | "offset" | "length" | "ordinal" | "time" | "id"
> {
  /** Absolute path of its file. */
  readonly path: string;
}

export interface LogStats {
  readonly stats: PaletteStats<TraceRef>;
  readonly scan: LogSetScan;
}

/** Folds every trace of the files and folders (absolute paths) into statistics. */
export async function readLogStats(
  paths: readonly string[],
  options: {
    readonly signal?: Cancellation;
    readonly onProgress?: (file: string, bytes: number) => void;
  } = {},
): Promise<LogStats> {
  const stats = new PaletteStats<TraceRef>({ samples: SAMPLES_PER_STAGE });
  const scan = await scanLogSet(paths, {
    cwd: "/",
    signal: options.signal,
    onProgress: options.onProgress,
    onFound: (path, found) =>
      stats.add(found.trace, {
        path,
        index: found.index,
        line: found.line,
        offset: found.offset,
        length: found.length,
        ordinal: found.ordinal,
        time: found.trace.time,
        id: found.trace.id,
      }),
  });
  stats.addProblems(scan.problemCount);
  return { stats, scan };
}
