/**
 * `palette-inspector traces LOG... [--json]` and `palette-inspector show LOG... [INDEX] [--json]`
 * (docs/formats.md, "Command line"): LOG is a file (plain or gzip), a folder of logs, or `-` for standard input;
 * several are read as one set, numbered across the files in the order given.
 */
import { isAbsolute, resolve } from "node:path";
import { formatWaterfallTable } from "../core/render/table.js";
import { formatModelGot } from "../core/render/model-text.js";
import { safe, safeJson, safeJsonText } from "../core/words.js";
import { formatCount } from "../core/stats/rows.js";
import { reportToJson } from "../core/report-json.js";
import { reportFromTrace } from "../core/traces/report.js";
import type { FoundTrace } from "../core/traces/scan.js";
import { traceEntryHead, type TraceSummary } from "../core/traces/summary.js";
import { readTraceAt, scanLogs, type LogsScan } from "../node/log-file.js";
import { expandInputs, isLogFileName, type LogInput } from "../node/log-source.js";
import { counted } from "../core/words.js";
import { ProblemList, unreadableMessage, problemLine } from "../node/problem-list.js";
import { ChunkedOutput } from "./chunked-output.js";
import { JOBS_OPTION, JSON_OPTION, readCommandLine, usageLine, type CommandSpec } from "./args.js";
import { EXIT, jobsOf, printingJobs, UsageError, type CliIO } from "./io.js";
import { followCommand } from "./follow.js";
import { ROW_TITLES, traceCells } from "./trace-row.js";
import type { Until } from "./signals.js";

const TRACES: CommandSpec = {
  usage:
    "traces LOG... [--json] [--jobs N]   (LOG: a file, a folder or -)\n" +
    "       palette-inspector traces --follow LOG [--json] [--from-start]",
  about:
    "Lists the selection traces found in the logs, one line each, then the problems; with --follow, each trace appended to LOG as it is written.",
  options: {
    json: JSON_OPTION,
    jobs: JOBS_OPTION,
    follow: { help: "print each trace appended to LOG as it is written, until SIGINT or SIGTERM" },
    "from-start": { help: "with --follow: read LOG from its start, not its end" },
  },
};
const TRACES_USAGE = usageLine(TRACES);
/** An entry's indent in `{ "traces": [ … ] }`. */
const ENTRY_MARGIN = "    ";
const SHOW: CommandSpec = {
  usage: "show LOG... [INDEX] [--json] [--jobs N]   (LOG: a file, a folder or -)",
  about:
    "Prints one logged trace (INDEX: its # as traces lists it, from 1; default 1) as the waterfall run prints.",
  options: { json: JSON_OPTION, jobs: JOBS_OPTION },
};
const SHOW_USAGE = usageLine(SHOW);

/** Lists the traces of the logs; `--json` streams `{ traces, problems, … }` so a big log is never held whole. */
export async function tracesCommand(
  args: readonly string[],
  io: CliIO,
  until?: Until,
): Promise<number> {
  const { positional, flags, values } = readCommandLine(args, TRACES);
  if (flags.has("--follow")) {
    if (positional.length !== 1 || values.has("--jobs")) throw new UsageError(TRACES_USAGE);
    return followCommand(
      positional[0]!,
      { json: flags.has("--json"), fromStart: flags.has("--from-start") },
      io,
      until,
    );
  }
  if (flags.has("--from-start"))
    throw new UsageError(`--from-start goes with --follow\n${TRACES_USAGE}`);
  if (positional.length === 0) throw new UsageError(TRACES_USAGE);
  const inputs = await inputsOrExit(positional, io);
  if (!inputs) return EXIT.invalidInput;
  const jobs = printingJobs(jobsOf(values), inputs.length);
  const problems = new ProblemList(inputs);
  if (flags.has("--json")) {
    const writer = new JsonListWriter(io.stdout);
    // Each file's name as JSON once, not once per trace.
    const fileJson = inputs.map((input) => JSON.stringify(input.name));
    await scanLogs(inputs, {
      jobs,
      entries: {
        margin: ENTRY_MARGIN,
        onEntry: (tail, index, file) =>
          writer.item(traceEntryHead(fileJson[file]!, index, ENTRY_MARGIN) + tail),
      },
      onProblem: (problem) => problems.add(problem),
    });
    writer.end(problems);
  } else {
    const table = new TraceTable(io.stdout, inputs.length > 1);
    const scan = await scanLogs(inputs, {
      jobs,
      onSummary: (summary, file) => table.row(summary, inputs[file]!.name),
      onProblem: (problem) => problems.add(problem),
    });
    table.end(positional, scan, problems);
  }
  return unreadableExit(problems, io);
}

/** Prints one logged trace as the same waterfall as `run` (INDEX: its number across the set as `traces` lists it, from 1; default 1). */
export async function showCommand(args: readonly string[], io: CliIO): Promise<number> {
  const { positional, flags, values } = readCommandLine(args, SHOW);
  if (positional.length === 0) throw new UsageError(SHOW_USAGE);
  const jobs = jobsOf(values);
  const last = positional.at(-1)!;
  // The last argument is the INDEX when it reads as a number (a log named like one is given as ./2).
  const hasIndex = positional.length > 1 ? /^[-+.]?\d/.test(last) : /^-\d/.test(last);
  if (hasIndex && !/^[1-9]\d*$/.test(last))
    throw new UsageError(
      `INDEX must be a trace number as traces lists them (1, 2, …), not '${last}'\n${SHOW_USAGE}`,
    );
  // People read trace numbers from 1; the scan counts from 0.
  const index = hasIndex ? Number(last) - 1 : 0;
  const names = hasIndex ? positional.slice(0, -1) : positional;
  const inputs = await inputsOrExit(names, io);
  if (!inputs) return EXIT.invalidInput;
  const scanJobs = printingJobs(jobs, inputs.length);

  // Stop reading as soon as the trace is found: a big log need not be read to its end.
  const stop = { aborted: false };
  let wanted: { found: FoundTrace | TraceSummary; file: number } | null = null;
  const take = (found: FoundTrace | TraceSummary, file: number) => {
    if (found.index !== index) return;
    wanted = { found, file };
    stop.aborted = true;
  };
  const problems = new ProblemList(inputs);
  const common = { jobs: scanJobs, signal: stop, onProblem: problems.add.bind(problems) };
  // From files, the workers send only summaries and the one trace shown is read again from its
  // bytes: cloning every trace across threads cost more than the scan. A stream is read once.
  const scan = inputs.every((input) => input.path !== null)
    ? await scanLogs(inputs, { ...common, onSummary: take, wanted: index })
    : await scanLogs(inputs, { ...common, onTrace: take });
  const unreadable = unreadableExit(problems, io);
  if (wanted === null) {
    const count = scan.traceCount;
    const where = names.length === 1 ? safe(names[0]!) : `the ${inputs.length} files`;
    io.stderr(
      `palette-inspector: ${count === 0 ? `no selection trace found in ${where}` : `${where} ${names.length === 1 ? "holds" : "hold"} ${count === 1 ? "1 trace (#1)" : `${count} traces (#1–#${count})`}; there is no trace #${index + 1}`}\n`,
    );
    return EXIT.invalidInput;
  }
  const { found: at, file } = wanted as { found: FoundTrace | TraceSummary; file: number };
  let found: FoundTrace;
  try {
    const otlpSet = scan.setRecords ? { records: scan.setRecords, file } : undefined;
    found = "trace" in at ? at : await readTraceAt(inputs[file]!.path!, at, { otlpSet });
  } catch (error) {
    io.stderr(
      `palette-inspector: ${safe(error instanceof Error ? error.message : String(error))}\n`,
    );
    return EXIT.invalidInput;
  }
  const report = reportFromTrace(found, inputs[file]!.name);
  io.stdout(
    flags.has("--json")
      ? safeJson(reportToJson(report), 2) + "\n"
      : formatWaterfallTable(report, { color: io.color }) + formatModelGot(report, io.color),
  );
  return unreadable;
}

/** Files, folders expanded, `-` as standard input; null (after saying why) when a folder holds no log. */
export async function inputsOrExit(
  names: readonly string[],
  io: CliIO,
): Promise<LogInput[] | null> {
  const inputs = await expandInputs(
    names,
    (name) => (isAbsolute(name) ? name : resolve(io.cwd, name)),
    io.stdin,
  );
  if (inputs.length > 0) return inputs;
  io.stderr(
    `palette-inspector: no log files (*.log, *.jsonl, *.json, … or .gz) in ${names.map(safe).join(", ")}\n`,
  );
  return null;
}

/**
 * After a set of logs held no trace and no problem: the files named that do not look like logs
 * by their names (`stats README.md`), said on stderr as a wrong argument (exit 2); else null.
 */
export function notLogsExit(
  names: readonly string[],
  inputs: readonly LogInput[],
  io: CliIO,
): number | null {
  const named = new Set(names);
  const odd = inputs.filter(
    (input) => input.path !== null && named.has(input.name) && !isLogFileName(input.path),
  );
  if (odd.length === 0) return null;
  io.stderr(
    `palette-inspector: no selection trace found in ${odd.map((input) => safe(input.name)).join(", ")}, ${odd.length === 1 ? "a file that does not look like a log" : "files that do not look like logs"} (*.log, *.jsonl, *.ndjson, *.json, *.txt, each maybe .gz)\n`,
  );
  return EXIT.invalidInput;
}

/** Exit status once the scan is over: a file that could not be read at all is invalid input, said on stderr too. */
export function unreadableExit(problems: ProblemList, io: CliIO): number {
  for (const problem of problems.unreadable)
    io.stderr(`palette-inspector: ${safe(unreadableMessage(problem))}\n`);
  return problems.unreadable.length > 0 ? EXIT.invalidInput : EXIT.ok;
}

/**
 * One line per trace (index, line, time, id, stages, final names, forced choice), then the
 * problems. Column widths come from the first rows, then rows stream out: a log of any size
 * prints without being held.
 */
class TraceTable {
  private readonly header: readonly string[];
  /** Rows that set the column widths. */
  private static readonly SAMPLE = 1000;
  private pending: string[][] = [];
  private widths: number[] | null = null;
  private readonly out: ChunkedOutput;

  /** `withFile`: several files are listed, so each row names its file. */
  constructor(
    write: (text: string) => void,
    private readonly withFile: boolean,
  ) {
    this.out = new ChunkedOutput(write);
    this.header = withFile ? ["#", "file", ...ROW_TITLES.slice(1)] : ROW_TITLES;
  }

  row(t: TraceSummary, file: string): void {
    const cells = traceCells(t, this.withFile ? file : null);
    if (this.widths) this.out.add(this.line(cells));
    else {
      this.pending.push(cells);
      if (this.pending.length === TraceTable.SAMPLE) this.flush();
    }
  }

  end(names: readonly string[], scan: LogsScan, problems: ProblemList): void {
    if (problems.nothingRead) return;
    if (scan.traceCount === 0)
      this.out.add(`no selection traces found in ${names.map(safe).join(", ")}\n`);
    else this.flush();
    const out: string[] = [];
    const listed = problems.listed;
    if (listed.count > 0) {
      out.push("", `problems (${formatCount(listed.count)}):`);
      for (const problem of listed.kept) out.push(problemLine(problem));
      if (listed.count > listed.kept.length)
        out.push(`… and ${formatCount(listed.count - listed.kept.length)} more`);
    }
    out.push(
      "",
      `${counted(scan.traceCount, "trace", undefined, formatCount)}, ${counted(listed.count, "problem", undefined, formatCount)}`,
    );
    this.out.add(out.join("\n") + "\n");
    this.out.flush();
  }

  private flush(): void {
    if (this.widths) return;
    const widths = this.header.map((title) => title.length);
    for (const cells of this.pending)
      cells.forEach((cell, c) => (widths[c] = Math.max(widths[c]!, columns(cell))));
    this.widths = widths;
    this.out.add(this.line(this.header) + this.pending.map((cells) => this.line(cells)).join(""));
    this.pending = [];
  }

  private line(cells: readonly string[]): string {
    const widths = this.widths!;
    const last = cells.length - 1;
    let text = "";
    for (let c = 0; c < last; c++) {
      const cell = cells[c]!;
      text += cell + " ".repeat(Math.max(0, widths[c]! - columns(cell))) + "  ";
    }
    return (text + cells[last]!).trimEnd() + "\n";
  }
}

const SURROGATE = /[\uD800-\uDFFF]/;

/** Code points of a cell, as the table pads it: its length unless it holds a character past U+FFFF. */
function columns(cell: string): number {
  return SURROGATE.test(cell) ? [...cell].length : cell.length;
}

/**
 * Writes `{ "traces": [...], "problems": [...], "problem_count", "problems_truncated" }` item by
 * item, byte for byte as `JSON.stringify(document, null, 2)` would, so that a log of any size
 * streams out. Problems past MAX_PROBLEMS are counted, not listed.
 */
class JsonListWriter {
  private count = 0;
  private readonly out: ChunkedOutput;

  constructor(write: (text: string) => void) {
    // Made safe a chunk at a time: the escapes only ever fall inside strings, whole in one entry.
    this.out = new ChunkedOutput(write, safeJsonText);
  }

  /** One entry, as JSON.stringify prints it at its depth in the document. */
  item(entry: string): void {
    this.out.add(`${this.count++ === 0 ? '{\n  "traces": [\n' : ",\n"}${entry}`);
  }

  end(problems: ProblemList): void {
    const list = JSON.stringify(problems.kept, null, 2).replace(/\n/g, "\n  ");
    this.out.add(
      `${this.count === 0 ? '{\n  "traces": [],\n' : "\n  ],\n"}  "problems": ${list},\n` +
        `  "problem_count": ${problems.count},\n  "problems_truncated": ${problems.truncated}\n}\n`,
    );
    this.out.flush();
  }
}
