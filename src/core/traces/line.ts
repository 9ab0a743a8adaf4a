/** Finding the JSON of a trace inside one text line, after whatever prefix a logger wrote. */
import { tracesInValue, type Found } from "./find.js";
import type { TraceContext } from "./trace.js";

const KEY = '"trace"';

/** The index of the first `"trace"` key whose value opens a list, in text[from, to); -1 if none. */
export function traceKeyIn(text: string, from: number, to: number): number {
  for (
    let hit = text.indexOf(KEY, from);
    hit !== -1 && hit < to;
    hit = text.indexOf(KEY, hit + 1)
  ) {
    if (opensList(text, hit + KEY.length, to)) return hit;
  }
  return -1;
}

function opensList(text: string, at: number, to: number): boolean {
  let i = skipBlanks(text, at, to);
  if (text.charCodeAt(i) !== 0x3a /* : */) return false;
  i = skipBlanks(text, i + 1, to);
  return text.charCodeAt(i) === 0x5b; /* [ */
}

function skipBlanks(text: string, i: number, to: number): number {
  while (i < to) {
    const c = text.charCodeAt(i);
    if (c !== 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) break;
    i++;
  }
  return i;
}

/** A timestamp at the start of a text line: `2024-05-01 12:00:00,123`, `[2024-05-01T12:00:00Z]`, … */
const PREFIX_TIME =
  /^\s*\[?(\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(?:[.,]\d+)?(?:Z|[+-]\d{2}:?\d{2})?)/;

const MAX_ATTEMPTS = 16;

/**
 * The traces in one line that holds a trace key at `hit`. The JSON starts at the line's first
 * `{` or `[` or, when a prefix holds braces of its own, at a later `{` before the key; it may
 * be followed by a suffix. A line whose JSON cannot be read gives one problem.
 */
export function tracesInLine(text: string, hit: number): Found[] {
  let end = text.length;
  while (end > 0 && isBlank(text.charCodeAt(end - 1))) end--;
  const first = skipBlanks(text, 0, end);
  const starts: number[] = [];
  if (text.charCodeAt(first) === 0x5b) starts.push(first);
  for (
    let at = text.indexOf("{");
    at !== -1 && at < hit && starts.length < MAX_ATTEMPTS;
    at = text.indexOf("{", at + 1)
  )
    starts.push(at);

  let failure: string | null = null;
  for (const start of starts) {
    const parsed = parse(text, start, end);
    if ("value" in parsed) return tracesInValue(parsed.value, prefixContext(text.slice(0, start)));
    if (parsed.closesBefore < hit && parsed.closesBefore !== -1) continue;
    failure ??= parsed.problem;
  }
  return [{ problem: failure ?? "the trace's JSON could not be found on this line" }];
}

function parse(
  text: string,
  start: number,
  end: number,
): { value: unknown } | { problem: string; closesBefore: number } {
  try {
    return { value: JSON.parse(text.slice(start, end)) };
  } catch (error) {
    const close = closingIndex(text, start, end);
    if (close === -1) {
      const what = text.charCodeAt(start) === 0x7b ? "object" : "list";
      return {
        problem: `truncated JSON: the ${what} opened at column ${start + 1} is not closed`,
        closesBefore: -1,
      };
    }
    if (close < end - 1) {
      // A suffix after the JSON ("… took 3 ms"): read up to the matching bracket.
      try {
        return { value: JSON.parse(text.slice(start, close + 1)) };
      } catch (inner) {
        return { problem: `invalid JSON: ${message(inner, start)}`, closesBefore: close };
      }
    }
    return { problem: `invalid JSON: ${message(error, start)}`, closesBefore: close };
  }
}

/** The index of the bracket closing the one at `start`, skipping strings; -1 if the text ends first. Iterative: any depth. */
export function closingIndex(text: string, start: number, end: number): number {
  let depth = 0;
  let inString = false;
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c /* \ */) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) depth++;
    else if (c === 0x7d || c === 0x5d) {
      depth--;
      if (depth === 0) return i;
    }
  }
  return -1;
}

function prefixContext(prefix: string): TraceContext {
  const time = PREFIX_TIME.exec(prefix)?.[1];
  // A copy, not a slice: a slice would keep the whole decoded chunk alive as long as the summary lives.
  return { time: time === undefined ? null : [...time].join(""), id: null };
}

function isBlank(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0d || c === 0x0a;
}

/** The parser's message, its position in the JSON turned into a column of the line. */
function message(error: unknown, start: number): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.replace(
    /at position (\d+)/,
    (_, position: string) => `at column ${start + Number(position) + 1}`,
  );
}
