import { resolve } from "node:path";
import { checkToJson, unreadableOutcome } from "../core/fixture-outcome.js";
import { formatProblem } from "../core/fixture/problems.js";
import { safe, safeJson } from "../core/words.js";
import { readReason } from "../node/log-source.js";
import { writeWholeFile } from "../node/safe-file.js";
import { displayPath, findFixtures } from "./files.js";
import { formatMismatch, runFixtureFile, type FixtureOutcome } from "./fixture-run.js";
import { JSON_OPTION, readCommandLine, type CommandSpec } from "./args.js";
import { EXIT, UsageError, type CliIO } from "./io.js";
import { junitReport } from "./junit.js";

const CHECK: CommandSpec = {
  usage: "check [PATHS...] [--json] [--junit FILE]",
  about:
    "Runs every *.turn.json under PATHS (default: the working directory) and compares each with its expect.",
  options: {
    json: JSON_OPTION,
    junit: { value: "FILE", help: "also write the outcomes to FILE as JUnit XML" },
  },
};

/** `palette-inspector check [PATHS...] [--json] [--junit FILE]`: every fixture against its `expect`. */
export async function checkCommand(args: readonly string[], io: CliIO): Promise<number> {
  const { positional, flags, values } = readCommandLine(args, CHECK);
  let files: string[];
  try {
    files = findFixtures(positional.length > 0 ? positional : [io.cwd]);
  } catch (error) {
    throw new UsageError(
      `cannot read ${(error as NodeJS.ErrnoException).path ?? "path"}: ${readReason(error)}`,
    );
  }
  if (files.length === 0)
    throw new UsageError(`no *.turn.json fixtures found under ${positional.join(", ") || io.cwd}`);

  const outcomes: FixtureOutcome[] = [];
  for (const file of files) outcomes.push(await checkOne(file));
  const document = checkToJson(outcomes);
  const { passed, failed, invalid } = document;

  if (flags.has("--json")) {
    io.stdout(safeJson(document, 2) + "\n");
  } else {
    for (const outcome of outcomes) io.stdout(outcomeLines(outcome, io.color));
    if (invalid > 0) io.stdout(`${invalid} invalid\n`);
    io.stdout(`${passed} passed, ${failed} failed\n`);
  }
  const junit = values.get("--junit");
  if (junit !== undefined) writeReport(resolve(io.cwd, junit), junit, junitReport(outcomes));
  if (invalid > 0) return EXIT.invalidInput;
  return failed > 0 ? EXIT.expectationFailed : EXIT.ok;
}

/**
 * Writes the report whole, in a new file renamed over the old one (a failed write leaves the old
 * report), never through a link planted at its name nor over anything but a regular file.
 */
function writeReport(path: string, name: string, text: string): void {
  try {
    writeWholeFile(path, text);
  } catch (error) {
    throw new UsageError(`cannot write the JUnit report ${name}: ${readReason(error)}`);
  }
}

/** One fixture's outcome; one that cannot be read is invalid, and the check goes on. */
async function checkOne(file: string): Promise<FixtureOutcome> {
  try {
    return await runFixtureFile(file);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    return unreadableOutcome(displayPath(file), error.message);
  }
}

function outcomeLines(outcome: FixtureOutcome, color: boolean): string {
  const paint = (code: string, text: string) => (color ? `\x1b[${code}m${text}\x1b[0m` : text);
  if (outcome.status === "invalid") {
    return (
      `${paint("31", "INVALID")} ${safe(outcome.file)}\n` +
      outcome.problems
        .filter((p) => p.severity === "error")
        .map((p) => `  ${safe(formatProblem(p))}\n`)
        .join("")
    );
  }
  if (outcome.status === "passed") {
    const note = outcome.expects ? "" : " (no expect: ran without error)";
    return `${paint("32", "PASS")} ${safe(outcome.file)}${note}\n`;
  }
  return (
    `${paint("31", "FAIL")} ${safe(outcome.file)}\n` +
    outcome.mismatches.map((m) => `  ${safe(formatMismatch(outcome.file, m))}\n`).join("")
  );
}
