import { html, nothing, type TemplateResult } from "lit";
import { ref } from "lit/directives/ref.js";
import { repeat } from "lit/directives/repeat.js";
import type { CellState, LineageMatrix } from "../src/core/lineage.js";
import { count, el } from "./dom.js";
import { icon, iconNode, nameText, toolLink } from "./parts.js";

const CELL_ICON: Record<CellState, string> = {
  kept: "check",
  dropped: "close",
  added: "add",
  reinstated: "shield",
  absent: "blank",
  disabled: "circle-slash",
};
/** Tool rows rendered at first; the rest come in steps, as with chips. */
export const MATRIX_STEP = 100;

const LEGEND: readonly [string, string][] = [
  ["check", "kept"],
  ["close", "dropped here"],
  ["add", "added here"],
  ["shield", "reinstated (protected forced choice)"],
  ["pinned", "the forced choice"],
  ["circle-slash", "stage disabled"],
];

/** What each mark in a cell means. */
function legend(): TemplateResult {
  return html`<ul class="matrix-legend" aria-label="Legend">${LEGEND.map(([name, text]) => html`<li>${icon(name)} ${text}</li>`)}<li>empty: not in the set</li></ul>`;
}

export interface MatrixContext {
  readonly selected: string | null;
  readonly select: (tool: string) => void;
  /** Tool rows shown (at least `MATRIX_STEP`), and the way to show more. */
  readonly rows: number;
  readonly showRows: (rows: number) => void;
  readonly cue: ScrollCue;
}

/** Tools × stages, each cell the tool's state after the stage. */
export function renderMatrix(matrix: LineageMatrix, context: MatrixContext): TemplateResult {
  const total = matrix.tools.length;
  const rendered = Math.min(total, Math.max(MATRIX_STEP, context.rows));
  const indices = Array.from({ length: rendered }, (_, t) => t);
  const more =
    rendered < total
      ? html`<button type="button" class="expander" @click=${() => context.showRows(Math.min(total, rendered + MATRIX_STEP))}>Show ${count(Math.min(MATRIX_STEP, total - rendered))} more of ${count(total - rendered)} tools</button>`
      : nothing;
  return html`<section class="matrix" aria-label="Tools by stages">${legend()}${context.cue.element}<table class="matrix-table" ${ref(context.cue.watch)}><thead><tr><th scope="col">Tool</th>${matrix.rows.map(
    (row) =>
      html`<th scope="col" class=${row.record ? "" : "is-disabled"}>${nameText(row.info.name)}</th>`,
  )}</tr></thead><tbody>${repeat(
    indices,
    (t) => matrix.tools[t]!,
    (t) => toolRow(matrix, t, context),
  )}</tbody></table>${more}</section>`;
}

function toolRow(matrix: LineageMatrix, t: number, context: MatrixContext): TemplateResult {
  const tool = matrix.tools[t]!;
  return html`<tr class=${tool === context.selected ? "is-selected" : ""}><th scope="row">${toolLink(tool, context.select)}</th>${matrix.cells[
    t
  ]!.map((cell) => {
    const text = `${cell.state}${cell.forced ? ", forced" : ""}`;
    return html`<td class="cell-${cell.state}${cell.forced ? " is-forced" : ""}" title=${text}>${icon(CELL_ICON[cell.state])}<span class="sr-only">${text}</span>${cell.forced ? icon("pinned") : nothing}</td>`;
  })}</tr>`;
}

/**
 * The page is the matrix's scroll box (so its header row and tool column can stick), and a
 * webview hides scrollbars until hovered: when the table is wider than the panel, say so, with
 * buttons that scroll it (by keyboard too), and fade the edge that hides columns. It follows the
 * table's size and the page's scroll, so it draws itself instead of waiting for a re-render.
 */
export class ScrollCue {
  private readonly back = this.link("scroll-left", -1, [iconNode("arrow-left"), " Scroll left"]);
  private readonly forth = this.link("scroll-right", 1, ["Scroll right ", iconNode("arrow-right")]);
  private readonly fade = el("div", {
    class: "scroll-fade",
    attrs: { "aria-hidden": "true", hidden: "" },
  });
  readonly element = el("p", { class: "scroll-cue", attrs: { hidden: "" } }, [
    "Wider than the panel: more stages to the side. ",
    this.back,
    this.forth,
    this.fade,
  ]);
  private table: Element | null = null;
  private frame = 0;
  private readonly resized = new ResizeObserver(() => this.update());
  private readonly scrolled = () => this.update();

  /** The matrix's table as it mounts (an element) and unmounts (undefined). */
  readonly watch = (table: Element | undefined): void => {
    if (table === this.table) return;
    this.resized.disconnect();
    window.removeEventListener("scroll", this.scrolled);
    this.table = table ?? null;
    if (!table) return;
    this.resized.observe(table);
    this.resized.observe(document.documentElement);
    window.addEventListener("scroll", this.scrolled, { passive: true });
  };

  private link(action: string, direction: number, children: (Node | string)[]): HTMLElement {
    const step = () =>
      window.scrollBy({ left: direction * Math.max(100, window.innerWidth * 0.7) });
    return el(
      "button",
      { class: "link", attrs: { type: "button", "data-action": action }, on: { click: step } },
      children,
    );
  }

  private update(): void {
    cancelAnimationFrame(this.frame);
    this.frame = requestAnimationFrame(() => {
      if (!this.table?.isConnected) return;
      const box = this.table.getBoundingClientRect();
      const hiddenRight = box.right - document.documentElement.clientWidth > 1;
      const hiddenLeft = window.scrollX > 0;
      this.element.hidden = !hiddenRight && !hiddenLeft;
      this.back.hidden = !hiddenLeft;
      this.forth.hidden = !hiddenRight;
      this.fade.hidden = !hiddenRight;
      this.fade.style.top = `${Math.max(0, box.top)}px`;
      this.fade.style.height = `${Math.max(0, Math.min(window.innerHeight, box.bottom) - Math.max(0, box.top))}px`;
    });
  }
}
