import { accountedSelect } from "../account.js";
import type { ToolCatalog } from "../catalog.js";
import { toolName, type Tool } from "../tools.js";
import { StageOutcome, type SelectionContext } from "../contract.js";
import { counted } from "../words.js";
import { BaseStage, type StageOptions } from "./base.js";

export interface AllowlistOptions extends StageOptions {
  alwaysInclude?: readonly string[];
  /** When given, only names the catalogue holds are re-added. */
  catalog?: ToolCatalog | null;
}

/** Re-adds mandated tools that an earlier stage dropped; it never fabricates a tool. */
export class AllowlistStage extends BaseStage {
  private readonly alwaysInclude: ReadonlySet<string>;
  private readonly catalog: ToolCatalog | null;

  constructor(options: AllowlistOptions = {}) {
    super(options, "allowlist");
    this.alwaysInclude = new Set((options.alwaysInclude ?? []).filter((name) => name));
    this.catalog = options.catalog ?? null;
  }

  apply(tools: readonly Tool[], context: SelectionContext): StageOutcome {
    // Only mandated names can be missing: the set of the rest would be built for nothing.
    const present = new Set<string>();
    for (const tool of tools) {
      const name = toolName(tool);
      if (name !== null && this.alwaysInclude.has(name)) present.add(name);
    }
    const readded: Tool[] = [];
    const added: string[] = [];
    for (const tool of context.offered) {
      const name = toolName(tool);
      if (name === null || !this.alwaysInclude.has(name) || present.has(name)) continue;
      if (this.catalog !== null && !this.catalog.has(name)) continue;
      present.add(name);
      readded.push(tool);
      added.push(name);
    }
    if (readded.length === 0) return StageOutcome.abstain("nothing to re-add");
    return accountedSelect(
      tools.concat(readded),
      `re-added ${counted(readded.length, "mandated tool")}`,
      { added },
      "mandated by the allowlist",
    );
  }
}
