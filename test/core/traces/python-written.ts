/** What the scan reads from a log Python wrote, in the shape Python wrote down (test/python/written.py). */
import { scanText } from "../../../src/core/traces/scan.js";
import { summarizeTrace } from "../../../src/core/traces/summary.js";

export interface Logged {
  readonly log: string;
  readonly traces: { line: number; names: string[]; forced: string | null; id: string | null }[];
  /** The lines that must carry a problem. */
  readonly problems: number[];
}

/** What the scan read from a log, in the shape Python wrote down. */
export function readBack(log: string | Uint8Array): Omit<Logged, "log"> & { messages: string[] } {
  const { traces, problems } = scanText(log);
  return {
    traces: traces.map((found) => {
      const summary = summarizeTrace(found);
      return {
        line: found.line,
        names: [...summary.names],
        forced: summary.forcedChoice,
        id: summary.id === null ? null : String(summary.id),
      };
    }),
    problems: [...new Set(problems.map((p) => p.line))].sort((a, b) => a - b),
    messages: problems.map((p) => `${p.line}: ${p.message}`),
  };
}
