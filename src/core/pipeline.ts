import { accountOf, type Account } from "./account.js";
import { allDistinct } from "./arrays.js";
import { ForcedToolUnavailable } from "./errors.js";
import { toolName, toolNames, type Tool } from "./tools.js";
import {
  NO_REASONS,
  selectionContext,
  type SelectionContext,
  type SelectionResult,
  type SelectionStage,
  type StageRecord,
} from "./contract.js";

/** Composes stages in a list you can read: its order is the order of execution. */
export class ToolSelectionPipeline {
  readonly stages: readonly SelectionStage[];

  constructor(stages: readonly SelectionStage[]) {
    const seen = new Set<string>();
    for (const stage of stages) {
      if (seen.has(stage.name)) throw new Error(`duplicate stage name '${stage.name}'`);
      seen.add(stage.name);
    }
    this.stages = [...stages];
  }

  /** Runs every stage; throws ForcedToolUnavailable (carrying the trace) if the force cannot be honoured. */
  run(offered: readonly Tool[], context: SelectionContext): SelectionResult {
    let current = stageInput(offered, null, undefined);
    context.forcedChoice = null;
    context.offered = offered;
    const trace: StageRecord[] = [];
    for (const stage of this.stages) {
      const step = runStage(stage, current, context);
      trace.push(step.record);
      current = step.output;
    }
    const result: SelectionResult = {
      tools: current.tools,
      names: namesOf(current),
      forcedChoice: context.forcedChoice,
      trace,
    };
    const forced = context.forcedChoice;
    if (forced !== null && !result.names.includes(forced))
      throw new ForcedToolUnavailable(forced, result);
    return result;
  }
}

/**
 * A stage's input: the tools, their names (unnamed tools have none) and whether no name repeats.
 * Names and uniqueness are worked out when first asked: a stage's account often makes them known.
 */
interface StageInput {
  readonly tools: readonly Tool[];
  names: readonly string[] | null;
  unique: boolean | undefined;
}

function stageInput(
  tools: readonly Tool[],
  names: readonly string[] | null,
  unique: boolean | undefined,
): StageInput {
  return { tools, names, unique };
}

function namesOf(input: StageInput): readonly string[] {
  return (input.names ??= toolNames(input.tools));
}

function uniqueOf(input: StageInput): boolean {
  return (input.unique ??= allDistinct(namesOf(input)));
}

interface StageStep {
  readonly record: StageRecord;
  readonly output: StageInput;
}

/** One stage, contained; names travel with the tools so no stage re-derives them. */
function runStage(stage: SelectionStage, input: StageInput, context: SelectionContext): StageStep {
  let outcome;
  try {
    outcome = stage.apply(input.tools, context);
  } catch (error) {
    // Contained: one broken stage must not take the turn down with it.
    return untouched(stage, input, context, "error", errorMessage(error), true);
  }
  if (outcome.setsForcedChoice) context.forcedChoice = outcome.forcedChoice;
  if (outcome.tools === null) {
    const action = outcome.setsForcedChoice ? "force" : "abstain";
    return untouched(stage, input, context, action, outcome.detail, outcome.degraded);
  }

  const forced = context.forcedChoice;
  const protect = stage.protectsForced ? forced : null;
  const account = accountOf(outcome);
  const changes =
    account !== undefined
      ? accounted(input, outcome.tools, account, protect)
      : (uniqueOf(input) && filtered(input.tools, namesOf(input), outcome.tools, protect)) ||
        compared(input.tools, namesOf(input), outcome.tools, protect);
  // An accounted outcome words its reasons only when they are read, and so does its record.
  const reasons = account === undefined ? outcome.reasons : NO_REASONS;
  return {
    record: {
      stage: stage.name,
      action: "select",
      kept: changes.kept,
      dropped: changes.dropped,
      added: changes.added,
      reinstated: changes.reinstated === null ? [] : [changes.reinstated.name],
      forcedChoice: forced,
      detail: outcome.detail,
      degraded: outcome.degraded,
      get reasons() {
        return account === undefined ? reasons : account.reasons();
      },
    },
    output:
      changes.reinstated === null
        ? stageInput(outcome.tools, changes.outputNames, changes.unique)
        : stageInput(
            [...outcome.tools, changes.reinstated.tool],
            [...changes.outputNames, changes.reinstated.name],
            changes.unique,
          ),
  };
}

/** A stage that left the set as it was (abstain, force, error): its input passes on, names and all. */
function untouched(
  stage: SelectionStage,
  input: StageInput,
  context: SelectionContext,
  action: StageRecord["action"],
  detail: string,
  degraded: boolean,
): StageStep {
  return {
    record: {
      stage: stage.name,
      action,
      kept: namesOf(input),
      dropped: [],
      added: [],
      reinstated: [],
      forcedChoice: context.forcedChoice,
      detail,
      degraded,
      reasons: NO_REASONS,
    },
    output: input,
  };
}

/** What a select did, in names; `reinstated` is the protected forced tool the pipeline puts back. */
interface Changes {
  readonly kept: readonly string[];
  readonly dropped: readonly string[];
  readonly added: readonly string[];
  readonly reinstated: { readonly name: string; readonly tool: Tool } | null;
  /** The output's names before any reinstatement. */
  readonly outputNames: readonly string[];
  /** Whether no output name repeats; undefined when that is not known yet. */
  readonly unique: boolean | undefined;
}

/**
 * What a built-in stage accounted for, taken as it says; a protected forced tool it dropped is
 * put back. Names are read again only from an output that lost some.
 */
function accounted(
  input: StageInput,
  output: readonly Tool[],
  account: Account,
  protect: string | null,
): Changes {
  if (!("dropped" in account)) {
    // Appending distinct new names keeps the names as distinct as they were.
    const kept = namesOf(input);
    const { added } = account;
    return {
      kept,
      dropped: [],
      added,
      reinstated: null,
      outputNames: kept.concat(added),
      unique: input.unique,
    };
  }
  const { dropped } = account;
  const kept = madeNames(output);
  // Dropping keeps distinct names distinct.
  const unique = input.unique === true ? true : undefined;
  if (protect === null || !dropped.includes(protect))
    return { kept, dropped, added: [], reinstated: null, outputNames: kept, unique };
  return {
    kept,
    dropped: dropped.filter((name) => name !== protect),
    added: [],
    reinstated: { name: protect, tool: input.tools.find((tool) => toolName(tool) === protect)! },
    outputNames: kept,
    unique,
  };
}

/**
 * Most stages only filter, and an allowlist filters nothing and appends: the output is the input
 * with tools left out, in order, then tools with new names. With unique input names one walk
 * then classifies every name; null when the output is anything else.
 */
function filtered(
  input: readonly Tool[],
  inputNames: readonly string[],
  output: readonly Tool[],
  protect: string | null,
): Changes | null {
  const kept: string[] = [];
  const dropped: string[] = [];
  let reinstated: Changes["reinstated"] = null;
  let j = 0;
  for (const tool of input) {
    const name = toolName(tool);
    if (j < output.length && output[j] === tool) {
      j++;
      if (name !== null) kept.push(name);
    } else if (name !== null) {
      if (name === protect) reinstated = { name, tool };
      else dropped.push(name);
    }
  }
  const added = j < output.length ? newNames(output, j, inputNames) : [];
  if (added === null) return null;
  // Kept names are the output's own: shared, as nothing downstream writes to a name list.
  const outputNames = added.length === 0 ? kept : kept.concat(added);
  return { kept, dropped, added, reinstated, outputNames, unique: true };
}

/** The names of `output` from `from` on, when none repeats and none is an input name; else null. */
function newNames(
  output: readonly Tool[],
  from: number,
  inputNames: readonly string[],
): string[] | null {
  const names = new Set<string>();
  for (let k = from; k < output.length; k++) {
    const name = toolName(output[k]!);
    if (name === null) continue;
    if (names.has(name)) return null;
    names.add(name);
  }
  if (names.size === 0) return [];
  for (const name of inputNames) if (names.has(name)) return null;
  return [...names];
}

/**
 * The names of a list a built-in stage made: the list itself when every tool is a string (shared,
 * as nothing downstream writes to a tool or name list).
 */
function madeNames(tools: readonly Tool[]): readonly string[] {
  for (const tool of tools) if (typeof tool !== "string") return toolNames(tools);
  return tools as readonly string[];
}

/** The general case (reordered, added or repeated names): by name, as §3 states it. */
function compared(
  input: readonly Tool[],
  inputNames: readonly string[],
  output: readonly Tool[],
  protect: string | null,
): Changes {
  const outputNames = toolNames(output);
  const outputSet = new Set(outputNames);
  const unique = outputSet.size === outputNames.length;
  let reinstated: Changes["reinstated"] = null;
  if (protect !== null && !outputSet.has(protect) && inputNames.includes(protect)) {
    reinstated = { name: protect, tool: input.find((tool) => toolName(tool) === protect)! };
    outputSet.add(protect);
  }
  const inputSet = new Set(inputNames);
  return {
    kept: inputNames.filter((name) => outputSet.has(name) && name !== reinstated?.name),
    dropped: inputNames.filter((name) => !outputSet.has(name)),
    added: outputNames.filter((name) => !inputSet.has(name)),
    reinstated,
    outputNames,
    unique,
  };
}

/** The error's message, exactly (§3: the error record's detail is the error's message, even when empty). */
function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}

/** Builds the context and runs the pipeline, as symfonic's `run_selection` does. */
export function runSelection(
  pipeline: ToolSelectionPipeline,
  tools: readonly Tool[],
  turn: {
    state?: Record<string, unknown>;
    messages?: readonly unknown[];
    query?: string;
    role?: string;
  } = {},
): SelectionResult {
  return pipeline.run(tools, selectionContext(turn));
}
