/**
 * A trace's model call and OTel ids, as the trace model owns them: the sources that make traces
 * (logs, OTLP, the debugger) import these, never the reverse (docs/formats.md, "Selection traces
 * in OpenTelemetry").
 */

export interface OtelIds {
  readonly trace_id: string;
  readonly span_id: string;
  readonly service: string | null;
}

/** The instrumentation convention a model call was read from (docs/formats.md lists what each records). */
export type Convention = "gen_ai" | "gen_ai_older" | "gen_ai_logs" | "openinference" | "ai_sdk";

/** The short label of each convention, beside "what the model got" in every view. */
export const CONVENTION_LABEL: Readonly<Record<Convention, string>> = {
  gen_ai: "OTel GenAI",
  gen_ai_older: "OTel GenAI, older",
  gen_ai_logs: "OTel GenAI with log records",
  openinference: "OpenInference",
  ai_sdk: "AI SDK ai.*",
};

export const CONVENTIONS = Object.keys(CONVENTION_LABEL) as readonly Convention[];

/**
 * What the request sent as its tool choice: "auto", "none", "required", the forced tool's name, or
 * null when the instrumentation did not record it.
 */
export type ToolChoice = string | null;

/** The tool choices that force no tool; any other text is the name of the tool forced. */
export const TOOL_CHOICE_MODES = ["auto", "none", "required"] as const;

/** Whether a tool choice is a mode, not a forced tool's name. */
export function isToolChoiceMode(choice: string): boolean {
  return (TOOL_CHOICE_MODES as readonly string[]).includes(choice);
}

export interface ModelCall {
  readonly span_id: string;
  readonly model: string | null;
  /** The tools the request offered, in order; null when the instrumentation did not record them. */
  readonly offered: readonly string[] | null;
  /** The tools the model called, in order; null when nothing recorded its calls. */
  readonly called: readonly string[] | null;
  readonly tool_choice: ToolChoice;
  readonly convention: Convention;
  /** Differences against the final palette; null when a side they need is not recorded. */
  readonly final_not_offered: readonly string[] | null;
  readonly offered_not_final: readonly string[] | null;
  readonly called_not_offered: readonly string[] | null;
}

/** The pipeline's forced choice (null: none) beside a request's tool choice that disagrees with it. */
export interface ChoiceMismatch {
  readonly forced: string | null;
  readonly sent: string;
}

/**
 * A mismatch when the request did not force the tool the pipeline forced, or forced one the
 * pipeline did not; null when they agree or the request's choice is not recorded.
 */
export function choiceMismatch(forced: string | null, sent: ToolChoice): ChoiceMismatch | null {
  if (sent === null || sent === forced) return null;
  if (forced === null && isToolChoiceMode(sent)) return null;
  return { forced, sent };
}
