import { ForcedToolUnavailable } from "./errors.js";
import { toolName, toolNames, type Tool } from "./tools.js";
import {
  reasonTable,
  selectionContext,
  type SelectionContext,
  type SelectionResult,
  type SelectionStage,
  type StageRecord,
} from "./values.js";

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
    context.forcedChoice = null;
    context.offered = offered;
    const trace: StageRecord[] = [];
    for (const stage of this.stages) {
      const step = runStage(stage, current, currentNames, context);
      trace.push(step.record);
      current = step.output;
      currentNames = step.outputNames;
    }
    const result: SelectionResult = {
      tools: current,
      names: currentNames,
      forcedChoice: context.forcedChoice,
      trace,
    };
    const forced = context.forcedChoice;
    if (forced !== null && !result.names.includes(forced)) throw new ForcedToolUnavailable(forced, result);
    return result;
  }
}

/** One stage, contained; names travel with the tools so no stage re-derives them. */
function runStage(
  stage: SelectionStage,
  input: readonly Tool[],
  inputNames: readonly string[],
  context: SelectionContext,
): { record: StageRecord; output: readonly Tool[]; outputNames: string[] } {
  const untouched = (action: StageRecord["action"], detail: string, degraded: boolean): StageRecord => ({
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
    return { record: untouched("error", errorMessage(error), true), output: input, outputNames: [...inputNames] };
  }
  if (outcome.setsForcedChoice) context.forcedChoice = outcome.forcedChoice;
  if (outcome.tools === null) {
    const action = outcome.setsForcedChoice ? "force" : "abstain";
    return { record: untouched(action, outcome.detail, outcome.degraded), output: input, outputNames: [...inputNames] };
  }

  let output = outcome.tools;
  const outputNames: string[] = toolNames(output);
  const outputSet = new Set(outputNames);
  const reinstated: string[] = [];
  const forced = context.forcedChoice;
  if (stage.protectsForced && forced !== null && !outputSet.has(forced) && inputNames.includes(forced)) {
    output = [...output, input.find((tool) => toolName(tool) === forced)!];
    outputNames.push(forced);
    outputSet.add(forced);
    reinstated.push(forced);
  }
  const inputSet = new Set(inputNames);
  return {
    record: {
      stage: stage.name,
      action: "select",
      kept: inputNames.filter((name) => outputSet.has(name) && !reinstated.includes(name)),
      dropped: inputNames.filter((name) => !outputSet.has(name)),
      added: outputNames.filter((name) => !inputSet.has(name)),
      reinstated,
      forcedChoice: forced,
      detail: outcome.detail,
      degraded: outcome.degraded,
      reasons: outcome.reasons,
    },
    output,
    outputNames,
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
  turn: { state?: Record<string, unknown>; messages?: readonly unknown[]; query?: string; role?: string } = {},
): SelectionResult {
  return pipeline.run(tools, selectionContext(turn));
}
