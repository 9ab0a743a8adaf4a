/**
 * `palette-inspector traces LOGFILE [--json]` and `palette-inspector show LOGFILE [INDEX] [--json]`
 * (docs/formats.md, "Command line").
 */
import { isAbsolute, resolve } from "node:path";
import { formatWaterfallTable, safe, safeJson } from "../core/render/table.js";
import { reportToJson } from "../core/report-json.js";
import { reportFromTrace } from "../core/traces/report.js";
import { summaryToJson, type TraceSummary } from "../core/traces/summary.js";
import { readTraceAt, scanLogFile, type LogScan } from "../node/log-file.js";
import { EXIT, parseArgs, UsageError, type CliIO } from "./io.js";

const TRACES_USAGE = "usage: palette-inspector traces LOGFILE [--json]";
const SHOW_USAGE = "usage: palette-inspector show LOGFILE [INDEX] [--json]";
/** Widest list of final names in the text table before it is shortened. */
const NAMES_WIDTH = 48;

/** Lists the traces of a log; `--json` streams `{ traces, problems }` so a big log is never held whole. */
export async function tracesCommand(args: readonly string[], io: CliIO): Promise<number> {
  const { positional, flags } = parseArgs(args, ["--json"]);
  if (positional.length !== 1) throw new UsageError(TRACES_USAGE);
  const file = positional[0]!;
  const path = absolute(file, io);
  if (flags.has("--json")) {
    const writer = new JsonListWriter(io.stdout);
    const scan = await scanOrExit(path, io, {
      keep: false,
      onTrace: (summary) => writer.item(summaryToJson(summary)),
    });
    if (!scan) return EXIT.invalidInput;
    writer.end(scan.problems);
    return EXIT.ok;
  }
  const table = new TraceTable(io.stdout);
  const scan = await scanOrExit(path, io, {
    keep: false,
    onTrace: (summary) => table.row(summary),
  });
  if (!scan) return EXIT.invalidInput;
  table.end(file, scan);
  return EXIT.ok;
}

/** Prints one logged trace as the same waterfall as `run` (INDEX defaults to 0, the first trace). */
export async function showCommand(args: readonly string[], io: CliIO): Promise<number> {
  const { positional, flags } = parseArgs(args, ["--json"]);
  if (positional.length < 1 || positional.length > 2) throw new UsageError(SHOW_USAGE);
  const file = positional[0]!;
  const indexText = positional[1] ?? "0";
  if (!/^\d+$/.test(indexText))
    throw new UsageError(
      `INDEX must be a trace number (0, 1, …), not '${indexText}'\n${SHOW_USAGE}`,
    );
  const index = Number(indexText);
  const path = absolute(file, io);

  // Stop reading as soon as the trace is found: a big log need not be read to its end.
  const stop = { aborted: false };
  let wanted: TraceSummary | null = null;
  const scan = await scanOrExit(path, io, {
    keep: false,
    signal: stop,
    onTrace: (summary) => {
      if (summary.index !== index) return;
      wanted = summary;
      stop.aborted = true;
    },
  });
  if (!scan) return EXIT.invalidInput;
  if (wanted === null) {
    const count = scan.traceCount;
    io.stderr(
      `palette-inspector: ${count === 0 ? `no selection trace found in ${safe(file)}` : `${safe(file)} holds ${count} trace${count === 1 ? "" : "s"} (0–${count - 1}); there is no trace ${index}`}\n`,
    );
    return EXIT.invalidInput;
  }
  let report;
  try {
    report = reportFromTrace(await readTraceAt(path, wanted), file);
  } catch (error) {
    io.stderr(
      `palette-inspector: ${safe(error instanceof Error ? error.message : String(error))}\n`,
    );
    return EXIT.invalidInput;
  }
  io.stdout(
    flags.has("--json")
      ? safeJson(reportToJson(report), 2) + "\n"
      : formatWaterfallTable(report, { color: io.color }),
  );
  return EXIT.ok;
}

function absolute(file: string, io: CliIO): string {
  return isAbsolute(file) ? file : resolve(io.cwd, file);
}

async function scanOrExit(
  path: string,
  io: CliIO,
  options: Parameters<typeof scanLogFile>[1],
): Promise<LogScan | null> {
  try {
    return await scanLogFile(path, options);
  } catch (error) {
    io.stderr(
      `palette-inspector: ${safe(error instanceof Error ? error.message : String(error))}\n`,
    );
    return null;
  }
}

/**
 * One line per trace (index, line, time, id, stages, final names, forced choice), then the
 * problems. Column widths come from the first rows, then rows stream out: a log of any size
 * prints without being held.
 */
class TraceTable {
  private static readonly HEADER = ["#", "line", "time", "id", "stages", "final", "forced"];
  /** Rows that set the column widths. */
  private static readonly SAMPLE = 1000;
  private pending: string[][] = [];
  private widths: number[] | null = null;

  constructor(private readonly write: (text: string) => void) {}

  row(t: TraceSummary): void {
    const cells = [
      String(t.index),
      String(t.line),
      t.time === null ? "" : safe(String(t.time)),
      t.id === null ? "" : safe(String(t.id)),
      String(t.stages.length) + (t.degraded ? " (degraded)" : ""),
      `${t.names.length}: ${shorten(t.names.map(safe))}`,
      (t.forcedChoice === null ? "" : safe(t.forcedChoice)) + (t.error ? " (unavailable)" : ""),
    ];
    if (this.widths) this.write(this.line(cells));
    else {
      this.pending.push(cells);
      if (this.pending.length === TraceTable.SAMPLE) this.flush();
    }
  }

  end(file: string, scan: LogScan): void {
    if (scan.traceCount === 0) this.write(`no selection traces found in ${safe(file)}\n`);
    else this.flush();
    const out: string[] = [];
    if (scan.problemCount > 0) {
      out.push("", `problems (${scan.problemCount}):`);
      for (const problem of scan.problems)
        out.push(`${safe(file)}:${problem.line}: ${safe(problem.message)}`);
      if (scan.problemCount > scan.problems.length)
        out.push(`… and ${scan.problemCount - scan.problems.length} more`);
    }
    out.push(
      "",
      `${scan.traceCount} trace${scan.traceCount === 1 ? "" : "s"}, ${scan.problemCount} problem${scan.problemCount === 1 ? "" : "s"}`,
    );
    this.write(out.join("\n") + "\n");
  }

  private flush(): void {
    if (this.widths) return;
    const widths = TraceTable.HEADER.map((title) => title.length);
    for (const cells of this.pending)
      cells.forEach((cell, c) => (widths[c] = Math.max(widths[c]!, [...cell].length)));
    this.widths = widths;
    this.write(
      this.line(TraceTable.HEADER) + this.pending.map((cells) => this.line(cells)).join(""),
    );
    this.pending = [];
  }

  private line(cells: readonly string[]): string {
    const widths = this.widths!;
    return (
      cells
        .map((cell, c) =>
          c === cells.length - 1
            ? cell
            : cell + " ".repeat(Math.max(0, widths[c]! - [...cell].length)),
        )
        .join("  ")
        .trimEnd() + "\n"
    );
  }
}

function shorten(names: readonly string[]): string {
  let text = "";
  for (const [i, name] of names.entries()) {
    const next = text === "" ? name : `${text}, ${name}`;
    if (next.length > NAMES_WIDTH && i > 0) return `${text}, … +${names.length - i}`;
    text = next;
  }
  return text;
}

/**
 * Writes `{ "traces": [...], "problems": [...] }` item by item, byte for byte as
 * `JSON.stringify(document, null, 2)` would, so that a log of any size streams out.
 */
class JsonListWriter {
  private count = 0;

  constructor(private readonly write: (text: string) => void) {}

  item(value: unknown): void {
    this.write(
      `${this.count++ === 0 ? '{\n  "traces": [\n' : ",\n"}${indent(safeJson(value, 2), "    ")}`,
    );
  }

  end(problems: readonly unknown[]): void {
    const list = safeJson(problems, 2).replace(/\n/g, "\n  ");
    this.write(
      `${this.count === 0 ? '{\n  "traces": [],\n' : "\n  ],\n"}  "problems": ${list}\n}\n`,
    );
  }
}

function indent(text: string, prefix: string): string {
  return prefix + text.replace(/\n/g, `\n${prefix}`);
}
