/**
 * "What the model got": the model call a selection fed, set against the pipeline's final palette
 * (docs/formats.md, "Selection traces in OpenTelemetry"). Every view (panel, Markdown, `show`)
 * shows these rows and words.
 */
import {
  choiceMismatch,
  CONVENTION_LABEL,
  isToolChoiceMode as isMode,
  type ChoiceMismatch,
  type ModelCall,
  type ToolChoice,
} from "./traces/model-call.js";
import type { ReportView } from "./report.js";

/** A tool the model was offered or the pipeline decided: in both, or on one side only. */
export type ModelToolMark = "both" | "added" | "lost";

/** What each difference's mark says, in every view. */
export const MODEL_MARK_TEXT: Readonly<Record<Exclude<ModelToolMark, "both">, string>> = {
  added: "added after selection",
  lost: "lost after selection",
};

export const MODEL_HEADING = "What the model got";

export interface ModelGot {
  readonly model: string | null;
  readonly spanId: string;
  /** The short label of the convention it was read from (CONVENTION_LABEL). */
  readonly convention: string;
  /** What the request sent as its tool choice; null when not recorded. */
  readonly toolChoice: ToolChoice;
  /** When the request's tool choice and the pipeline's forced choice disagree: what the views warn of. */
  readonly choiceMismatch: ChoiceMismatch | null;
  /**
   * The tools offered to the model in its order, then the final tools it was not offered; null
   * when the call does not list the tools it was offered.
   */
  readonly tools: readonly { readonly name: string; readonly mark: ModelToolMark }[] | null;
  /**
   * The tools it called, in call order; `unoffered`: a tool it was not offered (or, when `tools` is
   * null, not in the final palette); null when nothing recorded its calls.
   */
  readonly called: readonly { readonly name: string; readonly unoffered: boolean }[] | null;
  /** Each tool it called without being offered it, once: what the views warn about. */
  readonly unoffered: readonly string[];
}

/**
 * The section for a report: undefined when it is not from OpenTelemetry (nothing to show), null
 * when no model call was joined.
 */
export function modelGot(
  report: Pick<ReportView, "model" | "forcedChoice">,
): ModelGot | null | undefined {
  const call = report.model;
  if (call === undefined || call === null) return call;
  return {
    model: call.model,
    spanId: call.span_id,
    convention: CONVENTION_LABEL[call.convention],
    toolChoice: call.tool_choice,
    choiceMismatch: choiceMismatch(report.forcedChoice, call.tool_choice),
    tools: tools(call),
    called: called(call),
    unoffered: [...new Set(call.called_not_offered)],
  };
}

/** The mismatch's warning, in every view: `name` neutralises the tools' names. */
export function choiceWarning(
  { forced, sent }: ChoiceMismatch,
  name: (text: string) => string,
): string {
  return forced === null
    ? `the request forced ${name(sent)}; the pipeline forced no tool`
    : `the pipeline forced ${name(forced)}; the request sent ${isMode(sent) ? sent : `forced ${name(sent)}`}`;
}

function tools(call: ModelCall): ModelGot["tools"] {
  if (call.offered === null) return null;
  const added = new Set(call.offered_not_final);
  return [
    ...call.offered.map((name) => ({ name, mark: added.has(name) ? "added" : "both" }) as const),
    ...(call.final_not_offered ?? []).map((name) => ({ name, mark: "lost" }) as const),
  ];
}

function called(call: ModelCall): ModelGot["called"] {
  const unoffered = new Set(call.called_not_offered);
  return call.called && call.called.map((name) => ({ name, unoffered: unoffered.has(name) }));
}

/** The warning after the name of a tool the model called without being offered it. */
export function unofferedWarning(got: ModelGot): string {
  return got.tools === null
    ? "called, but not in the final palette"
    : "called, but not offered to the model";
}

/**
 * "gpt-4o, span 7baca6a54addf012 (OpenInference)": which call, in words, and the convention it was
 * read from; `name` neutralises what came from the span.
 */
export function modelCallLabel(got: ModelGot, name: (text: string) => string): string {
  return `${got.model === null ? "model not named" : name(got.model)}, span ${name(got.spanId)} (${got.convention})`;
}

/** What every view says of a field the instrumentation did not record: never "none". */
export function notRecorded(got: ModelGot): string {
  return `not recorded (${got.convention})`;
}

/** The request's tool choice in words; `name` neutralises a forced tool's name. */
export function toolChoiceText(got: ModelGot, name: (text: string) => string): string {
  const sent = got.toolChoice;
  if (sent === null) return notRecorded(got);
  return isMode(sent) ? sent : `forced ${name(sent)}`;
}

/** The one sentence for a trace from OpenTelemetry that no inference span was joined to. */
export const NO_MODEL_CALL =
  "No model call joined: no inference span of this trace's OTel trace started after the selection and before the next one.";

/** The one sentence for a model call whose offered tools were not recorded. */
export function noToolDefinitions(got: ModelGot): string {
  return `The tools offered to the model: ${notRecorded(got)}.`;
}
