/** `palette-inspector stats LOG... [--json]`: palette statistics across every trace `traces` finds (docs/formats.md). */
import { PaletteStats } from "../core/stats/fold.js";
import { formatStatsJson } from "../core/stats/json.js";
import { statsRows } from "../core/stats/rows.js";
import { formatStatsText } from "../core/stats/text.js";
import { safe } from "../core/render/table.js";
import { scanLogSet } from "../node/log-set.js";
import { EXIT, parseArgs, UsageError, type CliIO } from "./io.js";

const USAGE = "usage: palette-inspector stats LOG... [--json]   (files, folders, or - for stdin)";
/** Problems listed under the text tables; the rest are counted. */
const PROBLEMS_SHOWN = 20;

export async function statsCommand(args: readonly string[], io: CliIO): Promise<number> {
  const { positional, flags } = parseArgs(args, ["--json"]);
  if (positional.length === 0) throw new UsageError(USAGE);
  const stats = new PaletteStats();
  let scan;
  try {
    scan = await scanLogSet(positional, {
      cwd: io.cwd,
      onFound: (_file, found) => stats.add(found.trace),
    });
  } catch (error) {
    io.stderr(
      `palette-inspector: ${safe(error instanceof Error ? error.message : String(error))}\n`,
    );
    return EXIT.invalidInput;
  }
  stats.addProblems(scan.problemCount);
  if (flags.has("--json")) {
    io.stdout(formatStatsJson(stats));
    return EXIT.ok;
  }
  const out = [formatStatsText(statsRows(stats), { color: io.color })];
  if (scan.files.length === 0)
    out.push(`no log files found in ${positional.map(safe).join(", ")}\n`);
  if (scan.problemCount > 0) {
    const shown = scan.problems.slice(0, PROBLEMS_SHOWN);
    out.push(
      `\nproblems (${scan.problemCount}):\n`,
      ...shown.map((p) => `${safe(p.file)}:${p.line}: ${safe(p.message)}\n`),
      scan.problemCount > shown.length ? `… and ${scan.problemCount - shown.length} more\n` : "",
    );
  }
  io.stdout(out.join(""));
  return EXIT.ok;
}
