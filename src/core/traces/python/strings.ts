/** Python string literals as repr writes them: either quote, every backslash escape Python knows. */

const SIMPLE: Record<string, string> = {
  "\\": "\\",
  "'": "'",
  '"': '"',
  a: "\x07",
  b: "\b",
  f: "\f",
  n: "\n",
  r: "\r",
  t: "\t",
  v: "\v",
};
const HEX_DIGITS: Record<string, number> = { x: 2, u: 4, U: 8 };

/**
 * Reads the literal whose opening quote is at `at`; returns its value and the index after the
 * closing quote, or a sentence saying what is wrong. A line break ends it unclosed, as in Python.
 */
export function readString(
  text: string,
  at: number,
  end: number,
  raw: boolean,
): { value: string; end: number } | string {
  const quote = text.charCodeAt(at);
  let out = "";
  let run = at + 1;
  for (let i = at + 1; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c === quote) return { value: out + text.slice(run, i), end: i + 1 };
    if (c === 0x0a || c === 0x0d) break;
    if (c !== 0x5c) continue;
    out += text.slice(run, i);
    const next = text[i + 1];
    if (next === undefined || i + 1 >= end) break;
    if (raw) {
      out += "\\" + next;
      i++;
    } else if (next in SIMPLE) {
      out += SIMPLE[next];
      i++;
    } else if (next in HEX_DIGITS) {
      const digits = text.slice(i + 2, Math.min(end, i + 2 + HEX_DIGITS[next]!));
      if (digits.length !== HEX_DIGITS[next] || !/^[0-9a-fA-F]+$/.test(digits))
        return `invalid \\${next} escape at column ${i + 1}`;
      const code = parseInt(digits, 16);
      if (code > 0x10ffff) return `invalid \\${next} escape at column ${i + 1}`;
      out += String.fromCodePoint(code);
      i += 1 + digits.length;
    } else if (next >= "0" && next <= "7") {
      let j = i + 1;
      while (j < i + 4 && j < end && text[j]! >= "0" && text[j]! <= "7") j++;
      out += String.fromCodePoint(parseInt(text.slice(i + 1, j), 8));
      i = j - 1;
    } else if (next === "\n") {
      i++;
    } else {
      // Python keeps an unknown escape as it is.
      out += "\\" + next;
      i++;
    }
    run = i + 1;
  }
  return `the string opened at column ${at + 1} is not closed`;
}

/**
 * Whether the quote at `at` may open a string: it stands where a repr or JSON starts a value (at
 * the start, after a blank, a bracket, `,`, `:` or `=`, maybe behind a `b`/`r`/`u`/`f` prefix),
 * not inside a word (`O'Brien`, `<Tool it's>`).
 */
export function opensString(text: string, at: number): boolean {
  let i = at - 1;
  while (i >= at - 2 && i >= 0 && isPrefixLetter(text.charCodeAt(i))) i--;
  return i < 0 || isBeforeString(text.charCodeAt(i));
}

/** b, r, u, f in either case. */
function isPrefixLetter(c: number): boolean {
  const lower = c | 0x20;
  return lower === 0x62 || lower === 0x72 || lower === 0x75 || lower === 0x66;
}

/** A blank, `(`, `[`, `{`, `<`, `,`, `:` or `=`. */
function isBeforeString(c: number): boolean {
  return (
    c === 0x20 ||
    c === 0x09 ||
    c === 0x0d ||
    c === 0x0a ||
    c === 0x28 ||
    c === 0x5b ||
    c === 0x7b ||
    c === 0x3c ||
    c === 0x2c ||
    c === 0x3a ||
    c === 0x3d
  );
}
