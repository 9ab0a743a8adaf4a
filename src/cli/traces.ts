/** `palette-inspector traces LOGFILE [--json]` and `palette-inspector show LOGFILE [INDEX] [--json]` (FORMATS.md). */
import { isAbsolute, resolve } from "node:path";
import { renderWaterfall, safe } from "../core/render/table.js";
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
    const scan = await scanOrExit(path, io, { keep: false, onTrace: (summary) => writer.item(summaryToJson(summary)) });
    if (!scan) return EXIT.invalidInput;
    writer.end(scan.problems);
    return EXIT.ok;
  }
  const scan = await scanOrExit(path, io, {});
  if (!scan) return EXIT.invalidInput;
  io.stdout(tracesTable(file, scan));
  return EXIT.ok;
}

/** Prints one logged trace as the same waterfall as `run` (INDEX defaults to 0, the first trace). */
export async function showCommand(args: readonly string[], io: CliIO): Promise<number> {
  const { positional, flags } = parseArgs(args, ["--json"]);
  if (positional.length < 1 || positional.length > 2) throw new UsageError(SHOW_USAGE);
  const file = positional[0]!;
  const indexText = positional[1] ?? "0";
  if (!/^\d+$/.test(indexText)) throw new UsageError(`INDEX must be a trace number (0, 1, …), not '${indexText}'\n${SHOW_USAGE}`);
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
    io.stderr(`palette-inspector: ${count === 0 ? `no selection trace found in ${safe(file)}` : `${safe(file)} holds ${count} trace${count === 1 ? "" : "s"} (0–${count - 1}); there is no trace ${index}`}\n`);
    return EXIT.invalidInput;
  }
  let report;
  try {
    report = reportFromTrace(await readTraceAt(path, wanted), file);
  } catch (error) {
    io.stderr(`palette-inspector: ${error instanceof Error ? error.message : String(error)}\n`);
    return EXIT.invalidInput;
  }
  io.stdout(flags.has("--json") ? JSON.stringify(reportToJson(report), null, 2) + "\n" : renderWaterfall(report, { color: io.color }));
  return EXIT.ok;
}

function absolute(file: string, io: CliIO): string {
  return isAbsolute(file) ? file : resolve(io.cwd, file);
}

async function scanOrExit(path: string, io: CliIO, options: Parameters<typeof scanLogFile>[1]): Promise<LogScan | null> {
  try {
    return await scanLogFile(path, options);
  } catch (error) {
    io.stderr(`palette-inspector: ${error instanceof Error ? error.message : String(error)}\n`);
    return null;
  }
}

/** One line per trace (index, line, time, id, stages, final names, forced choice), then the problems. */
export function tracesTable(file: string, scan: LogScan): string {
  const header = ["#", "line", "time", "id", "stages", "final", "forced"];
  const rows = scan.traces.map((t) => [
    String(t.index),
    String(t.line),
    t.time === null ? "" : safe(String(t.time)),
    t.id === null ? "" : safe(String(t.id)),
    String(t.stages.length) + (t.degraded ? " (degraded)" : ""),
    `${t.names.length}: ${shorten(t.names.map(safe))}`,
    (t.forcedChoice === null ? "" : safe(t.forcedChoice)) + (t.error ? " (unavailable)" : ""),
  ]);
  const widths = header.map((title, c) => Math.max(title.length, ...rows.map((row) => [...row[c]!].length)));
  const line = (cells: string[]) => cells.map((cell, c) => (c === cells.length - 1 ? cell : cell + " ".repeat(widths[c]! - [...cell].length))).join("  ").trimEnd();
  const out: string[] = [];
  if (rows.length === 0) out.push(`no selection traces found in ${safe(file)}`);
  else out.push(line(header), ...rows.map(line));
  if (scan.problemCount > 0) {
    out.push("", `problems (${scan.problemCount}):`);
    for (const problem of scan.problems) out.push(`${safe(file)}:${problem.line}: ${safe(problem.message)}`);
    if (scan.problemCount > scan.problems.length) out.push(`… and ${scan.problemCount - scan.problems.length} more`);
  }
  out.push("", `${scan.traceCount} trace${scan.traceCount === 1 ? "" : "s"}, ${scan.problemCount} problem${scan.problemCount === 1 ? "" : "s"}`);
  return out.join("\n") + "\n";
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
    this.write(`${this.count++ === 0 ? '{\n  "traces": [\n' : ",\n"}${indent(JSON.stringify(value, null, 2), "    ")}`);
  }

  end(problems: readonly unknown[]): void {
    const list = JSON.stringify(problems, null, 2).replace(/\n/g, "\n  ");
    this.write(`${this.count === 0 ? '{\n  "traces": [],\n' : "\n  ],\n"}  "problems": ${list}\n}\n`);
  }
}

function indent(text: string, prefix: string): string {
  return prefix + text.replace(/\n/g, `\n${prefix}`);
}
