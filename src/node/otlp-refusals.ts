/**
 * What the OTLP receiver refuses a request for, and how it answers a refusal (docs/formats.md,
 * "palette-inspector receive"): an OTLP error answer, a google.rpc.Status in the request's encoding.
 */
import type { ServerResponse } from "node:http";
import { isJsonObject } from "../core/traces/trace.js";
import { parseJsonInSteps, TooDeep, TooManyContainers } from "../core/otel/json-steps.js";
import { encodeStatus, ProtobufError, TooManySpans } from "./otlp-proto.js";

/** Spans a request may hold (its resource and scope entries counted with them): more are refused with 413, before all are decoded. */
export const MAX_SPANS_PER_REQUEST = 100_000;
/** Objects and arrays a JSON body may hold: the walk that parses a large body stops past them. */
export const MAX_JSON_CONTAINERS = 1_000_000;

/** A request refused, with its HTTP status. */
export class Refusal extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** True for protobuf, false for JSON; other content types are refused. */
export function contentKind(header: string | undefined): boolean {
  const type = (header ?? "").split(";")[0]!.trim().toLowerCase();
  if (type === "application/x-protobuf") return true;
  if (type === "application/json") return false;
  throw new Refusal(
    415,
    `Content-Type '${type.slice(0, 60)}' is not served: application/json or application/x-protobuf`,
  );
}

/** The body's JSON, in steps when `stepped` (else in one: a small body gains nothing from a walk). */
export function* parseJsonSteps(body: Buffer, stepped: boolean): Generator<void, unknown> {
  try {
    if (!stepped) return JSON.parse(body.toString("utf8")) as unknown;
    const decode = (start: number, end: number) => body.toString("utf8", start, end);
    return yield* parseJsonInSteps(body, decode, MAX_JSON_CONTAINERS);
  } catch (error) {
    if (tooDeep(error)) throw error;
    if (error instanceof TooManyContainers)
      throw new Refusal(413, `${error.message} (a request is read whole; send fewer spans)`);
    throw new Refusal(400, `the body is not JSON: ${(error as Error).message}`);
  }
}

/** The spans of a request's scopes, counted before any is read (a scope that is not one counts none). */
export function spanCount(
  resources: readonly unknown[],
  scopesKey = "scopeSpans",
  itemsKey = "spans",
): number {
  let count = 0;
  for (const resource of resources) {
    const scopes = isJsonObject(resource) ? resource[scopesKey] : undefined;
    if (!Array.isArray(scopes)) continue;
    for (const scope of scopes) {
      const spans = isJsonObject(scope) ? scope[itemsKey] : undefined;
      count += 1 + (Array.isArray(spans) ? spans.length : 0);
    }
    count++;
  }
  return count;
}

export function tooManySpans(): Refusal {
  return new Refusal(
    413,
    `the request holds more than ${MAX_SPANS_PER_REQUEST.toLocaleString("en-US")} spans or log records (with their resource and scope entries); send fewer a request`,
  );
}

/** Bytes in MiB, to a tenth. */
export function mib(bytes: number): number {
  return Math.round((bytes / 2 ** 20) * 10) / 10;
}

export function stopping(): Refusal {
  return new Refusal(503, "the receiver is stopping");
}

/** A value nested deeper than the stack a recursive reader of it (or of one of its strings) can take. */
function tooDeep(error: unknown): boolean {
  return (
    error instanceof TooDeep || (error instanceof RangeError && /call stack/i.test(error.message))
  );
}

/** What a failed request is answered, or null for a fault of the receiver's own. */
export function refusalOf(error: unknown): Refusal | null {
  if (error instanceof Refusal) return error;
  if (tooDeep(error)) return new Refusal(400, "the request is nested too deeply to be read");
  if (error instanceof TooManySpans) return tooManySpans();
  if (error instanceof ProtobufError) return new Refusal(400, error.message);
  return null;
}

/** An OTLP error answer: a google.rpc.Status, the connection closed after a refused body. */
export function answerError(
  response: ServerResponse,
  status: number,
  message: string,
  inProtobuf = false,
): void {
  if (response.headersSent) {
    response.destroy();
    return;
  }
  // google.rpc.Code: INVALID_ARGUMENT, PERMISSION_DENIED, UNAVAILABLE, else UNKNOWN.
  const code = status === 400 ? 3 : status === 403 ? 7 : status === 503 ? 14 : 2;
  response.writeHead(status, {
    "content-type": inProtobuf ? "application/x-protobuf" : "application/json",
    connection: "close",
  });
  response.end(inProtobuf ? encodeStatus(code, message) : JSON.stringify({ code, message }));
}
