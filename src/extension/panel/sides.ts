import type { RunReport } from "../../core/report.js";
import { baseName } from "../../core/words.js";

/** The two sides of a comparison as the panel names them, and whether the second replays the first. */
export interface ComparedSides {
  readonly names: readonly [string, string];
  readonly replay: boolean;
}

/** What a run is: a fixture by its file, a logged trace by its file and number, a received turn by its number, a debug value by its expression. */
export function runName(report: RunReport): string {
  const file = baseName(report.file);
  switch (report.origin.kind) {
    case "log":
      return `${file} #${report.origin.index + 1}`;
    case "received":
      return `live turn #${report.origin.index + 1}`;
    case "debug":
      return `${report.origin.expression} (debug value)`;
    case "fixture":
      return file;
  }
}

/**
 * Names for `base` and `variant`, never the same for both: a replay is named after what it
 * replays; two runs that would share a name add the frame, the line or the folder.
 */
export function comparedSides(base: RunReport, variant: RunReport, replay: boolean): ComparedSides {
  const first = runName(base);
  if (replay) return { names: [first, `replay of ${first}`], replay };
  const second = runName(variant);
  if (second !== first) return { names: [first, second], replay };
  return { names: [`${first} ${where(base)}`, `${second} ${where(variant)}`], replay };
}

/** A panel tab's title for a comparison: short, so a replay is just "replay". */
export function comparisonTitle(sides: ComparedSides): string {
  return `${sides.names[0]} ↔ ${sides.replay ? "replay" : sides.names[1]}`;
}

function where(report: RunReport): string {
  const origin = report.origin;
  if (origin.kind === "debug") return `at ${origin.frame}`;
  if (origin.kind === "log") return `(line ${origin.line})`;
  const folder = report.file.split(/[\\/]/).slice(-2, -1)[0];
  return folder ? `in ${folder}` : "";
}
