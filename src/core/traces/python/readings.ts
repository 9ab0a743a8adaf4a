/**
 * One value from the ways a repr may be read (`pythonReadings`): the only one; else the one whose
 * tools the trace's records all name (records quote every name, so they are never ambiguous);
 * else the first, its traces' ambiguous `tools` left out, so that their final names come from
 * their records, and a problem naming the `<…>` repr and its column. A name is never guessed.
 */
import type { PyReading } from "./parse.js";
import { pythonToJson } from "./to-json.js";
import { isJsonObject, isTraceCandidate, LIST_FIELDS, own } from "../trace.js";

type JsonObject = { readonly [key: string]: unknown };

/** How deep in a value traces are looked for (a log event's levels, and one more). */
const MAX_SEARCH = 4;

export function chooseReading(
  text: string,
  readings: readonly PyReading[],
  exhausted: boolean,
): { value: unknown; problem: string | null } {
  const values = readings.map(toJson);
  if (readings.length === 1 && !exhausted) return { value: values[0], problem: null };
  const traces = values.map((value) => tracesOf(value, 0, []));
  const decided = traces.filter((list) => list.every(namedByRecords));
  if (decided.length === 1) return { value: values[traces.indexOf(decided[0]!)], problem: null };
  const [first, second = []] = traces;
  for (const [i, trace] of first!.entries()) {
    const other = second[i];
    if (
      exhausted ||
      !other ||
      JSON.stringify(own(trace, "tools")) !== JSON.stringify(own(other, "tools"))
    )
      delete (trace as Record<string, unknown>).tools;
  }
  const at = differingAngle(text, readings);
  return {
    value: values[0],
    problem:
      `ambiguous Python repr: the repr ${JSON.stringify(at.text)} at column ${at.column} may end at more than one '>'` +
      (exhausted ? " (too many ways to read it were tried)" : "") +
      "; its trace's final tools are read from its records",
  };
}

/** Whether a reading holds a trace. */
export function holdsTrace(reading: PyReading): boolean {
  const value = pythonToJson(reading.value);
  const holds = holdsTraceAt(value, 0);
  // Read again by chooseReading, which then takes this one.
  if (holds) converted.set(reading, value);
  return holds;
}

/** A reading's JSON shape made by holdsTrace, taken by the one chooseReading that reads it next. */
const converted = new WeakMap<PyReading, unknown>();

function toJson(reading: PyReading): unknown {
  const value = converted.get(reading);
  if (value === undefined) return pythonToJson(reading.value);
  converted.delete(reading);
  return value;
}

/** Whether tracesOf finds a trace in the value: the first is enough. */
function holdsTraceAt(value: unknown, depth: number): boolean {
  if (depth > MAX_SEARCH || value === null || typeof value !== "object") return false;
  if (isTraceCandidate(value)) return true;
  for (const child of Object.values(value)) if (holdsTraceAt(child, depth + 1)) return true;
  return false;
}

/** The trace objects of a value, in order. */
function tracesOf(value: unknown, depth: number, out: JsonObject[]): JsonObject[] {
  if (depth > MAX_SEARCH || value === null || typeof value !== "object") return out;
  if (isTraceCandidate(value)) out.push(value);
  for (const child of Object.values(value)) tracesOf(child, depth + 1, out);
  return out;
}

/** Every named tool of the trace is a name one of its records quotes. */
function namedByRecords(trace: JsonObject): boolean {
  const tools = own(trace, "tools");
  if (!Array.isArray(tools)) return true;
  const named = new Set<unknown>();
  for (const record of own(trace, "trace") as unknown[])
    for (const field of LIST_FIELDS) {
      const names = isJsonObject(record) ? own(record, field) : null;
      if (Array.isArray(names)) for (const name of names) named.add(name);
    }
  return tools.every((tool) => named.has(isJsonObject(tool) ? own(tool, "name") : tool));
}

/** The first `<…>` the readings end at different places (the first one when there is one reading). */
function differingAngle(
  text: string,
  readings: readonly PyReading[],
): { text: string; column: number } {
  const [first, second] = readings;
  const angles = first!.angles;
  let k = 0;
  while (second && k < angles.length - 2 && angles[k + 1] === second.angles[k + 1]) k += 2;
  const start = angles[k] ?? 0;
  const end = angles[k + 1] ?? 0;
  return { text: text.slice(start, Math.min(end, start + 80)), column: start + 1 };
}
