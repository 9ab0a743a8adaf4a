/**
 * One selection trace as a log holds it (docs/formats.md, "A selection trace in a log"), validated
 * field by field. Nothing is assigned by a key from a log, so `__proto__` keys pollute no
 * prototype; a field is read by its own name as a plain property, which is an own read, as parsed
 * JSON inherits only Object.prototype and none of those names is one of its members. `own()`
 * decides what is a candidate at all, whatever the value's prototype.
 */
import type { StageRecordJson } from "../report-json.js";
import type { Tool } from "../tools.js";
import { STAGE_ACTIONS, type StageAction } from "../contract.js";
import { timeMs } from "../stats/timeline.js";
import type { ModelCall, OtelIds } from "./model-call.js";

/** A logged record: the snake_case StageRecord, where `degraded` and `reasons` may be absent (symfonic's Python record lacks them). */
export type LoggedRecord = Readonly<Omit<StageRecordJson, "degraded" | "reasons">> & {
  readonly degraded?: boolean;
  readonly reasons?: Readonly<Record<string, string>>;
};

export interface LoggedError {
  readonly kind: string;
  readonly message: string;
  /** The forced tool that could not be offered, when the log says. */
  readonly tool: string | null;
}

export interface LoggedTurn {
  readonly query?: string;
  readonly role?: string;
  readonly state?: Readonly<Record<string, unknown>>;
  readonly messages?: readonly unknown[];
}

export interface LoggedTrace {
  readonly records: readonly LoggedRecord[];
  /** The final tools, or null when the log does not list them. */
  readonly tools: readonly Tool[] | null;
  /** The final forced choice; undefined when the log does not say. */
  readonly forcedChoice?: string | null;
  readonly error: LoggedError | null;
  readonly offered: readonly Tool[] | null;
  readonly turn: LoggedTurn | null;
  readonly time: string | number | null;
  readonly id: string | number | null;
  /** A trace read from OpenTelemetry: where it was (docs/formats.md, "Selection traces in OpenTelemetry"). */
  readonly otel?: OtelIds;
  /** A trace read from OpenTelemetry: the model call it fed, or null when none was joined. */
  readonly model?: ModelCall | null;
}

/** Time and id of an enclosing log event (or a text line's timestamp), used when the trace has none. */
export interface TraceContext {
  readonly time: string | number | null;
  readonly id: string | number | null;
}

export const TIME_KEYS = ["ts", "time", "timestamp", "@timestamp"] as const;
export const ID_KEYS = ["turn_id", "request_id", "trace_id"] as const;

/** Deeper than this, a logged turn or tool is refused: rendering or serialising it could exhaust the stack. */
export const MAX_VALUE_DEPTH = 64;

/** More different tool names than this in one trace, and it is refused: ordering and showing them would stall. */
export const MAX_TRACE_NAMES = 10_000;

export const LIST_FIELDS = ["kept", "dropped", "added", "reinstated"] as const;

type JsonObject = { readonly [key: string]: unknown };

export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** An own field, never one inherited from Object.prototype. */
export function own(object: JsonObject, key: string): unknown {
  return Object.hasOwn(object, key) ? object[key] : undefined;
}

/** A candidate is an object whose own `trace` field is an array; anything else is not a selection trace. */
export function isTraceCandidate(value: unknown): value is JsonObject {
  return isJsonObject(value) && Array.isArray(own(value, "trace"));
}

class Invalid extends Error {}

/** Validates a candidate; the problem is a sentence naming the field and what was found. */
export function validateTrace(
  candidate: JsonObject,
  context: TraceContext = { time: null, id: null },
): { trace: LoggedTrace } | { problem: string } {
  try {
    return { trace: readTrace(candidate, context) };
  } catch (error) {
    if (error instanceof Invalid) return { problem: error.message };
    throw error;
  }
}

function readTrace(candidate: JsonObject, context: TraceContext): LoggedTrace {
  const rawRecords = candidate["trace"] as unknown[];
  const records = rawRecords.map((record, i) => readRecord(record, i));
  const trace: { -readonly [K in keyof LoggedTrace]: LoggedTrace[K] } = {
    records,
    tools: readTools(candidate, "tools"),
    error: readError(candidate["error"]),
    offered: readTools(candidate, "offered"),
    turn: readTurn(candidate["turn"]),
    time: readTime(firstScalar(candidate, TIME_KEYS, "time") ?? context.time),
    id: firstScalar(candidate, ID_KEYS, "id") ?? context.id,
  };
  if (candidate["forced_choice"] !== undefined)
    trace.forcedChoice = nameOrNull(candidate["forced_choice"], "'forced_choice'");
  assertFewNames(trace);
  return trace;
}

/** A number that is no time (before 1970, past the year 9999) is refused: counting time buckets up to it would never end. */
function readTime(time: string | number | null): string | number | null {
  if (typeof time === "number" && timeMs(time) === null)
    throw new Invalid(
      `the time ${time} is not one: a number must be seconds or milliseconds since 1970, up to the year 9999`,
    );
  return time;
}

function assertFewNames(trace: LoggedTrace): void {
  // The usual trace names far fewer tools than the limit even counted with repeats: no set needed.
  let repeats = (trace.offered?.length ?? 0) + (trace.tools?.length ?? 0);
  for (const record of trace.records)
    for (const field of LIST_FIELDS) repeats += record[field].length;
  if (repeats <= MAX_TRACE_NAMES) return;
  const lists = [trace.offered, trace.tools];
  for (const record of trace.records) for (const field of LIST_FIELDS) lists.push(record[field]);
  const names = new Set<unknown>();
  const count = (list: readonly unknown[] | null) => {
    for (const item of list ?? []) names.add(isJsonObject(item) ? item["name"] : item);
  };
  for (const list of lists) count(list);
  if (names.size > MAX_TRACE_NAMES)
    throw new Invalid(
      `the trace names ${names.size.toLocaleString("en-US")} different tools; the limit is ${MAX_TRACE_NAMES.toLocaleString("en-US")}`,
    );
}

function readRecord(value: unknown, index: number): LoggedRecord {
  const where = `trace record ${index}`;
  if (!isJsonObject(value))
    throw new Invalid(`${where} must be an object, found ${describe(value)}`);
  const stage = value["stage"];
  if (typeof stage !== "string")
    throw new Invalid(`${where}: 'stage' must be a string, found ${describe(stage)}`);
  const named = `${where} (stage '${stage}')`;
  const action = value["action"];
  if (!STAGE_ACTIONS.includes(action as StageAction)) {
    throw new Invalid(
      `${named}: 'action' must be one of ${STAGE_ACTIONS.join(", ")}, found ${typeof action === "string" ? `'${action}'` : describe(action)}`,
    );
  }
  let complete = true;
  for (const field of LIST_FIELDS) complete = nameList(value[field], named, field) && complete;
  const forced = value["forced_choice"];
  if (forced !== undefined) nameOrNull(forced, `${named}: 'forced_choice'`);
  const detail = value["detail"];
  if (detail !== undefined && typeof detail !== "string")
    throw new Invalid(`${named}: 'detail' must be a string, found ${describe(detail)}`);
  const degraded = value["degraded"];
  if (degraded !== undefined && degraded !== null && typeof degraded !== "boolean")
    throw new Invalid(`${named}: 'degraded' must be true or false, found ${describe(degraded)}`);
  const reasons = value["reasons"];
  if (reasons !== undefined && reasons !== null) checkReasons(reasons, named);
  // The usual record is complete and is kept as parsed; one with gaps is copied with its defaults.
  if (
    complete &&
    forced !== undefined &&
    detail !== undefined &&
    degraded !== null &&
    reasons !== null
  )
    return value as unknown as LoggedRecord;
  const record: { -readonly [K in keyof LoggedRecord]: LoggedRecord[K] } = {
    stage,
    action: action as StageAction,
    kept: (value["kept"] as string[] | null | undefined) ?? [],
    dropped: (value["dropped"] as string[] | null | undefined) ?? [],
    added: (value["added"] as string[] | null | undefined) ?? [],
    reinstated: (value["reinstated"] as string[] | null | undefined) ?? [],
    forced_choice: (forced as string | null | undefined) ?? null,
    detail: (detail as string | undefined) ?? "",
  };
  if (typeof degraded === "boolean") record.degraded = degraded;
  if (reasons !== undefined && reasons !== null) record.reasons = reasons as Record<string, string>;
  return record;
}

/** Parsed JSON holds a "__proto__" key as an own data property, so the object is safe to keep as it is. */
function checkReasons(value: unknown, named: string): void {
  if (!isJsonObject(value))
    throw new Invalid(
      `${named}: 'reasons' must be an object of tool name → reason, found ${describe(value)}`,
    );
  for (const tool of Object.keys(value)) {
    const reason = value[tool];
    if (typeof reason !== "string")
      throw new Invalid(
        `${named}: the reason for '${tool}' must be a string, found ${describe(reason)}`,
      );
  }
}

/**
 * Checks a list of names; false when it is missing (an empty list by default). The message's
 * words are joined only for an error: this runs for every list of every record.
 */
function nameList(value: unknown, named: string, field: string): boolean {
  if (value === undefined || value === null) return false;
  if (!Array.isArray(value))
    throw new Invalid(
      `${named}: '${field}' must be a list of tool names, found ${describe(value)}`,
    );
  for (let i = 0; i < value.length; i++) {
    if (typeof value[i] !== "string")
      throw new Invalid(
        `${named}: '${field}' must be a list of tool names, found ${describe(value[i])} at position ${i}`,
      );
  }
  return true;
}

function nameOrNull(value: unknown, what: string): string | null {
  if (value === null || typeof value === "string") return value;
  throw new Invalid(`${what} must be a tool name or null, found ${describe(value)}`);
}

function readTools(candidate: JsonObject, key: "tools" | "offered"): Tool[] | null {
  const value = candidate[key];
  if (value === undefined || value === null) return null;
  if (!Array.isArray(value))
    throw new Invalid(`'${key}' must be a list of tool names or objects, found ${describe(value)}`);
  value.forEach((tool, i) => {
    if (typeof tool !== "string" && !isJsonObject(tool))
      throw new Invalid(
        `'${key}' must be a list of tool names or objects, found ${describe(tool)} at position ${i}`,
      );
    // A name is a scalar: only an object has a depth to walk.
    if (typeof tool !== "string") assertShallow(tool, `'${key}' position ${i}`);
  });
  return value as Tool[];
}

function readError(value: unknown): LoggedError | null {
  if (value === undefined || value === null) return null;
  if (typeof value === "string")
    return { kind: "ForcedToolUnavailable", message: value, tool: null };
  if (!isJsonObject(value))
    throw new Invalid(
      `'error' must be null, a message or { kind, message }, found ${describe(value)}`,
    );
  const kind = value["kind"] ?? "ForcedToolUnavailable";
  const message = value["message"] ?? "";
  const tool = value["tool"] ?? null;
  if (typeof kind !== "string")
    throw new Invalid(`'error.kind' must be a string, found ${describe(kind)}`);
  if (typeof message !== "string")
    throw new Invalid(`'error.message' must be a string, found ${describe(message)}`);
  return { kind, message, tool: nameOrNull(tool, "'error.tool'") };
}

function readTurn(value: unknown): LoggedTurn | null {
  if (value === undefined || value === null) return null;
  if (!isJsonObject(value)) throw new Invalid(`'turn' must be an object, found ${describe(value)}`);
  const turn: { -readonly [K in keyof LoggedTurn]: LoggedTurn[K] } = {};
  for (const key of ["query", "role"] as const) {
    const text = value[key];
    if (text === undefined || text === null) continue;
    if (typeof text !== "string")
      throw new Invalid(`'turn.${key}' must be a string, found ${describe(text)}`);
    turn[key] = text;
  }
  const state = value["state"];
  if (state !== undefined && state !== null) {
    if (!isJsonObject(state))
      throw new Invalid(`'turn.state' must be an object, found ${describe(state)}`);
    turn.state = state;
  }
  const messages = value["messages"];
  if (messages !== undefined && messages !== null) {
    if (!Array.isArray(messages))
      throw new Invalid(`'turn.messages' must be a list, found ${describe(messages)}`);
    turn.messages = messages;
  }
  assertShallow(turn, "'turn'");
  return turn;
}

function firstScalar(
  candidate: JsonObject,
  keys: readonly string[],
  what: string,
): string | number | null {
  for (const key of keys) {
    const value = candidate[key];
    if (value === undefined || value === null) continue;
    if (typeof value === "string" || typeof value === "number") return value;
    throw new Invalid(
      `the ${what} '${key}' must be a string or a number, found ${describe(value)}`,
    );
  }
  return null;
}

/** Refuses values nested deeper than MAX_VALUE_DEPTH, walking with an explicit stack (no recursion to overflow). */
function assertShallow(value: unknown, what: string): void {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [item, depth] = stack.pop()!;
    if (typeof item !== "object" || item === null) continue;
    if (depth > MAX_VALUE_DEPTH)
      throw new Invalid(`${what} is nested deeper than ${MAX_VALUE_DEPTH} levels`);
    // Scalars are pushed too and skipped when popped: one test of what to descend into.
    for (const child of Array.isArray(item) ? item : Object.values(item))
      stack.push([child, depth + 1]);
  }
}

/** "a string", "an array", "null"…, for problem sentences. */
export function describe(value: unknown): string {
  if (value === undefined) return "nothing";
  if (value === null) return "null";
  if (Array.isArray(value)) return "a list";
  switch (typeof value) {
    case "string":
      return "a string";
    case "number":
      return "a number";
    case "boolean":
      return value ? "true" : "false";
    case "object":
      return "an object";
    default:
      return typeof value;
  }
}
