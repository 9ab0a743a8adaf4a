/**
 * `palette-inspector export LOG... --out DIR [--format parquet|jsonl] [--force]` (docs/formats.md):
 * the traces of the set as three tables, one file each, written as the scan goes.
 */
import { closeSync, mkdirSync } from "node:fs";
import { dirname, isAbsolute, resolve } from "node:path";
import { safe } from "../core/words.js";
import { formatCount } from "../core/stats/rows.js";
import { TABLES, traceRows, type TableName } from "../core/traces/tables.js";
import { counted } from "../core/words.js";
import { scanLogs } from "../node/log-file.js";
import { readReason } from "../node/log-source.js";
import { ProblemList, problemLine } from "../node/problem-list.js";
import { FileRefused, OpenFolder } from "../node/safe-file.js";
import { JOBS_OPTION, readCommandLine, usageLine, type CommandSpec } from "./args.js";
import { EXIT, jobsOf, UsageError, type CliIO } from "./io.js";
import { openTableFile, type TableFile, type TableFormat } from "./table-files.js";
import { inputsOrExit, unreadableExit } from "./traces.js";

const EXPORT: CommandSpec = {
  usage:
    "export LOG... --out DIR [--format parquet|jsonl] [--force] [--jobs N]   (LOG: a file, a folder or -)",
  about:
    "Writes the traces of the logs as three tables in DIR (traces, stages, tool_events), for a warehouse.",
  options: {
    out: { value: "DIR", help: "the folder to write in: new, or empty unless --force" },
    format: { value: "F", help: "parquet (the default) or jsonl" },
    force: { help: "write in a folder that holds files, overwriting the three tables" },
    jobs: JOBS_OPTION,
  },
};
const USAGE = usageLine(EXPORT);
const FORMATS: readonly TableFormat[] = ["parquet", "jsonl"];
const EXTENSIONS: Record<TableFormat, string> = { parquet: ".parquet", jsonl: ".jsonl" };
const TABLE_NAMES = Object.keys(TABLES) as TableName[];

export async function exportCommand(args: readonly string[], io: CliIO): Promise<number> {
  const { positional, flags, values } = readCommandLine(args, EXPORT);
  const out = values.get("--out");
  if (positional.length === 0 || out === undefined) throw new UsageError(USAGE);
  const jobs = jobsOf(values);
  const format = (values.get("--format") ?? "parquet") as TableFormat;
  if (!FORMATS.includes(format))
    throw new UsageError(`--format must be parquet or jsonl, not '${format}'\n${USAGE}`);
  const inputs = await inputsOrExit(positional, io);
  if (!inputs) return EXIT.invalidInput;
  const dir = isAbsolute(out) ? out : resolve(io.cwd, out);
  let files: Record<TableName, TableFile>;
  try {
    files = createTables(dir, format, flags.has("--force"));
  } catch (error) {
    const refused = error instanceof OutRefused ? error.message : null;
    io.stderr(
      `palette-inspector: ${refused ? `${safe(out)} ${refused}` : `cannot write in ${safe(out)}: ${safe(readReason(error))}`}\n`,
    );
    return EXIT.invalidInput;
  }
  const rows: Record<TableName, number> = { traces: 0, stages: 0, tool_events: 0 };
  const problems = new ProblemList(inputs);
  try {
    await scanLogs(inputs, {
      jobs,
      onTrace: (found, file) =>
        traceRows(found, inputs[file]!.name, (table, row) => {
          rows[table]++;
          files[table].add(row);
        }),
      onProblem: (problem) => problems.add(problem),
    });
    for (const file of Object.values(files)) file.close();
  } catch (error) {
    io.stderr(`palette-inspector: cannot write in ${safe(out)}: ${safe(readReason(error))}\n`);
    return EXIT.invalidInput;
  }
  const listed = problems.listed;
  for (const problem of listed.kept) io.stderr(`${problemLine(problem)}\n`);
  if (listed.count > listed.kept.length)
    io.stderr(`… and ${formatCount(listed.count - listed.kept.length)} more\n`);
  io.stdout(
    `${counted(rows.traces, "trace", undefined, formatCount)} (${counted(rows.stages, "stage record", undefined, formatCount)}, ${counted(rows.tool_events, "tool event", undefined, formatCount)}) written to ${safe(out)} as ${format}; ${counted(listed.count, "problem", undefined, formatCount)}\n`,
  );
  return unreadableExit(problems, io);
}

/** Why `--out` as a whole cannot be written to: it is not a folder, or holds files and is not forced. */
class OutRefused extends Error {}

/**
 * The three tables, each created as a new file (never through a link) in `dir` opened once and
 * made when missing: with `force` an old table is removed first, and only when it is a regular file.
 */
function createTables(
  dir: string,
  format: TableFormat,
  force: boolean,
): Record<TableName, TableFile> {
  mkdirSync(dirname(dir), { recursive: true });
  try {
    mkdirSync(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  }
  let folder: OpenFolder;
  try {
    folder = OpenFolder.open(dir);
  } catch (error) {
    if (error instanceof FileRefused) throw new OutRefused(error.message, { cause: error });
    throw error;
  }
  try {
    if (!force && folder.names().length > 0)
      throw new OutRefused(
        "is not empty; give an empty or new folder, or --force to overwrite its tables",
      );
    const names = TABLE_NAMES.map((table) => `${table}${EXTENSIONS[format]}`);
    // Every old table is looked at before any is touched: a link among them changes nothing.
    if (force) for (const name of names) folder.holdsFile(name);
    const fds: number[] = [];
    try {
      for (const name of names) {
        fds.push(force ? folder.replace(name) : folder.create(name));
      }
    } catch (error) {
      for (const fd of fds) closeSync(fd);
      throw error;
    }
    return Object.fromEntries(
      TABLE_NAMES.map((table, t) => [table, openTableFile(fds[t]!, TABLES[table], format)]),
    ) as Record<TableName, TableFile>;
  } finally {
    folder.close();
  }
}
