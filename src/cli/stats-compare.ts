/**
 * `palette-inspector stats NEW... --against OLD...` and `stats LOG... --split-at TIME`: two sets of
 * logs (or one cut at a time) folded as `stats` folds one, then compared (docs/formats.md).
 */
import { compareStats } from "../core/stats/comparison.js";
import { formatComparisonJson } from "../core/stats/comparison-json.js";
import { formatComparisonText } from "../core/stats/comparison-text.js";
import { PaletteStats } from "../core/stats/fold.js";
import { formatCount } from "../core/stats/rows.js";
import { SPLIT_TIME_HELP, SplitStats, splitTimeMs } from "../core/stats/split.js";
import { safe } from "../core/words.js";
import { scanLogs } from "../node/log-file.js";
import { ProblemList, problemLine } from "../node/problem-list.js";
import { EXIT, type CliIO } from "./io.js";
import { inputsOrExit, unreadableExit } from "./traces.js";

/** Problems listed under the text tables, per side; the rest are counted. */
const PROBLEMS_SHOWN = 20;

export interface CompareOptions {
  readonly json: boolean;
  readonly jobs: number | undefined;
}

interface Side {
  readonly stats: PaletteStats;
  /** Null: the names gave no log to read (said on stderr). */
  readonly problems: ProblemList | null;
}

/** Reads NEW, then OLD: a side that cannot be read is its own problem, and the other is still read. */
export async function againstCommand(
  newNames: readonly string[],
  oldNames: readonly string[],
  options: CompareOptions,
  io: CliIO,
): Promise<number> {
  const now = await readSide(newNames, options, io);
  const old = await readSide(oldNames, options, io);
  if (options.json) {
    for (const side of [now, old]) side.stats.addProblems(side.problems?.count ?? 0);
    io.stdout(formatComparisonJson(old.stats, now.stats));
  } else {
    for (const side of [now, old]) side.stats.addProblems(side.problems?.listed.count ?? 0);
    io.stdout(
      formatComparisonText(compareStats(old.stats, now.stats), { color: io.color }) +
        problemsText("NEW", now.problems) +
        problemsText("OLD", old.problems),
    );
  }
  const exits = [now, old].map((side) =>
    side.problems ? unreadableExit(side.problems, io) : EXIT.invalidInput,
  );
  return Math.max(...exits);
}

async function readSide(
  names: readonly string[],
  options: CompareOptions,
  io: CliIO,
): Promise<Side> {
  const stats = new PaletteStats();
  const inputs = await inputsOrExit(names, io);
  if (!inputs) return { stats, problems: null };
  const problems = new ProblemList(inputs);
  await scanLogs(inputs, {
    jobs: options.jobs,
    onTrace: (found, file) => {
      for (const message of stats.add(found.trace))
        problems.add({ file, line: found.line, message });
    },
    onProblem: (problem) => problems.add(problem),
  });
  return { stats, problems };
}

/** Reads one set, OLD before TIME and NEW from it; a TIME outside the set's times is an error naming them. */
export async function splitCommand(
  names: readonly string[],
  at: string,
  options: CompareOptions,
  io: CliIO,
): Promise<number> {
  const atMs = splitTimeMs(at);
  if (atMs === null) {
    io.stderr(`palette-inspector: --split-at must be ${SPLIT_TIME_HELP}, not '${safe(at)}'\n`);
    return EXIT.invalidInput;
  }
  const inputs = await inputsOrExit(names, io);
  if (!inputs) return EXIT.invalidInput;
  const problems = new ProblemList(inputs);
  const split = new SplitStats(at, atMs);
  await scanLogs(inputs, {
    jobs: options.jobs,
    onTrace: (found, file) => {
      for (const message of split.add(found.trace))
        problems.add({ file, line: found.line, message });
    },
    onProblem: (problem) => problems.add(problem),
  });
  const unreadable = unreadableExit(problems, io);
  const result = split.result(options.json ? problems.count : problems.listed.count);
  if ("error" in result) {
    io.stderr(`palette-inspector: ${safe(result.error)}\n`);
    return EXIT.invalidInput;
  }
  if (options.json) io.stdout(formatComparisonJson(split.old, split.new, result));
  else
    io.stdout(
      formatComparisonText(compareStats(split.old, split.new), { color: io.color }) +
        `\nsplit at ${safe(at)}: OLD from ${safe(String(result.first))}, NEW to ${safe(String(result.last))}` +
        (result.untimed > 0
          ? `; ${formatCount(result.untimed)} traces without a readable time are in neither`
          : "") +
        "\n" +
        problemsText("the set", problems),
    );
  return unreadable;
}

function problemsText(side: string, problems: ProblemList | null): string {
  if (!problems || problems.nothingRead) return "";
  const listed = problems.listed;
  if (listed.count === 0) return "";
  const shown = listed.kept.slice(0, PROBLEMS_SHOWN);
  return [
    `\nproblems of ${side} (${formatCount(listed.count)}):\n`,
    ...shown.map((p) => `${problemLine(p)}\n`),
    listed.count > shown.length ? `… and ${formatCount(listed.count - shown.length)} more\n` : "",
  ].join("");
}
