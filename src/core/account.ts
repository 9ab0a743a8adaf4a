import { reasonTable, type Reasons, type StageOutcome } from "./contract.js";
import type { Tool } from "./tools.js";

/**
 * What a built-in stage says its select changed, from the one walk it made: the pipeline takes it
 * as the record instead of comparing the stage's input and output again. The output is the input
 * without every tool named in `dropped`, in input order, then the tools named in `added`.
 */
export interface Account {
  /** Names of the input tools left out, in input order; a name is kept or dropped as a whole. */
  readonly dropped: readonly string[];
  /** Names of the tools appended after the input's, distinct and none of them an input name. */
  readonly added: readonly string[];
}

/** Why the stage dropped or added its `k`th name (dropped ones first); one text for all when a string. */
export type Why = string | ((k: number) => string);

/** An account with the outcome's reasons, written out on first read and kept. */
export interface Accounted extends Account {
  reasons(): Reasons;
}

const accounts = new WeakMap<StageOutcome, Accounted>();

/**
 * A select that carries its account. Its reasons (each dropped, then each added name, with
 * `why`) are written out when first read: a run that nobody explains never builds them.
 */
export function accountedSelect(
  tools: readonly Tool[],
  detail: string,
  { dropped, added }: Account,
  why: Why,
): StageOutcome {
  let table: Reasons | undefined;
  const accounted: Accounted = {
    dropped,
    added,
    reasons: () => (table ??= reasonsOf(dropped, added, why)),
  };
  const outcome: StageOutcome = {
    tools,
    forcedChoice: null,
    setsForcedChoice: false,
    degraded: false,
    detail,
    get reasons() {
      return accounted.reasons();
    },
  };
  accounts.set(outcome, accounted);
  return outcome;
}

/** The account a built-in stage gave with its outcome; undefined for any other outcome. */
export function accountOf(outcome: StageOutcome): Accounted | undefined {
  return accounts.get(outcome);
}

function reasonsOf(dropped: readonly string[], added: readonly string[], why: Why): Reasons {
  const reasons = reasonTable();
  let k = 0;
  for (const names of [dropped, added])
    for (const name of names) reasons[name] = typeof why === "string" ? why : why(k++);
  return reasons;
}
