import type { Tool } from "./tools.js";

/** Why a stage dropped or added a tool, by tool name. */
export type Reasons = Readonly<Record<string, string>>;

/**
 * One stage's answer. `tools === null` means abstain ("no policy here"), which is never the
 * same as an empty list ("policy applied and nothing survived").
 */
export interface StageOutcome {
  readonly tools: readonly Tool[] | null;
  readonly forcedChoice: string | null;
  readonly setsForcedChoice: boolean;
  readonly degraded: boolean;
  readonly detail: string;
  readonly reasons: Reasons;
}

/** No reasons: one frozen table, shared by every outcome and record that has none. */
export const NO_REASONS: Reasons = Object.freeze(reasonTable());

/**
 * An empty tool → reason table. Without a prototype: a tool named `__proto__` or
 * `constructor` is an ordinary key, and large tables stay fast.
 */
export function reasonTable(): Record<string, string> {
  return Object.create(null) as Record<string, string>;
}

export const StageOutcome = {
  abstain(detail = "", degraded = false): StageOutcome {
    return {
      tools: null,
      forcedChoice: null,
      setsForcedChoice: false,
      degraded,
      detail,
      reasons: NO_REASONS,
    };
  },
  select(tools: readonly Tool[], detail = "", reasons: Reasons = NO_REASONS): StageOutcome {
    return { tools, forcedChoice: null, setsForcedChoice: false, degraded: false, detail, reasons };
  },
  /** Decide the forced choice without touching the set; a null choice releases the force. */
  force(choice: string | null, detail = "", degraded = false): StageOutcome {
    return {
      tools: null,
      forcedChoice: choice,
      setsForcedChoice: true,
      degraded,
      detail,
      reasons: NO_REASONS,
    };
  },
};

export type StageAction = "abstain" | "select" | "force" | "error";

export const STAGE_ACTIONS: readonly StageAction[] = ["abstain", "select", "force", "error"];

/** What one stage did, in names, for the decision trace. */
export interface StageRecord {
  readonly stage: string;
  readonly action: StageAction;
  readonly kept: readonly string[];
  readonly dropped: readonly string[];
  readonly added: readonly string[];
  readonly reinstated: readonly string[];
  /** The forced choice in effect after this stage. */
  readonly forcedChoice: string | null;
  readonly detail: string;
  readonly degraded: boolean;
  readonly reasons: Reasons;
}

/** What the stages know about the turn. `forcedChoice` is written by the pipeline only. */
export interface SelectionContext {
  /** Passed to resolvers by identity, never copied. */
  readonly state: Record<string, unknown>;
  readonly messages: readonly unknown[];
  readonly role: string;
  readonly query: string;
  forcedChoice: string | null;
  /** The tools the pipeline was offered, for stages that re-add what an earlier stage dropped. */
  offered: readonly Tool[];
}

export function selectionContext(init: {
  state?: Record<string, unknown>;
  messages?: readonly unknown[];
  role?: string;
  query?: string;
}): SelectionContext {
  return {
    state: init.state ?? {},
    messages: init.messages ?? [],
    role: init.role ?? "",
    query: init.query ?? "",
    forcedChoice: null,
    offered: [],
  };
}

/** `messages` if supplied, else the conversation on `state.messages`. */
export function resolvedMessages(context: SelectionContext): readonly unknown[] {
  if (context.messages.length > 0) return context.messages;
  const fromState = Object.hasOwn(context.state, "messages") ? context.state.messages : undefined;
  return Array.isArray(fromState) ? fromState : [];
}

/** The tools to bind, the choice to force, and why. */
export interface SelectionResult {
  readonly tools: readonly Tool[];
  readonly names: readonly string[];
  readonly forcedChoice: string | null;
  readonly trace: readonly StageRecord[];
}

/** One lever of the pipeline. */
export interface SelectionStage {
  /** Labels the stage in the trace; unique within one pipeline. */
  readonly name: string;
  /** Whether the pipeline reinstates a forced tool this stage dropped. */
  readonly protectsForced: boolean;
  apply(tools: readonly Tool[], context: SelectionContext): StageOutcome;
}
