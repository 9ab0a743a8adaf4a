import {
  ID_KEYS,
  isJsonObject,
  isTraceCandidate,
  own,
  TIME_KEYS,
  validateTrace,
  type LoggedTrace,
  type TraceContext,
} from "./trace.js";

/** How deep inside a log event a trace may sit (`{"event": …, "selection": {…}}` is one level). */
export const MAX_NESTING = 2;

export type Found = { readonly trace: LoggedTrace } | { readonly problem: string };

/**
 * The traces in one parsed JSON value, in key order: the value itself, each element of a
 * top-level array, or objects nested up to MAX_NESTING levels inside a log event. A trace
 * without a time or id takes the nearest enclosing event's, then the text line's.
 */
export function tracesInValue(value: unknown, context: TraceContext): Found[] {
  const found: Found[] = [];
  const roots = Array.isArray(value) ? value : [value];
  for (const root of roots) visit(root, 0, context, found);
  return found;
}

function visit(value: unknown, level: number, context: TraceContext, found: Found[]): void {
  if (!isJsonObject(value)) return;
  if (isTraceCandidate(value)) {
    found.push(validateTrace(value, context));
    return;
  }
  if (level === MAX_NESTING) return;
  const inner = {
    time: scalar(value, TIME_KEYS) ?? context.time,
    id: scalar(value, ID_KEYS) ?? context.id,
  };
  for (const child of Object.values(value)) visit(child, level + 1, inner, found);
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
