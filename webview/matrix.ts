import type { CellState, LineageMatrix } from "../src/core/lineage.js";
import { count, el, icon, nameText } from "./dom.js";

const CELL_ICON: Record<CellState, string> = {
  kept: "check",
  dropped: "close",
  added: "add",
  reinstated: "shield",
  absent: "blank",
  disabled: "circle-slash",
};
/** Tool rows rendered at first; the rest come in steps, as with chips. */
const MATRIX_STEP = 100;

/** What each mark in a cell means. */
function legend(): HTMLElement {
  const entries: [string, string][] = [
    ["check", "kept"],
    ["close", "dropped here"],
    ["add", "added here"],
    ["shield", "reinstated (protected forced choice)"],
    ["pinned", "the forced choice"],
    ["circle-slash", "stage disabled"],
  ];
  return el("ul", { class: "matrix-legend", label: "Legend" }, [
    ...entries.map(([name, text]) => el("li", {}, [icon(name), ` ${text}`])),
    el("li", { text: "empty: not in the set" }),
  ]);
}

/** Tools × stages, each cell the tool's state after the stage. */
export function renderMatrix(
  matrix: LineageMatrix,
  selected: string | null,
  select: (tool: string) => void,
  shown: { rows: number },
): HTMLElement {
  const head = el("tr", {}, [
    el("th", { text: "Tool", attrs: { scope: "col" } }),
    ...matrix.rows.map((row) =>
      el("th", { attrs: { scope: "col" }, class: row.record ? "" : "is-disabled" }, [
        nameText(row.info.name),
      ]),
    ),
  ]);
  const body = el("tbody");
  const addRows = (from: number, to: number) => {
    for (let t = from; t < to; t++) {
      const tool = matrix.tools[t]!;
      body.append(
        el("tr", { class: tool === selected ? "is-selected" : "" }, [
          el("th", { attrs: { scope: "row" } }, [
            el(
              "button",
              {
                class: "link",
                attrs: { type: "button", "data-tool": tool },
                label: `Where did ${tool} go?`,
                on: { click: () => select(tool) },
              },
              [nameText(tool)],
            ),
          ]),
          ...matrix.cells[t]!.map((cell) =>
            el(
              "td",
              {
                class: `cell-${cell.state}${cell.forced ? " is-forced" : ""}`,
                title: `${cell.state}${cell.forced ? ", forced" : ""}`,
              },
              [
                icon(CELL_ICON[cell.state]),
                el("span", {
                  class: "sr-only",
                  text: `${cell.state}${cell.forced ? ", forced" : ""}`,
                }),
                cell.forced ? icon("pinned") : null,
              ],
            ),
          ),
        ]),
      );
    }
  };
  let rendered = Math.min(matrix.tools.length, Math.max(MATRIX_STEP, shown.rows));
  addRows(0, rendered);
  const more = el("button", { class: "expander", attrs: { type: "button" } });
  const label = () =>
    (more.textContent = `Show ${count(Math.min(MATRIX_STEP, matrix.tools.length - rendered))} more of ${count(matrix.tools.length - rendered)} tools`);
  more.addEventListener("click", () => {
    const next = Math.min(matrix.tools.length, rendered + MATRIX_STEP);
    addRows(rendered, next);
    rendered = shown.rows = next;
    if (rendered >= matrix.tools.length) more.remove();
    else label();
  });
  label();
  return el("section", { class: "matrix", label: "Tools by stages" }, [
    legend(),
    el("table", { class: "matrix-table" }, [el("thead", {}, [head]), body]),
    rendered < matrix.tools.length ? more : null,
  ]);
}
