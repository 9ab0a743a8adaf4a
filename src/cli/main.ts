import { safe } from "../core/words.js";
import { EXIT, UsageError, type CliIO } from "./io.js";
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
  export LOG... --out DIR [--format F]      write the traces as tables: traces, stages,
                                            tool_events (F: parquet, the default, or jsonl)
  receive [--host H] [--port P] [--out FILE] receive OTLP/HTTP traces and print each turn
  mcp [--root DIR]...                       serve these as tools to AI assistants (MCP, stdio)
  --version                                 print the version

  LOG is a file (plain or .gz), a folder of logs, or - for standard input. traces, show,
  stats and export take --jobs N: files read at once, each in a thread (default: the cores).
`;

type Command = (args: readonly string[], io: CliIO) => Promise<number>;

// Each command loads its own modules when it runs: loading them all (the MCP SDK, the schema
// validators, the Parquet writer) cost every `traces` or `show` about a quarter of a second.
const COMMANDS: Record<string, Command> = {
  run: async (args, io) => (await import("./run.js")).runCommand(args, io),
  check: async (args, io) => (await import("./check.js")).checkCommand(args, io),
  traces: async (args, io) => (await import("./traces.js")).tracesCommand(args, io),
  show: async (args, io) => (await import("./traces.js")).showCommand(args, io),
  stats: async (args, io) => (await import("./stats.js")).statsCommand(args, io),
  export: async (args, io) => (await import("./export.js")).exportCommand(args, io),
  receive: async (args, io) => (await import("./receive.js")).receiveCommand(args, io),
  mcp: async (args, io) => (await import("./mcp.js")).mcpCommand(args, io),
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
  const command = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (!command) {
    io.stderr(`palette-inspector: unknown command '${safe(name)}'\n${USAGE}`);
    return EXIT.invalidInput;
  }
  try {
    return await command(args, io);
  } catch (error) {
    if (error instanceof UsageError) {
      // A message names files and arguments: escaped line by line, its own line breaks kept.
      io.stderr(`palette-inspector: ${error.message.split("\n").map(safe).join("\n")}\n`);
      return EXIT.invalidInput;
    }
    throw error;
  }
}

if (require.main === module) {
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
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      process.stderr.write(
        `palette-inspector: internal error: ${safe(error instanceof Error ? error.message : String(error))}\n`,
      );
      process.exitCode = 70;
    },
  );
}
