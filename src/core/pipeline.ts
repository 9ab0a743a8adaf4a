import { allDistinct } from "./arrays.js";
import { ForcedToolUnavailable } from "./errors.js";
import { toolName, toolNames, type Tool } from "./tools.js";
import {
  reasonTable,
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
    let current: readonly Tool[] = offered;
    let currentNames: readonly string[] = toolNames(offered);
    let unique = allDistinct(currentNames);
    context.forcedChoice = null;
    context.offered = offered;
    const trace: StageRecord[] = [];
    for (const stage of this.stages) {
      const step = runStage(stage, { tools: current, names: currentNames, unique }, context);
      trace.push(step.record);
      current = step.output;
      currentNames = step.outputNames;
      unique = step.unique;
    }
    const result: SelectionResult = {
      tools: current,
      names: currentNames,
      forcedChoice: context.forcedChoice,
      trace,
    };
    const forced = context.forcedChoice;
    if (forced !== null && !result.names.includes(forced))
      throw new ForcedToolUnavailable(forced, result);
    return result;
  }
}

/** A stage's input: the tools, their names (unnamed tools have none), and whether no name repeats. */
interface StageInput {
  readonly tools: readonly Tool[];
  readonly names: readonly string[];
  readonly unique: boolean;
}

interface StageStep {
  readonly record: StageRecord;
  readonly output: readonly Tool[];
  readonly outputNames: readonly string[];
  readonly unique: boolean;
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
  const changes =
    (input.unique && filtered(input, outcome.tools, protect)) ||
    compared(input.tools, input.names, outcome.tools, protect);
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
      reasons: outcome.reasons,
    },
    output:
      changes.reinstated === null ? outcome.tools : [...outcome.tools, changes.reinstated.tool],
    outputNames:
      changes.reinstated === null
        ? changes.outputNames
        : [...changes.outputNames, changes.reinstated.name],
    unique: changes.unique,
  };
}

/** A stage that left the set as it was (abstain, force, error): its input passes on, names and all. */
function untouched(
  stage: SelectionStage,
  { tools, names, unique }: StageInput,
  context: SelectionContext,
  action: StageRecord["action"],
  detail: string,
  degraded: boolean,
): StageStep {
  return {
    record: {
      stage: stage.name,
      action,
      kept: names,
      dropped: [],
      added: [],
      reinstated: [],
      forcedChoice: context.forcedChoice,
      detail,
      degraded,
      reasons: reasonTable(),
    },
    output: tools,
    outputNames: names,
    unique,
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
  readonly unique: boolean;
}

/**
 * Most stages only filter, and an allowlist filters nothing and appends: the output is the input
 * with tools left out, in order, then tools with new names. With unique input names one walk
 * then classifies every name; null when the output is anything else.
 */
function filtered(
  { tools: input, names: inputNames }: StageInput,
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
