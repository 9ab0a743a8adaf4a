import { reasonTable, type Reasons, type StageOutcome } from "./contract.js";
import type { Tool } from "./tools.js";

/**
 * What a built-in stage says its select changed, from the one walk it made: the pipeline takes it
 * as the record instead of comparing the stage's input and output again. A select either leaves
 * tools out or appends some, never both.
 */
export type Account =
  /** The output is the input without every tool named here (input order): a name goes as a whole. */
  | { readonly dropped: readonly string[] }
  /** The output is the input, then tools with these names: distinct, none of them an input name. */
  | { readonly added: readonly string[] };

/** Why the stage dropped or added its `k`th name; one text for all when a string. */
export type Why = string | ((k: number) => string);

/** An account with the outcome's reasons, written out on first read and kept. */
export type Accounted = Account & { reasons(): Reasons };

const accounts = new WeakMap<StageOutcome, Accounted>();

/**
 * A select that carries its account. Its reasons (each name of the account, with `why`) are
 * written out when first read: a run that nobody explains never builds them.
 */
export function accountedSelect(
  tools: readonly Tool[],
  detail: string,
  account: Account,
  why: Why,
): StageOutcome {
  let table: Reasons | undefined;
  const names = "dropped" in account ? account.dropped : account.added;
  const accounted: Accounted = { ...account, reasons: () => (table ??= reasonsOf(names, why)) };
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

function reasonsOf(names: readonly string[], why: Why): Reasons {
  const reasons = reasonTable();
  for (let k = 0; k < names.length; k++)
    reasons[names[k]!] = typeof why === "string" ? why : why(k);
  return reasons;
}
