/**
 * `palette-inspector traces --follow LOG [--json] [--from-start]` (docs/formats.md,
 * "traces --follow"): each trace appended to LOG, as it is written, until SIGINT or SIGTERM.
 */
import { isAbsolute, resolve } from "node:path";
import { safe, safeJson } from "../core/words.js";
import { summarizeTrace, traceEntryJson } from "../core/traces/summary.js";
import { LogFollower } from "../node/log-follow.js";
import { readReason } from "../node/log-source.js";
import { EXIT, type CliIO } from "./io.js";
import { signalled, type Until } from "./signals.js";
import { rowHeader, traceCells } from "./trace-row.js";

export async function followCommand(
  name: string,
  options: { readonly json: boolean; readonly fromStart: boolean },
  io: CliIO,
  until: Until = { stopped: signalled() },
): Promise<number> {
  const path = isAbsolute(name) ? name : resolve(io.cwd, name);
  // The text's header comes once the log is open, or before the first row if that comes sooner.
  let headed = options.json;
  const head = () => {
    if (!headed) io.stdout(rowHeader(true));
    headed = true;
  };
  const follower = new LogFollower(path, {
    fromStart: options.fromStart,
    onTrace: (found) => {
      const summary = summarizeTrace(found);
      head();
      io.stdout(
        options.json
          ? safeJson(traceEntryJson(summary, name)) + "\n"
          : traceCells(summary, null).join("  ").trimEnd() + "\n",
      );
    },
    onProblem: (problem) => io.stderr(`${safe(name)}:${problem.line}: ${safe(problem.message)}\n`),
  });
  try {
    await follower.start();
  } catch (error) {
    io.stderr(`palette-inspector: cannot read ${safe(name)}: ${safe(readReason(error))}\n`);
    return EXIT.invalidInput;
  }
  head();
  await until.stopped;
  await follower.stop();
  return EXIT.ok;
}
