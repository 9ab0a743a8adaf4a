import { formatProblem } from "../core/fixture/problems.js";
import { formatWaterfallTable } from "../core/render/table.js";
import { safe, safeJson } from "../core/words.js";
import { reportToJson } from "../core/report-json.js";
import { formatMismatch, runFixtureFile } from "./fixture-run.js";
import { JSON_OPTION, readCommandLine, usageLine, type CommandSpec } from "./args.js";
import { EXIT, UsageError, type CliIO } from "./io.js";

const RUN: CommandSpec = {
  usage: "run FIXTURE [--json]",
  about: "Runs one turn fixture (*.turn.json) and prints its waterfall: what each stage did.",
  options: { json: JSON_OPTION },
};

/** `palette-inspector run FIXTURE [--json]`. */
export async function runCommand(args: readonly string[], io: CliIO): Promise<number> {
  const { positional, flags } = readCommandLine(args, RUN);
  if (positional.length !== 1) throw new UsageError(usageLine(RUN));
  const outcome = await runFixtureFile(positional[0]!);
  for (const problem of outcome.problems) io.stderr(safe(formatProblem(problem)) + "\n");
  if (outcome.status === "invalid") return EXIT.invalidInput;

  const { report, mismatches } = outcome;
  if (flags.has("--json")) io.stdout(safeJson(reportToJson(report), 2) + "\n");
  else io.stdout(formatWaterfallTable(report, { color: io.color }));
  for (const mismatch of mismatches) io.stderr(safe(formatMismatch(outcome.file, mismatch)) + "\n");

  if (mismatches.some((m) => m.key === "error" && m.actual !== null))
    return EXIT.forcedToolUnavailable;
  return mismatches.length > 0 ? EXIT.expectationFailed : EXIT.ok;
}
