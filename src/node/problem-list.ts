import { MAX_PROBLEMS, type LogProblem } from "./log-file.js";
import type { LogInput } from "./log-source.js";

/** A problem as printed: the file as given. */
interface NamedProblem {
  readonly file: string;
  readonly line: number | null;
  readonly message: string;
}

/** The first MAX_PROBLEMS problems, each naming its file; all are counted. */
export class ProblemList {
  readonly kept: NamedProblem[] = [];
  readonly unreadable: NamedProblem[] = [];
  count = 0;

  constructor(private readonly inputs: readonly LogInput[]) {}

  add(problem: LogProblem): void {
    this.count++;
    const named = {
      file: this.inputs[problem.file]!.name,
      line: problem.line,
      message: problem.message,
    };
    if (problem.unreadable) this.unreadable.push(named);
    if (this.kept.length < MAX_PROBLEMS) this.kept.push(named);
  }

  get truncated(): boolean {
    return this.count > this.kept.length;
  }
}
