/**
 * Final palette size and forced-choice failures per time bucket, in bounded memory: buckets are
 * aligned to multiples of their width (1 s, 2 s, 10 s, 30 s, 1 min … 1 day, 1 week), and when the
 * traces span more than MAX_BUCKETS of them the next width is taken and buckets merge. The result does not depend on the order traces arrive in.
 */

export const MAX_BUCKETS = 64;
/** Bucket widths in seconds, each a multiple of the one before (so buckets merge whole); past a week, doubled. */
const WIDTHS_S = [1, 2, 10, 30, 60, 300, 600, 1800, 3600, 7200, 21600, 43200, 86400, 604800];

export interface TimeBucket {
  /** Start of the bucket, milliseconds since the epoch (UTC). */
  readonly start: number;
  readonly width: number;
  readonly traces: number;
  /** Mean size of the final palette over the bucket's traces. */
  readonly meanPalette: number;
  readonly forcedFailures: number;
}

interface Bucket {
  traces: number;
  paletteSum: number;
  failures: number;
}

export class Timeline {
  private step = 0;
  private width = WIDTHS_S[0]! * 1000;
  private readonly buckets = new Map<number, Bucket>();
  private min = Infinity;
  private max = -Infinity;
  /** Traces whose time could not be read as a date. */
  unreadable = 0;
  /** The earliest and latest readable times, in milliseconds (Infinity and -Infinity before any). */
  private firstMs = Infinity;
  private lastMs = -Infinity;

  /** Both sides of a comparison on one timeline: the same buckets as one fold of all their traces. */
  static joined(a: Timeline, b: Timeline): Timeline {
    const out = new Timeline();
    for (const side of [a, b]) {
      while (out.width < side.width) out.widen();
      for (const [index, bucket] of side.buckets) out.put(index * side.width, bucket);
      out.unreadable += side.unreadable;
      out.firstMs = Math.min(out.firstMs, side.firstMs);
      out.lastMs = Math.max(out.lastMs, side.lastMs);
    }
    return out;
  }

  add(time: string | number, palette: number, failed: boolean): void {
    const ms = timeMs(time);
    if (ms === null) {
      this.unreadable++;
      return;
    }
    this.firstMs = Math.min(this.firstMs, ms);
    this.lastMs = Math.max(this.lastMs, ms);
    this.put(ms, { traces: 1, paletteSum: palette, failures: failed ? 1 : 0 });
  }

  /** The first and last readable times (milliseconds), or null when no trace had one. */
  period(): { readonly from: number; readonly to: number } | null {
    return this.firstMs > this.lastMs ? null : { from: this.firstMs, to: this.lastMs };
  }

  /** Adds counts at a time, widening the buckets first when they would span more than MAX_BUCKETS. */
  private put(ms: number, counts: Bucket): void {
    let index = Math.floor(ms / this.width);
    while (Math.max(this.max, index) - Math.min(this.min, index) >= MAX_BUCKETS) {
      this.widen();
      index = Math.floor(ms / this.width);
    }
    this.min = Math.min(this.min, index);
    this.max = Math.max(this.max, index);
    let bucket = this.buckets.get(index);
    if (!bucket) this.buckets.set(index, (bucket = { traces: 0, paletteSum: 0, failures: 0 }));
    bucket.traces += counts.traces;
    bucket.paletteSum += counts.paletteSum;
    bucket.failures += counts.failures;
  }

  /** Every bucket from the first to the last, empty ones included (a gap is information). */
  list(): TimeBucket[] {
    const out: TimeBucket[] = [];
    // Counted from zero, so that the loop ends even where index + 1 would round back to index.
    const count = Math.min(this.max - this.min + 1, MAX_BUCKETS);
    for (let i = 0; i < count; i++) {
      const index = this.min + i;
      const bucket = this.buckets.get(index);
      out.push({
        start: index * this.width,
        width: this.width,
        traces: bucket?.traces ?? 0,
        meanPalette: bucket ? bucket.paletteSum / bucket.traces : 0,
        forcedFailures: bucket?.failures ?? 0,
      });
    }
    return out;
  }

  private widen(): void {
    const old = [...this.buckets];
    this.buckets.clear();
    const from = this.width;
    this.step++;
    this.width = this.step < WIDTHS_S.length ? WIDTHS_S[this.step]! * 1000 : from * 2;
    const factor = this.width / from;
    for (const [index, bucket] of old) {
      const merged = Math.floor(index / factor);
      const into = this.buckets.get(merged);
      if (!into) this.buckets.set(merged, bucket);
      else {
        into.traces += bucket.traces;
        into.paletteSum += bucket.paletteSum;
        into.failures += bucket.failures;
      }
    }
    this.min = Math.floor(this.min / factor);
    this.max = Math.floor(this.max / factor);
  }
}

// "2025-03-14 09:26:50,011", "2025-03-14T09:26:50.011Z", "…+02:00": Python's logging and ISO 8601.
const DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?\s*(?:Z|([+-])(\d{2}):?(\d{2}))?$/i;

/** The first millisecond of the year 0 and the first after the year 9999: outside them a number is not a time. */
const FIRST_MS = -62_167_219_200_000;
const END_MS = 253_402_300_800_000;

/**
 * Milliseconds since the epoch, or null. A number is epoch seconds (or milliseconds when it is
 * too large to be seconds) up to the year 9999; a date without a zone is read as UTC, as log
 * times usually are.
 */
export function timeMs(time: string | number): number | null {
  if (typeof time === "number") {
    if (!Number.isFinite(time) || time < 0) return null;
    const ms = time > 1e11 ? time : time * 1000;
    return ms < END_MS ? ms : null;
  }
  const m = DATE_TIME.exec(time.trim());
  if (!m) return null;
  const [, y, mo, d, h, mi, s, frac, sign, zoneH, zoneM] = m;
  if (+mo! < 1 || +mo! > 12 || +d! < 1 || +d! > 31 || +h! > 23 || +mi! > 59 || (s && +s > 60))
    return null;
  const date = new Date(0);
  // setUTCFullYear, not Date.UTC, which reads the years 0–99 as 1900–1999.
  date.setUTCFullYear(+y!, +mo! - 1, +d!);
  date.setUTCHours(+h!, +mi!, s ? +s : 0, frac ? +frac.slice(0, 3).padEnd(3, "0") : 0);
  // Z, or no zone, is UTC; a time at +hh:mm is that much ahead of it.
  const zone = sign ? (sign === "-" ? -1 : 1) * (+zoneH! * 60 + +zoneM!) * 60_000 : 0;
  const ms = date.getTime() - zone;
  return ms >= FIRST_MS && ms < END_MS ? ms : null;
}
