/**
 * The other commands, bundled on their own (dist/cli-tools.js). Each loads its modules when it
 * runs: evaluating them all (the MCP SDK, the schema validators, the Parquet writer) would cost
 * every `run` or `check`.
 */
import { guarded, type Command } from "./io.js";

export const toolCommands: Readonly<Record<string, Command>> = {
  run: guarded(async (args, io) => (await import("./run.js")).runCommand(args, io)),
  check: guarded(async (args, io) => (await import("./check.js")).checkCommand(args, io)),
  export: guarded(async (args, io) => (await import("./export.js")).exportCommand(args, io)),
  receive: guarded(async (args, io) => (await import("./receive.js")).receiveCommand(args, io)),
  mcp: guarded(async (args, io) => (await import("./mcp.js")).mcpCommand(args, io)),
};
