/** The words and text the user reads: counts with their nouns, file names, text safe for a terminal. */
/** "1 tool", "2 tools": a count with its noun in the right number (`many` for irregular plurals). */
export function counted(
  n: number,
  one: string,
  many = `${one}s`,
  format: (n: number) => string = String,
): string {
  return `${format(n)} ${n === 1 ? one : many}`;
}

/** The known name a typo most likely meant, if one is close ("did you mean"). */
export function closestName(key: string, known: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Math.max(2, Math.floor(key.length / 3)) + 1;
  for (const candidate of known) {
    const d = editDistance(key.toLowerCase(), candidate.toLowerCase());
    if (d < bestDistance) [best, bestDistance] = [candidate, d];
  }
  return best;
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min(
        previous[j]! + 1,
        row[j - 1]! + 1,
        previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    }
    previous = row;
  }
  return previous[b.length]!;
}

/** A path's last segment (either separator): what the user calls the file. */
export function baseName(path: string): string {
  return path.split(/[\\/]/).pop() || path;
}

/** Untrusted names reach a terminal without their control characters: no escape sequences, no bidi tricks. */
export function safe(text: string): string {
  return text.replace(TERMINAL_UNSAFE, escapeChar);
}

/**
 * JSON for a terminal or a pipe. `JSON.stringify` escapes C0 controls but leaves C1 controls
 * (U+009B is CSI) and bidi overrides raw inside strings; they are escaped here the same way.
 */
export function safeJson(value: unknown, space?: number): string {
  return safeJsonText(JSON.stringify(value, null, space));
}

/** JSON text made safe as safeJson's is: for text joined from many values, escaped in one pass. */
export function safeJsonText(json: string): string {
  return json.replace(JSON_UNSAFE, escapeChar);
}

// Controls (C0, C1), line and paragraph separators, and format characters (Unicode Cf: bidi
// marks, embeddings, overrides and isolates, U+061C, zero-width spaces and joiners, U+2060, tags).
const TERMINAL_UNSAFE = /[\p{Cc}\p{Cf}\u2028\u2029]/gu;
// The same, less the C0 controls JSON.stringify already escapes (and the line breaks it indents with).
const JSON_UNSAFE = /[\u007f-\u009f\p{Cf}\u2028\u2029]/gu;

/** `\uXXXX`; a character beyond U+FFFF as its two UTF-16 halves, as JSON writes it. */
function escapeChar(c: string): string {
  let out = "";
  for (let i = 0; i < c.length; i++) out += `\\u${c.charCodeAt(i).toString(16).padStart(4, "0")}`;
  return out;
}

// Made on first use: loading ICU's number data costs a command tens of ms at start.
let numberFormat: Intl.NumberFormat | undefined;

/** 1200 → "1,200". */
export function formatCount(n: number): string {
  // A whole count by hand, as en-US writes it: Intl's number data costs a command ~20 ms to load.
  if (Number.isSafeInteger(n)) return String(n).replace(/\B(?=(\d{3})+$)/g, ",");
  numberFormat ??= new Intl.NumberFormat("en-US");
  return numberFormat.format(n);
}
