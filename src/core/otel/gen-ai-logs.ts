/**
 * The OTLP log records in which the official OpenAI instrumentation
 * (`@opentelemetry/instrumentation-openai`) writes what its inference span called: a `gen_ai.choice`
 * event (attribute `event.name`) whose body is `{"message":{"tool_calls":[{"function":{"name"}}]}}`
 * for Chat Completions, or a `gen_ai.client.inference.operation.details` event (`eventName`) whose
 * `gen_ai.output.messages` attribute holds the tool_call parts, for the Responses API. A record
 * joins to its span by trace and span id.
 */
import { isJsonObject } from "../traces/trace.js";
import { anyValue, attribute, OtlpValueError } from "./any-value.js";
import { OUTPUT_MESSAGES, toolCallNames } from "./gen-ai.js";
import { attributePath, nameList } from "./span-view.js";

const CHOICE = "gen_ai.choice";
const DETAILS = "gen_ai.client.inference.operation.details";

/**
 * The tools a log record says its span called (none: it says the span called nothing); undefined
 * for a record that says nothing of calls. An error's path is relative to the record.
 */
export function recordCalls(record: Record<string, unknown>): string[] | undefined {
  const attributes = record["attributes"];
  const event = record["eventName"] || attribute(attributes, "event.name", ".attributes");
  if (event === CHOICE) return choiceCalls(anyValue(record["body"], ".body"));
  if (event !== DETAILS) return undefined;
  return (
    toolCallNames(attribute(attributes, OUTPUT_MESSAGES, ".attributes"), OUTPUT_AT) ?? undefined
  );
}

const OUTPUT_AT = attributePath(OUTPUT_MESSAGES);
const CALLS_AT = ".body.message.tool_calls";

function choiceCalls(body: unknown): string[] {
  const message = isJsonObject(body) ? body["message"] : undefined;
  const calls = isJsonObject(message) ? message["tool_calls"] : undefined;
  if (calls === undefined || calls === null) return [];
  return nameList(calls, CALLS_AT, "'tool_calls'", (call) => {
    const fn = isJsonObject(call) ? call["function"] : undefined;
    return isJsonObject(fn) ? (fn["name"] ?? null) : null;
  });
}

/** A record that names no span cannot be joined: said so, not skipped in silence. */
export const NO_IDS = new OtlpValueError(
  "",
  "a gen_ai log record must carry its span's traceId and spanId",
);
