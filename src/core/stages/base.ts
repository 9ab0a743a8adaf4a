import type { SelectionContext, SelectionStage, StageOutcome } from "../contract.js";
import type { Tool } from "../tools.js";

/** What every stage's options hold. */
export interface StageOptions {
  name?: string;
  protectsForced?: boolean;
}

/** A stage's name (its kind's unless given) and whether it protects the forced choice (unless told not to). */
export abstract class BaseStage implements SelectionStage {
  readonly name: string;
  readonly protectsForced: boolean;

  protected constructor(options: StageOptions, defaultName: string) {
    this.name = options.name ?? defaultName;
    this.protectsForced = options.protectsForced ?? true;
  }

  abstract apply(tools: readonly Tool[], context: SelectionContext): StageOutcome;
}
