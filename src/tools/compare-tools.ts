/** compare_stats: two sets of logs (or one cut at a time) compared, as `palette-inspector stats --against --json`. */
import { compareStats, type Comparison, type ToolChange } from "../core/stats/comparison.js";
import { formatComparisonJson } from "../core/stats/comparison-json.js";
import { pointsText, pText } from "../core/stats/comparison-text.js";
import { PaletteStats } from "../core/stats/fold.js";
import { formatCount, percent } from "../core/stats/rows.js";
import { SPLIT_TIME_HELP, SplitStats, splitTimeMs } from "../core/stats/split.js";
import type { LoggedTrace } from "../core/traces/trace.js";
import { counted } from "../core/words.js";
import { scanLogs } from "../node/log-file.js";
import { ProblemList } from "../node/problem-list.js";
import { InputRefused } from "../node/roots.js";
import type { Answer } from "./fixture-tools.js";
import type { ToolFiles } from "./port.js";
import { fitText, name } from "./text.js";

/** The changes the text names; the structured result has them all. */
const NAMED_CHANGES = 3;

export interface CompareInput {
  readonly logs: string[];
  readonly against?: string[];
  readonly split_at?: string;
}

export async function compareStatsTool(files: ToolFiles, input: CompareInput): Promise<Answer> {
  if (input.split_at !== undefined) {
    const atMs = splitTimeMs(input.split_at);
    if (atMs === null)
      throw new InputRefused(`split_at must be ${SPLIT_TIME_HELP}, not '${input.split_at}'`);
    const split = new SplitStats(input.split_at, atMs);
    const problems = await fold(files, input.logs, (trace) => split.add(trace));
    const result = split.result(problems);
    if ("error" in result) throw new InputRefused(result.error.replace("--split-at", "split_at"));
    return answer(split.old, split.new, formatComparisonJson(split.old, split.new, result));
  }
  const now = new PaletteStats();
  const old = new PaletteStats();
  now.addProblems(await fold(files, input.logs, (trace) => now.add(trace)));
  old.addProblems(await fold(files, input.against ?? [], (trace) => old.add(trace)));
  return answer(old, now, formatComparisonJson(old, now));
}

/** Scans one set; a file that cannot be read is a problem of the set, counted, and the rest is read. */
async function fold(
  files: ToolFiles,
  logs: readonly string[],
  add: (trace: LoggedTrace) => readonly string[],
): Promise<number> {
  const inputs = await files.logInputs(logs);
  const problems = new ProblemList(inputs);
  await scanLogs(inputs, {
    onTrace: (found, file) => {
      for (const message of add(found.trace)) problems.add({ file, line: found.line, message });
    },
    onProblem: (problem) => problems.add(problem),
  });
  return problems.count;
}

function answer(old: PaletteStats, now: PaletteStats, json: string): Answer {
  const c = compareStats(old, now);
  return {
    text: fitText(lines(c), "every change is in the structured result"),
    structured: JSON.parse(json) as Record<string, unknown>,
  };
}

function lines(c: Comparison): string[] {
  const side = (label: string, rows: Comparison["old"]) =>
    `${label}: ${counted(rows.traces, "trace", "traces", formatCount)}, ${counted(rows.problems, "problem", "problems", formatCount)}`;
  const out = [`${side("NEW", c.new)}; ${side("OLD", c.old)}`];
  if (c.empty.length > 0) {
    out.push(
      `${c.empty.map((s) => s.toUpperCase()).join(" and ")} ${c.empty.length > 1 ? "have" : "has"} no traces: nothing to compare.`,
    );
    return out;
  }
  const moved = c.tools.filter((t) => t.points !== 0).slice(0, NAMED_CHANGES);
  if (moved.length === 0) out.push("No tool seen in both sets changed its final rate.");
  else out.push("Biggest changes in the final rate:", ...moved.map(changeLine));
  if (c.onlyNew.length > 0)
    out.push(`Seen only in NEW: ${c.onlyNew.map((t) => name(t.name)).join(", ")}`);
  if (c.onlyOld.length > 0)
    out.push(`Seen only in OLD: ${c.onlyOld.map((t) => name(t.name)).join(", ")}`);
  return out;
}

/** "ask_human: final in 100% → 20% of turns (−80.0 pts, p <0.001); role took it: missing there 0% → 80%" */
function changeLine(t: ToolChange): string {
  const stage = t.stage
    ? `; ${t.stage.failed ? `failed turns (${name(t.stage.stage)})` : name(t.stage.stage)} ${t.stage.new > t.stage.old ? "took it" : "gave it back"}: missing there ${Math.round(100 * t.stage.old)}% → ${Math.round(100 * t.stage.new)}%`
    : "";
  return `  ${name(t.name)}: final in ${percent(t.old.final, t.old.seen)}% → ${percent(t.new.final, t.new.seen)}% of turns (${pointsText(t.points)}, p ${pText(t.p)})${stage}`;
}
