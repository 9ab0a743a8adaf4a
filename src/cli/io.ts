import { safe } from "../core/words.js";

/** Where a command writes, and how; injected so that tests read what a user would see. */
export interface CliIO {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  readonly color: boolean;
  readonly cwd: string;
  /** What `-` reads (standard input). */
  readonly stdin?: NodeJS.ReadableStream;
}

export const EXIT = {
  ok: 0,
  expectationFailed: 1,
  invalidInput: 2,
  forcedToolUnavailable: 3,
} as const;

/** Thrown for bad arguments or unreadable input: printed as one line, exit 2, never a stack. */
export class UsageError extends Error {}

/** Thrown for `--help`: its message is the help, printed on standard output, exit 0. */
export class HelpAsked extends UsageError {}

/** A command: its arguments in, its exit status out. */
export type Command = (args: readonly string[], io: CliIO) => Promise<number>;

/**
 * The command with its UsageError printed and turned into exit 2. Wrapped in the bundle that
 * holds the command (main.ts loads each group of commands from a bundle of its own), so that the
 * class it catches is the one the command throws.
 */
export function guarded(command: Command): Command {
  return async (args, io) => {
    try {
      return await command(args, io);
    } catch (error) {
      if (error instanceof HelpAsked) {
        io.stdout(error.message);
        return EXIT.ok;
      }
      if (!(error instanceof UsageError)) throw error;
      // A message names files and arguments: escaped line by line, its own line breaks kept.
      io.stderr(`palette-inspector: ${error.message.split("\n").map(safe).join("\n")}\n`);
      return EXIT.invalidInput;
    }
  };
}

/**
 * The jobs of a command's scan that only prints what it finds: a single file is read on the
 * command's own thread when `--jobs` is not given (nothing waits on that thread, and a worker's
 * start and the copying of every item it finds cost more than the thread saves).
 */
export function printingJobs(jobs: number | undefined, files: number): number | undefined {
  return jobs === undefined && files === 1 ? 0 : jobs;
}

/** `--jobs N`: how many log files are read at once, each in a worker thread; default the cores. */
export function jobsOf(values: ReadonlyMap<string, string>): number | undefined {
  const jobs = values.get("--jobs");
  if (jobs === undefined) return undefined;
  if (!/^[1-9]\d{0,3}$/.test(jobs))
    throw new UsageError(`--jobs must be a whole number from 1 to 9999, not '${jobs}'`);
  return Number(jobs);
}
