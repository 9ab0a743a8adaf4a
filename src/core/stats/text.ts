/** `palette-inspector stats LOG...`: the statistics as terminal tables; all log text goes through `safe`. */
import { counted, safe } from "../words.js";
import { ACTION_ORDER } from "./json.js";
import { byMissing, formatCount, percent, removedByText, type StatsRows } from "./rows.js";
import { pushAll } from "../arrays.js";

export function formatStatsText(rows: StatsRows, options: { readonly color: boolean }): string {
  const bold = options.color ? (text: string) => `\x1b[1m${text}\x1b[0m` : (text: string) => text;
  const summary = bold(statsSummary(rows));
  if (rows.traces === 0) return summary + "\n";

  const out = [summary, "", bold("stages")];
  pushAll(
    out,
    table(
      ["stage", "records", ...ACTION_ORDER, "degraded"],
      rows.stages.map((s) => [
        safe(s.stage),
        formatCount(s.records),
        ...ACTION_ORDER.map((action) => formatCount(s[action])),
        formatCount(s.degraded),
      ]),
      new Set([1, 2, 3, 4, 5, 6]),
    ),
  );

  out.push("", bold("tools, most often missing first"));
  pushAll(
    out,
    table(
      ["tool", "missing", "removed by", "final", "forced"],
      [...rows.tools]
        .sort(byMissing)
        .map((t) => [
          safe(t.name),
          `${percent(t.missing, t.seen)}% of ${counted(t.seen, "turn", "turns", formatCount)}`,
          removedByText(t, safe) || "—",
          formatCount(t.final),
          formatCount(t.forced),
        ]),
      new Set([3, 4]),
    ),
  );
  if (rows.otelTraces > 0) {
    out.push("", bold("tools given to the model (traces from OpenTelemetry)"));
    pushAll(
      out,
      table(
        ["tool", "offered", "called", "called, not offered", "request forced"],
        rows.tools
          .filter((t) => t.offered + t.called + t.sentForced > 0)
          .map((t) => [
            safe(t.name),
            formatCount(t.offered),
            formatCount(t.called),
            formatCount(t.calledNotOffered),
            formatCount(t.sentForced),
          ]),
        new Set([1, 2, 3, 4]),
      ),
    );
    out.push(...modelCallLines(rows.modelCalls));
  }
  return out.join("\n") + "\n";
}

/** "42 traces, 4 problems · errors: ForcedToolUnavailable 2" */
export function statsSummary(rows: StatsRows): string {
  const errors = rows.errors.map((e) => `${safe(e.kind)} ${formatCount(e.n)}`).join(", ");
  return `${counted(rows.traces, "trace", "traces", formatCount)}, ${counted(rows.problems, "problem", "problems", formatCount)}${errors ? ` · errors: ${errors}` : ""}`;
}

/** How many joined model calls did not record each field: a tool's counts leave those out. */
function modelCallLines(calls: StatsRows["modelCalls"]): string[] {
  const unknown = (n: number, what: string) =>
    n > 0
      ? [
          `${what} not recorded in ${formatCount(n)} of ${counted(calls.joined, "model call", undefined, formatCount)}`,
        ]
      : [];
  return [
    ...unknown(calls.offeredUnknown, "offered tools"),
    ...unknown(calls.calledUnknown, "tool calls"),
    ...unknown(calls.choiceUnknown, "tool choice"),
    ...(calls.choiceMismatches > 0
      ? [
          `tool choice disagrees with the pipeline's forced choice in ${counted(calls.choiceMismatches, "model call", undefined, formatCount)}`,
        ]
      : []),
  ];
}

/** Aligned columns; those in `right` are numbers, aligned to the right (the last column is one). */
export function table(
  header: readonly string[],
  body: readonly (readonly string[])[],
  right: ReadonlySet<number>,
): string[] {
  const widths = header.map((title, c) =>
    body.reduce((n, cells) => Math.max(n, [...cells[c]!].length), [...title].length),
  );
  return [header, ...body].map((cells) =>
    cells
      .map((cell, c) => {
        const gap = " ".repeat(widths[c]! - [...cell].length);
        return right.has(c) ? gap + cell : cell + gap;
      })
      .join("  "),
  );
}
