import type { DebugProblem } from "../../core/debug/reply.js";
import { MAX_VALUE_CHARS } from "../../core/debug/probe.js";
import { notice } from "../notify.js";
import { DebugFailure } from "./frame.js";

/** One clear message per problem, saying what was expected; the debuggee's own words go to the log. */
export function problemFailure(expression: string, problem: DebugProblem): DebugFailure {
  switch (problem.kind) {
    case "evaluation":
      return new DebugFailure(
        notice`Python could not evaluate ${expression} in the paused frame (${problem.pythonType}). Is the name in scope here?`,
        [problem.message],
      );
    case "shape":
      return new DebugFailure(
        notice`${expression} is ${problem.found}; expected a SelectionResult, a StageRecord or a sequence of them, an exception carrying one, or a dict or JSON string in the log trace format.`,
        [problem.found],
      );
    case "tooLarge":
      return new DebugFailure(
        notice`${expression} is too large to inspect: ${problem.size} characters as JSON, more than the limit of ${MAX_VALUE_CHARS} (50 MB).`,
      );
    case "tooManyValues":
      return new DebugFailure(
        notice`${expression} is too large to inspect: the probe stopped after reading ${problem.values} values (a structure nested, shared or cyclic beyond that); nothing was read.`,
      );
    case "timedOut":
      return new DebugFailure(
        notice`Reading ${expression} took more than ${problem.seconds} s in the debuggee, so the probe stopped and the program stays paused; nothing was read.`,
      );
    case "invalid":
      return new DebugFailure(
        notice`${expression} has the shape of a selection but a field is wrong (the log names it); expected a SelectionResult, a StageRecord or a sequence of them, an exception carrying one, or a dict or JSON string in the log trace format.`,
        [problem.message],
      );
    case "noTrace":
      return new DebugFailure(
        notice`${expression} holds no selection trace; expected a SelectionResult, a StageRecord or a sequence of them, an exception carrying one, or a dict or JSON string in the log trace format.`,
      );
    case "unreadable":
      return new DebugFailure(
        notice`Cannot read ${expression}: the debug adapter's answer is not what Palette Inspector expects (it needs debugpy).`,
        [problem.message],
      );
  }
}
