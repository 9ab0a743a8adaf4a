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
import {
  bareNameEnd,
  isLogfmt,
  isNameOrDot,
  isSibling,
  PairCutError,
  pairKey,
  siblingPairs,
  traceFromPairs,
} from "./pairs.js";
import { lastAngleEnd, opensAngle } from "./python/angle.js";
import { pythonReadings, PyReprError, type PyValue } from "./python/parse.js";
import { chooseReading, holdsTrace } from "./python/readings.js";
import { opensString, readString } from "./python/strings.js";
import type { TraceContext } from "./trace.js";
import { LinePairs, prefixContext } from "./line-pairs.js";
import { parseValue } from "./value.js";
import { pushAll } from "../arrays.js";
import { BRACKETS, type BracketStack, type Frame, type Segment } from "./brackets.js";

export interface LineScan {
  /** Traces and problems, in line order. */
  readonly found: Found[];
  /** Where the outermost bracket still open at the end of the line starts (with its call name), or -1. */
  readonly openAt: number;
  /** The problem of a trace that the open bracket cuts off, if it is not continued below. */
  readonly unclosed: string | null;
}

/** Passes over a line whose quotes do not pair up, each starting past the bracket where the last went wrong. */
const MAX_PASSES = 16;
/** Values parsed per line at most: an unreadable value is retried through the values inside it, within this budget. */
const MAX_ATTEMPTS = 64;
/** Characters parsed per line at most, as a multiple of its length (besides a floor for short lines). */
const WORK_PER_CHAR = 3;
const MIN_WORK = 64 * 1024;

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
    for (const segment of segments) pushAll(found, reader.read(segment));
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
  if (reader.refusal !== null) found.push({ problem: reader.refusal });
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
    const nested = next !== undefined && onlyOpeners(line, frame.open + 1, next.start);
    above = nested ? above : startsValue(line, frame.start, frame.open);
    if (above) first = k;
  }
  return first;
}

/**
 * Whether line[from, to) holds only what opens the next frame: blanks, and the brackets and call
 * names of frames forgotten in between (a line of more brackets than brackets.ts remembers).
 */
function onlyOpeners(line: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) {
    const c = line.charCodeAt(i);
    if (!isBlank(c) && !isNameOrDot(c) && c !== 0x28 && c !== 0x5b && c !== 0x7b) return false;
  }
  return true;
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
  // The escape's backslash stands among the 6 characters before its last (the usual line has none there).
  const from = Math.max(0, end - 8);
  let slash = end - 3;
  while (slash >= from && line.charCodeAt(slash) !== 0x5c) slash--;
  if (slash < from) return false;
  const escape = WHITESPACE_ESCAPE.exec(line.slice(from, end - 1));
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
  /** Characters parsed so far, against `budget`. */
  private work = 0;
  private readonly budget: number;
  /** Why values were left unread, once the budget is spent: the line's last problem. */
  refusal: string | null = null;
  private pairs: LinePairs | null = null;
  private siblings: [PyValue, PyValue][] | null = null;
  /** Where a value holding a `<…>` repr starts that could not be read on this line. */
  private unreadAngle = -1;

  constructor(
    private readonly line: string,
    private readonly markers: readonly Marker[],
    private readonly outer: TraceContext | null,
    readonly quotedValues: boolean,
  ) {
    this.budget = Math.max(MIN_WORK, WORK_PER_CHAR * line.length);
  }

  /** The time and id of the value at `start`, from the line's pairs before it. */
  private context(start: number): TraceContext {
    this.pairs ??= new LinePairs(this.line);
    return this.pairs.before(start, this.outer);
  }

  /**
   * Charges reading a value to the line's budget (each value read counts against MAX_ATTEMPTS,
   * a second reading only its length); false once it is spent, and then the value is not read.
   */
  private afford(segment: Segment, attempt: boolean): boolean {
    if (attempt) this.attempts++;
    this.work += segment.end + 1 - segment.start;
    return this.attempts <= MAX_ATTEMPTS && this.work <= this.budget;
  }

  /** A value left unread; the reason is said once, even when an outer value's problem stands for this one. */
  private unread(segment: Segment): Found[] {
    this.covered.push([segment.start, segment.end]);
    this.refusal ??=
      this.attempts > MAX_ATTEMPTS
        ? `more than ${MAX_ATTEMPTS} values on this line hold a trace marker; the rest were not read`
        : `its values would take more than ${WORK_PER_CHAR} times its length to read; the rest were not read`;
    return [];
  }

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
      this.siblings ??= siblingPairs(line);
      value = traceFromPairs(line, text, start, end, this.siblings);
    } catch (error) {
      if (!(error instanceof PyReprError)) throw error;
      if (!(error instanceof PairCutError)) return null;
      // A sibling field the line cuts off: the trace is cut too.
      this.covered.push([segment.start, segment.end]);
      return [{ problem: `truncated value: ${error.message}` }];
    }
    this.covered.push([segment.start, segment.end]);
    // The id and time may be pairs after the value too (KeyValueRenderer sorts its keys).
    this.pairs ??= new LinePairs(line);
    return tracesInValue(value, this.pairs.around(segment.start, segment.end, this.outer));
  }

  /**
   * The value holding the `<…>` repr just met, read from the first open bracket that starts a
   * value (a call holding no trace gives way to the values inside it): where it ends is known
   * only once it is read, for its repr may hold any bracket or quote. Returns the index of its
   * last character, with the value added to the stack's, or -1.
   */
  angleValue(stack: BracketStack, end: number, top: Segment[]): number {
    const { line } = this;
    const frames = stack.frames();
    const first = firstValue(line, frames);
    for (let k = first; k !== -1 && k < frames.length; k++) {
      const { start, open } = frames[k]!;
      if ((k > first && !startsValue(line, start, open)) || start <= this.unreadAngle) continue;
      // Charged to the line's budget as the text it may read: then no line makes it read more than that.
      this.work += end - start;
      if (this.work > this.budget) return -1;
      let readings: Segment["readings"];
      try {
        readings = pythonReadings(line, start, end, false);
      } catch (error) {
        if (!(error instanceof PyReprError)) throw error;
        // Cut off, or spread over lines: its brackets are followed as before, and it is not read again.
        this.unreadAngle = start;
        return -1;
      }
      // A value read costs only its own length.
      this.work -= end - readings.readings[0]!.end;
      const value = readings.readings[0]!.value;
      const call = typeof value === "object" && value?.kind === "call";
      if (call && k < frames.length - 1 && !holdsTrace(readings.readings[0]!)) continue;
      const last = readings.readings[0]!.end - 1;
      stack.closeAt(k);
      if (this.holds(start, last))
        stack.add({ start, end: last, children: [], quoted: "", readings }, top);
      return last;
    }
    return -1;
  }

  read(segment: Segment): Found[] {
    const { line } = this;
    // Every value read spends an attempt, a `trace=` pair too: no logger writes 64 on one line.
    if (!this.afford(segment, true)) return this.unread(segment);
    if (pairKey(line, segment.start) === "trace") {
      const found = this.readPairs(segment);
      if (found !== null) return found;
      // Read again as a value: its length is spent twice.
      if (!this.afford(segment, false)) return this.unread(segment);
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
      const inner = scanLine(text, this.context(segment.start), false);
      return inner.unclosed === null ? inner.found : [...inner.found, { problem: inner.unclosed }];
    }
    const parsed = segment.readings
      ? chooseReading(line, segment.readings.readings, segment.readings.exhausted)
      : parseValue(line, segment.start, segment.end + 1, this.jsonOnly(segment.start, segment.end));
    if ("value" in parsed) {
      const found = tracesInValue(parsed.value, this.context(segment.start));
      if (typeof parsed.problem === "string") found.push({ problem: parsed.problem });
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
  const stack = BRACKETS.reset();
  const top: Segment[] = [];
  let inString = false;
  // A key="… or key='… value that does not close before the line ends.
  let cutQuote = -1;
  // Only a line with a forced choice may hold a bare one.
  const forced = line.includes("forced_choice=");
  for (let i = from; i < end; i++) {
    const c = line.charCodeAt(i);
    const opens = c === 0x7b || c === 0x5b || c === 0x28;
    const bare = opens && forced && stack.length === 0 ? bareNameEnd(line, i) : -1;
    if (bare !== -1) i = bare - 1;
    else if (opens) stack.push(i, valueStart(line, i), closerOf(c));
    else if (stack.length === 0) {
      if ((c === 0x22 || c === 0x27) && line.charCodeAt(i - 1) === 0x3d && reader.quotedValues) {
        const bare = c === 0x27 && forced ? bareNameEnd(line, i) : -1;
        if (bare !== -1 && isLogfmt(line)) {
          // logfmt wrote a name starting with a quote unquoted (`forced_choice='x`).
          i = bare - 1;
          continue;
        }
        const close = c === 0x22 ? quotedEnd(line, i, end) : stringEnd(line, i, end);
        if (close === -1) {
          if (cutQuote === -1) cutQuote = i;
          continue;
        }
        const key = pairKey(line, i);
        // A sibling field's quoted value is a name or a list of tools, never a trace (`forced_choice="it's"`).
        if ((reader.holds(i, close) && !isSibling(key)) || key === "trace")
          top.push({
            start: i,
            end: close,
            children: [],
            quoted: c === 0x22 ? "logfmt" : "python",
          });
        i = close;
      }
    } else if (c === 0x3c && opensAngle(line, i)) {
      const last = reader.angleValue(stack, end, top);
      if (last !== -1) i = last;
      else {
        const after = lastAngleEnd(line, i, end);
        if (after !== -1) i = after - 1;
      }
    } else if ((c === 0x22 || c === 0x27) && opensString(line, i)) {
      const close = stringEnd(line, i, end);
      if (close === -1) {
        inString = true;
        break;
      }
      i = close;
    } else if (c === 0x7d || c === 0x5d || c === 0x29) {
      const k = stack.partner(c);
      if (k === -1) continue;
      const start = stack.startAt(k);
      const children = stack.closeAt(k);
      if (reader.holds(start, i) || (stack.length === 0 && pairKey(line, start) === "trace"))
        stack.add({ start, end: i, children, quoted: "" }, top);
    }
  }
  return { top, open: stack.frames(), inString, cutQuote };
}

/** The bracket closing an opening one (a lookup in an object keyed by char codes costs 10 times more). */
function closerOf(open: number): number {
  return open === 0x28 ? 0x29 : open + 2;
}

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
