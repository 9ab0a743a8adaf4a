/**
 * The short text a model reads beside the JSON: the answer first, plain lines (no colour, no
 * wide tables), every name from a file neutralised as the CLI neutralises it, and never longer
 * than TEXT_LIMIT: past it, one line says how much was cut and how to get the rest.
 */
import { safe } from "../core/words.js";
import { explainUnavailable } from "../core/forced-unavailable.js";
import { sentenceText, waterfallRows } from "../core/lineage.js";
import type { RunReport } from "../core/report.js";
import { counted } from "../core/words.js";

export const TEXT_LIMIT = 8000;
/** Room kept for the line that says what was cut. */
const CLOSING_ROOM = 400;
/** A line longer than this is cut: a detail or a description from a file can be any length. */
const LINE_CHARS = 600;
/** Names shown in one list before "… +N". */
const LIST_NAMES = 12;
const NAME_CHARS = 80;

/** The lines, whole, up to the limit; then how many were left out and how to get them (`rest`). */
export function fitText(lines: readonly string[], rest: string): string {
  const out: string[] = [];
  let length = 0;
  for (const [i, line] of lines.entries()) {
    const cut = line.length > LINE_CHARS ? `${line.slice(0, LINE_CHARS - 1)}…` : line;
    if (length + cut.length + 1 > TEXT_LIMIT - CLOSING_ROOM) {
      out.push(`… ${counted(lines.length - i, "more line")} cut: ${rest}`);
      break;
    }
    out.push(cut);
    length += cut.length + 1;
  }
  return out.join("\n");
}

/** A name from a file as text: neutralised, and cut when absurdly long. */
export function name(text: string): string {
  const shown = safe(text);
  return shown.length > NAME_CHARS ? `${shown.slice(0, NAME_CHARS - 1)}…` : shown;
}

/** "a, b, c, … +9", or "(none)". */
export function nameList(names: readonly string[]): string {
  if (names.length === 0) return "(none)";
  const shown = names.slice(0, LIST_NAMES).map(name).join(", ");
  return names.length > LIST_NAMES ? `${shown}, … +${names.length - LIST_NAMES}` : shown;
}

/** A run (a fixture's, or a logged trace's) as lines: the final palette and the forced choice first, then each stage. */
export function reportLines(report: RunReport): string[] {
  const lines = [
    `final (${report.names.length}): ${nameList(report.names)}`,
    `forced tool_choice: ${report.forcedChoice === null ? "none" : name(report.forcedChoice)}`,
  ];
  // The one explanation every view gives (why the forced tool is missing, by the rules).
  const unavailable = explainUnavailable(report);
  if (unavailable)
    lines.push(
      `the run failed with ForcedToolUnavailable: ${sentenceText(unavailable.parts, name)}`,
    );
  else if (report.error) lines.push(`the run failed: ${safe(report.error.message)}`);
  lines.push(
    `${safe(report.file)}${report.description ? ` — ${safe(report.description)}` : ""}`,
    `offered ${report.offered.length}; stages:`,
  );
  const capability = report.capability;
  if (capability)
    lines.push(
      `0. router: ${capability.router.state} (${counted(capability.registered.length, "registered tool")}) — ${safe(capability.routerReason)}`,
    );
  waterfallRows(report).forEach((row, i) => {
    const head = `${i + 1}. ${name(row.info.name)}${row.info.kind === "logged" ? "" : ` [${row.info.kind}]`}`;
    const record = row.record;
    if (record === null) return void lines.push(`${head}: disabled, not run`);
    const parts = [
      `${head}: ${record.action}${record.degraded ? " (degraded)" : ""} ${row.input}→${row.output}`,
    ];
    if (record.dropped.length > 0) parts.push(`dropped ${nameList(record.dropped)}`);
    if (record.added.length > 0) parts.push(`added ${nameList(record.added)}`);
    if (record.reinstated.length > 0) parts.push(`reinstated ${nameList(record.reinstated)}`);
    if (row.pin === "released") parts.push("released the forced choice");
    else if (row.pin !== null && record.forcedChoice !== null)
      parts.push(`forces ${name(record.forcedChoice)}`);
    lines.push(parts.join("; ") + (record.detail ? ` — ${safe(record.detail)}` : ""));
  });
  const reasons = report.trace.flatMap((record) =>
    Object.entries(record.reasons).map(
      ([tool, why]) => `  ${name(record.stage)}: ${name(tool)} — ${safe(why)}`,
    ),
  );
  if (reasons.length > 0) lines.push("why:", ...reasons);
  if (capability) {
    const p = capability.palette;
    lines.push(
      p.outcome === "applied"
        ? `palette: applied${p.names ? ` (${counted(p.names.length, "name")})` : " (all tools)"}${p.forced ? `, forcing ${name(p.forced)}` : ""}`
        : `palette: no change — ${safe(p.reason)}`,
    );
  }
  return lines;
}
