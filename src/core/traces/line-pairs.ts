/**
 * The time and id a line's prefix or pairs give the traces on it: a timestamp at its start, and
 * `turn_id=`, `timestamp=` … pairs before a value (or after a `trace=` value).
 */
import type { TraceContext } from "./trace.js";

/** A timestamp at the start of a text line: `2024-05-01 12:00:00,123`, `[2024-05-01T12:00:00Z]`, … */
const PREFIX_TIME =
  /^\s*\[?(\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(?:[.,]\d+)?(?:Z|[+-]\d{2}:?\d{2})?)/;
/** An id or a time as a key=value pair. */
const PAIR = /(turn_id|request_id|trace_id|timestamp|time|ts)=("[^"]*"|'[^']*'|\S+)/;
/** An id or a time as a key=value pair of the prefix (structlog, logfmt; after `INFO:root:` too). */
const PREFIX_PAIR = new RegExp(`(?:^|[\\s:])${PAIR.source}`, "g");
const PAIR_IS_ID = new Set(["turn_id", "request_id", "trace_id"]);
/** A pair right at a given place, whatever is before it. */
const PAIR_AT = new RegExp(PAIR.source, "y");

/** Time and id from the text before a value, else from the enclosing context. */
export function prefixContext(
  line: string,
  start: number,
  outer: TraceContext | null,
): TraceContext {
  return new LinePairs(line.slice(0, start)).before(start, outer);
}

interface PrefixPair {
  readonly start: number;
  readonly end: number;
  readonly value: string;
}

/**
 * The time and id pairs of one line, for every value on it: searched once, and forward for the
 * pairs after a `trace=` value, never again in the text before each value (a line of many values
 * would cost their number times its length). A pair that runs into the value is not one of it.
 */
export class LinePairs {
  private readonly head: PrefixPair | null;
  private readonly first: { id: PrefixPair | null; time: PrefixPair | null } = {
    id: null,
    time: null,
  };
  private after: { readonly id: PairCursor; readonly time: PairCursor } | null = null;

  constructor(private readonly line: string) {
    const head = PREFIX_TIME.exec(line);
    this.head = head && { start: 0, end: head[0].length, value: head[1]! };
    if (!line.includes("=")) return;
    PREFIX_PAIR.lastIndex = 0;
    for (let match = PREFIX_PAIR.exec(line); match !== null; match = PREFIX_PAIR.exec(line)) {
      const pair = pairOf(match, match.index);
      if (PAIR_IS_ID.has(match[1]!)) this.first.id ??= pair;
      else this.first.time ??= pair;
      if (this.first.id !== null && this.first.time !== null) break;
    }
  }

  /** As `prefixContext` gives it from the text before `start`. */
  before(start: number, outer: TraceContext | null): TraceContext {
    const time = within(this.head, start) ?? within(this.first.time, start);
    return contextOf(time, within(this.first.id, start), outer);
  }

  /** From the pairs around line[start, end], a `trace=` value: those before it, then those after it. */
  around(start: number, end: number, outer: TraceContext | null): TraceContext {
    const time = within(this.head, start) ?? within(this.first.time, start);
    const id = within(this.first.id, start);
    this.after ??= { id: new PairCursor(this.line, true), time: new PairCursor(this.line, false) };
    return contextOf(
      time ?? this.after.time.from(end + 1)?.value ?? null,
      id ?? this.after.id.from(end + 1)?.value ?? null,
      outer,
    );
  }
}

/** The line's id pairs (or time pairs) in order, searched forward; asked about an earlier place, it starts again. */
class PairCursor {
  /** Where the search goes on in the line (PREFIX_PAIR is shared: its lastIndex is set before each use). */
  private lastIndex = 0;
  private next: PrefixPair | null | undefined;
  private asked = 0;

  constructor(
    private readonly line: string,
    private readonly ids: boolean,
  ) {}

  /** The first pair at or after `from`, one starting right at it included (as after a value: `[…]turn_id=a`). */
  from(from: number): PrefixPair | null {
    if (from > 0) {
      PAIR_AT.lastIndex = from;
      const at = PAIR_AT.exec(this.line);
      if (at !== null && PAIR_IS_ID.has(at[1]!) === this.ids) return pairOf(at, from);
    }
    if (from < this.asked) {
      this.lastIndex = 0;
      this.next = undefined;
    }
    this.asked = from;
    while (this.next === undefined || (this.next !== null && this.next.start < from)) {
      this.next = null;
      PREFIX_PAIR.lastIndex = this.lastIndex;
      for (let m = PREFIX_PAIR.exec(this.line); m !== null; m = PREFIX_PAIR.exec(this.line)) {
        if (PAIR_IS_ID.has(m[1]!) !== this.ids) continue;
        this.next = pairOf(m, m.index);
        break;
      }
      this.lastIndex = PREFIX_PAIR.lastIndex;
    }
    return this.next;
  }
}

/** The pair's value when it ends by `start`. */
function within(pair: PrefixPair | null, start: number): string | null {
  return pair !== null && pair.end <= start ? pair.value : null;
}

function pairOf(match: RegExpExecArray, start: number): PrefixPair {
  const raw = match[2]!;
  const value = /^["']/.test(raw) ? raw.slice(1, -1) : raw;
  return { start, end: start + match[0].length, value };
}

function contextOf(
  time: string | null,
  id: string | null,
  outer: TraceContext | null,
): TraceContext {
  return {
    time: time === null ? (outer?.time ?? null) : detached(time),
    id: id === null ? (outer?.id ?? null) : detached(id),
  };
}

/**
 * A copy of a piece of a line that holds none of the line: a slice would keep the whole decoded
 * text alive as long as the summary lives. Joining makes a new string and slicing that copies it
 * flat, several times faster than joining its characters.
 */
function detached(piece: string): string {
  return ` ${piece}`.slice(1);
}
