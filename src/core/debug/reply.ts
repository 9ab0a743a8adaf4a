/**
 * What the debug adapter answered to the probe (probe.ts), read into a LoggedTrace — the same
 * value a trace in a log becomes, so the waterfall, Turn into Fixture and Copy as Markdown work on
 * it unchanged. Every way it can go wrong is a DebugProblem: the host words it, neutralised.
 */
import { tracesInValue } from "../traces/find.js";
import { scanText } from "../traces/scan.js";
import { isJsonObject, own, validateTrace, type LoggedTrace } from "../traces/trace.js";
import { MAX_VALUE_CHARS } from "./probe.js";

/** The body of a DAP `evaluate` response (only what is read). */
export interface EvaluateReply {
  readonly result: string;
  readonly type?: string;
}

export type DebugProblem =
  /** Python raised (a NameError comes back as a successful reply with that type). */
  | { readonly kind: "evaluation"; readonly pythonType: string; readonly message: string }
  /** The value is of another shape; `found` says what it is (debuggee text). */
  | { readonly kind: "shape"; readonly found: string }
  | { readonly kind: "tooLarge"; readonly size: number }
  /** The probe read its budget of values (a structure shared or nested too much) and stopped. */
  | { readonly kind: "tooManyValues"; readonly values: number }
  /** The probe ran out of time in the debuggee and stopped, releasing the paused thread. */
  | { readonly kind: "timedOut"; readonly seconds: number }
  /** It has the shape but a field is wrong; `message` names the field (debuggee text). */
  | { readonly kind: "invalid"; readonly message: string }
  /** A string or dict value holding no selection trace. */
  | { readonly kind: "noTrace" }
  /** Not what the probe writes: an adapter without debugpy's rawString, or something else. */
  | { readonly kind: "unreadable"; readonly message: string };

export type Read<T> =
  { readonly ok: true; readonly value: T } | { readonly ok: false; readonly problem: DebugProblem };

const fail = (problem: DebugProblem): { ok: false; problem: DebugProblem } => ({
  ok: false,
  problem,
});

/** The probe's JSON object, or the problem the reply shows instead. */
export function probeOutput(reply: EvaluateReply): Read<{ readonly [key: string]: unknown }> {
  const text = reply.result;
  if (typeof text !== "string")
    return fail({ kind: "unreadable", message: "the reply has no result" });
  if (reply.type !== undefined && reply.type !== "str")
    return fail({ kind: "evaluation", pythonType: reply.type, message: text });
  if (text.length > MAX_VALUE_CHARS + 1024) return fail({ kind: "tooLarge", size: text.length });
  if (/^[rbu]?['"]/i.test(text))
    return fail({
      kind: "unreadable",
      message:
        "the debugger answered with a quoted Python string; it needs debugpy's rawString format",
    });
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return fail({ kind: "unreadable", message: "the answer is not the JSON the probe writes" });
  }
  if (!isJsonObject(parsed) || own(parsed, "palette_inspector") !== 1)
    return fail({ kind: "unreadable", message: "the answer is not the JSON the probe writes" });
  switch (own(parsed, "kind")) {
    case "too_large":
      return fail({ kind: "tooLarge", size: Number(own(parsed, "size")) || 0 });
    case "too_many":
      return fail({ kind: "tooManyValues", values: Number(own(parsed, "values")) || 0 });
    case "timed_out":
      return fail({ kind: "timedOut", seconds: Number(own(parsed, "seconds")) || 0 });
    case "shape":
      return fail({ kind: "shape", found: String(own(parsed, "found")) });
  }
  return { ok: true, value: parsed };
}

/**
 * The trace an `inspectExpression` reply describes. A string value is a log to scan, handed to
 * `readText` (the extension scans it in a worker thread: a debuggee may hold a hostile one).
 */
export function readInspectReply(reply: EvaluateReply): Read<LoggedTrace>;
export function readInspectReply<T>(
  reply: EvaluateReply,
  readText: (text: string) => T,
): Read<LoggedTrace> | T;
export function readInspectReply<T>(
  reply: EvaluateReply,
  readText?: (text: string) => T,
): Read<LoggedTrace> | T {
  const out = probeOutput(reply);
  if (!out.ok) return out;
  const value = out.value;
  switch (own(value, "kind")) {
    case "trace": {
      const trace = own(value, "trace");
      if (!isJsonObject(trace))
        return fail({ kind: "unreadable", message: "no trace in the answer" });
      return fromValidation(validateTrace(trace));
    }
    case "json":
      return firstTrace(tracesInValue(own(value, "value"), { time: null, id: null }));
    case "text": {
      const text = String(own(value, "text"));
      return readText ? readText(text) : traceOfText(scanText(text));
    }
    default:
      return fail({ kind: "unreadable", message: "the answer is not the JSON the probe writes" });
  }
}

/** The trace a scanned text holds: its first, else its first problem. */
export function traceOfText(scanned: {
  readonly traces: readonly { readonly trace: LoggedTrace }[];
  readonly problems: readonly { readonly message: string }[];
}): Read<LoggedTrace> {
  if (scanned.traces[0]) return { ok: true, value: scanned.traces[0].trace };
  if (scanned.problems[0]) return fail({ kind: "invalid", message: scanned.problems[0].message });
  return fail({ kind: "noTrace" });
}

function firstTrace(found: ReturnType<typeof tracesInValue>): Read<LoggedTrace> {
  const first = found[0];
  if (first === undefined) return fail({ kind: "noTrace" });
  return fromValidation(first);
}

function fromValidation(found: { trace: LoggedTrace } | { problem: string }): Read<LoggedTrace> {
  return "trace" in found
    ? { ok: true, value: found.trace }
    : fail({ kind: "invalid", message: found.problem });
}
