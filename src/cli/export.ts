/**
 * `palette-inspector export LOG... --out DIR [--format parquet|jsonl] [--force]` (docs/formats.md):
 * the traces of the set as three tables, one file each, written as the scan goes.
 */
import { mkdirSync, readdirSync, statSync } from "node:fs";
import { isAbsolute, join, resolve } from "node:path";
import { safe } from "../core/words.js";
import { formatCount } from "../core/stats/rows.js";
import { TABLES, traceRows, type TableName } from "../core/traces/tables.js";
import { counted } from "../core/words.js";
import { scanLogs } from "../node/log-file.js";
import { readReason } from "../node/log-source.js";
import { ProblemList, problemLine } from "../node/problem-list.js";
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

export async function exportCommand(args: readonly string[], io: CliIO): Promise<number> {
  const { positional, flags, values } = readCommandLine(args, EXPORT);
  const out = values.get("--out");
  if (positional.length === 0 || out === undefined) throw new UsageError(USAGE);
  const jobs = jobsOf(values);
  const format = (values.get("--format") ?? "parquet") as TableFormat;
  if (!FORMATS.includes(format))
    throw new UsageError(`--format must be parquet or jsonl, not '${format}'\n${USAGE}`);
  const dir = isAbsolute(out) ? out : resolve(io.cwd, out);
  const refusal = outRefusal(dir, flags.has("--force"));
  if (refusal) {
    io.stderr(`palette-inspector: ${safe(out)} ${refusal}\n`);
    return EXIT.invalidInput;
  }
  const inputs = await inputsOrExit(positional, io);
  if (!inputs) return EXIT.invalidInput;

  let files: Record<TableName, TableFile>;
  try {
    mkdirSync(dir, { recursive: true });
    files = {
      traces: openTableFile(join(dir, `traces${EXTENSIONS[format]}`), TABLES.traces, format),
      stages: openTableFile(join(dir, `stages${EXTENSIONS[format]}`), TABLES.stages, format),
      tool_events: openTableFile(
        join(dir, `tool_events${EXTENSIONS[format]}`),
        TABLES.tool_events,
        format,
      ),
    };
  } catch (error) {
    io.stderr(`palette-inspector: cannot write in ${safe(out)}: ${safe(readReason(error))}\n`);
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

/** Why `--out` cannot be written to, or null: a folder with files in it is not overwritten unless forced. */
function outRefusal(dir: string, force: boolean): string | null {
  let stat;
  try {
    stat = statSync(dir);
  } catch {
    return null;
  }
  if (!stat.isDirectory()) return "exists and is not a folder";
  if (!force && readdirSync(dir).length > 0)
    return "is not empty; give an empty or new folder, or --force to overwrite its tables";
  return null;
}
