/**
 * One set of logs cut at a time (`stats --split-at`, docs/formats.md): a trace before it is OLD,
 * the rest NEW, one without a readable time in neither. The set's first and last times are kept,
 * so that a cut outside them can name them.
 */
import type { LoggedTrace } from "../traces/trace.js";
import type { Split } from "./comparison-json.js";
import { PaletteStats, type StatsOptions } from "./fold.js";
import { timeMs } from "./timeline.js";

/** A trace's time as logged, and as milliseconds since the epoch. */
interface Stamp {
  readonly ms: number;
  readonly time: string | number;
}

/** TIME as milliseconds: a date alone is its first moment; no zone is UTC. Null when it is no time. */
export function splitTimeMs(at: string): number | null {
  return timeMs(/^\d{4}-\d{2}-\d{2}$/.test(at) ? `${at}T00:00Z` : at);
}

export const SPLIT_TIME_HELP =
  "a date and time such as 2025-03-14, 2025-03-14 09:30 or 2025-03-14T09:30:00+01:00 (no zone is UTC)";

/** `Ref` and `options` as PaletteStats takes them: the view keeps traces to list, the CLI none. */
export class SplitStats<Ref = never> {
  readonly old: PaletteStats<Ref>;
  readonly new: PaletteStats<Ref>;
  untimed = 0;
  private first: Stamp | null = null;
  private last: Stamp | null = null;

  constructor(
    readonly at: string,
    private readonly atMs: number,
    options: StatsOptions = {},
  ) {
    this.old = new PaletteStats<Ref>(options);
    this.new = new PaletteStats<Ref>(options);
  }

  /** Folds the trace into its side; returns the limits it reached, as PaletteStats.add does. */
  add(trace: LoggedTrace, ref?: Ref): readonly string[] {
    const ms = trace.time === null ? null : timeMs(trace.time);
    if (trace.time === null || ms === null) {
      this.untimed++;
      return [];
    }
    if (!this.first || ms < this.first.ms) this.first = { ms, time: trace.time };
    if (!this.last || ms > this.last.ms) this.last = { ms, time: trace.time };
    return (ms < this.atMs ? this.old : this.new).add(trace, ref);
  }

  /** The split once every trace is in, or why the time cannot split the set. */
  result(problems: number): Split | { readonly error: string } {
    const { first, last } = this;
    if (!first || !last)
      return { error: "--split-at needs traces with a time, and no trace of the set has one" };
    if (this.atMs <= first.ms || this.atMs > last.ms)
      return {
        error: `--split-at ${this.at} is outside the set's times: its first trace is at ${String(first.time)}, its last at ${String(last.time)}`,
      };
    return { at: this.at, first: first.time, last: last.time, untimed: this.untimed, problems };
  }
}
