import type { ToolCatalog } from "../catalog.js";
import { filterByNames, toolName, type Tool } from "../tools.js";
import { reasonTable, StageOutcome } from "../contract.js";
import { BaseStage, type StageOptions } from "./base.js";

/** An IntentVerdict-shaped object. */
export interface IntentVerdict {
  readonly label: string;
  readonly matchedToolKeywords: readonly string[];
}

export interface IntentRoutingOptions extends StageOptions {
  verdict?: IntentVerdict | null;
  /** Tool name → keywords; when absent, read from the catalogue entries. */
  triggerKeywords?: ReadonlyMap<string, readonly string[]> | null;
  catalog?: ToolCatalog;
  alwaysInclude?: readonly string[];
}

/** Narrows the turn's tools from the intent verdict (symfonic's decision matrix). */
export class IntentRoutingStage extends BaseStage {
  private readonly verdict: IntentVerdict | null;
  private readonly alwaysInclude: readonly string[];
  private readonly keywordsOf: (name: string) => readonly string[];

  constructor(options: IntentRoutingOptions = {}) {
    super(options, "intent");
    this.verdict = options.verdict ?? null;
    this.alwaysInclude = (options.alwaysInclude ?? []).filter((name) => name);
    const given = options.triggerKeywords;
    const catalog = options.catalog;
    this.keywordsOf = given
      ? (name) => given.get(name) ?? []
      : (name) => catalog?.get(name)?.triggerKeywords ?? [];
  }

  apply(tools: readonly Tool[]): StageOutcome {
    if (tools.length === 0) return StageOutcome.abstain("no candidate tools");
    const verdict = this.verdict;
    if (verdict === null || verdict.label === "ambiguous")
      return StageOutcome.abstain("no actionable verdict");

    const always = new Set(this.alwaysInclude);
    if (verdict.label === "knowledge") {
      const kept = filterByNames(tools, always);
      return StageOutcome.select(
        kept,
        "knowledge turn: always-include only",
        reasonsForDropped(tools, always, () => "knowledge turn: not always-include"),
      );
    }

    const keep = new Set(always);
    for (const name of verdict.matchedToolKeywords) keep.add(name);
    for (const tool of tools) {
      const name = toolName(tool);
      if (name !== null && this.keywordsOf(name).length === 0) keep.add(name);
    }
    return StageOutcome.select(
      filterByNames(tools, keep),
      `${verdict.label} turn: keyword intersection`,
      reasonsForDropped(tools, keep, () => "its trigger keywords were not matched by the verdict"),
    );
  }
}

function reasonsForDropped(
  tools: readonly Tool[],
  keep: ReadonlySet<string>,
  why: (name: string) => string,
): Record<string, string> {
  const reasons = reasonTable();
  for (const tool of tools) {
    const name = toolName(tool);
    if (name !== null && !keep.has(name)) reasons[name] = why(name);
  }
  return reasons;
}
