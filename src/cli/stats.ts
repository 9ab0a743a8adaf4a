/** `palette-inspector stats LOG... [--json]`: palette statistics across every trace `traces` finds (docs/formats.md). */
import { PaletteStats } from "../core/stats/fold.js";
import { formatStatsJson } from "../core/stats/json.js";
import { formatCount, statsRows } from "../core/stats/rows.js";
import { formatStatsText } from "../core/stats/text.js";
import { scanLogs } from "../node/log-file.js";
import { JOBS_OPTION, JSON_OPTION, readCommandLine, usageLine, type CommandSpec } from "./args.js";
import { EXIT, jobsOf, printingJobs, UsageError, type CliIO } from "./io.js";
import { ProblemList, problemLine } from "../node/problem-list.js";
import { againstCommand, splitCommand } from "./stats-compare.js";
import { inputsOrExit, notLogsExit, unreadableExit } from "./traces.js";

const STATS: CommandSpec = {
  usage:
    "stats LOG... [--json] [--jobs N] [--against OLD... | --split-at TIME]   (LOG: a file, a folder or -)",
  about:
    "Palette statistics across every selection trace in the logs: how often each tool was seen, final, forced and missing, and what each stage did. With --against or --split-at, what changed between two sets.",
  options: {
    json: JSON_OPTION,
    jobs: JOBS_OPTION,
    against: { help: "compare with OLD: every argument after it is an OLD log" },
    "split-at": { value: "TIME", help: "compare the traces before TIME (OLD) with the rest (NEW)" },
  },
};
const USAGE = usageLine(STATS);
/** Problems listed under the text tables; the rest are counted. */
const PROBLEMS_SHOWN = 20;

/** Reads the logs as one set, as `traces` does, folding each trace into the statistics. */
export async function statsCommand(args: readonly string[], io: CliIO): Promise<number> {
  // Every name after --against is OLD; flags and options may stand on either side of it.
  const against = args.indexOf("--against");
  const line = readCommandLine(against < 0 ? args : args.slice(0, against), STATS);
  const old = against < 0 ? null : readCommandLine(args.slice(against + 1), STATS);
  const { positional } = line;
  const values = new Map([...line.values, ...(old?.values ?? [])]);
  const flags = new Set([...line.flags, ...(old?.flags ?? [])]);
  if (positional.length === 0 || (old && old.positional.length === 0)) throw new UsageError(USAGE);
  const jobs = jobsOf(values);
  const splitAt = values.get("--split-at");
  const options = { json: flags.has("--json"), jobs };
  if (old && splitAt !== undefined)
    throw new UsageError("--against and --split-at cannot be used together");
  if (old) return againstCommand(positional, old.positional, options, io);
  if (splitAt !== undefined) return splitCommand(positional, splitAt, options, io);
  const inputs = await inputsOrExit(positional, io);
  if (!inputs) return EXIT.invalidInput;
  const problems = new ProblemList(inputs);
  const stats = new PaletteStats();
  await scanLogs(inputs, {
    jobs: printingJobs(jobs, inputs.length),
    onTrace: (found, file) => {
      for (const message of stats.add(found.trace))
        problems.add({ file, line: found.line, message });
    },
    onProblem: (problem) => problems.add(problem),
  });
  if (stats.traces === 0 && problems.count === 0) {
    const notLogs = notLogsExit(positional, inputs, io);
    if (notLogs !== null) return notLogs;
  }
  if (flags.has("--json")) {
    stats.addProblems(problems.count);
    io.stdout(formatStatsJson(stats));
  } else if (!problems.nothingRead) {
    const listed = problems.listed;
    stats.addProblems(listed.count);
    const out = [formatStatsText(statsRows(stats), { color: io.color })];
    if (listed.count > 0) {
      const shown = listed.kept.slice(0, PROBLEMS_SHOWN);
      out.push(
        `\nproblems (${formatCount(listed.count)}):\n`,
        ...shown.map((p) => `${problemLine(p)}\n`),
        listed.count > shown.length
          ? `… and ${formatCount(listed.count - shown.length)} more\n`
          : "",
      );
    }
    io.stdout(out.join(""));
  }
  return unreadableExit(problems, io);
}
