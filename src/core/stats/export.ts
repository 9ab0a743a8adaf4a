/** The view's tables for elsewhere: Markdown for an issue or pull request, CSV for a spreadsheet. */
import { inline } from "../render/markdown.js";
import { counted } from "../words.js";
import { ACTION_ORDER } from "./json.js";
import { percent, removedByText, type StatsRows, type ToolRow } from "./rows.js";

const TOOL_HEADER = ["tool", "seen", "final", "final %", "forced", "missing", "removed by"];
const STAGE_HEADER = ["stage", "records", ...ACTION_ORDER, "degraded"];

function toolCells(row: ToolRow, traces: number, name: (text: string) => string): string[] {
  return [
    name(row.name),
    String(row.seen),
    String(row.final),
    `${percent(row.final, traces)}%`,
    String(row.forced),
    String(row.missing),
    removedByText(row, name, Infinity),
  ];
}

/** Both tables as GitHub-flavoured Markdown; `tools` is the view's order (sorted, filtered). */
export function statsMarkdown(rows: StatsRows, tools: readonly ToolRow[] = rows.tools): string {
  const line = (cells: readonly string[]) => `| ${cells.join(" | ")} |`;
  const out = [
    `### Palette statistics: ${counted(rows.traces, "trace")}, ${counted(rows.problems, "problem")}`,
    "",
    line(TOOL_HEADER),
    line(TOOL_HEADER.map((_, c) => (c === 0 || c === 6 ? "---" : "---:"))),
    ...tools.map((row) => line(toolCells(row, rows.traces, inline))),
    "",
    line(STAGE_HEADER),
    line(STAGE_HEADER.map((_, c) => (c === 0 ? "---" : "---:"))),
    ...rows.stages.map((s) =>
      line([
        inline(s.stage),
        String(s.records),
        ...ACTION_ORDER.map((a) => String(s[a])),
        String(s.degraded),
      ]),
    ),
  ];
  return out.join("\n") + "\n";
}

/** Both tables as CSV (RFC 4180), one after the other with a blank line between. */
export function statsCsv(rows: StatsRows, tools: readonly ToolRow[] = rows.tools): string {
  const line = (cells: readonly string[]) => cells.map(csvCell).join(",");
  return (
    [
      line(TOOL_HEADER),
      ...tools.map((row) => line(toolCells(row, rows.traces, (text) => text))),
      "",
      line(STAGE_HEADER),
      ...rows.stages.map((s) =>
        line([
          s.stage,
          String(s.records),
          ...ACTION_ORDER.map((a) => String(s[a])),
          String(s.degraded),
        ]),
      ),
    ].join("\r\n") + "\r\n"
  );
}

/**
 * One CSV cell, always quoted: a spreadsheet that splits on `;` would otherwise make the `=…` after
 * a `;` in `x;=HYPERLINK(…)` a cell of its own. A cell it would read as a formula (= + - @, or a
 * tab or carriage return before one) is prefixed with a quote, so `=HYPERLINK(…)` stays text.
 */
export function csvCell(text: string): string {
  const safe = /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
  return `"${safe.replace(/"/g, '""')}"`;
}
