import type { Comparison, NameDiff, StageComparison } from "../src/core/compare.js";
import { el, icon, nameText, type Child } from "./dom.js";
import { counted } from "../src/core/words.js";

/**
 * One run against another (the fixture's run and a what-if, two traces, a trace and its replay),
 * stage by stage: which actions and which names changed. `names` name the two sides, as a reader
 * knows them; a set handed on unchanged from the stage above is said once, where it starts.
 */
export function renderComparison(
  comparison: Comparison,
  names: readonly [string, string],
  replay: boolean,
): HTMLElement {
  const [baseName, variantName] = names;
  const title = `${baseName} ↔ ${variantName}`;
  // Focusable, so the what-if summary's link can take the reader here.
  const section = (children: readonly HTMLElement[]) =>
    el("section", { class: "comparison", label: title, attrs: { tabindex: "-1" } }, [
      el("h2", {}, ["Compared: ", nameText(baseName), " ↔ ", nameText(variantName)]),
      ...children,
    ]);
  // Nothing differs: one line that says what that proves, not a table of "unchanged".
  if (!comparison.changed)
    return section([
      el("p", { class: "compare-summary compare-same" }, [
        icon("pass"),
        ...(replay
          ? [" The replay reproduces ", nameText(baseName), ": every stage decides the same."]
          : [
              " No difference: ",
              nameText(baseName),
              " and ",
              nameText(variantName),
              " decide the same at every stage.",
            ]),
      ]),
    ]);
  const deciding = decidingDifferently(comparison);
  const differing = deciding.size;
  let above = "";
  const rows = comparison.stages.map((stage) => {
    const handedOn = JSON.stringify(stage.output);
    const inherited = handedOn === above;
    above = handedOn;
    const own = deciding.has(stage);
    return el("tr", { class: own ? "is-changed" : "", attrs: { "data-stage": stage.stage } }, [
      el("th", { attrs: { scope: "row" } }, [nameText(stage.stage)]),
      el("td", { text: stage.base }),
      el("td", { class: stage.actionChanged ? "changed" : "", text: stage.variant }),
      el(
        "td",
        {},
        own
          ? [
              ...diffLines("dropped", stage.dropped, baseName, variantName),
              ...diffLines("added", stage.added, baseName, variantName),
              ...diffLines("reinstated", stage.reinstated, baseName, variantName),
              ...(inherited ? [] : diffLines("handed on", stage.output, baseName, variantName)),
              stage.forced.base !== stage.forced.variant
                ? line(["forced: ", show(stage.forced.base), " → ", show(stage.forced.variant)])
                : null,
            ]
          : [
              el("span", {
                class: "muted",
                text: stage.changed
                  ? "decides the same; hands on the difference above"
                  : "unchanged",
              }),
            ],
      ),
    ]);
  });
  const final = comparison.final;
  return section([
    el("p", { class: "compare-summary" }, [
      differing > 0
        ? `${counted(differing, "stage differs", "stages differ")}. `
        : "Every stage decides the same. ",
      ...(final.onlyVariant.length
        ? ["Final: only in ", nameText(variantName), ": ", ...list(final.onlyVariant), ". "]
        : []),
      ...(final.onlyBase.length
        ? ["Final: only in ", nameText(baseName), ": ", ...list(final.onlyBase), ". "]
        : []),
      comparison.forced.changed
        ? line([
            "Forced choice: ",
            show(comparison.forced.base),
            " → ",
            show(comparison.forced.variant),
            ".",
          ])
        : null,
    ]),
    el("table", { class: "compare-table" }, [
      el("thead", {}, [
        el("tr", {}, [
          el("th", { text: "Stage", attrs: { scope: "col" } }),
          el("th", { attrs: { scope: "col" } }, [nameText(baseName)]),
          el("th", { attrs: { scope: "col" } }, [nameText(variantName)]),
          el("th", { text: "What changed", attrs: { scope: "col" } }),
        ]),
      ]),
      el("tbody", {}, rows),
    ]),
  ]);
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

function diffLines(what: string, diff: NameDiff, baseName: string, variantName: string): Child[] {
  const out: Child[] = [];
  if (diff.onlyVariant.length)
    out.push(line([`${what} only in `, nameText(variantName), ": ", ...list(diff.onlyVariant)]));
  if (diff.onlyBase.length)
    out.push(line([`${what} only in `, nameText(baseName), ": ", ...list(diff.onlyBase)]));
  return out;
}

function nonEmpty(diff: NameDiff): boolean {
  return diff.onlyBase.length > 0 || diff.onlyVariant.length > 0;
}

function list(tools: readonly string[]): Child[] {
  const shown = tools
    .slice(0, 20)
    .flatMap((tool, i) => (i === 0 ? [nameText(tool)] : [", ", nameText(tool)]));
  return tools.length > 20 ? [...shown, ` … and ${tools.length - 20} more`] : shown;
}

function show(tool: string | null): Child {
  return tool === null ? "none" : nameText(tool);
}

function line(children: readonly Child[]): HTMLElement {
  return el("div", { class: "diff-line" }, children);
}
