import { timeMs } from "../../core/stats/timeline.js";
import type { TraceFilter } from "../../node/trace-index.js";
import { neutralise } from "../notify.js";

export type { TraceFilter } from "../../node/trace-index.js";

/** A time as the filter shows it: UTC, to the second (or the millisecond when it has one). */
function shownTime(ms: number): string {
  return (
    new Date(ms)
      .toISOString()
      .replace("T", " ")
      .replace(/\.000Z$|Z$/, "") + " UTC"
  );
}

export function describeFilter(filter: TraceFilter): string {
  switch (filter.kind) {
    case "dropped":
      return `where '${neutralise(filter.tool)}' was dropped`;
    case "stageAction":
      return `where '${neutralise(filter.stage)}' did ${filter.action}`;
    case "errors":
      return "with errors or degraded stages";
    case "text":
      return `matching '${neutralise(filter.text)}'`;
    case "time":
      return filter.from === null
        ? `until ${shownTime(filter.to!)}`
        : filter.to === null
          ? `from ${shownTime(filter.from)}`
          : `from ${shownTime(filter.from)} to ${shownTime(filter.to)}`;
  }
}

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/** One end of a range: a date alone means its first (or last) millisecond. */
function rangeEnd(text: string, end: "from" | "to"): number | null | string {
  const trimmed = text.trim();
  if (trimmed === "") return null;
  const ms = DATE_ONLY.test(trimmed)
    ? timeMs(`${trimmed} ${end === "from" ? "00:00:00" : "23:59:59.999"}`)
    : timeMs(/^\d+(\.\d+)?$/.test(trimmed) ? Number(trimmed) : trimmed);
  return ms === null
    ? `'${neutralise(trimmed)}' is not a time (2025-03-14 09:27:04, a date, or epoch seconds)`
    : ms;
}

/**
 * `FROM .. TO` as a time filter (either end may be left out; times without a zone are UTC, as
 * the statistics read them), or why it is not one.
 */
export function parseTimeRange(text: string): Extract<TraceFilter, { kind: "time" }> | string {
  const parts = text.split("..");
  if (parts.length !== 2) return "write the range as FROM .. TO (either end may be left out)";
  const from = rangeEnd(parts[0]!, "from");
  const to = rangeEnd(parts[1]!, "to");
  if (typeof from === "string") return from;
  if (typeof to === "string") return to;
  if (from === null && to === null) return "give at least one end of the range";
  if (from !== null && to !== null && from > to) return "the range ends before it starts";
  return { kind: "time", from, to };
}
