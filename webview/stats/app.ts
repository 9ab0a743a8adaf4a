/** The Palette Statistics view: a summary, the stages strip, palette size over time, the tools table and where a tool went. */
import { html, nothing, render, type TemplateResult } from "lit";
import { repeat } from "lit/directives/repeat.js";
import { html as staticHtml, unsafeStatic } from "lit/static-html.js";
import {
  parseStatsPanelState,
  type ComparisonView,
  type MissingGroup,
  type MissingTrace,
  type StatsPanelState,
  type StatsView,
  type ToStatsView,
} from "../../src/stats-protocol.js";
import { counted } from "../../src/core/words.js";
import { count } from "../dom.js";
import { Tag } from "../toolkit.js";
import type { StatsChannel } from "./channel.js";
import { comparisonView, type ComparedMissing } from "./comparison-view.js";
import { missingView } from "./missing-view.js";
import { icon } from "../parts.js";
import { overTimeSection } from "./split-picker.js";
import { chartWidth } from "./timeline-chart.js";
import { stagesLegend, stagesStrip } from "./stages-strip.js";
import { ToolsTable, visibleTools } from "./tools-table.js";

const FRESH: StatsPanelState = {
  sources: [],
  sort: { column: "missing", descending: true },
  filter: "",
  tool: null,
};

const BUTTON = unsafeStatic(Tag.button);

/** Everything the page draws from: the host's view, the UI state it keeps, and what it was told. */
interface StatsState {
  readonly ui: StatsPanelState;
  readonly view: StatsView | null;
  /** Where the selected tool went, once the host answered. */
  readonly missing: { readonly tool: string; readonly groups: readonly MissingGroup[] } | null;
  readonly status: string;
  /** This set against another, once the host answered `compare`. */
  readonly comparison: ComparisonView | null;
  /** Where a compared tool went on each side, once the host answered both. */
  readonly comparedMissing: ComparedMissing | null;
  /** The boundary of the timeline the split is on while the user picks it (null: not picking). */
  readonly picking: number | null;
}

export class StatsApp {
  private state: StatsState;
  private missingSeq = 0;
  /** The virtualised table keeps its own rows and scroll; the template places its element. */
  private readonly table: ToolsTable;

  constructor(
    private readonly root: HTMLElement,
    private readonly channel: StatsChannel,
  ) {
    const ui = parseStatsPanelState(channel.state) ?? FRESH;
    this.state = {
      ui,
      view: null,
      missing: null,
      status: "",
      comparison: null,
      comparedMissing: null,
      picking: null,
    };
    this.table = new ToolsTable(
      ui.sort,
      (sort) => this.update({ ui: { ...this.state.ui, sort } }),
      (tool) => this.background(this.openTool(tool)),
    );
    this.update({});
    // The charts are drawn for the view's width: a view made narrower or wider draws them again.
    let drawnFor = this.chartWidth();
    window.addEventListener("resize", () => {
      if (this.chartWidth() === drawnFor) return;
      drawnFor = this.chartWidth();
      this.update({});
    });
  }

  private chartWidth(): number {
    return chartWidth(this.root.clientWidth);
  }

  receive(message: Exclude<ToStatsView, { requestId: number }>): void {
    if (message.type !== "stats") return;
    const first = this.state.view === null;
    // A split being picked stays where it was, unless the new timeline no longer reaches it.
    const { picking } = this.state;
    this.update({
      view: message.view,
      ui: { ...this.state.ui, sources: message.view.sources },
      picking: picking !== null && picking < message.view.timeline.length ? picking : null,
    });
    if (first && this.state.ui.tool !== null)
      this.background(this.openTool(this.state.ui.tool, false));
  }

  /** Work a click starts and nobody awaits: its own failures are shown already, anything else too. */
  private background(task: Promise<void>): void {
    task.catch((error: unknown) => this.update({ status: String(error) }));
  }

  /** The one way the page changes: a new state, saved (its UI part) and drawn. */
  private update(change: Partial<StatsState>): void {
    this.state = { ...this.state, ...change };
    this.channel.state = this.state.ui;
    const { view, ui } = this.state;
    if (view) {
      const rows = visibleTools(view.tools, ui.filter, ui.sort);
      this.table.setRows(view.tools, view.traces, rows, ui.sort);
    }
    render(this.template(), this.root);
  }

  private template(): TemplateResult {
    const { view } = this.state;
    if (!view) return html`<p class="muted">Reading the statistics…</p>`;
    return html`${header(view)}
      <div class="toolbar" role="toolbar" aria-label="Statistics actions">
        ${staticHtml`<${BUTTON} appearance="secondary" data-action="copy" @click=${() => this.background(this.export("copyMarkdown"))}
          >${icon("copy")} Copy as Markdown</${BUTTON}>
        <${BUTTON} appearance="secondary" data-action="csv" @click=${() => this.background(this.export("saveCsv"))}
          >${icon("save")} Save as CSV…</${BUTTON}>
        <${BUTTON} appearance="secondary" data-action="compare" @click=${() => this.background(this.compare({ type: "compare" }))}
          >${icon("diff")} Compare with…</${BUTTON}>`}
      </div>
      <p class="status" role="status" aria-live="polite">${this.state.status}</p>
      ${
        this.state.comparison
          ? comparisonView(
              this.state.comparison,
              this.state.comparedMissing,
              {
                pick: (tool) => this.background(this.openCompared(tool)),
                open: (trace, tool) =>
                  this.channel.post({ type: "openTrace", ref: trace.ref, tool }),
              },
              this.chartWidth(),
            )
          : nothing
      }
      <section class="stages" aria-labelledby="stages-title">
        <h2 id="stages-title">Stages</h2>
        ${stagesLegend()} ${stagesStrip(view.stages)}
      </section>
      ${overTimeSection(
        view,
        this.state.picking,
        {
          start: () => this.pickSplit(Math.ceil(view.timeline.length / 2)),
          move: (k) => this.update({ picking: k }),
          set: (at) => this.background(this.compare({ type: "split", at })),
          cancel: () => {
            this.update({ picking: null });
            this.root.querySelector<HTMLElement>('[data-action="split"]')?.focus();
          },
        },
        this.chartWidth(),
      )}
      ${this.toolsSection(view)}
      <div class="region-missing">${this.missingTemplate(view)}</div>`;
  }

  private toolsSection(view: StatsView): TemplateResult {
    const all = view.tools.names.length;
    const shown = this.table.names.length;
    return html`<section class="tools" aria-labelledby="tools-title">
      <h2 id="tools-title">Tools</h2>
      <div class="table-controls">
        <label for="tool-filter">Filter</label>
        <input
          type="search"
          id="tool-filter"
          placeholder="Filter by name"
          spellcheck="false"
          .value=${this.state.ui.filter}
          @input=${(event: Event) =>
            this.update({
              ui: { ...this.state.ui, filter: (event.target as HTMLInputElement).value },
            })}
        />
        <span class="muted" aria-live="polite"
          >${shown === all ? `${count(all)} tools` : `${count(shown)} of ${count(all)} tools`}</span
        >
      </div>
      ${this.table.element}
    </section>`;
  }

  private missingTemplate(view: StatsView): TemplateResult | typeof nothing {
    const missing = this.state.missing;
    const i = missing ? view.tools.names.indexOf(missing.tool) : -1;
    if (!missing || i === -1) return nothing;
    const row = { name: missing.tool, seen: view.tools.seen[i]!, missing: view.tools.missing[i]! };
    return missingView(row, missing.groups, (trace: MissingTrace) =>
      this.channel.post({ type: "openTrace", ref: trace.ref, tool: missing.tool }),
    );
  }

  /** Asks the host for the traces where the tool went missing, and lists them. */
  private async openTool(tool: string, focus = true): Promise<void> {
    if (!this.state.view?.tools.names.includes(tool)) return;
    this.update({ ui: { ...this.state.ui, tool } });
    const seq = ++this.missingSeq;
    try {
      const reply = await this.channel.request({ type: "missing", tool });
      if (seq !== this.missingSeq) return;
      if (reply.type === "reply") return this.update({ status: reply.message });
      if (reply.type !== "missing") return;
      this.update({ missing: { tool, groups: reply.groups } });
    } catch (error) {
      if (seq === this.missingSeq) this.update({ status: (error as Error).message });
      return;
    }
    if (focus) this.root.querySelector<HTMLElement>("#missing-title")?.focus();
  }

  /** Asks the host for the traces that lost a compared tool on each side, and lists them. */
  private async openCompared(tool: string): Promise<void> {
    const seq = ++this.missingSeq;
    try {
      const [old, now] = await Promise.all(
        (["old", "new"] as const).map((side) =>
          this.channel.request({ type: "missing", tool, side }),
        ),
      );
      if (seq !== this.missingSeq) return;
      for (const reply of [old, now])
        if (reply!.type === "reply") return this.update({ status: reply!.message });
      if (old!.type !== "missing" || now!.type !== "missing") return;
      this.update({ comparedMissing: { tool, old: old!.groups, new: now!.groups } });
    } catch (error) {
      if (seq === this.missingSeq) this.update({ status: (error as Error).message });
      return;
    }
    this.root.querySelector<HTMLElement>("#missing-title-old")?.focus();
  }

  /** Shows the split on the timeline, at boundary k, for the user to move and set. */
  private pickSplit(k: number): void {
    this.update({ picking: k });
    this.root.querySelector<HTMLElement>(".split-picker")?.focus();
  }

  /**
   * Asks the host to compare this set with logs the user picks, or before a time with after it,
   * and shows the changes first.
   */
  private async compare(
    request: { readonly type: "compare" } | { readonly type: "split"; readonly at: string },
  ): Promise<void> {
    if (request.type === "split")
      this.update({ picking: null, status: `Comparing before ${request.at} UTC with after it…` });
    try {
      const reply = await this.channel.request(request);
      if (reply.type === "reply") {
        this.update({ status: reply.message });
        // The picker is gone once a split is set: its button takes the focus back.
        if (request.type === "split")
          this.root.querySelector<HTMLElement>('[data-action="split"]')?.focus();
        return;
      }
      if (reply.type !== "comparison") return;
      this.update({ comparison: reply.view, comparedMissing: null, status: "" });
    } catch (error) {
      this.update({ status: (error as Error).message });
      return;
    }
    this.root.querySelector<HTMLElement>("#comparison-title")?.focus();
  }

  private async export(type: "copyMarkdown" | "saveCsv"): Promise<void> {
    try {
      const reply = await this.channel.request({
        type,
        tools: this.table.names,
        comparison: this.state.comparison !== null,
      });
      if (reply.type === "reply") this.update({ status: reply.message });
    } catch (error) {
      // A request the host left unanswered: say so rather than wait for ever.
      this.update({ status: (error as Error).message });
    }
  }
}

function header(view: StatsView): TemplateResult {
  const files = view.files.length;
  return html`<header class="header">
    <h1>${icon("graph")} Palette statistics</h1>
    <p>${summary(view)}</p>
    ${
      view.cancelled
        ? html`<p class="warning">
            The reading was cancelled: these numbers cover only what was read.
          </p>`
        : nothing
    }
    <details class="files">
      <summary>${counted(files, "log file", undefined, count)}</summary>
      <ul>
        ${repeat(
          view.files,
          (file) => file,
          (file) => html`<li><bdi>${file}</bdi></li>`,
        )}
      </ul>
    </details>
  </header>`;
}

/** "1,200 traces in 3 logs · 4 problems · errors: ForcedToolUnavailable 2" */
function summary(view: StatsView): string {
  const parts = [
    `${counted(view.traces, "trace", undefined, count)} in ${counted(view.files.length, "log", undefined, count)}`,
    counted(view.problems, "problem", undefined, count),
  ];
  if (view.errors.length > 0)
    parts.push(`errors: ${view.errors.map((e) => `${e.kind} ${count(e.n)}`).join(", ")}`);
  return parts.join(" · ");
}
