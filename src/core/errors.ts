import type { SelectionResult } from "./contract.js";

/** Two parts of a composition disagree, or a composition names a tool that does not exist. */
export class ContractViolationError extends Error {
  override readonly name: string = "ContractViolationError";
}

/** A forced tool that cannot be offered: the run fails before the model would be called. */
export class ForcedToolUnavailable extends ContractViolationError {
  override readonly name = "ForcedToolUnavailable";
  constructor(
    readonly tool: string,
    /** The selection up to the failure, still shown to the user. */
    readonly partial: SelectionResult,
  ) {
    super(`forced tool '${tool}' is not among the final tools`);
  }
}
