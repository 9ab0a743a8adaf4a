import type { Comparison, NameDiff } from "../src/core/compare.js";
import { el, nameText, type Child } from "./dom.js";
import { counted } from "../src/core/words.js";

/** One run against another (a what-if and the fixture, or two traces), stage by stage: which actions and which names changed. */
export function renderComparison(
  comparison: Comparison,
  title: string,
  sides: readonly [string, string],
): HTMLElement {
  const [baseName, variantName] = [sides[0].toLowerCase(), sides[1].toLowerCase()];
  const rows = comparison.stages.map((stage) =>
    el("tr", { class: stage.changed ? "is-changed" : "", attrs: { "data-stage": stage.stage } }, [
      el("th", { attrs: { scope: "row" } }, [nameText(stage.stage)]),
      el("td", { text: stage.base }),
      el("td", { class: stage.actionChanged ? "changed" : "", text: stage.variant }),
      el(
        "td",
        {},
        stage.changed
          ? [
              ...names("dropped", stage.dropped, baseName, variantName),
              ...names("added", stage.added, baseName, variantName),
              ...names("reinstated", stage.reinstated, baseName, variantName),
              ...names("handed on", stage.output, baseName, variantName),
              stage.forced.base !== stage.forced.variant
                ? line(["forced: ", show(stage.forced.base), " → ", show(stage.forced.variant)])
                : null,
            ]
          : ["unchanged"],
      ),
    ]),
  );
  const final = comparison.final;
  // Focusable, so the what-if summary's link can take the reader here.
  return el("section", { class: "comparison", label: title, attrs: { tabindex: "-1" } }, [
    el("h2", { text: title }),
    el("p", { class: "compare-summary" }, [
      comparison.changed
        ? `${counted(comparison.stages.filter((stage) => stage.changed).length, "stage differs", "stages differ")}. `
        : "No difference: both runs decide the same at every stage. ",
      ...(final.onlyVariant.length ? ["Final gains ", ...list(final.onlyVariant), ". "] : []),
      ...(final.onlyBase.length ? ["Final loses ", ...list(final.onlyBase), ". "] : []),
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
        el(
          "tr",
          {},
          ["Stage", sides[0], sides[1], "What changed"].map((text) =>
            el("th", { text, attrs: { scope: "col" } }),
          ),
        ),
      ]),
      el("tbody", {}, rows),
    ]),
  ]);
}

function names(what: string, diff: NameDiff, baseName: string, variantName: string): Child[] {
  const out: Child[] = [];
  if (diff.onlyVariant.length)
    out.push(line([`${what} only in the ${variantName}: `, ...list(diff.onlyVariant)]));
  if (diff.onlyBase.length)
    out.push(line([`${what} only in the ${baseName}: `, ...list(diff.onlyBase)]));
  return out;
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
