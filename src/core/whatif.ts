import type { Fixture } from "./fixture/load.js";
import { semanticIssues, stageName } from "./fixture/semantics.js";
import type { FixtureJson, StageJson } from "./fixture/schema.js";
import type { RunReport } from "./report.js";
import { runFixture } from "./run-fixture.js";

/** An intent stage's verdict as the what-if edits it. */
export interface VerdictEdit {
  readonly label: string;
  readonly matchedToolKeywords: readonly string[];
}

/** The numbers of a policy stage; `null` removes the limit, an absent key leaves it as it is. */
export interface PolicyEdit {
  readonly maxSafetyLevel?: string | null;
  readonly budgetUsd?: number | null;
}

/** One what-if: the levers a user may move in the panel, each keyed by the stage's trace name. */
export interface WhatIf {
  /** Stage name → whether the stage runs. */
  readonly enabled?: Readonly<Record<string, boolean>>;
  /** The turn's role. */
  readonly role?: string;
  /** Intent stage name → its verdict (null: no verdict, so the stage abstains). */
  readonly verdicts?: Readonly<Record<string, VerdictEdit | null>>;
  /** Forced stage name → the tool a fixed resolver forces (null: no resolver). */
  readonly forcedTools?: Readonly<Record<string, string | null>>;
  /** Policy stage name → its numbers. */
  readonly policies?: Readonly<Record<string, PolicyEdit>>;
}

/** A what-if that names a stage the fixture does not have, or one of another kind. */
export class WhatIfError extends Error {
  override readonly name = "WhatIfError";
}

/** The current value of every lever, for the panel's controls. */
export interface WhatIfLevers {
  readonly stages: readonly {
    readonly name: string;
    readonly kind: StageJson["kind"];
    readonly enabled: boolean;
  }[];
  readonly role: string;
  /** Roles some role stage has a palette for, so the panel can offer them. */
  readonly roles: readonly string[];
  readonly verdicts: readonly { readonly stage: string; readonly verdict: VerdictEdit | null }[];
  /** The tool a fixed resolver forces; null for no resolver; `other` for a resolver that is not fixed. */
  readonly forced: readonly {
    readonly stage: string;
    readonly tool: string | null;
    readonly resolver: string | null;
  }[];
  readonly policies: readonly {
    readonly stage: string;
    readonly maxSafetyLevel: string | null;
    readonly budgetUsd: number | null;
  }[];
  readonly safetyLevels: readonly string[];
}

export function whatIfLevers(json: FixtureJson, safetyLevels: readonly string[]): WhatIfLevers {
  const stages = json.pipeline ?? [];
  const roles = new Set<string>();
  const verdicts: { stage: string; verdict: VerdictEdit | null }[] = [];
  const forced: { stage: string; tool: string | null; resolver: string | null }[] = [];
  const policies: { stage: string; maxSafetyLevel: string | null; budgetUsd: number | null }[] = [];
  for (const stage of stages) {
    const name = stageName(stage);
    switch (stage.kind) {
      case "role":
        for (const role of Object.keys(stage.role_tools ?? {})) roles.add(role);
        break;
      case "intent":
        verdicts.push({
          stage: name,
          verdict: stage.verdict
            ? {
                label: stage.verdict.label,
                matchedToolKeywords: stage.verdict.matched_tool_keywords ?? [],
              }
            : null,
        });
        break;
      case "forced":
        forced.push({
          stage: name,
          tool: stage.resolver?.kind === "fixed" ? stage.resolver.tool : null,
          resolver: stage.resolver?.kind ?? null,
        });
        break;
      case "policy":
        policies.push({
          stage: name,
          maxSafetyLevel: stage.max_safety_level ?? null,
          budgetUsd: stage.budget_usd ?? null,
        });
        break;
    }
  }
  return {
    stages: stages.map((stage) => ({
      name: stageName(stage),
      kind: stage.kind,
      enabled: stage.enabled ?? true,
    })),
    role: json.turn?.role ?? "",
    roles: [...roles],
    verdicts,
    forced,
    policies,
    safetyLevels,
  };
}

/** The variant fixture a what-if describes; the original is never modified. */
export function applyWhatIf(json: FixtureJson, edit: WhatIf): FixtureJson {
  const stages = json.pipeline ?? [];
  const byName = new Map(stages.map((stage, index) => [stageName(stage), index]));
  const pipeline = [...stages];
  const at = (name: string, kind: StageJson["kind"] | null): number => {
    const index = byName.get(name);
    if (index === undefined) throw new WhatIfError(`no stage named '${name}' in the pipeline`);
    if (kind !== null && pipeline[index]!.kind !== kind)
      // "of kind" reads right for every kind ("a intent stage" did not).
      throw new WhatIfError(`stage '${name}' is of kind ${pipeline[index]!.kind}, not ${kind}`);
    return index;
  };

  for (const [name, enabled] of Object.entries(edit.enabled ?? {})) {
    const index = at(name, null);
    pipeline[index] = { ...pipeline[index]!, enabled };
  }
  for (const [name, verdict] of Object.entries(edit.verdicts ?? {})) {
    const index = at(name, "intent");
    pipeline[index] = {
      ...(pipeline[index] as Extract<StageJson, { kind: "intent" }>),
      verdict: verdict && {
        label: verdict.label,
        matched_tool_keywords: [...verdict.matchedToolKeywords],
      },
    };
  }
  for (const [name, tool] of Object.entries(edit.forcedTools ?? {})) {
    const index = at(name, "forced");
    pipeline[index] = {
      ...(pipeline[index] as Extract<StageJson, { kind: "forced" }>),
      resolver: tool === null ? null : { kind: "fixed", tool },
    };
  }
  for (const [name, policy] of Object.entries(edit.policies ?? {})) {
    const index = at(name, "policy");
    const stage = { ...(pipeline[index] as Extract<StageJson, { kind: "policy" }>) };
    if (policy.maxSafetyLevel !== undefined) stage.max_safety_level = policy.maxSafetyLevel;
    if (policy.budgetUsd !== undefined) stage.budget_usd = policy.budgetUsd;
    pipeline[index] = stage;
  }

  const variant: FixtureJson = { ...json, pipeline };
  if (edit.role !== undefined) variant.turn = { ...json.turn, role: edit.role };
  // A variant is a new scenario: the original's expectations describe a different run.
  delete variant.expect;
  return variant;
}

/** The what-if run, or why it cannot run: the variant must pass the same checks as a fixture. */
export function runWhatIf(
  fixture: Fixture,
  edit: WhatIf,
): { report: RunReport } | { error: string } {
  try {
    const json = applyWhatIf(fixture.json, edit);
    const errors = semanticIssues(json, fixture.catalog).filter(
      (issue) => issue.severity === "error",
    );
    if (errors.length > 0)
      return {
        error: `This what-if is not a valid fixture: ${errors.map((issue) => issue.message).join("; ")}`,
      };
    return { report: runFixture(fixture, json) };
  } catch (error) {
    if (error instanceof WhatIfError) return { error: error.message };
    throw error;
  }
}

/** The levers a what-if moves, in words: "stage allowlist off; role support". */
export function describeWhatIf(edit: WhatIf): string {
  const parts: string[] = [];
  for (const [stage, on] of Object.entries(edit.enabled ?? {}))
    parts.push(`stage ${stage} ${on ? "on" : "off"}`);
  if (edit.role !== undefined) parts.push(`role ${edit.role === "" ? "(none)" : edit.role}`);
  for (const [stage, verdict] of Object.entries(edit.verdicts ?? {}))
    parts.push(
      verdict === null
        ? `${stage} has no verdict`
        : `${stage} verdict ${verdict.label}${verdict.matchedToolKeywords.length ? ` (${verdict.matchedToolKeywords.join(", ")})` : ""}`,
    );
  for (const [stage, tool] of Object.entries(edit.forcedTools ?? {}))
    parts.push(tool === null ? `${stage} forces nothing` : `${stage} forces ${tool}`);
  for (const [stage, policy] of Object.entries(edit.policies ?? {})) {
    if (policy.maxSafetyLevel !== undefined)
      parts.push(`${stage} ceiling ${policy.maxSafetyLevel ?? "none"}`);
    if (policy.budgetUsd !== undefined)
      parts.push(`${stage} budget ${policy.budgetUsd === null ? "none" : `$${policy.budgetUsd}`}`);
  }
  return parts.join("; ");
}

/** True when the what-if moves no lever: the run is the unmodified one (`{}`, or only empty maps). */
export function movesNothing(edit: WhatIf): boolean {
  return whatIfSize(edit) === 0;
}

/** How many levers the what-if moves (0: the unmodified run). */
export function whatIfSize(edit: WhatIf): number {
  const count = (record: object | undefined) => (record ? Object.keys(record).length : 0);
  return (
    count(edit.enabled) +
    (edit.role !== undefined ? 1 : 0) +
    count(edit.verdicts) +
    count(edit.forcedTools) +
    count(edit.policies)
  );
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);
const isStringArray = (value: unknown): value is string[] =>
  Array.isArray(value) && value.every((item) => typeof item === "string");
const recordOf = (value: unknown, item: (v: unknown) => boolean): boolean =>
  value === undefined || (isRecord(value) && Object.values(value).every(item));

/** Whether an untrusted value (a message from the webview) is a well-formed what-if. */
export function isWhatIf(value: unknown): value is WhatIf {
  if (!isRecord(value)) return false;
  const known = new Set(["enabled", "role", "verdicts", "forcedTools", "policies"]);
  if (Object.keys(value).some((key) => !known.has(key))) return false;
  return (
    recordOf(value.enabled, (v) => typeof v === "boolean") &&
    (value.role === undefined || typeof value.role === "string") &&
    recordOf(
      value.verdicts,
      (v) =>
        v === null ||
        (isRecord(v) && typeof v.label === "string" && isStringArray(v.matchedToolKeywords)),
    ) &&
    recordOf(value.forcedTools, (v) => v === null || (typeof v === "string" && v !== "")) &&
    recordOf(
      value.policies,
      (v) =>
        isRecord(v) &&
        (v.maxSafetyLevel === undefined ||
          v.maxSafetyLevel === null ||
          typeof v.maxSafetyLevel === "string") &&
        (v.budgetUsd === undefined ||
          v.budgetUsd === null ||
          (typeof v.budgetUsd === "number" && Number.isFinite(v.budgetUsd) && v.budgetUsd >= 0)),
    )
  );
}
