/**
 * `palette-inspector stats NEW... --against OLD... --json` (docs/formats.md): each side as
 * `stats --json` prints it, then the comparison, every key in a fixed order.
 */
import {
  compareStats,
  SIDES,
  type Comparison,
  type StageCounts,
  type ToolSide,
} from "./comparison.js";
import type { PaletteStats } from "./fold.js";
import { ACTION_ORDER, formatJson, statsDocument, type Json } from "./json.js";

/** How a set was split at a time (`--split-at`): its problems are the set's, in neither side. */
export interface Split {
  readonly at: string;
  readonly first: string | number;
  readonly last: string | number;
  /** Traces without a readable time, in neither side. */
  readonly untimed: number;
  readonly problems: number;
}

export function comparisonDocument(
  oldStats: PaletteStats<unknown>,
  newStats: PaletteStats<unknown>,
  split: Split | null = null,
): Json {
  const c = compareStats(oldStats, newStats);
  const problems = (stats: PaletteStats<unknown>) => (split ? null : stats.problems);
  return new Map<string, Json>([
    ["old", statsDocument(oldStats, problems(oldStats))],
    ["new", statsDocument(newStats, problems(newStats))],
    ...(split
      ? ([
          [
            "split",
            new Map<string, Json>([
              ["at", split.at],
              ["first", split.first],
              ["last", split.last],
              ["untimed", split.untimed],
              ["problems", split.problems],
            ]),
          ],
        ] as const)
      : []),
    ["empty", [...c.empty]],
    [
      "changes",
      c.tools.map(
        (t) =>
          new Map<string, Json>([
            ["name", t.name],
            ["old", side(t.old)],
            ["new", side(t.new)],
            ["points", t.points],
            [
              "stage",
              t.stage &&
                new Map<string, Json>([
                  ["stage", t.stage.stage],
                  ["old", t.stage.old],
                  ["new", t.stage.new],
                ]),
            ],
            ["z", t.z],
            ["p", t.p],
          ]),
      ),
    ],
    ["only_old", c.onlyOld.map((t) => new Map([["name", t.name], ...side(t)]))],
    ["only_new", c.onlyNew.map((t) => new Map([["name", t.name], ...side(t)]))],
    [
      "stage_changes",
      c.stages.map(
        (s) =>
          new Map<string, Json>([
            ["stage", s.stage],
            ["old", s.old && stage(s.old)],
            ["new", s.new && stage(s.new)],
            ["change", stage(s.change)],
          ]),
      ),
    ],
    [
      "error_changes",
      c.errors.map(
        (e) =>
          new Map<string, Json>([
            ["kind", e.kind],
            ["old", e.old],
            ["new", e.new],
            ["change", e.change],
          ]),
      ),
    ],
    ...modelEntries(c),
  ]);
}

export function formatComparisonJson(
  oldStats: PaletteStats<unknown>,
  newStats: PaletteStats<unknown>,
  split: Split | null = null,
): string {
  return formatJson(comparisonDocument(oldStats, newStats, split));
}

function side(s: ToolSide): Map<string, Json> {
  return new Map<string, Json>([
    ["seen", s.seen],
    ["final", s.final],
    ["forced", s.forced],
    ["rate", s.rate],
  ]);
}

function stage(s: StageCounts): Map<string, Json> {
  return new Map<string, Json>([
    ["records", s.records],
    ["actions", new Map<string, Json>(ACTION_ORDER.map((action) => [action, s[action]]))],
    ["degraded", s.degraded],
  ]);
}

/** Only when either side was read from OpenTelemetry, as `stats --json`'s model counts. */
function modelEntries(c: Comparison): [string, Json][] {
  if (c.model === null) return [];
  return [
    [
      "model_recorded",
      new Map<string, Json>(
        SIDES.map((s) => [
          s,
          new Map<string, Json>([
            ["traces", c[s].otelTraces],
            ["offered", c[s].modelCalls.joined - c[s].modelCalls.offeredUnknown],
            ["called", c[s].modelCalls.joined - c[s].modelCalls.calledUnknown],
          ]),
        ]),
      ),
    ],
    [
      "model_changes",
      c.model.map(
        (m) =>
          new Map<string, Json>([
            ["name", m.name],
            ...SIDES.map((s): [string, Json] => [
              s,
              new Map<string, Json>([
                ["offered", m[s].offered],
                ["called", m[s].called],
                ["called_not_offered", m[s].calledNotOffered],
              ]),
            ]),
          ]),
      ),
    ],
  ];
}
