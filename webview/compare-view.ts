import type { Comparison, NameDiff } from "../src/core/compare.js";
import { el, nameText, type Child } from "./dom.js";

/** The what-if against the unmodified run, stage by stage: which actions and which names changed. */
export function renderComparison(comparison: Comparison): HTMLElement {
  const rows = comparison.stages.map((stage) =>
    el("tr", { class: stage.changed ? "is-changed" : "", attrs: { "data-stage": stage.stage } }, [
      el("th", { attrs: { scope: "row" } }, [nameText(stage.stage)]),
      el("td", { text: stage.base }),
      el("td", { class: stage.actionChanged ? "changed" : "", text: stage.variant }),
      el("td", {}, stage.changed ? [
        ...names("dropped", stage.dropped),
        ...names("added", stage.added),
        ...names("reinstated", stage.reinstated),
        ...names("handed on", stage.output),
        stage.forced.base !== stage.forced.variant ? line(["forced: ", show(stage.forced.base), " → ", show(stage.forced.variant)]) : null,
      ] : ["unchanged"]),
    ]),
  );
  const final = comparison.final;
  return el("section", { class: "comparison", label: "Compared with the unmodified run" }, [
    el("h2", { text: "Compared with the unmodified run" }),
    el("p", { class: "compare-summary" }, [
      comparison.changed ? `${comparison.stages.filter((stage) => stage.changed).length} stage(s) differ. ` : "No difference: the what-if decides exactly what the fixture decides. ",
      ...(final.onlyVariant.length ? ["Final gains ", ...list(final.onlyVariant), ". "] : []),
      ...(final.onlyBase.length ? ["Final loses ", ...list(final.onlyBase), ". "] : []),
      comparison.forced.changed ? line(["Forced choice: ", show(comparison.forced.base), " → ", show(comparison.forced.variant), "."]) : null,
    ]),
    el("table", { class: "compare-table" }, [
      el("thead", {}, [el("tr", {}, ["Stage", "Unmodified", "What-if", "What changed"].map((text) => el("th", { text, attrs: { scope: "col" } })))]),
      el("tbody", {}, rows),
    ]),
  ]);
}

function names(what: string, diff: NameDiff): Child[] {
  const out: Child[] = [];
  if (diff.onlyVariant.length) out.push(line([`${what} only in the what-if: `, ...list(diff.onlyVariant)]));
  if (diff.onlyBase.length) out.push(line([`${what} only in the unmodified run: `, ...list(diff.onlyBase)]));
  return out;
}

function list(tools: readonly string[]): Child[] {
  const shown = tools.slice(0, 20).flatMap((tool, i) => (i === 0 ? [nameText(tool)] : [", ", nameText(tool)]));
  return tools.length > 20 ? [...shown, ` … and ${tools.length - 20} more`] : shown;
}

function show(tool: string | null): Child {
  return tool === null ? "none" : nameText(tool);
}

function line(children: readonly Child[]): HTMLElement {
  return el("div", { class: "diff-line" }, children);
}
