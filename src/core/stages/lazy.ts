import { filterByNames, type Tool } from "../tools.js";
import { reasonTable, StageOutcome, type SelectionStage } from "../contract.js";
import { counted } from "../words.js";

export interface LazyRoutingOptions {
  name?: string;
  protectsForced?: boolean;
  /** null: procedural routing resolved nothing, so the stage abstains. */
  allowedNames?: readonly string[] | null;
}

/** Narrows to the tool names procedural routing resolved. */
export class LazyRoutingStage implements SelectionStage {
  readonly name: string;
  readonly protectsForced: boolean;
  private readonly allowed: ReadonlySet<string> | null;

  constructor(options: LazyRoutingOptions = {}) {
    this.name = options.name ?? "lazy";
    this.protectsForced = options.protectsForced ?? true;
    this.allowed = options.allowedNames == null ? null : new Set(options.allowedNames);
  }

  apply(tools: readonly Tool[]): StageOutcome {
    const allowed = this.allowed;
    if (allowed === null) return StageOutcome.abstain("no procedural routing");
    const reasons = reasonTable();
    return StageOutcome.select(
      filterByNames(tools, allowed, reasons, "not routed by procedural routing"),
      `routed to ${counted(allowed.size, "name")}`,
      reasons,
    );
  }
}
