import { accountedSelect } from "../account.js";
import { filterByNames, type Tool } from "../tools.js";
import { StageOutcome } from "../contract.js";
import { counted } from "../words.js";
import { BaseStage, type StageOptions } from "./base.js";

export interface LazyRoutingOptions extends StageOptions {
  /** null: procedural routing resolved nothing, so the stage abstains. */
  allowedNames?: readonly string[] | null;
}

/** Narrows to the tool names procedural routing resolved. */
export class LazyRoutingStage extends BaseStage {
  private readonly allowed: ReadonlySet<string> | null;

  constructor(options: LazyRoutingOptions = {}) {
    super(options, "lazy");
    this.allowed = options.allowedNames == null ? null : new Set(options.allowedNames);
  }

  apply(tools: readonly Tool[]): StageOutcome {
    const allowed = this.allowed;
    if (allowed === null) return StageOutcome.abstain("no procedural routing");
    const dropped: string[] = [];
    return accountedSelect(
      filterByNames(tools, allowed, dropped),
      `routed to ${counted(allowed.size, "name")}`,
      { dropped },
      "not routed by procedural routing",
    );
  }
}
