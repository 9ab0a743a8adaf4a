/** One bracketed value of a log line read as JSON or, failing that, as a Python repr. */
import { tracesInValue, type Found } from "./find.js";
import { pythonReadings, PyReprError } from "./python/parse.js";
import { chooseReading } from "./python/readings.js";
import type { TraceContext } from "./trace.js";

/**
 * Reads text[start, end). JSON first (the common case, and the fastest); then, unless the value's
 * markers are all JSON keys (`jsonOnly`), as a Python repr: a repr read more than one way is a
 * value and a problem (`chooseReading`).
 */
export function parseValue(
  text: string,
  start: number,
  end: number,
  jsonOnly: boolean,
): { value: unknown; problem?: string } | { problem: string } {
  let jsonError: unknown = null;
  const first = text.charCodeAt(start);
  if (first === 0x7b || first === 0x5b) {
    try {
      return { value: JSON.parse(text.slice(start, end)) };
    } catch (error) {
      jsonError = error;
    }
  }
  if (jsonOnly && jsonError !== null)
    return { problem: `invalid JSON: ${jsonMessage(jsonError, start)}` };
  try {
    const { readings, exhausted } = pythonReadings(text, start, end, true);
    const { value, problem } = chooseReading(text, readings, exhausted);
    return problem === null ? { value } : { value, problem };
  } catch (error) {
    if (!(error instanceof PyReprError)) throw error;
    return { problem: `invalid Python repr: ${error.message}` };
  }
}

/** The traces of a parsed value, then its problem (a value read more than one way has both). */
export function foundIn(parsed: ReturnType<typeof parseValue>, context: TraceContext): Found[] {
  const found = "value" in parsed ? tracesInValue(parsed.value, context) : [];
  if (typeof parsed.problem === "string") found.push({ problem: parsed.problem });
  return found;
}

/** The parser's message, its position in the JSON turned into a column of the line. */
function jsonMessage(error: unknown, start: number): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.replace(
    /at position (\d+)/,
    (_, position: string) => `at column ${start + Number(position) + 1}`,
  );
}
