import type { Comparison, NameDiff, StageComparison } from "../src/core/compare.js";
import { html, nothing, type TemplateResult } from "lit";
import { counted } from "../src/core/words.js";
import { icon, nameText } from "./parts.js";

/**
 * One run against another (the fixture's run and a what-if, two traces, a trace and its replay),
 * stage by stage: which actions and which names changed. `names` name the two sides, as a reader
 * knows them; a set handed on unchanged from the stage above is said once, where it starts.
 */
export function renderComparison(
  comparison: Comparison,
  names: readonly [string, string],
  replay: boolean,
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
    return stageRow(stage, deciding.has(stage), inherited, names);
  });
  return section(
    html`${summary(comparison, deciding.size, names)}<table class="compare-table"><thead><tr><th scope="col">Stage</th><th scope="col">${nameText(baseName)}</th><th scope="col">${nameText(variantName)}</th><th scope="col">What changed</th></tr></thead><tbody>${rows}</tbody></table>`,
  );
}

/** The comparison in a line: how many stages differ, what the final set gains or loses, the forced choice. */
function summary(
  comparison: Comparison,
  differing: number,
  [baseName, variantName]: readonly [string, string],
): TemplateResult {
  const final = comparison.final;
  return html`<p class="compare-summary">${
    differing > 0
      ? `${counted(differing, "stage differs", "stages differ")}. `
      : "Every stage decides the same. "
  }${
    final.onlyVariant.length
      ? html`Final: only in ${nameText(variantName)}: ${list(final.onlyVariant)}. `
      : nothing
  }${
    final.onlyBase.length
      ? html`Final: only in ${nameText(baseName)}: ${list(final.onlyBase)}. `
      : nothing
  }${
    comparison.forced.changed
      ? line(
          html`Forced choice: ${show(comparison.forced.base)} → ${show(comparison.forced.variant)}.`,
        )
      : nothing
  }</p>`;
}

function stageRow(
  stage: StageComparison,
  own: boolean,
  inherited: boolean,
  names: readonly [string, string],
): TemplateResult {
  const what = own
    ? html`${diffLines("dropped", stage.dropped, names)}${diffLines("added", stage.added, names)}${diffLines("reinstated", stage.reinstated, names)}${inherited ? nothing : diffLines("handed on", stage.output, names)}${
        stage.forced.base !== stage.forced.variant
          ? line(html`forced: ${show(stage.forced.base)} → ${show(stage.forced.variant)}`)
          : nothing
      }`
    : html`<span class="muted">${stage.changed ? "decides the same; hands on the difference above" : "unchanged"}</span>`;
  return html`<tr class=${own ? "is-changed" : ""} data-stage=${stage.stage}><th scope="row">${nameText(stage.stage)}</th><td>${stage.base}</td><td class=${stage.actionChanged ? "changed" : ""}>${stage.variant}</td><td>${what}</td></tr>`;
}

/**
 * The stages that decide differently themselves: a stage that only hands on the set the stage
 * above already changed is not one of them.
 */
export function decidingDifferently(comparison: Comparison): Set<StageComparison> {
  const out = new Set<StageComparison>();
  let above = "";
  for (const stage of comparison.stages) {
    const handedOn = JSON.stringify(stage.output);
    if (
      stage.actionChanged ||
      [stage.dropped, stage.added, stage.reinstated].some(nonEmpty) ||
      stage.forced.base !== stage.forced.variant ||
      (handedOn !== above && nonEmpty(stage.output))
    )
      out.add(stage);
    above = handedOn;
  }
  return out;
}

function diffLines(
  what: string,
  diff: NameDiff,
  [baseName, variantName]: readonly [string, string],
): TemplateResult {
  return html`${
    diff.onlyVariant.length
      ? line(html`${what} only in ${nameText(variantName)}: ${list(diff.onlyVariant)}`)
      : nothing
  }${
    diff.onlyBase.length
      ? line(html`${what} only in ${nameText(baseName)}: ${list(diff.onlyBase)}`)
      : nothing
  }`;
}

function nonEmpty(diff: NameDiff): boolean {
  return diff.onlyBase.length > 0 || diff.onlyVariant.length > 0;
}

function list(tools: readonly string[]): TemplateResult {
  const shown = tools.slice(0, 20).map((tool, i) => html`${i === 0 ? "" : ", "}${nameText(tool)}`);
  return html`${shown}${tools.length > 20 ? ` … and ${tools.length - 20} more` : ""}`;
}

function show(tool: string | null): TemplateResult | string {
  return tool === null ? "none" : nameText(tool);
}

function line(children: TemplateResult): TemplateResult {
  return html`<div class="diff-line">${children}</div>`;
}
