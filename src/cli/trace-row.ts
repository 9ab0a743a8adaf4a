/** One trace's row as `traces` lists it, shared by `traces`, `traces --follow` and `receive`. */
import { safe } from "../core/words.js";
import type { TraceSummary } from "../core/traces/summary.js";

/** The titles of traceCells' columns (`file` goes after `#` when several files are listed). */
export const ROW_TITLES: readonly string[] = [
  "#",
  "line",
  "time",
  "id",
  "stages",
  "final",
  "forced",
];

/** The header a stream of rows starts with (`traces --follow`, `receive`): the titles, the line's left out when rows have none. */
export function rowHeader(withLine: boolean): string {
  return ROW_TITLES.filter((title) => withLine || title !== "line").join("  ") + "\n";
}

/** Widest list of final names in the text table before it is shortened. */
const NAMES_WIDTH = 48;

/** The cells of one trace's row, as `traces` lists it (`file` when several files are listed). */
export function traceCells(t: TraceSummary, file: string | null): string[] {
  return [
    String(t.index + 1),
    ...(file !== null ? [safe(file)] : []),
    String(t.line),
    t.time === null ? "" : safe(String(t.time)),
    t.id === null ? "" : safe(String(t.id)),
    String(t.stages.length) + (t.degraded ? " (degraded)" : ""),
    `${t.names.length}: ${shorten(t.names.map(safe))}`,
    (t.forcedChoice === null ? "" : safe(t.forcedChoice)) + (t.error ? " (unavailable)" : ""),
  ];
}

function shorten(names: readonly string[]): string {
  let text = "";
  for (const [i, name] of names.entries()) {
    const next = text === "" ? name : `${text}, ${name}`;
    if (next.length > NAMES_WIDTH && i > 0) return `${text}, … +${names.length - i}`;
    text = next;
  }
  return text;
}
