import { html, type TemplateResult } from "lit";
import type { Comparison, StageComparison } from "../src/core/compare.js";
import {
  comparisonSummary,
  decidingDifferently,
  stageDifferences,
  type SideNames,
} from "../src/core/compare-text.js";
import type { SentencePart } from "../src/core/lineage.js";
import { icon, nameText } from "./parts.js";

/** How the table's rows name the sides: the key above it says which is which. */
const SIDES: SideNames = ["A", "B"];

/**
 * One run against another (the fixture's run and a what-if, two traces, a trace and its replay),
 * stage by stage: which actions and which names changed. `names` name the two sides, as a reader
 * knows them; the table calls them A and B under a key, so it fits a narrow panel; `finals` are
 * the two runs' final palettes. A set handed on unchanged from the stage above is said once, where
 * it starts.
 */
export function renderComparison(
  comparison: Comparison,
  names: SideNames,
  replay: boolean,
  finals: readonly [readonly string[], readonly string[]],
): TemplateResult {
  const [baseName, variantName] = names;
  // Focusable, so the what-if summary's link can take the reader here.
  const section = (body: TemplateResult) =>
    html`<section class="comparison" aria-label="${baseName} ↔ ${variantName}" tabindex="-1"><h2>Compared: ${nameText(baseName)} ↔ ${nameText(variantName)}</h2>${body}</section>`;
  // Nothing differs: one line that says what that proves, not a table of "unchanged".
  if (!comparison.changed)
    return section(
      html`<p class="compare-summary compare-same">${icon("pass")}${
        replay
          ? html` The replay reproduces ${nameText(baseName)}: every stage decides the same.`
          : html` No difference: ${nameText(baseName)} and ${nameText(variantName)} decide the same at every stage.`
      }</p>`,
    );
  const deciding = decidingDifferently(comparison);
  let above = "";
  const rows = comparison.stages.map((stage) => {
    const handedOn = JSON.stringify(stage.output);
    const inherited = handedOn === above;
    above = handedOn;
    return stageRow(stage, deciding.has(stage), inherited, finals);
  });
  return section(
    html`<p class="compare-summary">${sentence(comparisonSummary(comparison, names))}</p><dl class="compare-key"><div><dt>A</dt><dd>${nameText(baseName)}</dd></div><div><dt>B</dt><dd>${nameText(variantName)}</dd></div></dl><table class="compare-table"><thead><tr><th scope="col">Stage</th><th scope="col">What differs</th><th scope="col"><abbr title=${baseName}>A</abbr></th><th scope="col"><abbr title=${variantName}>B</abbr></th></tr></thead><tbody>${rows}</tbody></table>`,
  );
}

function stageRow(
  stage: StageComparison,
  own: boolean,
  inherited: boolean,
  finals: readonly [readonly string[], readonly string[]],
): TemplateResult {
  const what = own
    ? stageDifferences(stage, SIDES, !inherited, finals).map(
        (parts) => html`<div class="diff-line">${sentence(parts)}</div>`,
      )
    : html`<span class="muted">${stage.changed ? "decides the same; hands on the difference above" : "unchanged"}</span>`;
  return html`<tr class=${own ? "is-changed" : ""} data-stage=${stage.stage}><th scope="row">${nameText(stage.stage)}</th><td class="compare-what">${what}</td><td>${stage.base}</td><td class=${stage.actionChanged ? "changed" : ""}>${stage.variant}</td></tr>`;
}

/** A sentence of prose and names, each name isolated. */
function sentence(parts: readonly SentencePart[]): (string | TemplateResult)[] {
  return parts.map((part) => (typeof part === "string" ? part : nameText(part.name)));
}
