/**
 * Finding every trace in one text line, in order, after whatever prefix a logger wrote: JSON,
 * Python reprs and logfmt-quoted values. One pass over the line pairs its brackets (quotes are
 * strings only inside brackets and never inside a word, so a prefix's apostrophe does not matter);
 * each bracketed value that holds a marker is read on its own. A value cut off or unreadable is a
 * problem; only brackets a prefix wrote around text give way to the values inside them.
 */
import { tracesInValue, type Found } from "./find.js";
import { quotedEnd, unescapeLogfmt } from "./logfmt.js";
import { firstMarker, markersIn, type Marker } from "./markers.js";
import { PairCutError, pairKey, traceFromPairs } from "./pairs.js";
import { PyReprError } from "./python/parse.js";
import { opensString, readString } from "./python/strings.js";
import type { TraceContext } from "./trace.js";
import { parseValue } from "./value.js";

export interface LineScan {
  /** Traces and problems, in line order. */
  readonly found: Found[];
  /** Where the outermost bracket still open at the end of the line starts (with its call name), or -1. */
  readonly openAt: number;
  /** The problem of a trace that the open bracket cuts off, if it is not continued below. */
  readonly unclosed: string | null;
}

/** A bracketed value (or a logfmt quoted value) that holds a marker. */
interface Segment {
  readonly start: number;
  /** Index of its closing bracket or quote. */
  readonly end: number;
  readonly children: Segment[];
  /** A key="value" (logfmt, unescaped first) or key='value' (a Python string) holding the value. */
  readonly quoted: "" | "logfmt" | "python";
}

interface Frame {
  readonly open: number;
  readonly start: number;
  readonly closer: number;
  readonly children: Segment[];
}

/** Passes over a line whose quotes do not pair up, each starting past the bracket where the last went wrong. */
const MAX_PASSES = 16;
/** Values parsed per line at most: an unreadable value is retried through the values inside it, within this budget. */
const MAX_ATTEMPTS = 64;
/** How far down the open brackets a closing one looks for its partner; past that it is stray text. */
const MAX_MISMATCH = 64;

const NONE: LineScan = { found: [], openAt: -1, unclosed: null };

export function scanLine(
  line: string,
  outer: TraceContext | null = null,
  quotedValues = true,
): LineScan {
  const first = firstMarker(line);
  const end = trimmedEnd(line);
  const fast = first !== null ? wholeJson(line, first, end, outer) : null;
  if (fast) return { found: fast, openAt: -1, unclosed: null };
  if (first === null && !mayOpen(line, end) && !line.includes("SelectionResult(")) return NONE;
  // Read value by value: every marker of the line is needed now.
  const markers = markersIn(line);

  const reader = new SegmentReader(line, markers, outer, quotedValues);
  const found: Found[] = [];
  let unclosed: string | null = null;
  let openAt = -1;
  let from = 0;
  for (let pass = 0; ; pass++) {
    const walk = walkBrackets(line, from, end, reader);
    // Brackets a prefix wrote (`(retry 2/3 …`) are text: what closed inside them is read. The
    // first one left open that starts a value is a value cut off: nothing inside it stands in for it.
    const cut = firstValue(line, walk.open);
    const prefix = cut === -1 ? walk.open : walk.open.slice(0, cut);
    // After a quote that does not close in a prefix, what its brackets hold is read by the next pass.
    const segments =
      walk.inString && cut === -1
        ? walk.top
        : [...walk.top, ...prefix.flatMap((frame) => frame.children)];
    for (const segment of segments) found.push(...reader.read(segment));
    const quote = walk.cutQuote;
    if (quote !== -1 && (pairKey(line, quote) === "trace" || reader.uncoveredFrom(quote))) {
      unclosed = `truncated value: the quoted value opened at column ${quote + 1} is not closed`;
      break;
    }
    const value = walk.open[cut];
    const bottom = walk.open[0];
    if (value) {
      openAt = walk.inString ? -1 : value.start;
      // A SelectionResult cut before its trace (or inside a string) holds no marker yet, and is cut all the same.
      const cutResult = walk.open.slice(cut).some((f) => isResultCall(line, f));
      if (reader.uncoveredFrom(value.start) || cutResult) unclosed = cutOff(line, value, reader);
      break;
    }
    // Only a prefix's brackets are open: after a quote in one that does not close, read on past it.
    if (!walk.inString || !bottom) break;
    if (pass === MAX_PASSES - 1) {
      if (reader.uncoveredFrom(bottom.start)) unclosed = cutOff(line, bottom, reader);
      break;
    }
    from = bottom.open + 1;
  }
  return { found, openAt, unclosed };
}

function cutOff(line: string, frame: Frame, reader: SegmentReader): string {
  const what = describeOpen(line, frame);
  return `truncated ${reader.grammar(frame.start)}: the ${what} opened at column ${frame.start + 1} is not closed`;
}

/**
 * The first of the open brackets that starts a value, or -1. A bracket whose first item is the
 * next open one starts a value only if that one does (`{{{ worker {"trace": …}` is text).
 */
function firstValue(line: string, open: readonly Frame[]): number {
  let first = -1;
  let above = false;
  for (let k = open.length - 1; k >= 0; k--) {
    const frame = open[k]!;
    const next = open[k + 1];
    const nested =
      next !== undefined && skipBlanks(line, frame.open + 1, line.length) === next.start;
    above = nested ? above : startsValue(line, frame.start, frame.open);
    if (above) first = k;
  }
  return first;
}

/**
 * Whether the bracket at `open` (its call's name from `start`) starts a value rather than text
 * that a prefix put in brackets: a call, or a first item that is a literal, a bracket, `<…>`, or
 * nothing before the line ends.
 */
function startsValue(line: string, start: number, open: number): boolean {
  if (start < open) return true;
  let i = skipBlanks(line, open + 1, line.length);
  const c = line.charCodeAt(i);
  if (i >= line.length || OPENS_ITEM.has(c) || ((c === 0x22 || c === 0x27) && opensString(line, i)))
    return true;
  if (c === 0x2d || (c >= 0x30 && c <= 0x39)) {
    // A number, its exponent's sign included.
    for (i++; i < line.length && /[-+\w.]/.test(line[i]!); i++);
    return endsItem(line, i);
  }
  const word = i;
  while (i < line.length && isNameOrDot(line.charCodeAt(i))) i++;
  const name = line.slice(word, i);
  const next = line.charCodeAt(i);
  if (i === word) return false;
  if (next === 0x28 || ((next === 0x22 || next === 0x27) && /^[bBrRuUfF]{1,2}$/.test(name)))
    return true;
  return LITERAL_NAMES.has(name) && endsItem(line, i);
}

/** After blanks from `i`: a separator, a closing bracket or the line's end. */
function endsItem(line: string, i: number): boolean {
  const after = line.charCodeAt(skipBlanks(line, i, line.length));
  return Number.isNaN(after) || ENDS_ITEM.has(after);
}

/** What may open a value: a bracket, `<`, or a closing bracket right away (an empty value). */
const OPENS_ITEM = new Set([..."[({<)]}"].map((c) => c.charCodeAt(0)));
/** What may follow a first item: a separator or the closing bracket. */
const ENDS_ITEM = new Set([...",:)]}"].map((c) => c.charCodeAt(0)));
const LITERAL_NAMES = new Set([
  "None",
  "True",
  "False",
  "null",
  "true",
  "false",
  "inf",
  "nan",
  "Ellipsis",
]);

/** The open frame is a call to SelectionResult (any module path). */
function isResultCall(line: string, frame: Frame): boolean {
  const name = line.slice(frame.start, frame.open);
  return name === "SelectionResult" || name.endsWith(".SelectionResult");
}

/** The common JSON line: from its first `{` (or a leading `[`) to its end, one value. */
function wholeJson(
  line: string,
  first: Marker,
  end: number,
  outer: TraceContext | null,
): Found[] | null {
  if (first.kind !== "json") return null;
  const lead = skipBlanks(line, 0, end);
  const start = line.charCodeAt(lead) === 0x5b ? lead : line.indexOf("{");
  if (start === -1 || start > first.at) return null;
  try {
    return tracesInValue(JSON.parse(line.slice(start, end)), prefixContext(line, start, outer));
  } catch {
    return null;
  }
}

/** A line that may open a value continued on the next lines: it ends with a bracket, a comma or a split string. */
export function mayOpen(line: string, end: number): boolean {
  const c = line.charCodeAt(end - 1);
  return c === 0x7b || c === 0x5b || c === 0x28 || c === 0x2c || endsSplitString(line, end);
}

/**
 * The line ends with the first piece of a string pprint split over lines: pprint cuts a long
 * string after whitespace, so the piece's repr ends with a space or the escape of a character
 * Python counts as whitespace (`\n`, `\x0b`, `\xa0`, `\u3000`, …) before its quote; the next
 * pieces follow as adjacent literals on indented lines.
 */
export function endsSplitString(line: string, end: number): boolean {
  const quote = line.charCodeAt(end - 1);
  if (quote !== 0x27 && quote !== 0x22) return false;
  if (line.charCodeAt(end - 2) === 0x20) return true;
  const escape = WHITESPACE_ESCAPE.exec(line.slice(Math.max(0, end - 8), end - 1));
  if (escape === null) return false;
  // The escape's backslash must not itself be escaped (`'a\\n'` ends with a backslash and an n).
  let slashes = 0;
  for (let i = end - 1 - escape[0].length; line.charCodeAt(i) === 0x5c; i--) slashes++;
  return slashes % 2 === 1;
}

/** The escapes repr writes for the characters Python's str.split() cuts at, but the space. */
const WHITESPACE_ESCAPE =
  /\\(?:[ntr]|x(?:0b|0c|1[c-f]|85|a0)|u(?:1680|200[0-9a]|202[89f]|205f|3000))$/;

class SegmentReader {
  private readonly covered: [number, number][] = [];
  private attempts = 0;

  constructor(
    private readonly line: string,
    private readonly markers: readonly Marker[],
    private readonly outer: TraceContext | null,
    readonly quotedValues: boolean,
  ) {}

  /** True when a marker lies in [start, end]. */
  holds(start: number, end: number): boolean {
    let lo = 0;
    let hi = this.markers.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.markers[mid]!.at < start) lo = mid + 1;
      else hi = mid;
    }
    return lo < this.markers.length && this.markers[lo]!.at <= end;
  }

  /** True when a marker at or after `from` lies in no value read so far. */
  uncoveredFrom(from: number): boolean {
    const ranges = [...this.covered].sort((a, b) => a[0] - b[0]);
    let r = 0;
    let reach = -1;
    for (const { at } of this.markers) {
      while (r < ranges.length && ranges[r]![0] <= at) reach = Math.max(reach, ranges[r++]![1]);
      if (at >= from && at > reach) return true;
    }
    return false;
  }

  /** "JSON" when the first marker from `from` is a JSON key, else "Python repr". */
  grammar(from: number): string {
    const marker = this.markers.find((m) => m.at >= from);
    return marker?.kind === "json" ? "JSON" : "Python repr";
  }

  /** True when every marker in [start, end] is a JSON key: the value is not read as Python. */
  jsonOnly(start: number, end: number): boolean {
    return this.markers.every((m) => m.at < start || m.at > end || m.kind === "json");
  }

  /** A `trace=` pair read with the line's other pairs of the trace; null when it is not readable so. */
  private readPairs(segment: Segment): Found[] | null {
    const { line } = this;
    let text = line;
    let start = segment.start;
    let end = segment.end + 1;
    if (segment.quoted !== "") {
      const inner = line.slice(segment.start, segment.end + 1);
      const read = segment.quoted === "logfmt" ? null : readString(inner, 0, inner.length, false);
      if (typeof read === "string") return null;
      text = read === null ? unescapeLogfmt(inner.slice(1, -1)) : read.value;
      start = 0;
      end = text.length;
    }
    let value: unknown;
    try {
      value = traceFromPairs(line, text, start, end);
    } catch (error) {
      if (!(error instanceof PyReprError)) throw error;
      if (!(error instanceof PairCutError)) return null;
      // A sibling field the line cuts off: the trace is cut too.
      this.covered.push([segment.start, segment.end]);
      return [{ problem: `truncated value: ${error.message}` }];
    }
    this.covered.push([segment.start, segment.end]);
    // The id and time may be pairs after the value too (KeyValueRenderer sorts its keys).
    const pairs = `${line.slice(0, segment.start)} ${line.slice(segment.end + 1)}`;
    return tracesInValue(value, prefixContext(pairs, pairs.length, this.outer));
  }

  read(segment: Segment): Found[] {
    const { line } = this;
    if (pairKey(line, segment.start) === "trace") {
      const found = this.readPairs(segment);
      if (found !== null) return found;
    }
    if (segment.quoted !== "") {
      this.covered.push([segment.start, segment.end]);
      let text: string;
      if (segment.quoted === "logfmt")
        text = unescapeLogfmt(line.slice(segment.start + 1, segment.end));
      else {
        const read = readString(line, segment.start, segment.end + 1, false);
        if (typeof read === "string") return [{ problem: `invalid Python repr: ${read}` }];
        text = read.value;
      }
      const inner = scanLine(text, prefixContext(line, segment.start, this.outer), false);
      return inner.unclosed === null ? inner.found : [...inner.found, { problem: inner.unclosed }];
    }
    if (++this.attempts > MAX_ATTEMPTS) {
      this.covered.push([segment.start, segment.end]);
      // Said once per line, at the first value left unread.
      if (this.attempts > MAX_ATTEMPTS + 1) return [];
      return [
        {
          problem: `more than ${MAX_ATTEMPTS} values on this line hold a trace marker; the rest were not read`,
        },
      ];
    }
    const parsed = parseValue(
      line,
      segment.start,
      segment.end + 1,
      this.jsonOnly(segment.start, segment.end),
    );
    if ("value" in parsed) {
      const found = tracesInValue(parsed.value, prefixContext(line, segment.start, this.outer));
      // A call other than a dataclass keeps only its named arguments (`wrap({'trace': …})`): the
      // values among its positional ones that hold a marker are read on their own.
      if (found.length === 0 && isNameOrDot(line.charCodeAt(segment.start))) {
        const inner = segment.children.flatMap((child) => this.read(child));
        if (inner.length > 0) return inner;
      }
      this.covered.push([segment.start, segment.end]);
      return found;
    }
    // A value that fails is the problem of its line; only text a prefix bracketed gives way to the values inside it.
    const call = isNameOrDot(line.charCodeAt(segment.start));
    if (!call && !startsValue(line, segment.start, segment.start)) {
      const inner = segment.children.flatMap((child) => this.read(child));
      if (inner.some((item) => "trace" in item)) return inner;
    }
    this.covered.push([segment.start, segment.end]);
    return [{ problem: parsed.problem }];
  }
}

/**
 * Pairs brackets from `from`, stack-based and iterative (any depth). Returns the top-level
 * values holding a marker, in order, and the brackets still open at the end with the values
 * holding a marker that closed inside them.
 */
function walkBrackets(
  line: string,
  from: number,
  end: number,
  reader: SegmentReader,
): { top: Segment[]; open: Frame[]; inString: boolean; cutQuote: number } {
  const stack: Frame[] = [];
  const top: Segment[] = [];
  const add = (segment: Segment) => (stack.at(-1)?.children ?? top).push(segment);
  let inString = false;
  // A key="… or key='… value that does not close before the line ends.
  let cutQuote = -1;
  for (let i = from; i < end; i++) {
    const c = line.charCodeAt(i);
    if (c === 0x7b || c === 0x5b || c === 0x28) {
      stack.push({ open: i, start: valueStart(line, i), closer: CLOSER[c]!, children: [] });
    } else if (stack.length === 0) {
      if ((c === 0x22 || c === 0x27) && line.charCodeAt(i - 1) === 0x3d && reader.quotedValues) {
        const close = c === 0x22 ? quotedEnd(line, i, end) : stringEnd(line, i, end);
        if (close === -1) {
          if (cutQuote === -1) cutQuote = i;
          continue;
        }
        if (reader.holds(i, close) || pairKey(line, i) === "trace")
          add({ start: i, end: close, children: [], quoted: c === 0x22 ? "logfmt" : "python" });
        i = close;
      }
    } else if ((c === 0x22 || c === 0x27) && opensString(line, i)) {
      const close = stringEnd(line, i, end);
      if (close === -1) {
        inString = true;
        break;
      }
      i = close;
    } else if (c === 0x7d || c === 0x5d || c === 0x29) {
      let k = stack.length - 1;
      const lowest = Math.max(0, stack.length - MAX_MISMATCH);
      while (k >= lowest && stack[k]!.closer !== c) k--;
      if (k < lowest) continue;
      const frame = stack[k]!;
      // Brackets left open inside it: what they hold belongs to it.
      for (const inner of stack.splice(k + 1)) frame.children.push(...inner.children);
      stack.pop();
      if (
        reader.holds(frame.start, i) ||
        (stack.length === 0 && pairKey(line, frame.start) === "trace")
      )
        add({ start: frame.start, end: i, children: frame.children, quoted: "" });
    }
  }
  return { top, open: stack, inString, cutQuote };
}

const CLOSER: Record<number, number> = { 0x7b: 0x7d, 0x5b: 0x5d, 0x28: 0x29 };

/** A `(` starts the call whose name is written before it. */
function valueStart(line: string, open: number): number {
  if (line.charCodeAt(open) !== 0x28) return open;
  let i = open;
  while (i > 0 && isNameOrDot(line.charCodeAt(i - 1))) i--;
  return i;
}

/** The index of the quote closing the one at `open` (backslash escapes skipped), -1 if none. */
function stringEnd(line: string, open: number, end: number): number {
  const quote = line.charCodeAt(open);
  for (let i = open + 1; i < end; i++) {
    const c = line.charCodeAt(i);
    if (c === 0x5c) i++;
    else if (c === quote) return i;
  }
  return -1;
}

function describeOpen(line: string, frame: Frame): string {
  const c = line.charCodeAt(frame.open);
  if (c === 0x7b) return "object";
  if (c === 0x5b) return "list";
  return frame.start < frame.open ? `call ${line.slice(frame.start, frame.open)}(…)` : "tuple";
}

/** A timestamp at the start of a text line: `2024-05-01 12:00:00,123`, `[2024-05-01T12:00:00Z]`, … */
const PREFIX_TIME =
  /^\s*\[?(\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(?:[.,]\d+)?(?:Z|[+-]\d{2}:?\d{2})?)/;
/** An id or a time as a key=value pair of the prefix (structlog, logfmt; after `INFO:root:` too). */
const PREFIX_PAIR =
  /(?:^|[\s:])(turn_id|request_id|trace_id|timestamp|time|ts)=("[^"]*"|'[^']*'|\S+)/g;
const PAIR_IS_ID = new Set(["turn_id", "request_id", "trace_id"]);

/** Time and id from the text before a value, else from the enclosing context. */
export function prefixContext(
  line: string,
  start: number,
  outer: TraceContext | null,
): TraceContext {
  const prefix = line.slice(0, start);
  let time: string | null = PREFIX_TIME.exec(prefix)?.[1] ?? null;
  let id: string | null = null;
  if (prefix.includes("=")) {
    for (const [, key, raw] of prefix.matchAll(PREFIX_PAIR)) {
      const value = /^["']/.test(raw!) ? raw!.slice(1, -1) : raw!;
      if (PAIR_IS_ID.has(key!)) id ??= value;
      else time ??= value;
    }
  }
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

function trimmedEnd(line: string): number {
  let end = line.length;
  while (end > 0 && isBlank(line.charCodeAt(end - 1))) end--;
  return end;
}

function skipBlanks(text: string, i: number, to: number): number {
  while (i < to && isBlank(text.charCodeAt(i))) i++;
  return i;
}

function isBlank(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0d || c === 0x0a;
}

function isNameOrDot(c: number): boolean {
  return (
    (c >= 0x61 && c <= 0x7a) ||
    (c >= 0x41 && c <= 0x5a) ||
    (c >= 0x30 && c <= 0x39) ||
    c === 0x5f ||
    c === 0x2e
  );
}
