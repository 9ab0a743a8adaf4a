/** The statistics as rows: what the terminal table, the view and the Markdown/CSV exports show. */
import { compareCodePoints } from "../tools.js";
import type { PaletteStats } from "./fold.js";
import type { TimeBucket } from "./timeline.js";

export { formatCount } from "../words.js";

export interface StageShare {
  /** The stage that last dropped the tool, "?", or the error kind of failed traces (`failed`). */
  readonly stage: string;
  readonly n: number;
  /** The key is an error kind: traces that failed with the tool among those the pipeline left. */
  readonly failed: boolean;
}

export interface ToolRow {
  readonly name: string;
  readonly seen: number;
  readonly final: number;
  readonly forced: number;
  /** Σ missing: traces where the tool was seen but is not final. */
  readonly missing: number;
  /** Where it went, most often first (ties in code-point order of the stage). */
  readonly removedBy: readonly StageShare[];
  /** Traces whose model call was offered this tool, called it, called it without being offered it. */
  readonly offered: number;
  readonly called: number;
  readonly calledNotOffered: number;
  /** Traces whose request forced this tool. */
  readonly sentForced: number;
}

export interface StageRow {
  readonly stage: string;
  readonly records: number;
  readonly select: number;
  readonly abstain: number;
  readonly force: number;
  readonly error: number;
  readonly degraded: number;
}

export interface StatsRows {
  readonly traces: number;
  readonly problems: number;
  /** Traces read from OpenTelemetry (the tools' model counts concern those). */
  readonly otelTraces: number;
  /** Joined model calls, and how many of them did not record each field (PaletteStats.modelCalls). */
  readonly modelCalls: PaletteStats<unknown>["modelCalls"];
  readonly errors: readonly { readonly kind: string; readonly n: number }[];
  readonly stages: readonly StageRow[];
  /** In code-point order of name. */
  readonly tools: readonly ToolRow[];
  readonly timeline: readonly TimeBucket[];
}

export function statsRows(stats: PaletteStats<unknown>): StatsRows {
  return {
    traces: stats.traces,
    problems: stats.problems,
    otelTraces: stats.otelTraces,
    modelCalls: { ...stats.modelCalls },
    errors: [...stats.errors]
      .sort(([a], [b]) => compareCodePoints(a, b))
      .map(([kind, n]) => ({ kind, n })),
    stages: [...stats.stages].map(([stage, counts]) => ({
      stage,
      records: counts.records.n,
      select: counts.actions.select.n,
      abstain: counts.actions.abstain.n,
      force: counts.actions.force.n,
      error: counts.actions.error.n,
      degraded: counts.degraded.n,
    })),
    tools: [...stats.tools.values()]
      .sort((a, b) => compareCodePoints(a.name, b.name))
      .map((tool) => {
        const removedBy = [...tool.missing]
          .map(([stage, n]) => ({ stage, n, failed: tool.failedWith.has(stage) }))
          .sort((a, b) => b.n - a.n || compareCodePoints(a.stage, b.stage));
        return {
          name: tool.name,
          seen: tool.seen.n,
          final: tool.final.n,
          forced: tool.forced.n,
          missing: removedBy.reduce((sum, share) => sum + share.n, 0),
          removedBy,
          offered: tool.offered.n,
          called: tool.called.n,
          calledNotOffered: tool.calledNotOffered.n,
          sentForced: tool.sentForced.n,
        };
      }),
    timeline: stats.timeline.list(),
  };
}

/** Most often missing first, then by name: the order of the terminal table. */
export function byMissing(a: ToolRow, b: ToolRow): number {
  return b.missing - a.missing || compareCodePoints(a.name, b.name);
}

/** A whole-number percentage of a count (0 when there is nothing to divide). */
export function percent(n: number, of: number): number {
  return of === 0 ? 0 : Math.round((100 * n) / of);
}

/** "policy 78%, intent 22%": the stages that removed a tool and their share of its missing turns. */
export function removedByText(
  row: ToolRow,
  name: (stage: string) => string = (stage) => stage,
  most = 3,
): string {
  const shown = row.removedBy
    .slice(0, most)
    .map((share) => `${name(share.stage)} ${percent(share.n, row.missing)}%`);
  if (row.removedBy.length > most) shown.push(`+${row.removedBy.length - most} more`);
  return shown.join(", ");
}
