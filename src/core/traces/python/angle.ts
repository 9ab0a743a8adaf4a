/**
 * Where a `<…>` repr ends. Its text is whatever a `__repr__` printed (`<Tool f(x)>`, `<Tool it's>`),
 * so it may end at any `>` before what may follow a value; it ends at the latest before
 * `, <Next` or `, '…`, where repr and pprint write the next item (its text is taken never to hold that).
 */

/** Whether the `<` at `at` opens a repr: a name follows it, and it stands where a value starts. */
export function opensAngle(text: string, at: number): boolean {
  if (!isNameStart(text.charCodeAt(at + 1))) return false;
  let i = at - 1;
  while (i >= 0 && isBlank(text.charCodeAt(i))) i--;
  if (i < 0) return true;
  const c = text.charCodeAt(i);
  return c === 0x28 || c === 0x5b || c === 0x7b || c === 0x2c || c === 0x3a || c === 0x3d;
}

/** Whether what follows `at` (after blanks) may follow a value: a separator, a closer or the end. */
export function endsValue(text: string, at: number, end: number): boolean {
  while (at < end && isBlank(text.charCodeAt(at))) at++;
  if (at >= end) return true;
  const c = text.charCodeAt(at);
  return c === 0x2c || c === 0x3a || c === 0x29 || c === 0x5d || c === 0x7d || c === 0x3e;
}

/**
 * Whether a comma, blanks and the start of the next item follow `at`: another `<…>`, a string, a
 * bracket, or a name before `(` or `=` (a call, a keyword argument).
 */
export function nextItem(text: string, at: number, end: number): boolean {
  if (text.charCodeAt(at) !== 0x2c || !isBlank(text.charCodeAt(at + 1))) return false;
  at++;
  while (at < end && isBlank(text.charCodeAt(at))) at++;
  const c = text.charCodeAt(at);
  if (c === 0x3c) return isNameStart(text.charCodeAt(at + 1));
  if (c === 0x27 || c === 0x22 || c === 0x28 || c === 0x5b || c === 0x7b) return true;
  if (!isNameStart(c)) return false;
  while (at < end && isNameChar(text.charCodeAt(at))) at++;
  return text.charCodeAt(at) === 0x28 || text.charCodeAt(at) === 0x3d;
}

/**
 * The index after the `>` ending the repr whose `<` is at `at`, before `end`: the last that may,
 * up to the next item's start; -1 if none (the text is cut off, or goes on on the next line).
 */
export function lastAngleEnd(text: string, at: number, end: number): number {
  let found = -1;
  for (let i = text.indexOf(">", at + 1); i !== -1 && i < end; i = text.indexOf(">", i + 1)) {
    if (!endsValue(text, i + 1, end)) continue;
    found = i + 1;
    if (nextItem(text, i + 1, end)) break;
  }
  return found;
}

export function isNameStart(c: number): boolean {
  return (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || c === 0x5f;
}

export function isNameChar(c: number): boolean {
  return isNameStart(c) || (c >= 0x30 && c <= 0x39) || c === 0x2e;
}

function isBlank(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0d || c === 0x0a;
}
