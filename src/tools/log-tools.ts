/** The tools that read logs: list_traces, show_trace, trace_to_fixture, palette_stats, and where_did_tool_go on a trace. */
import { safe } from "../core/words.js";
import { reportToJson } from "../core/report-json.js";
import { PaletteStats } from "../core/stats/fold.js";
import { formatStatsJson } from "../core/stats/json.js";
import { byMissing, formatCount, percent, removedByText, statsRows } from "../core/stats/rows.js";
import { reportFromTrace } from "../core/traces/report.js";
import type { FoundTrace } from "../core/traces/scan.js";
import {
  matchesFilter,
  summarizeTrace,
  traceEntryJson,
  type TraceFilter,
  type TraceSummary,
} from "../core/traces/summary.js";
import { traceToFixture } from "../core/traces/to-fixture.js";
import { counted } from "../core/words.js";
import { scanLogs, type LogsScan } from "../node/log-file.js";
import type { LogInput } from "../node/log-source.js";
import { ProblemList, unreadableMessage, type NamedProblem } from "../node/problem-list.js";
import { InputRefused } from "../node/roots.js";
import { lineageAnswer, type Answer } from "./fixture-tools.js";
import type { ToolFiles } from "./port.js";
import { fileName, fitText, name, nameList, QUOTE_CHARS, quoted, reportLines } from "./text.js";

/** Stats text lists this many tools when `top` does not say. */
const STATS_TOOLS = 10;

interface Scanned {
  readonly inputs: readonly LogInput[];
  readonly problems: ProblemList;
  readonly scan: LogsScan;
}

/** Scans the logs as one set; when nothing of any could be read, that is the tool's error, in the CLI's words. */
async function scan(
  files: ToolFiles,
  logs: readonly string[],
  /** `problem` adds a problem at the trace's line (a statistics limit it reached). */
  onTrace: (found: FoundTrace, file: string, problem: (message: string) => void) => void,
  signal?: { aborted: boolean },
): Promise<Scanned> {
  const inputs = await files.logInputs(logs);
  const problems = new ProblemList(inputs);
  const result = await scanLogs(inputs, {
    signal,
    onTrace: (found, file) =>
      onTrace(found, inputs[file]!.name, (message) =>
        problems.add({ file, line: found.line, message }),
      ),
    onProblem: (problem) => problems.add(problem),
  });
  if (result.unreadable === inputs.length)
    throw new InputRefused(problems.unreadable.map(unreadableMessage).join("\n"));
  return { inputs, problems, scan: result };
}

function problemLines({ problems }: Scanned): string[] {
  if (problems.count === 0) return [];
  return [
    `${counted(problems.count, "problem", "problems", formatCount)}:`,
    ...problems.kept.slice(0, 10).map((p) => `  ${problemText(p)}`),
  ];
}

/** "file:line: message", the message (which may quote the log) as log text. */
function problemText(problem: NamedProblem): string {
  return `${fileName(problem.file)}${problem.line === null ? "" : `:${problem.line}`}: ${quoted(problem.message, "log")}`;
}

/** The trace #`number` (from 1, as a person reads it) across the logs; reading stops there. */
async function traceAt(
  files: ToolFiles,
  logs: readonly string[],
  number: number,
): Promise<{ found: FoundTrace; file: string }> {
  const index = number - 1;
  const stop = { aborted: false };
  let wanted: { found: FoundTrace; file: string } | null = null;
  const { scan: result } = await scan(
    files,
    logs,
    (found, file) => {
      if (found.index !== index) return;
      wanted = { found, file };
      stop.aborted = true;
    },
    stop,
  );
  if (wanted === null) {
    const count = result.traceCount;
    throw new InputRefused(
      count === 0
        ? `no selection trace found in ${logs.map(fileName).join(", ")}`
        : `the logs hold ${count === 1 ? "1 trace (#1)" : `${formatCount(count)} traces (#1–#${count})`}; there is no trace #${number}`,
    );
  }
  return wanted;
}

export async function listTracesTool(
  files: ToolFiles,
  input: { logs: string[]; filter?: TraceFilter; offset?: number; limit?: number },
): Promise<Answer> {
  const offset = input.offset ?? 0;
  const limit = input.limit ?? 50;
  const page: { summary: TraceSummary; file: string }[] = [];
  let total = 0;
  const scanned = await scan(files, input.logs, (found, file) => {
    const summary = summarizeTrace(found);
    if (input.filter && !matchesFilter(summary, input.filter)) return;
    if (total >= offset && page.length < limit) page.push({ summary, file });
    total++;
  });
  const { problems, scan: result } = scanned;
  const next = offset + page.length;
  const lines = [
    `${formatCount(total)} of ${counted(result.traceCount, "trace", "traces", formatCount)}${input.filter ? " match" : ""}; ${page.length === 0 ? "none listed here" : `listed: ${offset + 1}–${next} of the matches (#N as the other tools take it, file:line, id, time, stages, final names, forced choice)`}`,
    ...page.map(({ summary: t, file }) =>
      [
        // The #N the user reads in the editor and the CLI, and the other tools take.
        `#${t.index + 1}`,
        `${fileName(file)}:${t.line}`,
        ...(t.id === null ? [] : [`id ${name(String(t.id))}`]),
        ...(t.time === null ? [] : [name(String(t.time))]),
        counted(t.stages.length, "stage") + (t.degraded ? " (degraded)" : ""),
        `final ${t.names.length}: ${nameList(t.names)}`,
        ...(t.forcedChoice === null
          ? []
          : [`forced ${name(t.forcedChoice)}${t.error ? " (unavailable)" : ""}`]),
      ].join(" · "),
    ),
    ...problemLines(scanned),
  ];
  if (next < total) lines.push(`more: call list_traces with offset ${next} for the next page`);
  return {
    text: fitText(lines, `call list_traces with a smaller limit, from offset ${offset}`),
    structured: {
      // `trace`, the #N the other tools take, first: beside `index`, which counts from 0.
      traces: page.map(({ summary, file }) => ({
        trace: summary.index + 1,
        ...traceEntryJson(summary, file),
      })),
      problems: problems.kept,
      problem_count: problems.count,
      problems_truncated: problems.truncated,
      total,
      trace_count: result.traceCount,
      offset,
      limit,
    },
  };
}

export async function showTraceTool(
  files: ToolFiles,
  input: { logs: string[]; trace: number },
): Promise<Answer> {
  const { found, file } = await traceAt(files, input.logs, input.trace);
  const report = reportFromTrace(found, file);
  return {
    text: fitText(
      [`trace #${input.trace}, ${fileName(file)}:${found.line}`, ...reportLines(report, "log")],
      "the whole trace is in the structured result; where_did_tool_go follows one tool",
    ),
    structured: reportToJson(report),
  };
}

export async function traceLineage(
  files: ToolFiles,
  logs: string[],
  trace: number,
  tool: string,
): Promise<Answer> {
  const { found, file } = await traceAt(files, logs, trace);
  return lineageAnswer(reportFromTrace(found, file), tool, "log");
}

export async function traceToFixtureTool(
  files: ToolFiles,
  input: { logs: string[]; trace: number; out?: string },
): Promise<Answer> {
  const { found, file } = await traceAt(files, input.logs, input.trace);
  const { fixture, caveats } = traceToFixture(found.trace, { file, line: found.line });
  const text = JSON.stringify(fixture, null, 2) + "\n";
  const written = input.out === undefined ? null : await files.writeNewFile(input.out, text);
  const lines = [
    `A fixture replaying trace #${input.trace} (${fileName(file)}:${found.line}) ${written === null ? "is in the structured result (give out to write it)" : `was written to ${fileName(written)}`}.`,
    caveats.length === 0
      ? "It replays the trace exactly."
      : `The replay differs from the log in ${counted(caveats.length, "way")}:`,
    ...caveats.map((caveat) => `  ${quoted(caveat, "log")}`),
    ...fixtureLines(fixture),
  ];
  return {
    text: fitText(lines, "the whole fixture is in the structured result"),
    structured: { fixture, caveats, written },
  };
}

/** The fixture as indented JSON lines, each string cut at QUOTE_CHARS: the text is a view, the structured result the file. */
function fixtureLines(fixture: object): string[] {
  let cut = false;
  const json = JSON.stringify(
    fixture,
    (_key, value: unknown) => {
      if (typeof value !== "string" || value.length <= QUOTE_CHARS) return value;
      cut = true;
      return `${value.slice(0, QUOTE_CHARS)}…`;
    },
    2,
  );
  return [
    `The fixture (JSON; its strings are log text${cut ? `, each cut at ${QUOTE_CHARS} characters here` : ""}):`,
    // Split first, then escaped: an escaped line break would join the fixture into one line.
    ...json.split("\n").map((line) => `  ${safe(line)}`),
  ];
}

export async function paletteStatsTool(
  files: ToolFiles,
  input: { logs: string[]; top?: number },
): Promise<Answer> {
  const stats = new PaletteStats();
  // As `stats` does: a limit a trace reached is a problem at its line.
  const scanned = await scan(files, input.logs, (found, _file, problem) => {
    for (const message of stats.add(found.trace)) problem(message);
  });
  stats.addProblems(scanned.problems.count);
  const document = JSON.parse(formatStatsJson(stats)) as { tools: { name: string }[] } & Record<
    string,
    unknown
  >;
  const rows = statsRows(stats);
  const missing = [...rows.tools].sort(byMissing);
  const top = missing.slice(0, input.top ?? STATS_TOOLS);
  if (input.top !== undefined) {
    const byName = new Map(document.tools.map((tool) => [tool.name, tool]));
    document.tool_count = document.tools.length;
    document.tools = missing.slice(0, input.top).map((row) => byName.get(row.name)!);
  }
  const errors = rows.errors.map((e) => `${name(e.kind)} ${formatCount(e.n)}`).join(", ");
  const lines = [
    `${counted(rows.traces, "trace", "traces", formatCount)}, ${counted(rows.problems, "problem", "problems", formatCount)}${errors ? `; errors: ${errors}` : ""}`,
    ...(top.length === 0
      ? []
      : [
          `most often missing tools (${top.length} of ${rows.tools.length}):`,
          ...top.map(
            (t) =>
              `  ${name(t.name)}: missing in ${percent(t.missing, t.seen)}% of ${counted(t.seen, "turn", "turns", formatCount)}${t.missing > 0 ? `, removed by ${removedByText(t, name)}` : ""}; final ${formatCount(t.final)}, forced ${formatCount(t.forced)}`,
          ),
        ]),
    ...(rows.stages.length === 0 ? [] : ["stages:"]),
    ...rows.stages.map(
      (s) =>
        `  ${name(s.stage)}: ${formatCount(s.records)} records; select ${formatCount(s.select)}, abstain ${formatCount(s.abstain)}, force ${formatCount(s.force)}, error ${formatCount(s.error)}, degraded ${formatCount(s.degraded)}`,
    ),
    ...problemLines(scanned),
  ];
  return {
    text: fitText(
      lines,
      "every tool and stage is in the structured result; top=N lists fewer tools",
    ),
    structured: document,
  };
}
