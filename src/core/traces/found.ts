/** A trace as a scan of a log finds it, and a line the scan could not read. */
import type { LoggedTrace } from "./trace.js";

export interface FoundTrace {
  /** 0-based, in file order. */
  readonly index: number;
  /** 1-based line where the trace's JSON starts. */
  readonly line: number;
  /** Byte range of what was parsed to find it (its line, or a multi-line value): re-read it with `scanText`. */
  readonly offset: number;
  readonly length: number;
  /** Its position among the traces found in that range. */
  readonly ordinal: number;
  readonly trace: LoggedTrace;
}

export interface ScanProblem {
  /** 1-based. */
  readonly line: number;
  readonly message: string;
}
