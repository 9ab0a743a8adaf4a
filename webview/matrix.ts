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
  const table = el("table", { class: "matrix-table" }, [el("thead", {}, [head]), body]);
  const cue = scrollCue(table);
  return el("section", { class: "matrix", label: "Tools by stages" }, [
    legend(),
    cue,
    table,
    rendered < matrix.tools.length ? more : null,
  ]);
}

/**
 * The page is the matrix's scroll box (so its header row and tool column can stick), and a
 * webview hides scrollbars until hovered: when the table is wider than the panel, say so, with
 * buttons that scroll it (by keyboard too), and fade the edge that hides columns.
 */
function scrollCue(table: HTMLElement): HTMLElement {
  const step = (direction: number) =>
    window.scrollBy({ left: direction * Math.max(100, window.innerWidth * 0.7) });
  const back = el(
    "button",
    {
      class: "link",
      attrs: { type: "button", "data-action": "scroll-left" },
      on: { click: () => step(-1) },
    },
    [icon("arrow-left"), " Scroll left"],
  );
  const forth = el(
    "button",
    {
      class: "link",
      attrs: { type: "button", "data-action": "scroll-right" },
      on: { click: () => step(1) },
    },
    ["Scroll right ", icon("arrow-right")],
  );
  const cue = el("p", { class: "scroll-cue", attrs: { hidden: "" } }, [
    "Wider than the panel: more stages to the side. ",
    back,
    forth,
  ]);
  const fade = el("div", { class: "scroll-fade", attrs: { "aria-hidden": "true", hidden: "" } });
  cue.append(fade);
  let frame = 0;
  const update = () => {
    cancelAnimationFrame(frame);
    frame = requestAnimationFrame(() => {
      if (!table.isConnected) return stop();
      const box = table.getBoundingClientRect();
      const hiddenRight = box.right - document.documentElement.clientWidth > 1;
      const hiddenLeft = window.scrollX > 0;
      cue.hidden = !hiddenRight && !hiddenLeft;
      back.hidden = !hiddenLeft;
      forth.hidden = !hiddenRight;
      fade.hidden = !hiddenRight;
      fade.style.top = `${Math.max(0, box.top)}px`;
      fade.style.height = `${Math.max(0, Math.min(window.innerHeight, box.bottom) - Math.max(0, box.top))}px`;
    });
  };
  const resized = new ResizeObserver(update);
  const stop = () => {
    resized.disconnect();
    window.removeEventListener("scroll", update);
  };
  resized.observe(table);
  resized.observe(document.documentElement);
  window.addEventListener("scroll", update, { passive: true });
  return cue;
}
