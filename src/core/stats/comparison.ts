/**
 * Two sets of statistics compared (docs/formats.md, "stats --against"): per tool the change in its
 * final rate, the stage that moved most and a significance figure; per stage, error kind and model
 * tool the counts of both sides. Built from two folds, so it costs nothing past the two `stats`.
 */
import { compareCodePoints } from "../tools.js";
import type { PaletteStats } from "./fold.js";
import { statsRows, type StageRow, type StatsRows, type ToolRow } from "./rows.js";
import { twoProportionTest } from "./two-proportions.js";

/** OLD is the set compared against (`--against`, or before `--split-at`); NEW the other. */
export type Side = "old" | "new";
export const SIDES: readonly Side[] = ["old", "new"];

export interface ToolSide {
  readonly seen: number;
  readonly final: number;
  readonly forced: number;
  /** final / seen. */
  readonly rate: number;
}

/** The key of `missing` whose rate (its traces / seen) changed most, with that rate on each side. */
export interface StageMove {
  readonly stage: string;
  /** The key is an error kind (failed turns), not a stage. */
  readonly failed: boolean;
  readonly old: number;
  readonly new: number;
}

export interface ToolChange {
  readonly name: string;
  readonly old: ToolSide;
  readonly new: ToolSide;
  /** (new rate − old rate) × 100. */
  readonly points: number;
  /** Null when no key of `missing` changed its rate. */
  readonly stage: StageMove | null;
  /** The two-proportion z-test of the final rates (docs/formats.md). */
  readonly z: number;
  readonly p: number;
}

/** A tool seen in one set only: no rate to compare it with. */
export interface OneSideTool extends ToolSide {
  readonly name: string;
}

export type StageCounts = Omit<StageRow, "stage">;

export interface StageChange {
  readonly stage: string;
  /** Null: no trace of that set has a record of the stage. */
  readonly old: StageCounts | null;
  readonly new: StageCounts | null;
  /** new − old, a missing side counting 0. */
  readonly change: StageCounts;
}

export interface ErrorChange {
  readonly kind: string;
  readonly old: number;
  readonly new: number;
  readonly change: number;
}

export interface ModelCounts {
  readonly offered: number;
  readonly called: number;
  readonly calledNotOffered: number;
}

export interface ModelChange {
  readonly name: string;
  readonly old: ModelCounts;
  readonly new: ModelCounts;
}

export interface Comparison {
  readonly old: StatsRows;
  readonly new: StatsRows;
  /** Sides without a trace: then nothing is compared, and `tools` and `only*` are empty. */
  readonly empty: readonly Side[];
  /** Biggest change in points first, then the smaller p, then by name. */
  readonly tools: readonly ToolChange[];
  /** Most often seen first, then by name. */
  readonly onlyOld: readonly OneSideTool[];
  readonly onlyNew: readonly OneSideTool[];
  /** The old set's stages in their order, then the new set's others. */
  readonly stages: readonly StageChange[];
  readonly errors: readonly ErrorChange[];
  /** Tools a model call was offered or called, when either set was read from OpenTelemetry; else null. */
  readonly model: readonly ModelChange[] | null;
}

export function compareStats(
  oldStats: PaletteStats<unknown>,
  newStats: PaletteStats<unknown>,
): Comparison {
  return compareRows(statsRows(oldStats), statsRows(newStats));
}

export function compareRows(old: StatsRows, now: StatsRows): Comparison {
  const empty = SIDES.filter((side) => (side === "old" ? old : now).traces === 0);
  const oldTools = new Map(old.tools.map((row) => [row.name, row]));
  const newTools = new Map(now.tools.map((row) => [row.name, row]));
  const compared = empty.length === 0;
  const tools: ToolChange[] = [];
  if (compared)
    for (const [name, before] of oldTools) {
      const after = newTools.get(name);
      if (after) tools.push(toolChange(before, after));
    }
  tools.sort(
    (a, b) =>
      Math.abs(b.points) - Math.abs(a.points) || a.p - b.p || compareCodePoints(a.name, b.name),
  );
  const only = (rows: ReadonlyMap<string, ToolRow>, other: ReadonlyMap<string, ToolRow>) =>
    compared
      ? [...rows.values()]
          .filter((row) => !other.has(row.name))
          .map((row) => ({ name: row.name, ...toolSide(row) }))
          .sort((a, b) => b.seen - a.seen || compareCodePoints(a.name, b.name))
      : [];
  return {
    old,
    new: now,
    empty,
    tools,
    onlyOld: only(oldTools, newTools),
    onlyNew: only(newTools, oldTools),
    stages: stageChanges(old.stages, now.stages),
    errors: errorChanges(old, now),
    model: old.otelTraces + now.otelTraces > 0 ? modelChanges(old.tools, now.tools) : null,
  };
}

function toolSide(row: ToolRow): ToolSide {
  return { seen: row.seen, final: row.final, forced: row.forced, rate: row.final / row.seen };
}

function toolChange(before: ToolRow, after: ToolRow): ToolChange {
  const old = toolSide(before);
  const now = toolSide(after);
  const { z, p } = twoProportionTest(old.final, old.seen, now.final, now.seen);
  return {
    name: before.name,
    old,
    new: now,
    points: 100 * (now.rate - old.rate),
    stage: stageMove(before, after),
    z,
    p,
  };
}

function stageMove(before: ToolRow, after: ToolRow): StageMove | null {
  const moves = new Map<string, StageMove>();
  for (const [row, side] of [
    [before, "old"],
    [after, "new"],
  ] as const)
    for (const share of row.removedBy) {
      const move = moves.get(share.stage) ?? { stage: share.stage, failed: false, old: 0, new: 0 };
      moves.set(share.stage, {
        ...move,
        failed: move.failed || share.failed,
        [side]: share.n / row.seen,
      });
    }
  let most: StageMove | null = null;
  for (const move of [...moves.values()].sort((a, b) => compareCodePoints(a.stage, b.stage)))
    if (move.new !== move.old && (!most || moved(move) > moved(most))) most = move;
  return most;
}

const moved = (move: StageMove) => Math.abs(move.new - move.old);

const NO_STAGE: StageCounts = {
  records: 0,
  select: 0,
  abstain: 0,
  force: 0,
  error: 0,
  degraded: 0,
};

function stageChanges(old: readonly StageRow[], now: readonly StageRow[]): StageChange[] {
  const before = new Map(old.map(({ stage, ...counts }) => [stage, counts]));
  const after = new Map(now.map(({ stage, ...counts }) => [stage, counts]));
  const names = [...new Set([...before.keys(), ...after.keys()])];
  return names.map((stage) => {
    const o = before.get(stage) ?? null;
    const n = after.get(stage) ?? null;
    const a = o ?? NO_STAGE;
    const b = n ?? NO_STAGE;
    return {
      stage,
      old: o,
      new: n,
      change: {
        records: b.records - a.records,
        select: b.select - a.select,
        abstain: b.abstain - a.abstain,
        force: b.force - a.force,
        error: b.error - a.error,
        degraded: b.degraded - a.degraded,
      },
    };
  });
}

function errorChanges(old: StatsRows, now: StatsRows): ErrorChange[] {
  const before = new Map(old.errors.map((e) => [e.kind, e.n]));
  const after = new Map(now.errors.map((e) => [e.kind, e.n]));
  return [...new Set([...before.keys(), ...after.keys()])].sort(compareCodePoints).map((kind) => {
    const o = before.get(kind) ?? 0;
    const n = after.get(kind) ?? 0;
    return { kind, old: o, new: n, change: n - o };
  });
}

function modelChanges(old: readonly ToolRow[], now: readonly ToolRow[]): ModelChange[] {
  const counts = (row: ToolRow | undefined): ModelCounts => ({
    offered: row?.offered ?? 0,
    called: row?.called ?? 0,
    calledNotOffered: row?.calledNotOffered ?? 0,
  });
  const given = (row: ToolRow) => row.offered + row.called > 0;
  const before = new Map(old.filter(given).map((row) => [row.name, row]));
  const after = new Map(now.filter(given).map((row) => [row.name, row]));
  return [...new Set([...before.keys(), ...after.keys()])]
    .sort(compareCodePoints)
    .map((name) => ({ name, old: counts(before.get(name)), new: counts(after.get(name)) }));
}
