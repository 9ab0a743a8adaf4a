/**
 * Where a line may hold a trace: a `trace` key followed by a list (JSON `"trace": [`, Python
 * `'trace': (`, a logfmt-escaped `\"trace\": [`), a `trace=` argument or pair (its value maybe
 * quoted: `trace="[…]"`), or a `StageRecord(` call.
 * Only the text around each occurrence of the two words is looked at.
 */

export type MarkerKind = "json" | "python";

export interface Marker {
  readonly at: number;
  readonly kind: MarkerKind;
}

/** The markers in text[from, to), in order. */
export function markersIn(text: string, from = 0, to = text.length): Marker[] {
  const out: Marker[] = [];
  let word = text.indexOf("trace", from);
  let record = text.indexOf("StageRecord", from);
  while ((word !== -1 && word < to) || (record !== -1 && record < to)) {
    if (word !== -1 && word < to && (record === -1 || word < record)) {
      const kind = traceKey(text, word, to);
      if (kind !== null) out.push({ at: word, kind });
      word = text.indexOf("trace", word + 5);
    } else {
      if (
        text.charCodeAt(record + 11) === 0x28 /* ( */ &&
        record + 11 < to &&
        !isNameChar(text.charCodeAt(record - 1))
      )
        out.push({ at: record, kind: "python" });
      record = text.indexOf("StageRecord", record + 11);
    }
  }
  return out;
}

/**
 * The first marker of the text, or null; the same as `markersIn(text)[0]`, but on the usual line
 * (a `trace` key, no record call before it) only the text up to it is searched.
 */
export function firstMarker(text: string): Marker | null {
  for (let word = text.indexOf("trace"); word !== -1; word = text.indexOf("trace", word + 5)) {
    const kind = traceKey(text, word, text.length);
    if (kind === null) continue;
    if (text.lastIndexOf("StageRecord", word) === -1) return { at: word, kind };
    break;
  }
  return markersIn(text)[0] ?? null;
}

/** True when text[from, to) may hold a marker: a cheap test before the exact one. */
export function mayHoldMarker(text: string, from: number, to: number): boolean {
  const word = text.indexOf("trace", from);
  if (word !== -1 && word < to) return true;
  const record = text.indexOf("StageRecord", from);
  return record !== -1 && record < to;
}

/** The kind of a `trace` key or argument at `at`, or null when the word is something else. */
function traceKey(text: string, at: number, to: number): MarkerKind | null {
  const before = text.charCodeAt(at - 1);
  let i = at + 5;
  if (before === 0x22 || before === 0x27) {
    // A quoted key, maybe with its quotes escaped inside a logfmt value.
    if (text.charCodeAt(i) === 0x5c) i++;
    if (text.charCodeAt(i) !== before) return null;
    i = skipBlanks(text, i + 1, to);
    if (text.charCodeAt(i) !== 0x3a /* : */) return null;
  } else {
    if (isNameChar(before) || text.charCodeAt(i) !== 0x3d /* = */) return null;
    if (text.charCodeAt(i + 1) === 0x3d) return null;
    // A logfmt or Python string holding the records: trace="[…]", trace='(…)'.
    const quote = text.charCodeAt(i + 1);
    if (quote === 0x22 || quote === 0x27) i++;
  }
  i = skipBlanks(text, i + 1, to);
  const open = text.charCodeAt(i);
  if (i >= to || (open !== 0x5b /* [ */ && open !== 0x28) /* ( */) return null;
  return before === 0x22 && open === 0x5b && text.charCodeAt(at - 2) !== 0x5c ? "json" : "python";
}

function skipBlanks(text: string, i: number, to: number): number {
  while (i < to) {
    const c = text.charCodeAt(i);
    if (c !== 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) break;
    i++;
  }
  return i;
}

function isNameChar(c: number): boolean {
  return (
    (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || (c >= 0x30 && c <= 0x39) || c === 0x5f
  );
}

/**
 * The markers of a decoded chunk or of its UTF-8 bytes (and `SelectionResult(` calls), found from the brackets they end with:
 * every marker ends with `[` or `(`, which are rarer in logs than the letters of `trace`, so the
 * search stops less often. The words around a marker are ASCII, so text and bytes read alike.
 */
export class MarkerCursor {
  private square: number;
  private round: number;

  private constructor(
    private readonly find: (bracket: number, from: number) => number,
    private readonly code: (i: number) => number,
    /** Where the run of brackets and blanks at `from` ends. */
    private readonly pastBrackets: (from: number) => number,
  ) {
    this.square = find(0x5b, 0);
    this.round = find(0x28, 0);
  }

  static ofText(text: string): MarkerCursor {
    const code = (i: number) => text.charCodeAt(i);
    const run = /[[( \t]*/y;
    return new MarkerCursor(
      (bracket, from) => text.indexOf(bracket === 0x5b ? "[" : "(", from),
      code,
      (from) => {
        run.lastIndex = from;
        run.test(text);
        return run.lastIndex;
      },
    );
  }

  /** Over bytes, a Node Buffer's native search makes this as fast as memchr. */
  static ofBytes(bytes: Uint8Array): MarkerCursor {
    const code = (i: number) => bytes[i] ?? -1;
    return new MarkerCursor(
      (bracket, from) => bytes.indexOf(bracket, from),
      code,
      (from) => {
        let i = from;
        for (
          let c = bytes[i];
          c === 0x5b || c === 0x28 || c === 0x20 || c === 0x09;
          c = bytes[++i]
        );
        return i;
      },
    );
  }

  /** The index of the first marker's bracket at or after `from`; -1 if none. */
  next(from: number): number {
    let rejected = -3;
    for (;;) {
      if (this.square !== -1 && this.square < from) this.square = this.find(0x5b, from);
      if (this.round !== -1 && this.round < from) this.round = this.find(0x28, from);
      const bracket =
        this.square === -1
          ? this.round
          : this.round === -1
            ? this.square
            : Math.min(this.square, this.round);
      if (bracket === -1 || markerEndsAt(this.code, bracket)) return bracket;
      // No bracket after a bracket (blanks between) ends a marker: where brackets crowd (a hostile
      // line), the run of brackets and blanks after one is passed over at once.
      from = bracket - rejected <= 2 ? this.pastBrackets(bracket + 1) : bracket + 1;
      rejected = bracket;
    }
  }
}

/** What may stand right before the bracket of a `trace` marker: blanks, `=`, `:`, a quote. */
const BEFORE_MARKER = new Uint8Array(128);
for (const c of " \t=:\"'") BEFORE_MARKER[c.charCodeAt(0)] = 1;

/**
 * True when the bracket at `at` ends a marker: `trace": [`, `trace=(`, `StageRecord(`, … or a
 * `SelectionResult(`, which is no marker but may be cut before its trace (the line must be read).
 */
function markerEndsAt(code: (i: number) => number, at: number): boolean {
  // The character before the bracket tells which marker it may end; most brackets it rejects.
  const before = code(at - 1);
  if (before === 0x64 /* d */)
    return code(at) === 0x28 && wordAt(code, "StageRecord", at - 11) && !isNameChar(code(at - 12));
  if (before === 0x74 /* t */)
    return (
      code(at) === 0x28 && wordAt(code, "SelectionResult", at - 15) && !isNameChar(code(at - 16))
    );
  if (BEFORE_MARKER[before] !== 1) return false;
  let i = at - 1;
  while (code(i) === 0x20 || code(i) === 0x09) i--;
  let c = code(i);
  if ((c === 0x22 || c === 0x27) && code(i - 1) === 0x3d) c = code(--i);
  if (c === 0x3d /* = */) return wordAt(code, "trace", i - 5) && !isNameChar(code(i - 6));
  if (c !== 0x3a /* : */) return false;
  i--;
  while (code(i) === 0x20 || code(i) === 0x09) i--;
  const quote = code(i);
  if (quote !== 0x22 && quote !== 0x27) return false;
  i--;
  if (code(i) === 0x5c) i--;
  return wordAt(code, "trace", i - 4) && code(i - 5) === quote;
}

function wordAt(code: (i: number) => number, word: string, at: number): boolean {
  if (at < 0) return false;
  for (let k = 0; k < word.length; k++) if (code(at + k) !== word.charCodeAt(k)) return false;
  return true;
}
