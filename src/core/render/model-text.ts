import {
  choiceWarning,
  MODEL_HEADING,
  MODEL_MARK_TEXT,
  modelCallLabel,
  modelGot,
  NO_MODEL_CALL,
  noToolDefinitions,
  notRecorded,
  toolChoiceText,
  unofferedWarning,
} from "../model-got.js";
import type { RunReport } from "../report.js";
import { safe } from "../words.js";

/**
 * What the model got, as lines for a terminal under the waterfall (`show`): "" for a run not
 * read from OpenTelemetry. Names from the spans are made safe for a terminal.
 */
export function formatModelGot(
  report: Pick<RunReport, "model" | "forcedChoice">,
  color: boolean,
): string {
  const got = modelGot(report);
  if (got === undefined) return "";
  const warn = (text: string) => (color ? `\x1b[33m${text}\x1b[0m` : text);
  const heading = MODEL_HEADING.toLowerCase();
  if (got === null) return `\n${heading}: ${NO_MODEL_CALL}\n`;
  const out = ["", `${heading}: ${modelCallLabel(got, safe)}`];
  if (got.tools === null) out.push(`  ${noToolDefinitions(got)}`);
  else {
    out.push("  offered to the model, against the final palette:");
    for (const tool of got.tools)
      out.push(
        `    ${safe(tool.name)}${tool.mark === "both" ? "" : `  (${MODEL_MARK_TEXT[tool.mark]})`}`,
      );
  }
  out.push(`  tool choice: ${toolChoiceText(got, safe)}`);
  const called = got.called;
  out.push(
    `  called: ${called === null ? notRecorded(got) : called.length === 0 ? "none" : called.map((call) => safe(call.name)).join(", ")}`,
  );
  if (got.choiceMismatch) out.push(warn(`  warning: ${choiceWarning(got.choiceMismatch, safe)}`));
  const warning = unofferedWarning(got);
  for (const name of got.unoffered) out.push(warn(`  warning: ${safe(name)} ${warning}`));
  return out.join("\n") + "\n";
}
