/** `palette-inspector stats NEW... --against OLD...`: the comparison as terminal tables; all log text goes through `safe`. */
import { pushAll } from "../arrays.js";
import { counted, safe } from "../words.js";
import type { Comparison, ErrorChange, StageMove, ToolSide } from "./comparison.js";
import { ACTION_ORDER } from "./json.js";
import { formatCount, percent } from "./rows.js";
import { statsSummary, table } from "./text.js";

export function formatComparisonText(c: Comparison, options: { readonly color: boolean }): string {
  const bold = options.color ? (text: string) => `\x1b[1m${text}\x1b[0m` : (text: string) => text;
  const out = [bold(`NEW: ${statsSummary(c.new)}`), bold(`OLD: ${statsSummary(c.old)}`)];
  if (c.empty.length > 0) {
    const which = c.empty.map((side) => side.toUpperCase()).join(" and ");
    out.push(`${which} ${c.empty.length > 1 ? "have" : "has"} no traces: nothing to compare.`);
    return out.join("\n") + "\n";
  }
  out.push("", bold("tools, biggest change in final rate first"));
  if (c.tools.length === 0) out.push("no tool is seen in both sets");
  else
    pushAll(
      out,
      table(
        ["tool", "final OLD", "final NEW", "change", "p", "moved most (missing OLD → NEW)"],
        c.tools.map((t) => [
          safe(t.name),
          sideText(t.old),
          sideText(t.new),
          pointsText(t.points),
          pText(t.p),
          t.stage ? moveText(t.stage) : "—",
        ]),
        new Set([1, 2, 3, 4]),
      ),
    );
  for (const [title, tools] of [
    ["only in NEW", c.onlyNew],
    ["only in OLD", c.onlyOld],
  ] as const)
    if (tools.length > 0)
      out.push(
        "",
        `${bold(title)}: ${tools.map((t) => `${safe(t.name)} (${sideText(t)})`).join(", ")}`,
      );
  out.push("", bold("stages, OLD → NEW"));
  pushAll(
    out,
    table(
      ["stage", "records", ...ACTION_ORDER, "degraded"],
      c.stages.map((s) => [
        safe(s.stage),
        ...(["records", ...ACTION_ORDER, "degraded"] as const).map((key) =>
          countChange(s.old?.[key] ?? 0, s.new?.[key] ?? 0, s.change[key]),
        ),
      ]),
      new Set([1, 2, 3, 4, 5, 6]),
    ),
  );
  if (c.errors.length > 0)
    out.push("", `${bold("errors, OLD → NEW")}: ${c.errors.map(errorText).join(", ")}`);
  if (c.model !== null && c.model.length > 0) {
    out.push("", bold("tools given to the model (traces from OpenTelemetry), OLD → NEW"));
    pushAll(
      out,
      table(
        ["tool", "offered", "called", "called, not offered"],
        c.model.map((m) => [
          safe(m.name),
          countChange(m.old.offered, m.new.offered, m.new.offered - m.old.offered),
          countChange(m.old.called, m.new.called, m.new.called - m.old.called),
          countChange(
            m.old.calledNotOffered,
            m.new.calledNotOffered,
            m.new.calledNotOffered - m.old.calledNotOffered,
          ),
        ]),
        new Set([1, 2, 3]),
      ),
    );
  }
  // The last column is text here: the table pads it, the line need not end in blanks.
  return out.map((line) => line.trimEnd()).join("\n") + "\n";
}

/** "75% of 4 turns" */
export function sideText(side: ToolSide): string {
  return `${percent(side.final, side.seen)}% of ${counted(side.seen, "turn", "turns", formatCount)}`;
}

/** "−80.0 pts", "+2.5 pts", "0.0 pts". */
export function pointsText(points: number): string {
  const rounded = Math.round(points * 10) / 10;
  const sign = rounded > 0 ? "+" : rounded < 0 ? "−" : "";
  return `${sign}${Math.abs(rounded).toFixed(1)} pts`;
}

/** "p < 0.001", else two significant digits. */
export function pText(p: number): string {
  return p < 0.001 ? "<0.001" : p.toPrecision(2);
}

/** "role 0% → 80%"; `name` neutralises the key for where it goes (`safe` for a terminal). */
export function moveText(move: StageMove, name: (text: string) => string = safe): string {
  const key = move.failed ? `failed (${name(move.stage)})` : name(move.stage);
  return `${key} ${Math.round(100 * move.old)}% → ${Math.round(100 * move.new)}%`;
}

function countChange(old: number, now: number, change: number): string {
  const text = `${formatCount(old)} → ${formatCount(now)}`;
  return change === 0
    ? text
    : `${text} (${change > 0 ? "+" : "−"}${formatCount(Math.abs(change))})`;
}

function errorText(e: ErrorChange): string {
  return `${safe(e.kind)} ${countChange(e.old, e.new, e.change)}`;
}
