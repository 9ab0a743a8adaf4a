/**
 * The time and id a line's prefix or pairs give the traces on it: a timestamp at its start, and
 * `turn_id=`, `timestamp=` … pairs before a value (or after a `trace=` value).
 */
import type { TraceContext } from "./trace.js";

/** A timestamp at the start of a text line: `2024-05-01 12:00:00,123`, `[2024-05-01T12:00:00Z]`, … */
const PREFIX_TIME =
  /^\s*\[?(\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(?:[.,]\d+)?(?:Z|[+-]\d{2}:?\d{2})?)/;
/** The keys of an id's pair; the others (PAIR_KEYS) are a time's. */
const PAIR_IS_ID = new Set(["turn_id", "request_id", "trace_id"]);

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

/** A pair found: where it starts (its blank or `:` included) and ends, its key, and its value as written. */
export interface PairMatch {
  readonly start: number;
  readonly end: number;
  readonly key: string;
  readonly raw: string;
}

/**
 * The first id or time pair of a prefix (structlog, logfmt; after `INFO:root:` too) that starts at
 * or after `from`, as `/(?:^|[\s:])(turn_id|request_id|trace_id|timestamp|time|ts)=("[^"]*"|'[^']*'|\S+)/g`
 * finds it from lastIndex `from`, but by testing the characters around each `=`: the line's text
 * is looked at once, not tried at every place.
 */
export function nextPair(line: string, from: number): PairMatch | null {
  for (let eq = line.indexOf("=", from); eq !== -1; eq = line.indexOf("=", eq + 1)) {
    const key = keyBefore(line, eq);
    if (key === null) continue;
    const at = eq - key.length;
    const start = at === 0 ? 0 : at - 1;
    if (start < from || (at > 0 && !isSpaceOrColon(line.charCodeAt(at - 1)))) continue;
    const end = valueEnd(line, eq + 1);
    if (end !== -1) return { start, end, key, raw: line.slice(eq + 1, end) };
  }
  return null;
}

/** The id or time pair whose key starts right at `at`, whatever is before it, or null. */
export function pairAt(line: string, at: number): PairMatch | null {
  for (const key of PAIR_KEYS) {
    const eq = at + key.length;
    if (!line.startsWith(key, at) || line.charCodeAt(eq) !== 0x3d) continue;
    const end = valueEnd(line, eq + 1);
    return end === -1 ? null : { start: at, end, key, raw: line.slice(eq + 1, end) };
  }
  return null;
}

const PAIR_KEYS = ["turn_id", "request_id", "trace_id", "timestamp", "time", "ts"] as const;

/** The pair key that ends right before the `=` at `eq`, or null (its last letter tells which it may be). */
function keyBefore(line: string, eq: number): string | null {
  let key: string;
  switch (line.charCodeAt(eq - 1)) {
    case 0x64 /* d */:
      key =
        line.charCodeAt(eq - 4) === 0x6e /* n */
          ? "turn_id"
          : line.charCodeAt(eq - 4) === 0x74 /* t */
            ? "request_id"
            : "trace_id";
      break;
    case 0x70 /* p */:
      key = "timestamp";
      break;
    case 0x65 /* e */:
      key = "time";
      break;
    case 0x73 /* s */:
      key = "ts";
      break;
    default:
      return null;
  }
  return eq >= key.length && line.startsWith(key, eq - key.length) ? key : null;
}

/** Where a pair's value from `at` ends: a quoted one at its closing quote, else at a blank; -1 when empty. */
function valueEnd(line: string, at: number): number {
  const c = line.charCodeAt(at);
  if (c === 0x22 || c === 0x27) {
    const close = line.indexOf(c === 0x22 ? '"' : "'", at + 1);
    if (close !== -1) return close + 1;
  }
  let i = at;
  while (i < line.length && !isSpace(line.charCodeAt(i))) i++;
  return i === at ? -1 : i;
}

function isSpaceOrColon(c: number): boolean {
  return c === 0x3a || isSpace(c);
}

/** What a regular expression's `\s` matches: ECMAScript's white space and line terminators. */
export function isSpace(c: number): boolean {
  if (c <= 0x20) return c === 0x20 || (c >= 0x09 && c <= 0x0d);
  if (c < 0xa0) return false;
  return (
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff
  );
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
    for (let match = nextPair(line, 0); match !== null; match = nextPair(line, match.end)) {
      const pair = pairOf(match);
      if (PAIR_IS_ID.has(match.key)) this.first.id ??= pair;
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
  /** Where the search goes on in the line. */
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
      const at = pairAt(this.line, from);
      if (at !== null && PAIR_IS_ID.has(at.key) === this.ids) return pairOf(at);
    }
    if (from < this.asked) {
      this.lastIndex = 0;
      this.next = undefined;
    }
    this.asked = from;
    while (this.next === undefined || (this.next !== null && this.next.start < from)) {
      this.next = null;
      let m = nextPair(this.line, this.lastIndex);
      for (; m !== null; m = nextPair(this.line, m.end)) {
        if (PAIR_IS_ID.has(m.key) !== this.ids) continue;
        this.next = pairOf(m);
        break;
      }
      this.lastIndex = m === null ? 0 : m.end;
    }
    return this.next;
  }
}

/** The pair's value when it ends by `start`. */
function within(pair: PrefixPair | null, start: number): string | null {
  return pair !== null && pair.end <= start ? pair.value : null;
}

function pairOf({ start, end, raw }: PairMatch): PrefixPair {
  const quote = raw.charCodeAt(0);
  const value = quote === 0x22 || quote === 0x27 ? raw.slice(1, -1) : raw;
  return { start, end, value };
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
