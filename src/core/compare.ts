import { outputNames, waterfallRows, type WaterfallRow } from "./lineage.js";
import type { ReportView } from "./report.js";
import type { StageAction } from "./contract.js";

/** Names on one side only. */
export interface NameDiff {
  readonly onlyBase: readonly string[];
  readonly onlyVariant: readonly string[];
}

/** What a stage did in the base run and in the variant. */
export type StageState = StageAction | "disabled" | "absent";

export interface StageComparison {
  readonly stage: string;
  readonly base: StageState;
  readonly variant: StageState;
  readonly actionChanged: boolean;
  readonly dropped: NameDiff;
  readonly added: NameDiff;
  readonly reinstated: NameDiff;
  /** The set the stage handed on. */
  readonly output: NameDiff;
  readonly forced: { readonly base: string | null; readonly variant: string | null };
  readonly changed: boolean;
}

/** Two runs of one pipeline (a fixture and its what-if, or two logged traces), stage by stage. */
export interface Comparison {
  readonly stages: readonly StageComparison[];
  readonly final: NameDiff & { readonly orderChanged: boolean };
  readonly forced: {
    readonly base: string | null;
    readonly variant: string | null;
    readonly changed: boolean;
  };
  readonly error: { readonly base: string | null; readonly variant: string | null };
  readonly changed: boolean;
}

export function compareReports(base: ReportView, variant: ReportView): Comparison {
  const baseRows = keyed(waterfallRows(base));
  const variantRows = keyed(waterfallRows(variant));
  const keys = [...baseRows.keys()];
  for (const key of variantRows.keys()) if (!baseRows.has(key)) keys.push(key);
  const stages = keys.map((key) => compareStage(baseRows.get(key), variantRows.get(key)));
  const final = {
    ...diff(base.names, variant.names),
    orderChanged: base.names.join("\u0000") !== variant.names.join("\u0000"),
  };
  const forced = {
    base: base.forcedChoice,
    variant: variant.forcedChoice,
    changed: base.forcedChoice !== variant.forcedChoice,
  };
  const error = { base: base.error?.message ?? null, variant: variant.error?.message ?? null };
  const changed =
    stages.some((stage) => stage.changed) ||
    final.orderChanged ||
    forced.changed ||
    error.base !== error.variant;
  return { stages, final, forced, error, changed };
}

/** Rows by name and occurrence, so a logged trace that repeats a name still lines up. */
function keyed(rows: readonly WaterfallRow[]): Map<string, WaterfallRow> {
  const seen = new Map<string, number>();
  const out = new Map<string, WaterfallRow>();
  for (const row of rows) {
    const n = seen.get(row.info.name) ?? 0;
    seen.set(row.info.name, n + 1);
    out.set(n === 0 ? row.info.name : `${row.info.name}\u0000${n}`, row);
  }
  return out;
}

function compareStage(
  base: WaterfallRow | undefined,
  variant: WaterfallRow | undefined,
): StageComparison {
  const state = (row: WaterfallRow | undefined): StageState =>
    row === undefined ? "absent" : (row.record?.action ?? "disabled");
  const names = (
    row: WaterfallRow | undefined,
    pick: (record: NonNullable<WaterfallRow["record"]>) => readonly string[],
  ) => (row?.record ? pick(row.record) : []);
  const dropped = diff(
    names(base, (r) => r.dropped),
    names(variant, (r) => r.dropped),
  );
  const added = diff(
    names(base, (r) => r.added),
    names(variant, (r) => r.added),
  );
  const reinstated = diff(
    names(base, (r) => r.reinstated),
    names(variant, (r) => r.reinstated),
  );
  const output = diff(names(base, outputNames), names(variant, outputNames));
  const forced = {
    base: base?.record?.forcedChoice ?? null,
    variant: variant?.record?.forcedChoice ?? null,
  };
  const actionChanged = state(base) !== state(variant);
  const changed =
    actionChanged ||
    [dropped, added, reinstated, output].some(nonEmpty) ||
    forced.base !== forced.variant;
  return {
    stage: (base ?? variant)!.info.name,
    base: state(base),
    variant: state(variant),
    actionChanged,
    dropped,
    added,
    reinstated,
    output,
    forced,
    changed,
  };
}

function diff(base: readonly string[], variant: readonly string[]): NameDiff {
  const inBase = new Set(base);
  const inVariant = new Set(variant);
  return {
    onlyBase: base.filter((name) => !inVariant.has(name)),
    onlyVariant: variant.filter((name) => !inBase.has(name)),
  };
}

function nonEmpty(names: NameDiff): boolean {
  return names.onlyBase.length > 0 || names.onlyVariant.length > 0;
}
