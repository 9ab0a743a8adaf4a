/**
 * The one message protocol between the extension host and the Selection Trace webview. Both sides
 * validate what they receive; anything unknown or malformed is logged and ignored.
 */
import type { Comparison } from "./core/compare.js";
import type { ExpectationFailure } from "./core/expect.js";
import type { ReportView } from "./core/report.js";
import { CONVENTIONS, type ModelCall } from "./core/traces/model-call.js";
import { isWhatIf, type WhatIf, type WhatIfLevers } from "./core/whatif.js";
import {
  isArrayOf,
  isCount as isRequestId,
  isNames,
  isRecord,
  isReply,
  isString,
  isStringOrNull,
  messageParser,
  type MessageChecks,
  type RequestTimeouts,
  DIALOG_TIMEOUT_MS,
  WORK_TIMEOUT_MS,
  type Reply,
} from "./protocol-guards.js";

/** A fixture problem as the panel lists it: 1-based line and column, never a stack. */
export interface ProblemView {
  readonly severity: "error" | "warning";
  readonly file: string;
  readonly line: number;
  readonly column: number;
  readonly message: string;
}

/** A what-if run on the same text as the view it comes with, or why it cannot run. */
export type WhatIfView = { readonly edit: WhatIf } & (
  { readonly variant: ReportView; readonly comparison: Comparison } | { readonly error: string }
);

/** What the panel shows: a run, and the levers a what-if may move (null: read-only, e.g. a logged trace). */
export interface TraceView {
  readonly report: ReportView;
  readonly levers: WhatIfLevers | null;
  /** The fixture's URI, which the webview keeps in its state so the panel can be restored after a reload. */
  readonly source: string | null;
  /**
   * A second run to show against this one (two traces, a fixture, a replay), or null; `names` name
   * this run and the second, and `replay` says the second is this one's replay.
   */
  readonly compared: {
    readonly report: ReportView;
    readonly comparison: Comparison;
    readonly names: readonly [string, string];
    readonly replay: boolean;
  } | null;
  /** The what-if the webview asked for last, already run on this text, so a live re-run draws once. */
  readonly whatIf: WhatIfView | null;
  /** The turn the fixture describes (null: a logged trace, which does not say). */
  readonly turn: { readonly query: string; readonly role: string } | null;
  /** The fixture's expectations that this run fails, each with the stages where the run differs. */
  readonly failed: readonly ExpectationFailure[];
  /** A value read from a debug session that the program has since moved past (absent: not stale). */
  readonly stale?: boolean;
  /** A tool to select on arrival (opened from Palette Statistics: the tool that went missing). */
  readonly selectedTool?: string;
  /** The fixture's role palettes, so a tool one names but the run never offered can be explained. */
  readonly rolePalettes?: readonly RolePalette[];
}

/** One role's palette in a role stage of the fixture. */
export interface RolePalette {
  readonly stage: string;
  readonly role: string;
  readonly tools: readonly string[];
}

export type ToWebview =
  /** Here is the run to show (first after `ready`, and again after every live re-run). */
  | { readonly type: "show"; readonly view: TraceView }
  /** The fixture cannot run; these are its problems. */
  | {
      readonly type: "problems";
      readonly file: string;
      readonly source: string | null;
      readonly problems: readonly ProblemView[];
    }
  /** The answer to `whatIf`: the variant's run and how it differs from the unmodified run. */
  | {
      readonly type: "whatIfResult";
      readonly requestId: number;
      readonly variant: ReportView;
      readonly comparison: Comparison;
    }
  /** The answer to a request that returns no data: done, or why not. */
  | Reply;

export type FromWebview =
  /** The webview is listening, with the what-if it keeps (after a reload); the host may post now. */
  | { readonly type: "ready"; readonly edit: WhatIf }
  /**
   * Run the fixture with this what-if and answer with `whatIfResult` (or a failed `reply`); the
   * host keeps it, and runs it with every live re-run until `clearWhatIf`.
   */
  | { readonly type: "whatIf"; readonly requestId: number; readonly edit: WhatIf }
  /** The what-if was reset: live re-runs show the fixture's own run again. */
  | { readonly type: "clearWhatIf" }
  /** Ask the user for a new file name and write the variant fixture there. */
  | { readonly type: "saveVariant"; readonly requestId: number; readonly edit: WhatIf }
  /**
   * Put the waterfall of a run the host holds on the clipboard as Markdown: the one shown, or the
   * last what-if it answered. The host builds the text; the webview sends none.
   */
  | { readonly type: "copyMarkdown"; readonly requestId: number; readonly run: "shown" | "whatIf" }
  /** Show where the fixture mentions this tool. */
  | { readonly type: "revealTool"; readonly tool: string }
  /** Open the log a logged trace came from at its line (`compared`: the second of two traces). */
  | { readonly type: "openSource"; readonly compared: boolean }
  /** Compare the run shown with another the user picks (an open run, a saved what-if, a fixture). */
  | { readonly type: "compare" }
  /** On a value read from a debug session: read it again, replay it, capture the turn, compare it. */
  | { readonly type: "debugAction"; readonly action: DebugAction };

/** How long the host and the page wait for each of the panel's requests. */
export const PANEL_REQUEST_TIMEOUTS: RequestTimeouts<FromWebview> = {
  whatIf: WORK_TIMEOUT_MS,
  copyMarkdown: WORK_TIMEOUT_MS,
  saveVariant: DIALOG_TIMEOUT_MS,
};

export const DEBUG_ACTIONS = ["refresh", "turnIntoFixture", "captureTurn", "compare"] as const;
export type DebugAction = (typeof DEBUG_ACTIONS)[number];

/** What the webview persists across hide/show and reload: where the data comes from, and UI state only. */
export interface PanelState {
  readonly source: string | null;
  readonly selectedTool: string | null;
  readonly scrollY: number;
  readonly matrix: boolean;
  readonly edit: WhatIf;
}

function isRecordOf(value: unknown): boolean {
  if (!isRecord(value)) return false;
  return (
    isString(value.stage) &&
    ["abstain", "select", "force", "error"].includes(value.action as string) &&
    isNames(value.kept) &&
    isNames(value.dropped) &&
    isNames(value.added) &&
    isNames(value.reinstated) &&
    isStringOrNull(value.forcedChoice) &&
    isString(value.detail) &&
    typeof value.degraded === "boolean" &&
    isRecord(value.reasons) &&
    Object.values(value.reasons).every(isString)
  );
}

function isModelCall(value: unknown): value is ModelCall {
  return (
    isRecord(value) &&
    isString(value.span_id) &&
    isStringOrNull(value.model) &&
    isStringOrNull(value.tool_choice) &&
    (CONVENTIONS as readonly unknown[]).includes(value.convention) &&
    [
      value.offered,
      value.called,
      value.final_not_offered,
      value.offered_not_final,
      value.called_not_offered,
    ].every((names) => names === null || isNames(names))
  );
}

/** Enough of a report's shape that the webview can render it without tripping. */
export function isReportView(value: unknown): value is ReportView {
  if (!isRecord(value)) return false;
  const origin = value.origin;
  const error = value.error;
  return (
    isRecord(origin) &&
    (origin.kind === "fixture" ||
      (origin.kind === "log" && typeof origin.line === "number") ||
      (origin.kind === "received" && typeof origin.index === "number") ||
      (origin.kind === "debug" &&
        isString(origin.session) &&
        isString(origin.frame) &&
        isString(origin.expression))) &&
    isString(value.file) &&
    isString(value.description) &&
    isNames(value.offered) &&
    isNames(value.names) &&
    isStringOrNull(value.forcedChoice) &&
    Array.isArray(value.trace) &&
    value.trace.every(isRecordOf) &&
    isArrayOf(
      value.stages,
      (stage): stage is object =>
        isRecord(stage) &&
        isString(stage.name) &&
        isString(stage.kind) &&
        typeof stage.enabled === "boolean" &&
        typeof stage.protectsForced === "boolean",
    ) &&
    (error === null ||
      (isRecord(error) &&
        isString(error.tool) &&
        isString(error.message) &&
        isStringOrNull(error.droppedBy))) &&
    isArrayOf(
      value.manifest,
      (entry): entry is object =>
        isRecord(entry) && isString(entry.name) && isString(entry.summary),
    ) &&
    (value.capability === null ||
      (isRecord(value.capability) &&
        isNames(value.capability.registered) &&
        isRecord(value.capability.router) &&
        isRecord(value.capability.palette))) &&
    typeof value.durationMs === "number" &&
    (value.model === undefined || value.model === null || isModelCall(value.model))
  );
}

function isLevers(value: unknown): value is WhatIfLevers {
  return (
    isRecord(value) &&
    Array.isArray(value.stages) &&
    isString(value.role) &&
    isNames(value.roles) &&
    Array.isArray(value.verdicts) &&
    Array.isArray(value.forced) &&
    Array.isArray(value.policies) &&
    isNames(value.safetyLevels)
  );
}

function isWhatIfView(value: unknown): boolean {
  return (
    isRecord(value) &&
    isWhatIf(value.edit) &&
    (isString(value.error) || (isReportView(value.variant) && isComparison(value.comparison)))
  );
}

function isFailure(value: unknown): value is ExpectationFailure {
  return isRecord(value) && isString(value.key) && isString(value.text) && isNames(value.stages);
}

function isProblem(value: unknown): value is ProblemView {
  return (
    isRecord(value) &&
    (value.severity === "error" || value.severity === "warning") &&
    isString(value.file) &&
    typeof value.line === "number" &&
    typeof value.column === "number" &&
    isString(value.message)
  );
}

function isComparison(value: unknown): value is Comparison {
  return (
    isRecord(value) &&
    Array.isArray(value.stages) &&
    isRecord(value.final) &&
    isRecord(value.forced) &&
    typeof value.changed === "boolean"
  );
}

const TO_WEBVIEW: MessageChecks<ToWebview> = {
  show: (value) =>
    isRecord(value.view) &&
    isReportView(value.view.report) &&
    (value.view.levers === null || isLevers(value.view.levers)) &&
    isStringOrNull(value.view.source) &&
    (value.view.stale === undefined || typeof value.view.stale === "boolean") &&
    (value.view.selectedTool === undefined || isString(value.view.selectedTool)) &&
    (value.view.rolePalettes === undefined ||
      isArrayOf(
        value.view.rolePalettes,
        (palette): palette is RolePalette =>
          isRecord(palette) &&
          isString(palette.stage) &&
          isString(palette.role) &&
          isNames(palette.tools),
      )) &&
    (value.view.compared === null ||
      (isRecord(value.view.compared) &&
        isReportView(value.view.compared.report) &&
        isComparison(value.view.compared.comparison) &&
        isNames(value.view.compared.names) &&
        value.view.compared.names.length === 2 &&
        typeof value.view.compared.replay === "boolean")) &&
    (value.view.whatIf === null || isWhatIfView(value.view.whatIf)) &&
    (value.view.turn === null ||
      (isRecord(value.view.turn) &&
        isString(value.view.turn.query) &&
        isString(value.view.turn.role))) &&
    isArrayOf(value.view.failed, isFailure),
  problems: (value) =>
    isString(value.file) && isStringOrNull(value.source) && isArrayOf(value.problems, isProblem),
  whatIfResult: (value) =>
    isRequestId(value.requestId) && isReportView(value.variant) && isComparison(value.comparison),
  reply: isReply,
};

/** A message the host sent, or null (after logging) when it is not one this protocol knows. */
export const parseToWebview = messageParser<ToWebview>(TO_WEBVIEW, "message from the host");

const isEditRequest = (value: Record<string, unknown>) =>
  isRequestId(value.requestId) && isWhatIf(value.edit);

const FROM_WEBVIEW: MessageChecks<FromWebview> = {
  ready: (value) => isWhatIf(value.edit),
  clearWhatIf: () => true,
  compare: () => true,
  whatIf: isEditRequest,
  saveVariant: isEditRequest,
  copyMarkdown: (value) =>
    isRequestId(value.requestId) && (value.run === "shown" || value.run === "whatIf"),
  revealTool: (value) => isString(value.tool) && value.tool !== "",
  openSource: (value) => typeof value.compared === "boolean",
  debugAction: (value) => DEBUG_ACTIONS.includes(value.action as DebugAction),
};

/** A message the webview sent, or null (after logging) when it is not one this protocol knows. */
export const parseFromWebview = messageParser<FromWebview>(
  FROM_WEBVIEW,
  "message from the webview",
);

/** The persisted state if it has the expected shape; anything else starts fresh. */
export function parsePanelState(value: unknown): PanelState | null {
  if (!isRecord(value)) return null;
  if (
    !isStringOrNull(value.source) ||
    !isStringOrNull(value.selectedTool) ||
    typeof value.scrollY !== "number" ||
    typeof value.matrix !== "boolean" ||
    !isWhatIf(value.edit)
  )
    return null;
  return value as unknown as PanelState;
}
