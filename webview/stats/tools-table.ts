/**
 * The tools table: sortable by every column, filterable by name, and virtualised (only the rows in
 * view are in the DOM), so 10,000 tools paint as fast as 10. One tab stop: arrow keys, Page
 * Up/Down, Home and End move the active row; Enter or Space opens where the tool went.
 */
import { percent } from "../../src/core/stats/rows.js";
import { compareCodePoints } from "../../src/core/tools.js";
import type { StatsSortColumn, ToolColumns } from "../../src/stats-protocol.js";
import { html, render, type TemplateResult } from "lit";
import { repeat } from "lit/directives/repeat.js";
import { count, el } from "../dom.js";
import { cssomStyle, nameText } from "../parts.js";

/** Pixel height of one row: the CSS gives `.tools-row` exactly this. */
export const ROW_HEIGHT = 26;
/** Rows rendered beyond each edge of the viewport, so a fast scroll shows no gap. */
const OVERSCAN = 8;

export interface Sort {
  readonly column: StatsSortColumn;
  readonly descending: boolean;
}

interface Column {
  readonly key: StatsSortColumn;
  readonly title: string;
  readonly numeric: boolean;
  /** Ascending order of tools i and j. */
  readonly compare: (t: ToolColumns, i: number, j: number) => number;
}

const topShare = (t: ToolColumns, i: number) => (t.missing[i] ? t.topCount[i]! / t.missing[i]! : 0);
// Columns arrive in code-point order of name, so comparing indexes compares names.
const byName = (_t: ToolColumns, i: number, j: number) => i - j;
const byStage = (t: ToolColumns, i: number, j: number) =>
  compareCodePoints(t.topStage[i] ?? "", t.topStage[j] ?? "") || topShare(t, i) - topShare(t, j);
const byCount =
  (key: "seen" | "final" | "forced" | "missing") => (t: ToolColumns, i: number, j: number) =>
    t[key][i]! - t[key][j]!;

const COLUMNS: readonly Column[] = [
  { key: "name", title: "Tool", numeric: false, compare: byName },
  { key: "seen", title: "Seen", numeric: true, compare: byCount("seen") },
  { key: "final", title: "Final %", numeric: true, compare: byCount("final") },
  { key: "forced", title: "Forced", numeric: true, compare: byCount("forced") },
  { key: "missing", title: "Missing", numeric: true, compare: byCount("missing") },
  { key: "removedBy", title: "Most often removed by", numeric: false, compare: byStage },
];

/** The tools on screen, as indexes in order: filtered by a case-insensitive substring, then sorted (ties by name). */
export function visibleTools(tools: ToolColumns, filter: string, sort: Sort): number[] {
  const needle = filter.trim().toLowerCase();
  const column = COLUMNS.find((c) => c.key === sort.column) ?? COLUMNS[0]!;
  const sign = sort.descending ? -1 : 1;
  const shown: number[] = [];
  for (let i = 0; i < tools.names.length; i++)
    if (!needle || tools.names[i]!.toLowerCase().includes(needle)) shown.push(i);
  return shown.sort((i, j) => sign * column.compare(tools, i, j) || i - j);
}

const EMPTY: ToolColumns = {
  names: [],
  seen: [],
  final: [],
  forced: [],
  missing: [],
  topStage: [],
  topCount: [],
};

export class ToolsTable {
  readonly element: HTMLElement;
  private readonly header: HTMLElement;
  private readonly viewport: HTMLElement;
  private readonly spacer: HTMLElement;
  /** Indexes into the columns, in screen order. */
  private rows: number[] = [];
  private active = 0;
  private frame = 0;
  private drawn = "";

  private tools: ToolColumns = EMPTY;
  private traces = 0;

  constructor(
    private sort: Sort,
    private readonly onSort: (sort: Sort) => void,
    private readonly onOpen: (tool: string) => void,
  ) {
    this.header = el("div", {
      class: "tools-row tools-head",
      role: "row",
      attrs: { "aria-rowindex": "1" },
    });
    this.spacer = el("div", { class: "tools-spacer", role: "presentation" });
    this.viewport = el(
      "div",
      {
        class: "tools-body",
        role: "rowgroup",
        attrs: {
          tabindex: "0",
          "aria-label": "Tools; arrow keys move, Enter shows where a tool went",
        },
        on: {
          scroll: () => this.schedule(),
          keydown: (event) => this.key(event),
          focus: () => this.draw(true),
        },
      },
      [this.spacer],
    );
    this.element = el("div", { class: "tools-table", role: "table", label: "Tools" }, [
      el("div", { role: "rowgroup" }, [this.header]),
      this.viewport,
    ]);
    this.renderHeader();
  }

  /** Shows these rows (already filtered and sorted) of these tools, keeping the active tool when it is still there. */
  setRows(tools: ToolColumns, traces: number, rows: number[], sort: Sort): void {
    const activeTool = this.tools === tools ? this.rows[this.active] : undefined;
    this.tools = tools;
    this.traces = traces;
    this.rows = rows;
    this.sort = sort;
    const kept = activeTool === undefined ? -1 : rows.indexOf(activeTool);
    this.active = Math.max(0, kept);
    this.element.setAttribute("aria-rowcount", String(rows.length + 1));
    this.spacer.style.height = `${rows.length * ROW_HEIGHT}px`;
    this.renderHeader();
    this.drawn = "";
    this.draw(false);
  }

  /** The tool names in the order on screen (for Copy as Markdown / Save as CSV). */
  get names(): string[] {
    return this.rows.map((i) => this.tools.names[i]!);
  }

  private renderHeader(): void {
    render(
      COLUMNS.map((column) => this.columnHeader(column)),
      this.header,
    );
  }

  private columnHeader(column: Column): TemplateResult {
    const sorted = this.sort.column === column.key;
    const direction = sorted ? (this.sort.descending ? "descending" : "ascending") : "none";
    const arrow = !sorted ? "blank" : this.sort.descending ? "arrow-down" : "arrow-up";
    // A new column starts with its most telling end: most first for numbers.
    const next = {
      column: column.key,
      descending: sorted ? !this.sort.descending : column.numeric,
    };
    return html`<div
      role="columnheader"
      class="cell${column.numeric ? " numeric" : ""}"
      aria-sort=${direction}
    >
      <button
        class="sort"
        type="button"
        data-sort=${column.key}
        title="Sort by ${column.title.toLowerCase()}"
        @click=${() => this.onSort(next)}
      >
        ${column.title}<span class="codicon codicon-${arrow}" aria-hidden="true"></span>
      </button>
    </div>`;
  }

  private schedule(): void {
    cancelAnimationFrame(this.frame);
    this.frame = requestAnimationFrame(() => this.draw(false));
  }

  /** Renders the rows in view (and the active one), then moves focus's descendant to it. */
  private draw(reveal: boolean): void {
    const height = this.viewport.clientHeight || 400;
    const top = this.viewport.scrollTop;
    const first = Math.max(0, Math.floor(top / ROW_HEIGHT) - OVERSCAN);
    const last = Math.min(this.rows.length, Math.ceil((top + height) / ROW_HEIGHT) + OVERSCAN);
    const key = `${first}:${last}:${this.active}`;
    if (key !== this.drawn) {
      this.drawn = key;
      const shown: number[] = [];
      for (let i = first; i < last; i++) shown.push(i);
      // Keyed by tool: a row that stays in view keeps its node across a scroll or a sort.
      render(
        repeat(
          shown,
          (i) => this.rows[i]!,
          (i) => this.row(this.rows[i]!, i),
        ),
        this.spacer,
      );
    }
    if (this.rows.length > 0)
      this.viewport.setAttribute("aria-activedescendant", `tool-row-${this.active}`);
    else this.viewport.removeAttribute("aria-activedescendant");
    if (reveal) this.reveal();
  }

  private row(tool: number, i: number): TemplateResult {
    const t = this.tools;
    const name = t.names[tool]!;
    const stage = t.topStage[tool];
    const missing = t.missing[tool]!;
    const open = () => {
      this.active = i;
      this.drawn = "";
      this.draw(false);
      this.onOpen(name);
    };
    return html`<div
      class="tools-row${i === this.active ? " is-active" : ""}"
      role="row"
      id="tool-row-${i}"
      aria-rowindex=${i + 2}
      data-tool=${name}
      ${cssomStyle({ transform: `translateY(${i * ROW_HEIGHT}px)` })}
      @click=${open}
    >
      <div role="cell" class="cell">${nameText(name)}</div>
      <div role="cell" class="cell numeric">${count(t.seen[tool]!)}</div>
      <div
        role="cell"
        class="cell numeric"
        title="final in ${count(t.final[tool]!)} of ${count(this.traces)} traces"
      >
        ${percent(t.final[tool]!, this.traces)}%
      </div>
      <div role="cell" class="cell numeric">${count(t.forced[tool]!)}</div>
      <div role="cell" class="cell numeric">${count(missing)}</div>
      <div role="cell" class="cell">
        ${
          stage != null
            ? html`${nameText(stage, "stage-name")} ${percent(t.topCount[tool]!, missing)}%`
            : html`<span class="muted">—</span>`
        }
      </div>
    </div>`;
  }

  private key(event: KeyboardEvent): void {
    const page = Math.max(1, Math.floor(this.viewport.clientHeight / ROW_HEIGHT) - 1);
    const moves: Record<string, number> = {
      ArrowDown: this.active + 1,
      ArrowUp: this.active - 1,
      PageDown: this.active + page,
      PageUp: this.active - page,
      Home: 0,
      End: this.rows.length - 1,
    };
    if (event.key === "Enter" || event.key === " ") {
      const tool = this.rows[this.active];
      if (tool !== undefined) this.onOpen(this.tools.names[tool]!);
      event.preventDefault();
      return;
    }
    const next = moves[event.key];
    if (next === undefined || this.rows.length === 0) return;
    event.preventDefault();
    this.active = Math.min(this.rows.length - 1, Math.max(0, next));
    this.reveal();
    this.drawn = "";
    this.draw(false);
  }

  /** Scrolls the active row into view. */
  private reveal(): void {
    const y = this.active * ROW_HEIGHT;
    const view = this.viewport;
    if (y < view.scrollTop) view.scrollTop = y;
    else if (y + ROW_HEIGHT > view.scrollTop + view.clientHeight)
      view.scrollTop = y + ROW_HEIGHT - view.clientHeight;
  }
}
