import { safe } from "../core/words.js";
import { MAX_PROBLEMS, type LogProblem } from "./log-file.js";
import type { LogInput } from "./log-source.js";

/** A problem as printed: the file as given. */
export interface NamedProblem {
  readonly file: string;
  readonly line: number | null;
  readonly message: string;
}

/** A problem as a listing prints it, "file:line: message" ("file: message" without a line), terminal-safe. */
export function problemLine(problem: NamedProblem): string {
  const at = problem.line === null ? "" : `:${problem.line}`;
  return `${safe(problem.file)}${at}: ${safe(problem.message)}`;
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

  /** What a text listing shows: an input that could not be read at all is said once, on stderr. */
  get listed(): { readonly kept: readonly NamedProblem[]; readonly count: number } {
    return {
      kept: this.kept.filter((problem) => !this.unreadable.includes(problem)),
      count: this.count - this.unreadable.length,
    };
  }

  /** No input could be read: a text listing has nothing to add to stderr's lines. */
  get nothingRead(): boolean {
    return this.unreadable.length >= this.inputs.length;
  }
}

/** "cannot read app.log: ENOENT": a file of which nothing could be read. */
export function unreadableMessage(problem: NamedProblem): string {
  return `cannot read ${problem.file}: ${problem.message.replace(/^cannot read the file: /, "")}`;
}
