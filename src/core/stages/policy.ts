import type { CatalogEntry, ToolCatalog } from "../catalog.js";
import { toolName, type Tool } from "../tools.js";
import { reasonTable, StageOutcome } from "../contract.js";
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
    const reasons = reasonTable();
    let dropped = 0;
    for (const tool of tools) {
      const name = toolName(tool);
      const entry = name === null ? undefined : this.catalog.get(name);
      const why = entry === undefined ? "" : this.violations(entry);
      if (why === "") kept.push(tool);
      else {
        // Counted by name, as the table holds them: a repeated name is one forbidden tool.
        if (reasons[name!] === undefined) dropped++;
        reasons[name!] = why;
      }
    }
    return StageOutcome.select(
      kept,
      dropped === 0 ? "policy allows every tool" : `policy forbids ${counted(dropped, "tool")}`,
      reasons,
    );
  }

  /** Every rule the entry breaks, in words joined by "; "; empty when it is allowed. */
  private violations(entry: CatalogEntry): string {
    let why = "";
    if (
      entry.safetyLevel !== null &&
      this.maxRank !== null &&
      rankOn(this.catalog, entry.safetyLevel) > this.maxRank
    ) {
      why = also(why, `safety ${entry.safetyLevel} > ${this.maxSafetyLevel}`);
    }
    if (entry.costUsd !== null && this.budgetUsd !== null && entry.costUsd > this.budgetUsd) {
      why = also(why, `cost $${entry.costUsd} > budget $${this.budgetUsd}`);
    }
    if (entry.costUsd === null && !this.includeUnknownCost) why = also(why, "cost unknown");
    if (
      entry.requiresCapability !== null &&
      this.capabilities !== null &&
      !this.capabilities.has(entry.requiresCapability)
    ) {
      why = also(why, `requires capability '${entry.requiresCapability}'`);
    }
    if (entry.visibility !== "agent" && this.agentVisibleOnly) why = also(why, "not agent-visible");
    if (
      this.categories !== null &&
      (entry.category === null || !this.categories.has(entry.category))
    ) {
      why = also(
        why,
        entry.category === null ? "no category" : `category '${entry.category}' not allowed`,
      );
    }
    return why;
  }
}

/** `why` with one more broken rule. */
function also(why: string, rule: string): string {
  return why === "" ? rule : `${why}; ${rule}`;
}

function rankOn(catalog: ToolCatalog, level: string): number {
  const rank = catalog.rank(level);
  if (rank === undefined)
    throw new Error(`safety level '${level}' is not on the catalogue's scale`);
  return rank;
}
