import { explainUnavailable } from "../forced-unavailable.js";
import { inputCount, outputNames, sentenceText } from "../lineage.js";
import type { RunReport, StageInfo } from "../report.js";
import type { StageRecord } from "../contract.js";
import { counted, safe } from "../words.js";

export interface TableOptions {
  /** ANSI colours (a TTY without NO_COLOR). */
  readonly color: boolean;
  /** Longest list cell before it is shortened to "a, b, … +N". */
  readonly listWidth?: number;
}

type Paint = (code: string, text: string) => string;

/** The waterfall of a run as a plain-text table, for terminals and CI logs. */
export function formatWaterfallTable(report: RunReport, options: TableOptions): string {
  const paint: Paint = options.color
    ? (code, text) => `\x1b[${code}m${text}\x1b[0m`
    : (_code, text) => text;
  const width = options.listWidth ?? 40;
  const out: string[] = [];
  const title = report.description
    ? `${safe(report.file)} — ${safe(report.description)}`
    : safe(report.file);
  out.push(paint("1", title));
  const forced = report.forcedChoice === null ? "none" : safe(report.forcedChoice);
  out.push(
    `offered ${report.offered.length} → final ${report.names.length} · forced tool_choice: ${forced}`,
  );
  out.push("");

  const header = [
    "#",
    "stage",
    "action",
    "tools",
    "dropped",
    "added",
    "reinstated",
    "forced",
    "detail",
  ];
  const rows: string[][] = [];
  const styles: (string | null)[] = [];
  const capability = report.capability;
  if (capability) {
    const routed =
      capability.router.state === "routed"
        ? `${capability.registered.length}→${capability.router.names.length}`
        : `${capability.registered.length}`;
    rows.push([
      "0",
      "router",
      capability.router.state,
      routed,
      "",
      "",
      "",
      "",
      safe(capability.router.state === "routed" ? "routed" : capability.routerReason),
    ]);
    styles.push(null);
  }
  const records = new Map(report.trace.map((record) => [record.stage, record]));
  let previousForced: string | null = null;
  report.stages.forEach((stage, index) => {
    const record = records.get(stage.name);
    if (!record) {
      rows.push([
        String(index + 1),
        safe(stage.name),
        "disabled",
        "",
        "",
        "",
        "",
        "",
        `${stage.kind} stage not run`,
      ]);
      styles.push("2");
      return;
    }
    rows.push(recordRow(index + 1, stage, record, previousForced, width));
    styles.push(actionStyle(record));
    previousForced = record.forcedChoice;
  });

  const widths = header.map((h, c) =>
    rows.reduce((n, row) => Math.max(n, displayWidth(row[c]!)), h.length),
  );
  // The last column's padding is trimmed with any other trailing blank.
  const line = (cells: string[]) =>
    cells
      .map((cell, c) => pad(cell, widths[c]!))
      .join("  ")
      .trimEnd();
  out.push(paint("1", line(header)));
  rows.forEach((row, i) => {
    const text = line(row);
    out.push(styles[i] ? paint(styles[i]!, text) : text);
  });

  const reasons = report.trace.flatMap((record) =>
    Object.entries(record.reasons).map(([tool, why]) => ({ record, tool, why })),
  );
  if (reasons.length > 0) {
    out.push("", paint("1", "why"));
    for (const { record, tool, why } of reasons)
      out.push(`  ${safe(record.stage)}: ${fate(record, tool)} ${safe(tool)} — ${safe(why)}`);
  }

  out.push(
    "",
    `${paint("1", `final (${report.names.length}):`)} ${report.names.map(safe).join(", ") || "(none)"}`,
  );
  out.push(`${paint("1", "forced tool_choice:")} ${forced}`);
  if (capability) {
    const p = capability.palette;
    const palette =
      p.outcome === "applied"
        ? `applied${p.names ? ` (${counted(p.names.length, "name")})` : " (all tools)"}${p.forced ? `, forcing ${safe(p.forced)}` : ""}`
        : `no change — ${safe(p.reason)}`;
    out.push(`${paint("1", "palette:")} ${palette}`);
  }
  const unavailable = explainUnavailable(report);
  if (unavailable) {
    const why = sentenceText(unavailable.parts, (name) => `'${safe(name)}'`);
    out.push("", paint("1;31", `ForcedToolUnavailable: ${why}`));
  }
  return out.join("\n") + "\n";
}

function recordRow(
  index: number,
  stage: StageInfo,
  record: StageRecord,
  previousForced: string | null,
  width: number,
): string[] {
  const input = inputCount(record);
  const output = outputNames(record).length;
  const action =
    record.action +
    (record.degraded ? " (degraded)" : "") +
    (stage.protectsForced ? "" : " [hard]");
  const forced =
    record.forcedChoice === previousForced
      ? ""
      : record.forcedChoice === null
        ? "released"
        : `⚑ ${record.forcedChoice}`;
  return [
    String(index),
    safe(record.stage),
    action,
    `${input}→${output}`,
    list(record.dropped, width),
    list(record.added, width),
    list(record.reinstated, width),
    safe(forced),
    safe(record.detail),
  ];
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
