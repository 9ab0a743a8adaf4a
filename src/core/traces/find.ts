import {
  ID_KEYS,
  isTraceCandidate,
  MAX_VALUE_DEPTH,
  own,
  TIME_KEYS,
  validateTrace,
  type LoggedTrace,
  type TraceContext,
} from "./trace.js";

/** How deep inside a log event a trace may sit (`{"event": …, "selection": {…}}` and `{"results": […]}` are one level). */
export const MAX_NESTING = 2;
/** How far below MAX_NESTING a trace is still looked for, to say that it was not read. */
const DEEP_SEARCH = MAX_VALUE_DEPTH;

export type Found = { readonly trace: LoggedTrace } | { readonly problem: string };

/**
 * The traces in one parsed JSON value, in key order: the value itself, each element of a
 * top-level array, or objects nested up to MAX_NESTING levels (objects or lists) inside a log
 * event. A trace without a time or id takes the nearest enclosing event's, then the text line's.
 * A trace nested deeper is not read, and one problem says so.
 */
export function tracesInValue(value: unknown, context: TraceContext): Found[] {
  const found: Found[] = [];
  const roots = Array.isArray(value) ? value : [value];
  for (const root of roots) {
    const deep = visit(root, 0, context, found);
    if (deep !== null)
      found.push({
        problem: `a trace nested ${deep} levels deep in a log event was not read; traces are read at most ${MAX_NESTING} levels deep`,
      });
  }
  return found;
}

/** Reads the traces down to MAX_NESTING; returns the level of the first trace found below it, or null. */
function visit(
  value: unknown,
  level: number,
  context: TraceContext,
  found: Found[],
): number | null {
  // A scalar holds nothing to read.
  if (typeof value !== "object" || value === null) return null;
  const children = Array.isArray(value) ? value : null;
  if (children === null && isTraceCandidate(value)) {
    if (level > MAX_NESTING) return level;
    found.push(validateTrace(value, context));
    return null;
  }
  if (level === MAX_NESTING + DEEP_SEARCH) return null;
  let inner = context;
  if (children === null && level < MAX_NESTING) {
    const event = value as { readonly [key: string]: unknown };
    inner = {
      time: scalar(event, TIME_KEYS) ?? context.time,
      id: scalar(event, ID_KEYS) ?? context.id,
    };
  }
  let deep: number | null = null;
  for (const child of children ?? Object.values(value as object)) {
    const below = visit(child, level + 1, inner, found);
    deep ??= below;
  }
  return deep;
}

/** An event's time or id, read leniently: an envelope's odd field is not the trace's problem. */
function scalar(
  object: { readonly [key: string]: unknown },
  keys: readonly string[],
): string | number | null {
  for (const key of keys) {
    const value = own(object, key);
    if (typeof value === "string" || typeof value === "number") return value;
  }
  return null;
}
