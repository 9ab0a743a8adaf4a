/** The scanner's text and byte helpers: UTF-8 lengths, line ends, and the plain lines it passes over. */
import { endsSplitString } from "./line.js";

/**
 * Last bytes of a line that may open a value spread over lines (see `mayOpen`, `opensBlock`): a
 * bracket, a comma, a blank (trailing blanks are trimmed), a quote (a string split by pprint).
 * An empty line's "last byte" is undefined and indexes nothing.
 */
export const MAY_OPEN_AT_END = new Uint8Array(256);
for (const c of "{[(, \t'\"") MAY_OPEN_AT_END[c.charCodeAt(0)] = 1;

/** Longer lines cannot be a lone `{` or `[` (with some indentation). */
export const OPENER_MAX = 16;

/** UTF-8 byte length of text[from, to); a lone surrogate counts as the 3 bytes of U+FFFD. */
export function utf8Length(text: string, from: number, to: number): number {
  let bytes = 0;
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (
      c >= 0xd800 &&
      c <= 0xdbff &&
      i + 1 < to &&
      (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00
    ) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}

/** `utf8Length(text, 0, i)` for growing `i`, counted on from the last answer (a line's values are asked for in order). */
export function byteCursor(text: string): (i: number) => number {
  let at = 0;
  let bytes = 0;
  return (i) => {
    if (i < at) {
      at = 0;
      bytes = 0;
    }
    bytes += utf8Length(text, at, i);
    at = i;
    return bytes;
  };
}

export function isBlank(c: number): boolean {
  return c === 0x20 || c === 0x09;
}

export function isBlankFrom(text: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (!isBlank(text.charCodeAt(i))) return false;
  return true;
}

/**
 * Passes over the LF-ended lines from `from` that end before `marker` and cannot start a value
 * spread over lines (their last character is no bracket, comma, blank or split string, and they
 * are longer than a lone opener) and are not over the limit (reported wherever the chunks are
 * cut). Returns where it stopped and how many lines it passed.
 */
export function skipPlainLines(
  text: string,
  from: number,
  marker: number,
  maxLineBytes: number,
): { to: number; lines: number } {
  let s = from;
  let lines = 0;
  for (;;) {
    const e = text.indexOf("\n", s);
    if (e === -1 || e >= marker || e - s <= OPENER_MAX || e - s > maxLineBytes) break;
    const c = text.charCodeAt(e - 1);
    if (c === 0x7b || c === 0x5b || c === 0x28 || c === 0x2c || c === 0x20 || c === 0x09) break;
    if ((c === 0x27 || c === 0x22) && endsSplitString(text, e)) break;
    s = e + 1;
    lines++;
  }
  return { to: s, lines };
}

/** The first LF or CR at or after `from`; -1 if none. */
export function firstLineEnd(bytes: Uint8Array, from: number): number {
  const lf = bytes.indexOf(10, from);
  const cr = bytes.subarray(from, lf === -1 ? bytes.length : lf).indexOf(13);
  return cr === -1 ? lf : from + cr;
}

/** The last LF or CR at or after `from` (the LF of a CRLF); -1 if none. */
export function lastLineEnd(bytes: Uint8Array, from: number): number {
  const lf = bytes.lastIndexOf(10);
  const tail = Math.max(lf + 1, from);
  const cr = bytes.subarray(tail).lastIndexOf(13);
  if (cr !== -1) return tail + cr;
  return lf >= from ? lf : -1;
}
