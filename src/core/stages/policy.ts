import { accountedSelect } from "../account.js";
import { allDistinct } from "../arrays.js";
import type { CatalogEntry, ToolCatalog } from "../catalog.js";
import { toolName, type Tool } from "../tools.js";
import { StageOutcome } from "../contract.js";
import { counted } from "../words.js";
import { BaseStage, type StageOptions } from "./base.js";

export interface PolicyOptions extends StageOptions {
  catalog: ToolCatalog;
  maxSafetyLevel?: string | null;
  budgetUsd?: number | null;
  includeUnknownCost?: boolean;
  /** null: capabilities are not checked. */
  availableCapabilities?: readonly string[] | null;
  agentVisibleOnly?: boolean;
  /** null: categories are not checked. */
  categories?: readonly string[] | null;
}

/** Drops tools the configured policy forbids; a tool the catalogue does not hold is kept. */
export class PolicyStage extends BaseStage {
  private readonly catalog: ToolCatalog;
  private readonly maxSafetyLevel: string | null;
  private readonly maxRank: number | null;
  private readonly budgetUsd: number | null;
  private readonly includeUnknownCost: boolean;
  private readonly capabilities: ReadonlySet<string> | null;
  private readonly agentVisibleOnly: boolean;
  private readonly categories: ReadonlySet<string> | null;

  constructor(options: PolicyOptions) {
    super(options, "policy");
    this.catalog = options.catalog;
    this.maxSafetyLevel = options.maxSafetyLevel ?? null;
    this.maxRank =
      this.maxSafetyLevel === null ? null : rankOn(options.catalog, this.maxSafetyLevel);
    this.budgetUsd = options.budgetUsd ?? null;
    this.includeUnknownCost = options.includeUnknownCost ?? true;
    this.capabilities =
      options.availableCapabilities == null ? null : new Set(options.availableCapabilities);
    this.agentVisibleOnly = options.agentVisibleOnly ?? false;
    this.categories = options.categories == null ? null : new Set(options.categories);
  }

  private get configured(): boolean {
    return (
      this.maxRank !== null ||
      this.budgetUsd !== null ||
      this.capabilities !== null ||
      this.categories !== null ||
      this.agentVisibleOnly ||
      !this.includeUnknownCost
    );
  }

  apply(tools: readonly Tool[]): StageOutcome {
    if (!this.configured) return StageOutcome.abstain("no policy configured");
    const kept: Tool[] = [];
    const dropped: string[] = [];
    for (const tool of tools) {
      const name = toolName(tool);
      const entry = name === null ? undefined : this.catalog.get(name);
      if (entry === undefined || this.broken(entry) === 0) kept.push(tool);
      else dropped.push(name!);
    }
    // Counted by name, as the reasons hold them: a repeated name is one forbidden tool.
    const count = allDistinct(dropped) ? dropped.length : new Set(dropped).size;
    return accountedSelect(
      kept,
      count === 0 ? "policy allows every tool" : `policy forbids ${counted(count, "tool")}`,
      { dropped },
      // Worded only when read, from the entries the catalogue still holds.
      (k) => this.violations(this.catalog.get(dropped[k]!)!),
    );
  }

  /** The rules the entry breaks, one bit each; 0 when it is allowed. */
  private broken(entry: CatalogEntry): number {
    let broken = 0;
    if (
      entry.safetyLevel !== null &&
      this.maxRank !== null &&
      rankOn(this.catalog, entry.safetyLevel) > this.maxRank
    )
      broken |= SAFETY;
    if (entry.costUsd !== null && this.budgetUsd !== null && entry.costUsd > this.budgetUsd)
      broken |= COST;
    if (entry.costUsd === null && !this.includeUnknownCost) broken |= UNKNOWN_COST;
    if (
      entry.requiresCapability !== null &&
      this.capabilities !== null &&
      !this.capabilities.has(entry.requiresCapability)
    )
      broken |= CAPABILITY;
    if (entry.visibility !== "agent" && this.agentVisibleOnly) broken |= VISIBILITY;
    if (
      this.categories !== null &&
      (entry.category === null || !this.categories.has(entry.category))
    )
      broken |= CATEGORY;
    return broken;
  }

  /** Every rule the entry breaks, in words joined by "; ". */
  private violations(entry: CatalogEntry): string {
    const broken = this.broken(entry);
    const words: string[] = [];
    if (broken & SAFETY) words.push(`safety ${entry.safetyLevel} > ${this.maxSafetyLevel}`);
    if (broken & COST) words.push(`cost $${entry.costUsd} > budget $${this.budgetUsd}`);
    if (broken & UNKNOWN_COST) words.push("cost unknown");
    if (broken & CAPABILITY) words.push(`requires capability '${entry.requiresCapability}'`);
    if (broken & VISIBILITY) words.push("not agent-visible");
    if (broken & CATEGORY)
      words.push(
        entry.category === null ? "no category" : `category '${entry.category}' not allowed`,
      );
    return words.join("; ");
  }
}

// One bit per rule of docs/semantics.md §4 policy, in the order its reasons list them.
const SAFETY = 1;
const COST = 2;
const UNKNOWN_COST = 4;
const CAPABILITY = 8;
const VISIBILITY = 16;
const CATEGORY = 32;

function rankOn(catalog: ToolCatalog, level: string): number {
  const rank = catalog.rank(level);
  if (rank === undefined)
    throw new Error(`safety level '${level}' is not on the catalogue's scale`);
  return rank;
}
