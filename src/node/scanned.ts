/** What a scan of a set of logs hands on: its traces and its problems, each placed in the set. */
import type { FoundTrace } from "../core/traces/scan.js";

/** A problem in one file of a set; `line` is null when it concerns the whole file. */
export interface LogProblem {
  /** Position of the file in the set. */
  readonly file: number;
  readonly line: number | null;
  readonly message: string;
  /** Nothing of the file could be read (missing, a folder, not allowed). */
  readonly unreadable?: true;
}

/** A trace as scanLogs hands it on: from a gzip scanned with checkpoints, with its bytes' hash. */
export type ScannedTrace = FoundTrace & { readonly hash?: string };
