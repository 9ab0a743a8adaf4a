import type { ToolCatalog } from "../catalog.js";
import { accountedSelect } from "../account.js";
import { filterByNames, toolName, type Tool } from "../tools.js";
import { StageOutcome } from "../contract.js";
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

    const keep = new Set(this.alwaysInclude);
    const dropped: string[] = [];
    const account = { dropped };
    if (verdict.label === "knowledge") {
      const kept = filterByNames(tools, keep, dropped);
      return accountedSelect(
        kept,
        "knowledge turn: always-include only",
        account,
        "knowledge turn: not always-include",
      );
    }

    for (const name of verdict.matchedToolKeywords) keep.add(name);
    // A tool without trigger keywords has nothing to miss: it stays, decided in the same walk.
    const kept: Tool[] = [];
    for (const tool of tools) {
      const name = toolName(tool);
      if (name === null || keep.has(name) || this.keywordsOf(name).length === 0) kept.push(tool);
      else dropped.push(name);
    }
    return accountedSelect(
      kept,
      `${verdict.label} turn: keyword intersection`,
      account,
      "its trigger keywords were not matched by the verdict",
    );
  }
}
