/**
 * A SelectionResult logged as separate key=value pairs (structlog's KeyValueRenderer or logfmt
 * over `dataclasses.asdict(result)`): `event=selection trace=[…] tools=('search',) forced_choice=None`.
 * The `trace=` value is the records; its sibling pairs on the line give the rest of the trace.
 */
import { quotedEnd, unescapeLogfmt } from "./logfmt.js";
import { parsePython, parsePythonAt, PyReprError, type PyValue } from "./python/parse.js";
import { readString } from "./python/strings.js";
import { pythonToJson } from "./python/to-json.js";

/** How far into a bare `forced_choice=` word its brackets and quotes are known to be the name's. */
const MAX_BARE_REACH = 256;

/** The trace's fields a line may hold as pairs of their own besides `trace=` (docs/formats.md). */
const SIBLINGS = ["tools", "forced_choice", "offered", "error"] as const;

/**
 * Where the bare word ends (its blank, or the line's end) when the bracket or quote at `at` is inside a
 * `forced_choice=` word: a name logfmt wrote unquoted (`forced_choice=f(x`), not a value; else -1.
 */
export function bareNameEnd(line: string, at: number): number {
  // Looked for only so far back: a line of brackets and no blank costs no more than its length.
  const floor = Math.max(0, at - MAX_BARE_REACH);
  let word = at;
  while (word > floor && !isBlank(line.charCodeAt(word - 1))) word--;
  const found = line.slice(word, at).lastIndexOf("forced_choice=");
  const key = word + found;
  if (found === -1 || (key > word && line.charCodeAt(key - 1) !== 0x3a)) return -1;
  const blank = line.slice(at).search(/[ \t]/);
  return blank === -1 ? line.length : at + blank;
}

/**
 * Whether the line is logfmt's rather than KeyValueRenderer's: its `tools=` or `trace=` value is
 * double-quoted (a repr of a tuple is never quoted), so a bare `'` in a name is the name's.
 */
export function isLogfmt(line: string): boolean {
  return /(?:^|[ \t:])(?:tools|trace)="/.test(line);
}

/** Whether `key` is one of a trace's fields besides `trace=` that a line may hold as a pair. */
export function isSibling(key: string | null): boolean {
  return (SIBLINGS as readonly (string | null)[]).includes(key);
}

/** The key of the `key=` pair whose value starts at `start` (a blank, a `:` or the line's start before it), or null. */
export function pairKey(line: string, start: number): string | null {
  if (line.charCodeAt(start - 1) !== 0x3d) return null;
  let i = start - 1;
  while (i > 0 && isKeyChar(line.charCodeAt(i - 1))) i--;
  if (i === start - 1 || (i > 0 && !beforeKey(line.charCodeAt(i - 1)))) return null;
  return line.slice(i, start - 1);
}

/**
 * The trace of a `trace=` value at text[start, end] with the line's sibling pairs as its other
 * fields, as the JSON shape of a logged trace; a PyReprError when the value cannot be read.
 */
export function traceFromPairs(
  line: string,
  text: string,
  start: number,
  end: number,
  siblings: readonly [PyValue, PyValue][] = siblingPairs(line),
): unknown {
  const entries: [PyValue, PyValue][] = [["trace", parsePython(text, start, end)], ...siblings];
  return pythonToJson({ kind: "dict", entries });
}

/**
 * The line's sibling pairs, each the value of the first top-level `key=` pair of its key (none
 * when that one cannot be read), found in one pass: a line holds them once for all its `trace=` pairs.
 */
export function siblingPairs(line: string): [PyValue, PyValue][] {
  const first = new Map<string, number>();
  forEachTopLevel(line, (at) => {
    const from = beforeKey(line.charCodeAt(at)) ? at + 1 : at;
    for (const key of SIBLINGS)
      if (
        !first.has(key) &&
        line.startsWith(key, from) &&
        line.charCodeAt(from + key.length) === 0x3d
      )
        first.set(key, from + key.length + 1);
  });
  const entries: [PyValue, PyValue][] = [];
  for (const key of SIBLINGS) {
    const at = first.get(key);
    const value = at === undefined ? undefined : readPairValue(line, at, key === "forced_choice");
    if (value !== undefined) entries.push([key, value]);
  }
  return entries;
}

/**
 * A pair's value as the renderers write it: a Python repr (KeyValueRenderer), a logfmt quoted
 * value holding a repr or JSON, a bare word (a logfmt string) or nothing (logfmt's None). A Python
 * string holding a list or dict (`tools='["a"]'`) is that value, but a `name` (the forced choice)
 * is always a string or None. A quoted value the line cuts off is a PairCutError.
 */
function readPairValue(line: string, at: number, name: boolean): PyValue | undefined {
  const c = line.charCodeAt(at);
  if (Number.isNaN(c) || isBlank(c)) return null;
  if (c === 0x22) {
    const close = quotedEnd(line, at);
    if (close === -1) throw new PairCutError(line, at);
    const inner = unescapeLogfmt(line.slice(at + 1, close));
    return name ? inner : (readWhole(inner) ?? inner);
  }
  // On a logfmt line, a name's quote is part of its bare word (`forced_choice='x`).
  if (c !== 0x27 || !name || !isLogfmt(line))
    try {
      const read = parsePythonAt(line, at);
      // A name is a string or None (`None`, not JSON's null): any other literal is a logfmt bare word.
      const none = read.value === null && line.startsWith("None", at);
      const word = name && !none && typeof read.value !== "string";
      if (!word && endsPair(line, read.end))
        return typeof read.value === "string" ? (structured(read.value) ?? read.value) : read.value;
    } catch (error) {
      if (!(error instanceof PyReprError)) throw error;
      if (c === 0x27 && isCut(readString(line, at, line.length, false)))
        throw new PairCutError(line, at);
    }
  const space = line.slice(at).search(/[ \t]/);
  return line.slice(at, space === -1 ? undefined : at + space);
}

/** A pair's value ends at the line's end, a blank, or punctuation glued after it (`forced_choice='a'),`). */
function endsPair(line: string, at: number): boolean {
  const c = line.charCodeAt(at);
  return (
    Number.isNaN(c) ||
    isBlank(c) ||
    c === 0x29 ||
    c === 0x5d ||
    c === 0x7d ||
    c === 0x2c ||
    c === 0x3b
  );
}

function isCut(read: ReturnType<typeof readString>): boolean {
  return typeof read === "string" && read.endsWith("is not closed");
}

/** A pair's quoted value that does not close before the line ends. */
export class PairCutError extends PyReprError {
  constructor(line: string, at: number) {
    super(
      `the quoted value of '${pairKey(line, at)}=' opened at column ${at + 1} is not closed`,
      at,
    );
  }
}

/** The list or dict a string holds as a repr or JSON, else undefined (a word stays a string). */
function structured(text: string): PyValue | undefined {
  const value = readWhole(text);
  return value !== null &&
    typeof value === "object" &&
    (value.kind === "seq" || value.kind === "dict")
    ? value
    : undefined;
}

function readWhole(text: string): PyValue | undefined {
  try {
    return parsePython(text);
  } catch (error) {
    if (!(error instanceof PyReprError)) throw error;
    return undefined;
  }
}

/**
 * Calls `visit` with every index of the line at which no bracket or quoted value is open and that
 * starts the line or holds a blank or a `:` (where a pair can start). Quotes count only inside brackets or
 * after `=`, as for the line's values.
 */
function forEachTopLevel(line: string, visit: (at: number) => void): void {
  let depth = 0;
  // Only a line with a forced choice may hold a bare one; a quote starts one only on a logfmt line.
  const forced = line.includes("forced_choice=");
  const logfmt = forced && isLogfmt(line);
  for (let i = 0; i < line.length; i++) {
    const c = line.charCodeAt(i);
    if (depth === 0 && (i === 0 || beforeKey(c))) visit(i);
    const opens = c === 0x7b || c === 0x5b || c === 0x28;
    const word = (opens && forced) || (c === 0x27 && logfmt);
    const bare = word && depth === 0 ? bareNameEnd(line, i) : -1;
    if (bare !== -1) i = bare - 1;
    else if (opens) depth++;
    else if ((c === 0x7d || c === 0x5d || c === 0x29) && depth > 0) depth--;
    else if ((c === 0x22 || c === 0x27) && (depth > 0 || line.charCodeAt(i - 1) === 0x3d)) {
      // What a quoted value holds is that value's text, not the line's pairs.
      for (i++; i < line.length && line.charCodeAt(i) !== c; i++)
        if (line.charCodeAt(i) === 0x5c) i++;
    }
  }
}

/** A letter, digit, `_` or `.`: what a Python name or dotted call is made of. */
export function isNameOrDot(c: number): boolean {
  return (
    (c >= 0x61 && c <= 0x7a) ||
    (c >= 0x41 && c <= 0x5a) ||
    (c >= 0x30 && c <= 0x39) ||
    c === 0x5f ||
    c === 0x2e
  );
}

/** A logfmt key is a name that may hold dashes too. */
function isKeyChar(c: number): boolean {
  return isNameOrDot(c) || c === 0x2d;
}

function isBlank(c: number): boolean {
  return c === 0x20 || c === 0x09;
}

/** What may stand before a pair's key: a blank, or the `:` ending a prefix such as logging's `INFO:root:`. */
function beforeKey(c: number): boolean {
  return isBlank(c) || c === 0x3a;
}
