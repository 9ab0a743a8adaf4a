import { setFlagsFromString } from "node:v8";
import { safe } from "../core/words.js";
import { EXIT, type CliIO, type Command } from "./io.js";
import { endQuietlyWhenPipeCloses } from "./pipe.js";
import { VERSION } from "./version.js";

const USAGE = `usage: palette-inspector <command>

  run FIXTURE [--json]                      run one turn fixture and print its waterfall
  check [PATHS...] [--json] [--junit FILE]  run every *.turn.json and compare with its expect
  traces LOG... [--json]                    list the selection traces found in logs
  traces --follow LOG [--json] [--from-start]
                                            print each trace appended to LOG as it is written
  show LOG... [INDEX] [--json]              print one logged trace (INDEX across the logs)
  stats LOG... [--json]                     palette statistics across logs
  stats NEW... --against OLD... [--json]    what changed between two sets of logs
  stats LOG... --split-at TIME [--json]     the same, one set cut at TIME (before it is OLD)
  export LOG... --out DIR [--format F] [--force]
                                            write the traces as tables: traces, stages,
                                            tool_events (F: parquet, the default, or jsonl);
                                            --force: into a folder that holds files
  receive [--host H] [--port P] [--out FILE] [--out-max BYTES] [--max-body BYTES]
                                            receive OTLP/HTTP traces and print each turn
  mcp [--root DIR]...                       serve these as tools to AI assistants (MCP, stdio)
  --version                                 print the version

  Options go before or after the arguments; palette-inspector <command> --help says more.
  LOG is a file (plain or .gz), a folder of logs, or - for standard input. traces, show,
  stats and export take --jobs N: files read at once, each in a thread (default: the cores).
`;

/** The bundle that holds a command: each group is a bundle of its own (esbuild.mjs), loaded when used. */
const logs = async () => (await import("./log-commands.js")).logCommands;
const tools = async () => (await import("./tool-commands.js")).toolCommands;
const GROUPS: Record<string, () => Promise<Readonly<Record<string, Command>>>> = {
  traces: logs,
  show: logs,
  stats: logs,
  run: tools,
  check: tools,
  export: tools,
  receive: tools,
  mcp: tools,
};

/** Runs one command line; every failure becomes a message and an exit status, never a stack. */
export async function main(argv: readonly string[], io: CliIO): Promise<number> {
  const [name, ...args] = argv;
  if (name === undefined || name === "--help" || name === "-h" || name === "help") {
    (name === undefined ? io.stderr : io.stdout)(USAGE);
    return name === undefined ? EXIT.invalidInput : EXIT.ok;
  }
  if (name === "--version" || name === "-V") {
    io.stdout(`palette-inspector ${VERSION}\n`);
    return EXIT.ok;
  }
  const group = Object.hasOwn(GROUPS, name) ? GROUPS[name] : undefined;
  if (!group) {
    io.stderr(`palette-inspector: unknown command '${safe(name)}'\n${USAGE}`);
    return EXIT.invalidInput;
  }
  // Each command turns its own usage errors into a message and exit 2 (io.ts, guarded).
  return (await group())[name]!(args, io);
}

if (require.main === module) {
  // A log command holds a few MB live however long its log, but V8's default growth let the heap
  // (its scan workers' too) reach five times that between full collections, more the longer the
  // run: peak memory grew with the log. Collections of so small a heap cost a few per cent.
  setFlagsFromString("--heap-growing-percent=50");
  const color = Boolean(process.stdout.isTTY) && !process.env.NO_COLOR;
  const io: CliIO = {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    color,
    cwd: process.cwd(),
    stdin: process.stdin,
  };
  const exit = (code: number) => process.exit(code);
  endQuietlyWhenPipeCloses(process.stdout, exit, (text) => process.stderr.write(text));
  endQuietlyWhenPipeCloses(process.stderr, exit, () => {});
  main(process.argv.slice(2), io).then(
    (code) => exitWhenWritten(code),
    (error: unknown) => {
      process.stderr.write(
        `palette-inspector: internal error: ${safe(error instanceof Error ? error.message : String(error))}\n`,
      );
      exitWhenWritten(70);
    },
  );
}

/**
 * Ends the process once what was written has gone out: a command is over when its promise
 * settles, and nothing left behind (an idle worker, a timer) may hold the process open after it.
 * Seen once in about a hundred runs of `traces` on four files: all printed, the process idle.
 */
function exitWhenWritten(code: number): void {
  process.stdout.write("", () => process.stderr.write("", () => process.exit(code)));
}
