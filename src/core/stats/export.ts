/** The view's tables for elsewhere: Markdown for an issue or pull request, CSV for a spreadsheet. */
import { inline } from "../render/markdown.js";
import { counted } from "../words.js";
import type { Comparison, OneSideTool, ToolSide } from "./comparison.js";
import { moveText, pointsText, pText, sideText } from "./comparison-text.js";
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

const CHANGE_HEADER = [
  "tool",
  "final OLD",
  "final NEW",
  "change",
  "p",
  "moved most (missing OLD → NEW)",
];
const ONE_SIDE_HEADER = ["tool", "only in", "seen", "final", "final %", "forced"];

/** "OLD has no traces: nothing to compare.", or null when both sides have traces. */
function emptyText(c: Comparison): string | null {
  if (c.empty.length === 0) return null;
  const which = c.empty.map((side) => side.toUpperCase()).join(" and ");
  return `${which} ${c.empty.length > 1 ? "have" : "has"} no traces: nothing to compare.`;
}

const oneSide = (c: Comparison): [string, OneSideTool][] => [
  ...c.onlyNew.map((t): [string, OneSideTool] => ["NEW", t]),
  ...c.onlyOld.map((t): [string, OneSideTool] => ["OLD", t]),
];

/** The comparison the view shows (this set NEW, `against` OLD) as Markdown, before the set's own tables. */
export function comparisonMarkdown(c: Comparison, against: string): string {
  const line = (cells: readonly string[]) => `| ${cells.join(" | ")} |`;
  const out = [
    `### What changed: this set (NEW, ${counted(c.new.traces, "trace")}) against ${inline(against)} (OLD, ${counted(c.old.traces, "trace")})`,
    "",
  ];
  const empty = emptyText(c);
  if (empty !== null) return [...out, empty, ""].join("\n") + "\n";
  if (c.tools.length === 0) out.push("No tool is seen in both sets.");
  else
    out.push(
      line(CHANGE_HEADER),
      line(CHANGE_HEADER.map((_, i) => (i === 0 || i === 5 ? "---" : "---:"))),
      ...c.tools.map((t) =>
        line([
          inline(t.name),
          sideText(t.old),
          sideText(t.new),
          pointsText(t.points),
          pText(t.p),
          t.stage ? moveText(t.stage, inline) : "—",
        ]),
      ),
    );
  for (const [title, tools] of [
    ["Only in NEW", c.onlyNew],
    ["Only in OLD", c.onlyOld],
  ] as const)
    if (tools.length > 0)
      out.push(
        "",
        `**${title}:** ${tools.map((t) => `${inline(t.name)} (${sideText(t)})`).join(", ")}`,
      );
  return out.join("\n") + "\n\n";
}

/**
 * The comparison as CSV: one row per tool seen in both sets, biggest change first, with both
 * sides' counts; then the tools seen in one set only. Nothing when a side is empty.
 */
export function comparisonCsv(c: Comparison): string {
  if (emptyText(c) !== null) return "";
  const line = (cells: readonly string[]) => cells.map(csvCell).join(",");
  const side = (s: ToolSide) => [
    String(s.seen),
    String(s.final),
    `${percent(s.final, s.seen)}%`,
    String(s.forced),
  ];
  const header = [
    "tool",
    ...["OLD", "NEW"].flatMap((w) => [`seen ${w}`, `final ${w}`, `final % ${w}`, `forced ${w}`]),
  ];
  return (
    [
      line([...header, "change (points)", "p", "moved most", "missing % OLD", "missing % NEW"]),
      // The change is a number this code wrote, never a formula: unguarded, so −80.0 stays a number.
      ...c.tools.map(
        (t) =>
          `${line([t.name, ...side(t.old), ...side(t.new)])},"${(Math.round(t.points * 10) / 10).toFixed(1)}",${line(
            [
              String(t.p),
              t.stage ? (t.stage.failed ? `failed (${t.stage.stage})` : t.stage.stage) : "",
              t.stage ? `${Math.round(100 * t.stage.old)}%` : "",
              t.stage ? `${Math.round(100 * t.stage.new)}%` : "",
            ],
          )}`,
      ),
      "",
      line(ONE_SIDE_HEADER),
      ...oneSide(c).map(([where, t]) => line([t.name, where, ...side(t)])),
    ].join("\r\n") + "\r\n\r\n"
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
