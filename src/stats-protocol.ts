/**
 * The message protocol between the extension host and the Palette Statistics webview (its own,
 * beside the trace panel's `protocol.ts`). Both sides validate what they receive; anything
 * unknown or malformed is logged and ignored.
 */
import type { Comparison, Side, ToolChange } from "./core/stats/comparison.js";
import type { StageRow, ToolRow } from "./core/stats/rows.js";
import { Timeline, type TimeBucket } from "./core/stats/timeline.js";
import {
  isArrayOf,
  isCount,
  isNames,
  isRecord,
  isReply,
  isString,
  messageParser,
  type MessageChecks,
  type RequestTimeouts,
  DIALOG_TIMEOUT_MS,
  WORK_TIMEOUT_MS,
  type Reply,
} from "./protocol-guards.js";

/**
 * The tools, one array per column (index i is one tool, in code-point order of name): 10,000
 * tools cross to the webview as a few flat arrays, several times faster to send than as objects.
 */
export interface ToolColumns {
  readonly names: readonly string[];
  readonly seen: readonly number[];
  readonly final: readonly number[];
  readonly forced: readonly number[];
  readonly missing: readonly number[];
  /** The stage that most often removed the tool (null: never missing) and in how many traces. */
  readonly topStage: readonly (string | null)[];
  readonly topCount: readonly number[];
}

export function toolColumns(rows: readonly ToolRow[]): ToolColumns {
  return {
    names: rows.map((r) => r.name),
    seen: rows.map((r) => r.seen),
    final: rows.map((r) => r.final),
    forced: rows.map((r) => r.forced),
    missing: rows.map((r) => r.missing),
    topStage: rows.map((r) => r.removedBy[0]?.stage ?? null),
    topCount: rows.map((r) => r.removedBy[0]?.n ?? 0),
  };
}

/** What the view shows: the statistics of a set of logs. */
export interface StatsView {
  /** The URIs the view was opened on (files or folders), kept in its state to read them again after a reload. */
  readonly sources: readonly string[];
  /** The logs, as the user knows them (workspace-relative paths). */
  readonly files: readonly string[];
  readonly traces: number;
  readonly problems: number;
  readonly errors: readonly { readonly kind: string; readonly n: number }[];
  readonly stages: readonly StageRow[];
  readonly tools: ToolColumns;
  readonly timeline: readonly TimeBucket[];
  /** Traces with a time that could not be read as a date (left out of the chart). */
  readonly unreadableTimes: number;
  /** The scan was cancelled: the numbers cover only what was read. */
  readonly cancelled: boolean;
}

/** One trace in which a tool went missing, as the view lists it; `ref` asks the host to open it. */
export interface MissingTrace {
  readonly ref: number;
  readonly file: string;
  readonly line: number;
  readonly time: string | number | null;
  readonly id: string | number | null;
}

export interface MissingGroup {
  /** The stage that last dropped the tool, "?", or the error kind of failed traces (`failed`). */
  readonly stage: string;
  /** The traces failed with this error kind: the pipeline raised before the model was called. */
  readonly failed: boolean;
  /** Traces in this group; `traces` lists the first of them. */
  readonly total: number;
  readonly traces: readonly MissingTrace[];
}

/** One tool of a comparison, as the view shows it (docs/formats.md, "stats --against"). */
export type ComparedTool = Pick<ToolChange, "name" | "old" | "new" | "points" | "stage" | "p">;

/** The first and last readable times of a side's traces, in milliseconds since the epoch. */
export interface Period {
  readonly from: number;
  readonly to: number;
}

/** Where this set was cut: `at` as the user picked it (`stats --split-at` reads the same text). */
export interface SplitView {
  readonly at: string;
  readonly atMs: number;
  /** Traces without a readable time, in neither side. */
  readonly untimed: number;
}

/** This view's set (NEW) compared with another (OLD), biggest change first. */
export interface ComparisonView {
  /** The other set's logs, as the user knows them (for a split, this set's). */
  readonly against: readonly string[];
  /** This set cut at a time (OLD before it), or null when compared with another set. */
  readonly split: SplitView | null;
  /** Both sides' palette size over time on one timeline, and when each side's traces are (null: no readable time). */
  readonly timeline: readonly TimeBucket[];
  readonly periods: { readonly old: Period | null; readonly new: Period | null };
  readonly oldTraces: number;
  readonly newTraces: number;
  /** Sides without a trace: nothing was compared. */
  readonly empty: readonly Side[];
  readonly tools: readonly ComparedTool[];
  readonly onlyOld: readonly string[];
  readonly onlyNew: readonly string[];
}

/** The view of a comparison; `timelines` are each side's, drawn as one with both periods marked. */
export function comparisonView(
  against: readonly string[],
  c: Comparison,
  timelines: { readonly old: Timeline; readonly new: Timeline },
  split: SplitView | null = null,
): ComparisonView {
  return {
    against,
    split,
    timeline: Timeline.joined(timelines.old, timelines.new).list(),
    periods: { old: timelines.old.period(), new: timelines.new.period() },
    oldTraces: c.old.traces,
    newTraces: c.new.traces,
    empty: c.empty,
    tools: c.tools.map(({ name, old, new: now, points, stage, p }) => ({
      name,
      old,
      new: now,
      points,
      stage,
      p,
    })),
    onlyOld: c.onlyOld.map((t) => t.name),
    onlyNew: c.onlyNew.map((t) => t.name),
  };
}

export type ToStatsView =
  | { readonly type: "stats"; readonly view: StatsView }
  /** The answer to `compare`. */
  | { readonly type: "comparison"; readonly requestId: number; readonly view: ComparisonView }
  /** The answer to `missing`: the traces where the tool went missing, by stage, most first. */
  | {
      readonly type: "missing";
      readonly requestId: number;
      readonly tool: string;
      readonly groups: readonly MissingGroup[];
    }
  | Reply;

interface ExportRequest {
  readonly requestId: number;
  readonly tools: readonly string[];
  readonly comparison?: boolean;
}

export type FromStatsView =
  | { readonly type: "ready" }
  /** Which traces of this set (or of a comparison's `side`) lost this tool? Answered by `missing`. */
  | {
      readonly type: "missing";
      readonly requestId: number;
      readonly tool: string;
      readonly side?: Side;
    }
  /** Open this trace in the Selection Trace panel, with the tool's lineage selected. */
  | { readonly type: "openTrace"; readonly ref: number; readonly tool: string }
  /**
   * Copy the tables as Markdown / save them as CSV; `tools` in the order and filter on screen;
   * `comparison`: the page shows the comparison, which then comes first.
   */
  | ({ readonly type: "copyMarkdown" } & ExportRequest)
  | ({ readonly type: "saveCsv" } & ExportRequest)
  /** Compare this set with another the user picks: answered by `comparison`, or a reply when not. */
  | { readonly type: "compare"; readonly requestId: number }
  /** Compare this set before `at` (OLD) with the rest (NEW), as `stats --split-at`: answered as `compare`. */
  | { readonly type: "split"; readonly requestId: number; readonly at: string };

/** How long the host and the page wait for each of the statistics view's requests. */
export const STATS_REQUEST_TIMEOUTS: RequestTimeouts<FromStatsView> = {
  missing: WORK_TIMEOUT_MS,
  copyMarkdown: WORK_TIMEOUT_MS,
  saveCsv: DIALOG_TIMEOUT_MS,
  compare: DIALOG_TIMEOUT_MS,
  // The set is read again, which may take as long as its first reading (the user can cancel it).
  split: DIALOG_TIMEOUT_MS,
};

export type StatsSortColumn = "name" | "seen" | "final" | "forced" | "missing" | "removedBy";

/** What the view keeps across hide/show and reload: its sources and UI state only. */
export interface StatsPanelState {
  /** The URIs of the logs (files or folders), to read them again after a reload. */
  readonly sources: readonly string[];
  readonly sort: { readonly column: StatsSortColumn; readonly descending: boolean };
  readonly filter: string;
  readonly tool: string | null;
}

/** Longer lists from the webview are refused: the host never holds more tools than this. */
export const MAX_LISTED_TOOLS = 1_000_000;
/** A split time longer than this is refused: ISO 8601 with nanoseconds and a zone is 35. */
export const MAX_SPLIT_TIME = 64;
const COLUMNS: readonly StatsSortColumn[] = [
  "name",
  "seen",
  "final",
  "forced",
  "missing",
  "removedBy",
];

const isScalar = (value: unknown) =>
  value === null || typeof value === "string" || typeof value === "number";

function isToolColumns(value: unknown): value is ToolColumns {
  if (!isRecord(value) || !isNames(value.names)) return false;
  const n = value.names.length;
  const column = (key: string, item: (v: unknown) => boolean) => {
    const list = value[key];
    return Array.isArray(list) && list.length === n && list.every(item);
  };
  return (
    column("seen", isCount) &&
    column("final", isCount) &&
    column("forced", isCount) &&
    column("missing", isCount) &&
    column("topStage", (v) => v === null || isString(v)) &&
    column("topCount", isCount)
  );
}

function isStatsView(value: unknown): value is StatsView {
  return (
    isRecord(value) &&
    isNames(value.sources) &&
    isNames(value.files) &&
    isCount(value.unreadableTimes) &&
    typeof value.cancelled === "boolean" &&
    isCount(value.traces) &&
    isCount(value.problems) &&
    Array.isArray(value.errors) &&
    value.errors.every((e) => isRecord(e) && isString(e.kind) && isCount(e.n)) &&
    Array.isArray(value.stages) &&
    value.stages.every(
      (s) =>
        isRecord(s) &&
        isString(s.stage) &&
        ["records", "select", "abstain", "force", "error", "degraded"].every((k) => isCount(s[k])),
    ) &&
    isToolColumns(value.tools) &&
    isArrayOf(value.timeline, isTimeBucket)
  );
}

function isTimeBucket(b: unknown): b is TimeBucket {
  return (
    isRecord(b) &&
    typeof b.start === "number" &&
    typeof b.width === "number" &&
    isCount(b.traces) &&
    typeof b.meanPalette === "number" &&
    isCount(b.forcedFailures)
  );
}

const isPeriod = (value: unknown) =>
  value === null ||
  (isRecord(value) &&
    Number.isFinite(value.from) &&
    Number.isFinite(value.to) &&
    (value.from as number) <= (value.to as number));

const isSplitView = (value: unknown) =>
  value === null ||
  (isRecord(value) && isString(value.at) && Number.isFinite(value.atMs) && isCount(value.untimed));

function isMissingGroup(value: unknown): value is MissingGroup {
  return (
    isRecord(value) &&
    isString(value.stage) &&
    typeof value.failed === "boolean" &&
    isCount(value.total) &&
    Array.isArray(value.traces) &&
    value.traces.every(
      (t) =>
        isRecord(t) &&
        isCount(t.ref) &&
        isString(t.file) &&
        isCount(t.line) &&
        isScalar(t.time) &&
        isScalar(t.id),
    )
  );
}

const isRate = (value: unknown) => typeof value === "number" && value >= 0 && value <= 1;

function isToolSide(value: unknown): boolean {
  return (
    isRecord(value) &&
    isCount(value.seen) &&
    isCount(value.final) &&
    isCount(value.forced) &&
    isRate(value.rate)
  );
}

function isComparedTool(value: unknown): value is ComparedTool {
  if (!isRecord(value)) return false;
  const stage = value.stage;
  return (
    isString(value.name) &&
    isToolSide(value.old) &&
    isToolSide(value.new) &&
    typeof value.points === "number" &&
    isRate(value.p) &&
    (stage === null ||
      (isRecord(stage) &&
        isString(stage.stage) &&
        typeof stage.failed === "boolean" &&
        isRate(stage.old) &&
        isRate(stage.new)))
  );
}

function isComparisonView(value: unknown): value is ComparisonView {
  return (
    isRecord(value) &&
    isNames(value.against) &&
    isCount(value.oldTraces) &&
    isCount(value.newTraces) &&
    isArrayOf(value.empty, (side) => side === "old" || side === "new") &&
    isArrayOf(value.tools, isComparedTool) &&
    isNames(value.onlyOld) &&
    isNames(value.onlyNew) &&
    isSplitView(value.split) &&
    isArrayOf(value.timeline, isTimeBucket) &&
    isRecord(value.periods) &&
    isPeriod(value.periods.old) &&
    isPeriod(value.periods.new)
  );
}

const TO_STATS_VIEW: MessageChecks<ToStatsView> = {
  stats: (value) => isStatsView(value.view),
  comparison: (value) => isCount(value.requestId) && isComparisonView(value.view),
  missing: (value) =>
    isCount(value.requestId) && isString(value.tool) && isArrayOf(value.groups, isMissingGroup),
  reply: isReply,
};

/** A message the host sent, or null (after logging) when it is not one this protocol knows. */
export const parseToStatsView = messageParser<ToStatsView>(TO_STATS_VIEW, "statistics message");

const isExport = (value: Record<string, unknown>) =>
  isCount(value.requestId) &&
  isNames(value.tools) &&
  (value.tools as string[]).length <= MAX_LISTED_TOOLS &&
  (value.comparison === undefined || typeof value.comparison === "boolean");

const FROM_STATS_VIEW: MessageChecks<FromStatsView> = {
  ready: () => true,
  missing: (value) =>
    isCount(value.requestId) &&
    isString(value.tool) &&
    (value.side === undefined || value.side === "old" || value.side === "new"),
  openTrace: (value) => isCount(value.ref) && isString(value.tool),
  copyMarkdown: isExport,
  saveCsv: isExport,
  compare: (value) => isCount(value.requestId),
  split: (value) =>
    isCount(value.requestId) && isString(value.at) && value.at.length <= MAX_SPLIT_TIME,
};

/** A message the webview sent, or null (after logging) when it is not one this protocol knows. */
export const parseFromStatsView = messageParser<FromStatsView>(
  FROM_STATS_VIEW,
  "statistics message",
);

/** The persisted state if it has the expected shape; anything else starts fresh. */
export function parseStatsPanelState(value: unknown): StatsPanelState | null {
  if (!isRecord(value) || !isNames(value.sources) || !isString(value.filter)) return null;
  if (value.tool !== null && !isString(value.tool)) return null;
  const sort = value.sort;
  if (
    !isRecord(sort) ||
    !COLUMNS.includes(sort.column as StatsSortColumn) ||
    typeof sort.descending !== "boolean"
  )
    return null;
  return value as unknown as StatsPanelState;
}
