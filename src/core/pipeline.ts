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
    let currentNames = toolNames(offered);
    let unique = new Set(currentNames).size === currentNames.length;
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
  readonly outputNames: string[];
  readonly unique: boolean;
}

/** One stage, contained; names travel with the tools so no stage re-derives them. */
function runStage(
  stage: SelectionStage,
  { tools: input, names: inputNames, unique }: StageInput,
  context: SelectionContext,
): StageStep {
  const untouched = (
    action: StageRecord["action"],
    detail: string,
    degraded: boolean,
  ): StageRecord => ({
    stage: stage.name,
    action,
    kept: inputNames,
    dropped: [],
    added: [],
    reinstated: [],
    forcedChoice: context.forcedChoice,
    detail,
    degraded,
    reasons: reasonTable(),
  });

  let outcome;
  try {
    outcome = stage.apply(input, context);
  } catch (error) {
    // Contained: one broken stage must not take the turn down with it.
    return {
      record: untouched("error", errorMessage(error), true),
      output: input,
      outputNames: [...inputNames],
      unique,
    };
  }
  if (outcome.setsForcedChoice) context.forcedChoice = outcome.forcedChoice;
  if (outcome.tools === null) {
    const action = outcome.setsForcedChoice ? "force" : "abstain";
    return {
      record: untouched(action, outcome.detail, outcome.degraded),
      output: input,
      outputNames: [...inputNames],
      unique,
    };
  }

  const forced = context.forcedChoice;
  const protect = stage.protectsForced ? forced : null;
  const changes =
    (unique && filtered(input, outcome.tools, protect)) ||
    compared(input, inputNames, outcome.tools, protect);
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

/** What a select did, in names; `reinstated` is the protected forced tool the pipeline puts back. */
interface Changes {
  readonly kept: string[];
  readonly dropped: string[];
  readonly added: string[];
  readonly reinstated: { readonly name: string; readonly tool: Tool } | null;
  /** The output's names before any reinstatement. */
  readonly outputNames: string[];
  readonly unique: boolean;
}

/**
 * Most stages only filter: the output is the input with tools left out, in order. With unique
 * input names one walk then classifies every name without hashing; null when the output is anything else.
 */
function filtered(
  input: readonly Tool[],
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
  if (j < output.length) return null;
  return { kept, dropped, added: [], reinstated, outputNames: kept.slice(), unique: true };
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
