/**
 * The commands that read logs, bundled on their own (dist/cli-logs.js): `traces`, `show` and
 * `stats` load none of the other commands' libraries (the MCP SDK, the schema validators, the
 * Parquet writer), whose parsing alone cost each run tens of milliseconds before its first file.
 */
import { guarded, type Command } from "./io.js";
import { statsCommand } from "./stats.js";
import { showCommand, tracesCommand } from "./traces.js";

export const logCommands: Readonly<Record<string, Command>> = {
  traces: guarded(tracesCommand),
  show: guarded(showCommand),
  stats: guarded(statsCommand),
};
