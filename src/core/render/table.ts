import { explainUnavailable } from "../forced-unavailable.js";
import { sentenceText, waterfallRows, type WaterfallRow } from "../lineage.js";
import type { RunReport } from "../report.js";
import type { StageRecord } from "../contract.js";
import { counted, safe } from "../words.js";

export interface TableOptions {
  /** ANSI colours (a TTY without NO_COLOR). */
  readonly color: boolean;
  /** Longest list cell before it is shortened to "a, b, … +N". */
  readonly listWidth?: number;
}

type Paint = (code: string, text: string) => string;

/** One table row's cells and its colour (null: the terminal's own). */
interface Row {
  readonly cells: readonly string[];
  readonly style: string | null;
}

const HEADER = "# stage action tools dropped added reinstated forced detail".split(" ");

/** The waterfall of a run as a plain-text table, for terminals and CI logs. */
export function formatWaterfallTable(report: RunReport, options: TableOptions): string {
  const paint: Paint = options.color
    ? (code, text) => `\x1b[${code}m${text}\x1b[0m`
    : (_code, text) => text;
  const width = options.listWidth ?? 40;
  const title = report.description
    ? `${safe(report.file)} — ${safe(report.description)}`
    : safe(report.file);
  const forced = report.forcedChoice === null ? "none" : safe(report.forcedChoice);
  const rows = [
    ...(report.capability ? [routerRow(report.capability)] : []),
    ...waterfallRows(report).map((row, i) => stageRow(row, i + 1, width)),
  ];
  return [
    paint("1", title),
    `offered ${report.offered.length} → final ${report.names.length} · forced tool_choice: ${forced}`,
    "",
    ...grid(rows, paint),
    ...why(report, paint),
    "",
    `${paint("1", `final (${report.names.length}):`)} ${report.names.map(safe).join(", ") || "(none)"}`,
    `${paint("1", "forced tool_choice:")} ${forced}`,
    ...outcome(report, paint),
    "",
  ].join("\n");
}

/** The header and rows, each column as wide as its widest cell. */
function grid(rows: readonly Row[], paint: Paint): string[] {
  const widths = HEADER.map((h, c) =>
    rows.reduce((n, row) => Math.max(n, displayWidth(row.cells[c]!)), h.length),
  );
  // The last column's padding is trimmed with any other trailing blank.
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, c) => pad(cell, widths[c]!))
      .join("  ")
      .trimEnd();
  return [
    paint("1", line(HEADER)),
    ...rows.map((row) => (row.style ? paint(row.style, line(row.cells)) : line(row.cells))),
  ];
}

function routerRow(capability: NonNullable<RunReport["capability"]>): Row {
  const { router, registered } = capability;
  const routed = router.state === "routed";
  const tools = routed ? `${registered.length}→${router.names.length}` : `${registered.length}`;
  const detail = safe(routed ? "routed" : capability.routerReason);
  return { cells: ["0", "router", router.state, tools, "", "", "", "", detail], style: null };
}

function stageRow(
  { info, record, input, output, pin }: WaterfallRow,
  index: number,
  width: number,
): Row {
  const name = safe(info.name);
  if (record === null) {
    const detail = `${info.kind} stage not run`;
    return { cells: [String(index), name, "disabled", "", "", "", "", "", detail], style: "2" };
  }
  const action =
    record.action + (record.degraded ? " (degraded)" : "") + (info.protectsForced ? "" : " [hard]");
  // Confirming the forced choice already made changes nothing the column shows.
  const forced =
    pin === null || pin === "confirmed"
      ? ""
      : pin === "released"
        ? "released"
        : `⚑ ${safe(record.forcedChoice!)}`;
  const cells = [
    String(index),
    name,
    action,
    `${input}→${output}`,
    list(record.dropped, width),
    list(record.added, width),
    list(record.reinstated, width),
    forced,
    safe(record.detail),
  ];
  return { cells, style: actionStyle(record) };
}

/** Every reason a stage gave, under its stage: what it explains and why. */
function why(report: RunReport, paint: Paint): string[] {
  const lines = report.trace.flatMap((record) =>
    Object.entries(record.reasons).map(
      ([tool, why]) =>
        `  ${safe(record.stage)}: ${fate(record, tool)} ${safe(tool)} — ${safe(why)}`,
    ),
  );
  return lines.length > 0 ? ["", paint("1", "why"), ...lines] : [];
}

/** After the final palette: what the capability's palette did, and why a forced tool is missing. */
function outcome(report: RunReport, paint: Paint): string[] {
  const lines: string[] = [];
  const p = report.capability?.palette;
  if (p) {
    const palette =
      p.outcome === "applied"
        ? `applied${p.names ? ` (${counted(p.names.length, "name")})` : " (all tools)"}${p.forced ? `, forcing ${safe(p.forced)}` : ""}`
        : `no change — ${safe(p.reason)}`;
    lines.push(`${paint("1", "palette:")} ${palette}`);
  }
  const unavailable = explainUnavailable(report);
  if (unavailable) {
    const text = sentenceText(unavailable.parts, (name) => `'${safe(name)}'`);
    lines.push("", paint("1;31", `ForcedToolUnavailable: ${text}`));
  }
  return lines;
}

/** What a stage's reason explains: a drop, an addition, or a drop undone to protect the forced choice. */
function fate(record: StageRecord, tool: string): string {
  if (record.reinstated.includes(tool)) return "reinstated (protected forced choice)";
  return record.dropped.includes(tool) ? "dropped" : "added";
}

function actionStyle(record: StageRecord): string | null {
  if (record.action === "error") return "31";
  if (record.degraded) return "33";
  if (record.action === "abstain") return "2";
  return null;
}

function list(names: readonly string[], width: number): string {
  const parts: string[] = [];
  let length = 0;
  for (const [i, name] of names.entries()) {
    const shown = clip(safe(name), width);
    if (parts.length > 0 && length + 2 + shown.length > width)
      return `${parts.join(", ")}, … +${names.length - i}`;
    length += (parts.length > 0 ? 2 : 0) + shown.length;
    parts.push(shown);
  }
  return parts.join(", ");
}

function clip(text: string, width: number): string {
  return text.length > width ? `${text.slice(0, width - 1)}…` : text;
}

function displayWidth(text: string): number {
  return [...text].length;
}

function pad(text: string, width: number): string {
  return text + " ".repeat(Math.max(0, width - displayWidth(text)));
}
