/**
 * The checks both webview protocols (`protocol.ts`, `stats-protocol.ts`) make of a message they
 * receive, and the one way they parse it: validate, else log what arrived (its type, never its text).
 */

export type Guard<T> = (value: unknown) => value is T;

export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);
export const isString = (value: unknown): value is string => typeof value === "string";
export const isStringOrNull = (value: unknown): value is string | null =>
  value === null || typeof value === "string";
/** A count or a request id: a safe integer, zero or more. */
export const isCount = (value: unknown): value is number =>
  Number.isSafeInteger(value) && (value as number) >= 0;
export const isArrayOf = <T>(value: unknown, item: Guard<T>): value is T[] =>
  Array.isArray(value) && value.every(item);
export const isNames = (value: unknown): value is string[] => isArrayOf(value, isString);

/** The answer to a request that returns no data: done, or why not. */
export interface Reply {
  readonly type: "reply";
  readonly requestId: number;
  readonly ok: boolean;
  readonly message: string;
}

export function isReply(value: Record<string, unknown>): boolean {
  return isCount(value.requestId) && typeof value.ok === "boolean" && isString(value.message);
}

/** The type of each request a protocol direction holds: its messages with a `requestId`. */
export type RequestType<T> =
  Extract<T, { readonly requestId: number }> extends { type: infer K } ? K & string : never;

/**
 * How long each request may take before both sides give up on it (milliseconds): the host then
 * replies with an error, and the page rejects the request if even that reply does not come.
 */
export type RequestTimeouts<T> = { readonly [K in RequestType<T>]: number };

/** A request that waits on a dialog the user answers is given this long. */
export const DIALOG_TIMEOUT_MS = 15 * 60_000;
/** A request the host answers by itself (a run, a copy) is given this long. */
export const WORK_TIMEOUT_MS = 30_000;

/** What a malformed message was, for the log: its type (cut short), else its kind of value. */
export function describe(value: unknown): string {
  const type = isRecord(value) && isString(value.type) ? value.type : null;
  return type === null
    ? `a ${value === null ? "null" : Array.isArray(value) ? "array" : typeof value}`
    : `type ${JSON.stringify(type.slice(0, 40))}`;
}

/** For each type of a message union, what makes a record of that type well-formed. */
export type MessageChecks<T extends { readonly type: string }> = {
  readonly [K in T["type"]]: (record: Record<string, unknown>) => boolean;
};

/**
 * A parser of one direction of a protocol: the message if its `type` is known and its check
 * passes, else null after logging "ignored a malformed or unknown `what` (…)".
 */
export function messageParser<T extends { readonly type: string }>(
  checks: MessageChecks<T>,
  what: string,
): (value: unknown, log?: (message: string) => void) => T | null {
  return (value, log = console.warn) => {
    if (isRecord(value) && typeof value.type === "string" && Object.hasOwn(checks, value.type)) {
      const check = checks[value.type as T["type"]];
      if (check(value)) return value as T;
    }
    log(`palette-inspector: ignored a malformed or unknown ${what} (${describe(value)})`);
    return null;
  };
}
