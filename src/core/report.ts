import type { PaletteOutcome, RouterOutcome } from "./capability.js";
import type { ManifestEntry } from "./catalog.js";
import type { StageKind } from "./fixture/schema.js";
import type { Tool } from "./tools.js";
import type { StageRecord } from "./contract.js";
import type { ModelCall } from "./traces/model-call.js";

/** One stage of the composition, run or not. */
export interface StageInfo {
  readonly name: string;
  /** `logged`: a stage known only from a trace in a log, whose configuration is not known. */
  readonly kind: StageKind | "logged";
  readonly enabled: boolean;
  readonly protectsForced: boolean;
}

export interface RunError {
  readonly kind: "ForcedToolUnavailable";
  readonly message: string;
  readonly tool: string;
  /** The stage that last dropped the forced tool; null when it was never offered. */
  readonly droppedBy: string | null;
}

export interface CapabilityReport {
  readonly registered: readonly string[];
  readonly router: RouterOutcome;
  readonly routerReason: string;
  readonly palette: PaletteOutcome;
}

export type ReportOrigin =
  | { readonly kind: "fixture" }
  | { readonly kind: "log"; readonly line: number; readonly index: number }
  /** A live turn received over OpenTelemetry: no log line to go back to; its number among the turns. */
  | { readonly kind: "received"; readonly index: number }
  | {
      readonly kind: "debug";
      readonly session: string;
      /** The frame's function and place, e.g. `turn (agent.py:42)`. */
      readonly frame: string;
      readonly expression: string;
    };

/** Everything a run decided, in the form every view (table, panel, JSON, tests) reads. */
export interface RunReport {
  /**
   * A fixture run (editable, what-if), a trace read from a log (read-only) at a 1-based line, a
   * turn received over OpenTelemetry (read-only), or a value read from a paused debug session
   * (read-only): which session, frame and expression.
   */
  readonly origin: ReportOrigin;
  readonly file: string;
  readonly description: string;
  /** The names the stages ran over, in order (in capability mode: what the router left). */
  readonly offered: readonly string[];
  readonly tools: readonly Tool[];
  readonly names: readonly string[];
  readonly forcedChoice: string | null;
  readonly trace: readonly StageRecord[];
  readonly stages: readonly StageInfo[];
  readonly error: RunError | null;
  readonly manifest: readonly ManifestEntry[];
  readonly capability: CapabilityReport | null;
  readonly durationMs: number;
  /**
   * A trace read from OpenTelemetry: the model call it fed, or null when none was joined; absent
   * for every other run.
   */
  readonly model?: ModelCall | null;
}

/** A report as a view shows it: the tools' own objects (schemas, descriptions) stay with the host. */
export type ReportView = Omit<RunReport, "tools">;

/** The report without `tools`, which no view reads and which can be large. */
export function reportView(report: RunReport): ReportView {
  const view: { -readonly [K in keyof RunReport]?: RunReport[K] } = { ...report };
  delete view.tools;
  return view as ReportView;
}

/** The stage that dropped `tool` last, or null when none did. */
export function droppedBy(trace: readonly StageRecord[], tool: string): string | null {
  for (let i = trace.length - 1; i >= 0; i--)
    if (trace[i]!.dropped.includes(tool)) return trace[i]!.stage;
  return null;
}
