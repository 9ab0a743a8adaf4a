import { explainUnavailable, type SentencePart } from "./forced-unavailable.js";
import type { ReportView, StageInfo } from "./report.js";
import type { StageRecord } from "./contract.js";

/** How the forced choice moved at a stage: the waterfall shows a pin there. */
export type PinKind = "set" | "changed" | "released" | "confirmed";

/** One row of the waterfall: a stage of the composition and what it did, if it ran. */
export interface WaterfallRow {
  readonly info: StageInfo;
  /** Null for a disabled stage, which did not run. */
  readonly record: StageRecord | null;
  /** Candidates flowing into and out of the stage. */
  readonly input: number;
  readonly output: number;
  readonly forcedBefore: string | null;
  readonly pin: PinKind | null;
}

/** The names a stage handed on, whatever it did. */
export function outputNames(record: StageRecord): string[] {
  return [...record.kept, ...record.reinstated, ...record.added];
}

/** How many named tools reached the stage: a reinstated tool was among them too. */
export function inputCount(record: StageRecord): number {
  return record.kept.length + record.dropped.length + record.reinstated.length;
}

/** Stages in pipeline order joined with their records; records with no stage listed come as `logged`. */
export function waterfallRows(report: ReportView): WaterfallRow[] {
  const rows: WaterfallRow[] = [];
  let next = 0;
  let count = report.offered.length;
  let forced: string | null = null;
  const push = (info: StageInfo, record: StageRecord | null) => {
    const input = record ? inputCount(record) : count;
    const output = record ? outputNames(record).length : count;
    rows.push({
      info,
      record,
      input,
      output,
      forcedBefore: forced,
      pin: record ? pinKind(record, forced) : null,
    });
    if (record) forced = record.forcedChoice;
    count = output;
  };
  for (const info of report.stages) {
    const record = report.trace[next];
    if (info.enabled && record !== undefined && record.stage === info.name) {
      next++;
      push(info, record);
    } else push(info, null);
  }
  for (; next < report.trace.length; next++) {
    const record = report.trace[next]!;
    push({ name: record.stage, kind: "logged", enabled: true, protectsForced: true }, record);
  }
  return rows;
}

function pinKind(record: StageRecord, before: string | null): PinKind | null {
  const after = record.forcedChoice;
  // A force of nothing when nothing was forced changes nothing: no pin (it would read "released").
  if (after === before) return record.action === "force" && after !== null ? "confirmed" : null;
  if (after === null) return "released";
  return before === null ? "set" : "changed";
}

/** A tool's state in one row of the matrix. */
export type CellState = "kept" | "dropped" | "added" | "reinstated" | "absent" | "disabled";

export function cellState(row: WaterfallRow, tool: string): CellState {
  const record = row.record;
  if (record === null) return "disabled";
  if (record.dropped.includes(tool)) return "dropped";
  if (record.reinstated.includes(tool)) return "reinstated";
  if (record.added.includes(tool)) return "added";
  return record.kept.includes(tool) ? "kept" : "absent";
}

export interface MatrixCell {
  readonly state: CellState;
  /** The tool is the forced choice after this stage. */
  readonly forced: boolean;
}

/** Tools × stages: every tool the run knows (offered first, then any added later), each row's cell. */
export interface LineageMatrix {
  readonly tools: readonly string[];
  readonly rows: readonly WaterfallRow[];
  /** `cells[tool][row]`. */
  readonly cells: readonly (readonly MatrixCell[])[];
}

export function lineageMatrix(report: ReportView): LineageMatrix {
  const rows = waterfallRows(report);
  const tools = runTools(report, rows);
  const index = new Map(tools.map((tool, i) => [tool, i]));
  const cells: MatrixCell[][] = tools.map(() => []);
  rows.forEach((row, r) => {
    const record = row.record;
    const fill: CellState[] = new Array<CellState>(tools.length).fill(
      record === null ? "disabled" : "absent",
    );
    if (record) {
      const mark = (names: readonly string[], state: CellState) => {
        for (const name of names) {
          const i = index.get(name);
          if (i !== undefined) fill[i] = state;
        }
      };
      mark(record.kept, "kept");
      mark(record.added, "added");
      mark(record.reinstated, "reinstated");
      mark(record.dropped, "dropped");
    }
    const forced = record?.forcedChoice ?? null;
    fill.forEach(
      (state, i) => (cells[i]![r] = { state, forced: forced !== null && tools[i] === forced }),
    );
  });
  return { tools, rows, cells };
}

/** Every tool name the run mentions, offered first, in first-seen order. */
export function runTools(
  report: ReportView,
  rows: readonly WaterfallRow[] = waterfallRows(report),
): string[] {
  const tools = new Set<string>(report.offered);
  for (const row of rows)
    for (const name of row.record
      ? [...row.record.added, ...row.record.dropped, ...row.record.kept]
      : [])
      tools.add(name);
  for (const name of report.names) tools.add(name);
  for (const name of report.capability?.registered ?? []) tools.add(name);
  return [...tools];
}

/** One thing that happened to a tool on its way through the stages. */
export type LineageEvent =
  | {
      readonly kind: "dropped" | "added" | "re-added";
      readonly stage: string;
      readonly reason: string | null;
    }
  | { readonly kind: "reinstated"; readonly stage: string }
  | { readonly kind: "forced" | "released"; readonly stage: string }
  | { readonly kind: "replaced"; readonly stage: string; readonly by: string };

export interface Lineage {
  readonly tool: string;
  /** The run mentions the tool at all. */
  readonly known: boolean;
  readonly offered: boolean;
  readonly events: readonly LineageEvent[];
  readonly final: boolean;
  readonly forced: boolean;
  /** "dropped by `policy` (safety high > medium), re-added by `allowlist`; in the final palette." */
  readonly sentence: string;
  /** The same sentence with names apart from prose, so a view can set names off (and isolate their bidi text). */
  readonly parts: readonly SentencePart[];
}

/** Prose, or a tool or stage name. */
export type { SentencePart } from "./forced-unavailable.js";

/** A sentence as text, each name written by `quote` (by default in backticks). */
export function sentenceText(
  parts: readonly SentencePart[],
  quote: (name: string) => string = (name) => `\`${name}\``,
): string {
  return parts.map((part) => (typeof part === "string" ? part : quote(part.name))).join("");
}

/** "Where did X go?": what every stage did to one tool, as events and as one sentence. */
export function toolLineage(report: ReportView, tool: string): Lineage {
  const rows = waterfallRows(report);
  const offered = report.offered.includes(tool);
  const events: LineageEvent[] = [];
  let droppedBefore = false;
  for (const { record, forcedBefore } of rows) {
    if (record === null) continue;
    const reason = Object.hasOwn(record.reasons, tool) ? record.reasons[tool]! : null;
    if (record.reinstated.includes(tool)) events.push({ kind: "reinstated", stage: record.stage });
    else if (record.dropped.includes(tool)) {
      events.push({ kind: "dropped", stage: record.stage, reason });
      droppedBefore = true;
    } else if (record.added.includes(tool))
      events.push({ kind: droppedBefore ? "re-added" : "added", stage: record.stage, reason });
    const after = record.forcedChoice;
    if (after === tool && (forcedBefore !== tool || record.action === "force"))
      events.push({ kind: "forced", stage: record.stage });
    else if (forcedBefore === tool && after !== tool)
      events.push(
        after === null
          ? { kind: "released", stage: record.stage }
          : { kind: "replaced", stage: record.stage, by: after },
      );
  }
  const final = report.names.includes(tool);
  const forced = report.forcedChoice === tool || report.error?.tool === tool;
  const known =
    offered ||
    final ||
    forced ||
    events.length > 0 ||
    (report.capability?.registered.includes(tool) ?? false);
  const parts = sentence(report, tool, { known, offered, events, final });
  return {
    tool,
    known,
    offered,
    events,
    final,
    forced,
    sentence: sentenceText(parts),
    parts,
  };
}

function sentence(
  report: ReportView,
  tool: string,
  lineage: { known: boolean; offered: boolean; events: readonly LineageEvent[]; final: boolean },
): SentencePart[] {
  const name = (n: string) => ({ name: n });
  if (!lineage.known) return [name(tool), " is not a tool of this run."];
  const clauses: SentencePart[][] = [];
  if (!lineage.offered) {
    // Without a routed palette every registered tool is offered, so only the router left one out.
    clauses.push([
      report.capability?.registered.includes(tool)
        ? "registered but not routed by the router"
        : "never offered to the pipeline",
    ]);
  } else if (
    !lineage.events.some((event) => event.kind === "dropped" || event.kind === "reinstated")
  ) {
    clauses.push([report.trace.length === 0 ? "offered; no stage ran" : "kept by every stage"]);
  }
  for (const event of lineage.events) clauses.push(describe(event));
  const unavailable = explainUnavailable(report);
  let end: SentencePart[];
  // A tool never offered says so in its first clause already: the failure needs no second why.
  if (unavailable?.tool === tool && unavailable.cause === "never-offered")
    end = ["the run failed with ForcedToolUnavailable"];
  else if (unavailable?.tool === tool)
    end = ["the run failed with ForcedToolUnavailable: ", ...unavailable.why];
  else if (lineage.final)
    end = [
      report.forcedChoice === tool
        ? "in the final palette, as the forced tool_choice"
        : "in the final palette",
    ];
  else end = ["not in the final palette"];
  return [
    ...clauses.flatMap((clause, i) => (i === 0 ? clause : [", ", ...clause])),
    "; ",
    ...end,
    ".",
  ];
}

function describe(event: LineageEvent): SentencePart[] {
  const stage = { name: event.stage };
  switch (event.kind) {
    case "dropped":
    case "added":
    case "re-added":
      return [`${event.kind} by `, stage, ...(event.reason ? [` (${event.reason})`] : [])];
    case "reinstated":
      return ["dropped by ", stage, " but reinstated as the protected forced choice"];
    case "forced":
      return ["forced by ", stage];
    case "released":
      return ["force released by ", stage];
    case "replaced":
      return ["forced choice replaced by ", { name: event.by }, " at ", stage];
  }
}
