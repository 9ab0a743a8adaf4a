import type { Comparison } from "../compare.js";
import {
  comparisonSummary,
  decidingDifferently,
  stageDifferences,
  type SideNames,
} from "../compare-text.js";
import { sentenceText } from "../lineage.js";
import type { RunReport } from "../report.js";
import { inline, reportMarkdown, type MarkdownOptions } from "./markdown.js";

/**
 * What a comparison shows, as Markdown: the second run's waterfall (the run on screen), then the
 * two runs stage by stage, each side named.
 */
export function comparisonMarkdown(
  variant: RunReport,
  base: RunReport,
  comparison: Comparison,
  names: SideNames,
  options: MarkdownOptions = {},
): string {
  const lines = [
    reportMarkdown(variant, options).trimEnd(),
    "",
    `#### Compared: ${inline(names[0])} ↔ ${inline(names[1])}`,
    "",
  ];
  if (!comparison.changed) {
    lines.push(`No difference: both decide the same at every stage.`);
    return lines.join("\n") + "\n";
  }
  lines.push(
    sentenceText(comparisonSummary(comparison, names), inline),
    "",
    `A: ${inline(names[0])}  `,
    `B: ${inline(names[1])}`,
    "",
    "| Stage | What differs | A | B |",
    "|---|---|---|---|",
  );
  const deciding = decidingDifferently(comparison);
  const finals = [base.names, variant.names] as const;
  let above = "";
  for (const stage of comparison.stages) {
    const handedOn = JSON.stringify(stage.output);
    const what = deciding.has(stage)
      ? stageDifferences(stage, ["A", "B"], handedOn !== above, finals)
          .map((parts) => sentenceText(parts, inline))
          .join("; ")
      : stage.changed
        ? "decides the same; hands on the difference above"
        : "unchanged";
    above = handedOn;
    lines.push(`| ${inline(stage.stage)} | ${what} | ${stage.base} | ${stage.variant} |`);
  }
  return lines.join("\n") + "\n";
}
