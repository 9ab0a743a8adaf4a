/**
 * `palette-inspector stats NEW... --against OLD...` and `stats LOG... --split-at TIME`: two sets of
 * logs (or one cut at a time) folded as `stats` folds one, then compared (docs/formats.md).
 */
import { compareStats } from "../core/stats/comparison.js";
import { formatComparisonJson, type Split } from "../core/stats/comparison-json.js";
import { formatComparisonText } from "../core/stats/comparison-text.js";
import { PaletteStats } from "../core/stats/fold.js";
import { formatCount } from "../core/stats/rows.js";
import { timeMs } from "../core/stats/timeline.js";
import { safe } from "../core/words.js";
import { scanLogs } from "../node/log-file.js";
import type { LogInput } from "../node/log-source.js";
import { ProblemList, problemLine } from "../node/problem-list.js";
import { EXIT, type CliIO } from "./io.js";
import { inputsOrExit, unreadableExit } from "./traces.js";

/** Problems listed under the text tables, per side; the rest are counted. */
const PROBLEMS_SHOWN = 20;

export interface CompareOptions {
  readonly json: boolean;
  readonly jobs: number | undefined;
}

/** A trace's time as logged, and as milliseconds since the epoch. */
interface Stamp {
  readonly ms: number;
  readonly time: string | number;
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
  // A date alone is its first moment, UTC.
  const atMs = timeMs(/^\d{4}-\d{2}-\d{2}$/.test(at) ? `${at}T00:00Z` : at);
  if (atMs === null) {
    io.stderr(
      `palette-inspector: --split-at must be a date and time such as 2025-03-14, 2025-03-14 09:30 or 2025-03-14T09:30:00+01:00 (no zone is UTC), not '${safe(at)}'\n`,
    );
    return EXIT.invalidInput;
  }
  const inputs: readonly LogInput[] | null = await inputsOrExit(names, io);
  if (!inputs) return EXIT.invalidInput;
  const problems = new ProblemList(inputs);
  const old = new PaletteStats();
  const now = new PaletteStats();
  const span: { first?: Stamp; last?: Stamp } = {};
  let untimed = 0;
  await scanLogs(inputs, {
    jobs: options.jobs,
    onTrace: (found, file) => {
      const time = found.trace.time;
      const ms = time === null ? null : timeMs(time);
      if (time === null || ms === null) {
        untimed++;
        return;
      }
      if (!span.first || ms < span.first.ms) span.first = { ms, time };
      if (!span.last || ms > span.last.ms) span.last = { ms, time };
      for (const message of (ms < atMs ? old : now).add(found.trace))
        problems.add({ file, line: found.line, message });
    },
    onProblem: (problem) => problems.add(problem),
  });
  const unreadable = unreadableExit(problems, io);
  const { first, last } = span;
  if (!first || !last) {
    io.stderr(
      "palette-inspector: --split-at needs traces with a time, and no trace of the set has one\n",
    );
    return EXIT.invalidInput;
  }
  if (atMs <= first.ms || atMs > last.ms) {
    io.stderr(
      `palette-inspector: --split-at ${safe(at)} is outside the set's times: its first trace is at ${safe(String(first.time))}, its last at ${safe(String(last.time))}\n`,
    );
    return EXIT.invalidInput;
  }
  const count = options.json ? problems.count : problems.listed.count;
  const split: Split = {
    at,
    first: first.time,
    last: last.time,
    untimed,
    problems: count,
  };
  if (options.json) io.stdout(formatComparisonJson(old, now, split));
  else
    io.stdout(
      formatComparisonText(compareStats(old, now), { color: io.color }) +
        `\nsplit at ${safe(at)}: OLD from ${safe(String(split.first))}, NEW to ${safe(String(split.last))}` +
        (untimed > 0
          ? `; ${formatCount(untimed)} traces without a readable time are in neither`
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
