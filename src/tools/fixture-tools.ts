/** The tools that run fixtures: run_fixture, check_fixtures, what_if, and where_did_tool_go on a fixture. */
import { compareReports, type Comparison, type NameDiff } from "../core/compare.js";
import {
  checkToJson,
  formatMismatch,
  runFixtureSource,
  unreadableOutcome,
  type FixtureOutcome,
} from "../core/fixture-outcome.js";
import type { Fixture } from "../core/fixture/load.js";
import { formatProblem, type Problem } from "../core/fixture/problems.js";
import { cellState, sentenceText, toolLineage, waterfallRows } from "../core/lineage.js";
import { safe } from "../core/words.js";
import { reportToJson } from "../core/report-json.js";
import type { RunReport } from "../core/report.js";
import { runFixture } from "../core/run-fixture.js";
import { describeWhatIf, runWhatIf, type WhatIf } from "../core/whatif.js";
import { checkedFixture } from "../node/fixture-check.js";
import { InputRefused } from "../node/roots.js";
import type { ToolFiles } from "./port.js";
import { fileName, fitText, name, nameList, quoted, reportLines, type Source } from "./text.js";

export interface Answer {
  readonly text: string;
  readonly structured: Record<string, unknown>;
}

/** The CLI's lines for a fixture's problems: `file:line:column: error: message (at $.path)`. */
function problemText(problems: readonly Problem[]): string {
  return problems.map((problem) => safe(formatProblem(problem))).join("\n");
}

/** A large fixture is checked in a worker thread: the tools run in the extension host too. */
async function outcomeOf(files: ToolFiles, path: string): Promise<FixtureOutcome> {
  return runFixtureSource(await files.readFixture(path), files.readCatalog, checkedFixture);
}

/** A valid fixture loaded, or its problems as the tool's error. */
async function loaded(files: ToolFiles, path: string): Promise<Fixture> {
  const source = await files.readFixture(path);
  if ("problems" in source) throw new InputRefused(problemText(source.problems));
  const result = await checkedFixture(source, files.readCatalog);
  if (!result.ok) throw new InputRefused(problemText(result.problems));
  return result.fixture;
}

const REST_OF_RUN = "the whole run is in the structured result; where_did_tool_go follows one tool";

export async function runFixtureTool(files: ToolFiles, input: { path: string }): Promise<Answer> {
  const outcome = await outcomeOf(files, input.path);
  if (outcome.status === "invalid") throw new InputRefused(problemText(outcome.problems));
  const lines = reportLines(outcome.report, "fixture");
  // After the final palette and the forced choice, in the order the expectations are written.
  lines.splice(
    2,
    0,
    ...outcome.mismatches.map(
      (m) => `expectation failed: ${safe(formatMismatch(outcome.file, m))}`,
    ),
  );
  if (outcome.problems.length > 0)
    lines.push("warnings:", ...outcome.problems.map((p) => `  ${safe(formatProblem(p))}`));
  return { text: fitText(lines, REST_OF_RUN), structured: reportToJson(outcome.report) };
}

export async function checkFixturesTool(
  files: ToolFiles,
  input: { paths?: string[] },
): Promise<Answer> {
  const found = await files.findFixtures(input.paths);
  if (found.length === 0)
    throw new InputRefused(
      `no *.turn.json fixtures found under ${(input.paths ?? ["the roots"]).map(safe).join(", ")}`,
    );
  const outcomes: FixtureOutcome[] = [];
  for (const path of found) {
    try {
      outcomes.push(await outcomeOf(files, path));
    } catch (error) {
      if (!(error instanceof InputRefused)) throw error;
      outcomes.push(unreadableOutcome(path, error.message));
    }
  }
  const document = checkToJson(outcomes);
  const { passed, failed, invalid } = document;
  const lines = [`${passed} passed, ${failed} failed${invalid > 0 ? ` (${invalid} invalid)` : ""}`];
  for (const outcome of outcomes) {
    if (outcome.status === "invalid")
      lines.push(
        `INVALID ${fileName(outcome.file)}`,
        ...outcome.problems
          .filter((p) => p.severity === "error")
          .map((p) => `  ${safe(formatProblem(p))}`),
      );
    else if (outcome.status === "failed")
      lines.push(
        `FAIL ${fileName(outcome.file)}`,
        ...outcome.mismatches.map((m) => `  ${safe(formatMismatch(outcome.file, m))}`),
      );
  }
  const passing = outcomes.filter((o) => o.status === "passed").map((o) => o.file);
  if (passing.length > 0) lines.push(`PASS ${passing.map(fileName).join(", ")}`);
  return {
    text: fitText(
      lines,
      "every fixture's outcome is in the structured result; give paths to check fewer",
    ),
    structured: document,
  };
}

/** What one tool went through, stage by stage, with the panel's sentence. */
export function lineageAnswer(report: RunReport, tool: string, source: Source): Answer {
  const lineage = toolLineage(report, tool);
  const stages = waterfallRows(report).map((row) => {
    const state = cellState(row, tool);
    const reasons = row.record?.reasons ?? {};
    return {
      stage: row.info.name,
      state,
      reason:
        (state === "dropped" || state === "added") && Object.hasOwn(reasons, tool)
          ? reasons[tool]!
          : null,
      forced: row.record?.forcedChoice === tool,
    };
  });
  // The text's sentence leaves the stages' reasons out: they are log or file text, quoted below.
  const unreasoned = {
    ...report,
    trace: report.trace.map((record) => ({ ...record, reasons: {} })),
  };
  const lines = [
    sentenceText(toolLineage(unreasoned, tool).parts, name),
    `in ${fileName(report.file)}, at each stage:`,
    ...stages.map(
      (s) =>
        `  ${name(s.stage)}: ${s.state}${s.reason === null ? "" : ` — reason: ${quoted(s.reason, source)}`}${s.forced ? "; the forced choice" : ""}`,
    ),
  ];
  return {
    text: fitText(lines, "every stage is in the structured result"),
    structured: {
      tool,
      file: report.file,
      sentence: lineage.sentence,
      known: lineage.known,
      offered: lineage.offered,
      final: lineage.final,
      forced: lineage.forced,
      stages,
      events: lineage.events,
    },
  };
}

export async function fixtureLineage(
  files: ToolFiles,
  path: string,
  tool: string,
): Promise<Answer> {
  return lineageAnswer(runFixture(await loaded(files, path)), tool, "fixture");
}

export async function whatIfTool(
  files: ToolFiles,
  input: { path: string; edits: WhatIf },
): Promise<Answer> {
  const fixture = await loaded(files, input.path);
  const original = runFixture(fixture);
  const variant = runWhatIf(fixture, input.edits);
  if ("error" in variant) throw new InputRefused(variant.error);
  const comparison = compareReports(original, variant.report);
  const edits = describeWhatIf(input.edits);
  const lines = [
    `${comparison.changed ? "The what-if changes the run" : "The what-if does not change the run"} (${safe(edits) || "no lever moved"}).`,
    ...comparisonLines(comparison),
    "original:",
    ...reportLines(original, "fixture")
      .slice(0, 3)
      .map((line) => `  ${line}`),
    "variant:",
    ...reportLines(variant.report, "fixture").map((line) => `  ${line}`),
  ];
  return {
    text: fitText(lines, "both runs and the whole comparison are in the structured result"),
    structured: {
      edits,
      original: reportToJson(original),
      variant: reportToJson(variant.report),
      comparison: comparisonJson(comparison),
    },
  };
}

/** "the variant adds a, b; loses c" */
function diffText(diff: NameDiff, adds = "adds", loses = "loses"): string {
  const parts = [];
  if (diff.onlyVariant.length > 0) parts.push(`the variant ${adds} ${nameList(diff.onlyVariant)}`);
  if (diff.onlyBase.length > 0) parts.push(`the variant ${loses} ${nameList(diff.onlyBase)}`);
  return parts.join(", ");
}

function comparisonLines(c: Comparison): string[] {
  const lines = [];
  if (c.final.onlyBase.length + c.final.onlyVariant.length > 0)
    lines.push(`final palette: ${diffText(c.final)}`);
  else if (c.final.orderChanged) lines.push("final palette: the same tools, in another order");
  if (c.forced.changed)
    lines.push(
      `forced tool_choice: ${c.forced.base === null ? "none" : name(c.forced.base)} → ${c.forced.variant === null ? "none" : name(c.forced.variant)}`,
    );
  if (c.error.base !== c.error.variant)
    lines.push(
      `error: ${c.error.base === null ? "none" : quoted(c.error.base, "fixture")} → ${c.error.variant === null ? "none" : quoted(c.error.variant, "fixture")}`,
    );
  for (const stage of c.stages) {
    if (!stage.changed) continue;
    const parts = [stage.actionChanged ? `${stage.base} → ${stage.variant}` : stage.variant];
    for (const [what, diff] of [
      ["drops", stage.dropped],
      ["adds", stage.added],
      ["reinstates", stage.reinstated],
      ["hands on", stage.output],
    ] as const)
      if (diff.onlyBase.length + diff.onlyVariant.length > 0)
        parts.push(diffText(diff, `also ${what}`, `no longer ${what}`));
    lines.push(`  ${name(stage.stage)}: ${parts.join("; ")}`);
  }
  return lines;
}

/** The comparison in the snake_case of the public formats (docs/formats.md, "what_if"). */
function comparisonJson(c: Comparison) {
  const diff = (d: NameDiff) => ({ only_original: d.onlyBase, only_variant: d.onlyVariant });
  return {
    changed: c.changed,
    final: { ...diff(c.final), order_changed: c.final.orderChanged },
    forced: { original: c.forced.base, variant: c.forced.variant, changed: c.forced.changed },
    error: { original: c.error.base, variant: c.error.variant },
    stages: c.stages.map((s) => ({
      stage: s.stage,
      original: s.base,
      variant: s.variant,
      changed: s.changed,
      action_changed: s.actionChanged,
      dropped: diff(s.dropped),
      added: diff(s.added),
      reinstated: diff(s.reinstated),
      output: diff(s.output),
      forced: { original: s.forced.base, variant: s.forced.variant },
    })),
  };
}
