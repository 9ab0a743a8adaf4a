/** One bracketed value of a log line read as JSON or, failing that, as a Python repr. */
import { parsePython, PyReprError } from "./python/parse.js";
import { pythonToJson } from "./python/to-json.js";

/**
 * Reads text[start, end). JSON first (the common case, and the fastest); then, unless the value's
 * markers are all JSON keys (`jsonOnly`), as a Python repr.
 */
export function parseValue(
  text: string,
  start: number,
  end: number,
  jsonOnly: boolean,
): { value: unknown } | { problem: string } {
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
    return { value: pythonToJson(parsePython(text, start, end)) };
  } catch (error) {
    if (!(error instanceof PyReprError)) throw error;
    return { problem: `invalid Python repr: ${error.message}` };
  }
}

/** The parser's message, its position in the JSON turned into a column of the line. */
function jsonMessage(error: unknown, start: number): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.replace(
    /at position (\d+)/,
    (_, position: string) => `at column ${start + Number(position) + 1}`,
  );
}
