import { toolName, type Tool } from "../tools.js";
import { StageOutcome, type SelectionContext } from "../contract.js";
import { pushAll } from "../arrays.js";
import { BaseStage, type StageOptions } from "./base.js";

/** An adopter's own stage, played back from a fixture or a logged trace. */
export type ScriptedOutcome =
  | { readonly abstain: true }
  | { readonly select: readonly string[] }
  | { readonly force: string | null }
  | { readonly raise: string };

export interface ScriptedOptions extends StageOptions {
  name: string;
  outcome: ScriptedOutcome;
  detail?: string;
  degraded?: boolean;
  /** A select also keeps the unnamed tools of its input, as a name-keyed stage cannot see them. */
  keepsUnnamed?: boolean;
  /** Where a selected name not offered to the stage is taken from (offered set, then catalogue). */
  lookup: (name: string, context: SelectionContext) => Tool | undefined;
  reasons?: Readonly<Record<string, string>>;
}

export class ScriptedStage extends BaseStage {
  constructor(private readonly options: ScriptedOptions) {
    super(options, options.name);
  }

  apply(tools: readonly Tool[], context: SelectionContext): StageOutcome {
    const { outcome, detail = "", degraded = false } = this.options;
    if ("raise" in outcome) throw new Error(outcome.raise);
    if ("force" in outcome) return StageOutcome.force(outcome.force, detail, degraded);
    if ("abstain" in outcome) return StageOutcome.abstain(detail, degraded);
    const byName = new Map<string, Tool>();
    for (const tool of tools) {
      const name = toolName(tool);
      if (name !== null && !byName.has(name)) byName.set(name, tool);
    }
    const chosen = outcome.select.map((name) => {
      const tool = byName.get(name) ?? this.options.lookup(name, context);
      if (tool === undefined)
        throw new Error(
          `scripted stage '${this.name}' selects '${name}', which is neither offered nor catalogued`,
        );
      return tool;
    });
    if (this.options.keepsUnnamed)
      pushAll(
        chosen,
        tools.filter((tool) => toolName(tool) === null),
      );
    const selected = StageOutcome.select(chosen, detail, this.options.reasons);
    return degraded ? { ...selected, degraded } : selected;
  }
}
