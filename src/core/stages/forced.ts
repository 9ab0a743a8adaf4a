import type { Tool } from "../tools.js";
import { resolvedMessages, StageOutcome, type SelectionContext } from "../contract.js";
import { BaseStage, type StageOptions } from "./base.js";

/** Chooses the tool to force, or null; re-run on every run. May throw. */
export type ForcedResolver = (context: SelectionContext) => string | null;

export interface ForcedChoiceOptions extends StageOptions {
  resolver?: ForcedResolver | null;
  stateKey?: string;
}

/** A message object whose `type` or `role` is "tool"; it names the tool in `name`. */
export function isToolMessage(message: unknown): message is { name?: unknown } {
  if (typeof message !== "object" || message === null) return false;
  const m = message as Record<string, unknown>;
  return m.type === "tool" || m.role === "tool";
}

/** Resolves the forced tool_choice: a state stamp, else the resolver, else none. */
export class ForcedChoiceStage extends BaseStage {
  private readonly resolver: ForcedResolver | null;
  readonly stateKey: string;

  constructor(options: ForcedChoiceOptions = {}) {
    super(options, "forced");
    this.resolver = options.resolver ?? null;
    this.stateKey = options.stateKey ?? "forced_tool_choice";
  }

  apply(_tools: readonly Tool[], context: SelectionContext): StageOutcome {
    const stamp = Object.hasOwn(context.state, this.stateKey) ? context.state[this.stateKey] : null;
    let choice: string | null;
    let source: string;
    if (stamp !== null && stamp !== undefined) {
      choice = String(stamp);
      source = `state stamp '${this.stateKey}'`;
    } else if (this.resolver === null) {
      return StageOutcome.force(null, "no stamp and no resolver: the model chooses");
    } else {
      try {
        choice = this.resolver(context);
      } catch (error) {
        // A stalled loop is worse than an unforced turn: a failing resolver releases.
        const message = error instanceof Error ? error.message : String(error);
        return StageOutcome.force(null, `resolver raised (${message}): force released`, true);
      }
      if (choice === null)
        return StageOutcome.force(null, "resolver chose no tool: the model chooses");
      source = "resolver";
    }
    // The release check runs on whichever path chose: once a tool message names it, the force is spent.
    const spent = resolvedMessages(context).some(
      (message) => isToolMessage(message) && message.name === choice,
    );
    if (spent)
      return StageOutcome.force(null, `force of '${choice}' spent: a tool message names it`);
    return StageOutcome.force(choice, `${source} forces '${choice}'`);
  }
}
