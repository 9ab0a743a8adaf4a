/** The Palette Statistics view: a summary, the stages strip, palette size over time, the tools table and where a tool went. */
import {
  parseStatsPanelState,
  type MissingTrace,
  type StatsPanelState,
  type StatsView,
  type ToStatsView,
} from "../../src/stats-protocol.js";
import { count, el, icon } from "../dom.js";
import type { StatsChannel } from "./channel.js";
import { renderMissing } from "./missing-view.js";
import { renderStagesStrip, stagesLegend } from "./stages-strip.js";
import { renderTimeline } from "./timeline-chart.js";
import { ToolsTable, visibleTools } from "./tools-table.js";

const FRESH: StatsPanelState = {
  sources: [],
  sort: { column: "missing", descending: true },
  filter: "",
  tool: null,
};

export class StatsApp {
  private ui: StatsPanelState;
  private view: StatsView | null = null;
  private table: ToolsTable | null = null;
  private missingSeq = 0;
  private readonly status = el("p", {
    class: "status",
    role: "status",
    attrs: { "aria-live": "polite" },
  });
  private readonly missing = el("div", { class: "region-missing" });
  private readonly shownCount = el("span", { class: "muted", attrs: { "aria-live": "polite" } });

  constructor(
    private readonly root: HTMLElement,
    private readonly channel: StatsChannel,
  ) {
    this.ui = parseStatsPanelState(channel.state) ?? FRESH;
    root.replaceChildren(el("p", { class: "muted", text: "Reading the statistics…" }));
  }

  receive(message: Exclude<ToStatsView, { requestId: number }>): void {
    if (message.type === "stats") this.show(message.view);
  }

  private show(view: StatsView): void {
    this.view = view;
    this.save({ sources: view.sources });
    const table = new ToolsTable(
      view.tools,
      view.traces,
      this.ui.sort,
      (sort) => {
        this.save({ sort });
        this.refreshTable();
      },
      (tool) => void this.openTool(tool),
    );
    this.table = table;
    const filter = el("input", {
      attrs: {
        type: "search",
        id: "tool-filter",
        placeholder: "Filter by name",
        spellcheck: "false",
      },
      on: {
        input: (event) => {
          this.save({ filter: (event.target as HTMLInputElement).value });
          this.refreshTable();
        },
      },
    });
    filter.value = this.ui.filter;
    const timeline = renderTimeline(view.timeline);
    this.root.replaceChildren(
      el("header", { class: "header" }, [
        el("h1", {}, [icon("graph"), " Palette statistics"]),
        el("p", { text: summary(view) }),
        view.cancelled
          ? el("p", {
              class: "warning",
              text: "The reading was cancelled: these numbers cover only what was read.",
            })
          : null,
        el("details", { class: "files" }, [
          el("summary", {
            text: `${count(view.files.length)} log file${view.files.length === 1 ? "" : "s"}`,
          }),
          el(
            "ul",
            {},
            view.files.map((file) => el("li", {}, [el("bdi", { text: file })])),
          ),
        ]),
      ]),
      el("div", { class: "toolbar", role: "toolbar", label: "Statistics actions" }, [
        el(
          "button",
          {
            attrs: { type: "button", "data-action": "copy" },
            on: { click: () => void this.export("copyMarkdown") },
          },
          [icon("copy"), " Copy as Markdown"],
        ),
        el(
          "button",
          {
            attrs: { type: "button", "data-action": "csv" },
            on: { click: () => void this.export("saveCsv") },
          },
          [icon("save"), " Save as CSV…"],
        ),
      ]),
      this.status,
      el("section", { class: "stages", attrs: { "aria-labelledby": "stages-title" } }, [
        el("h2", { attrs: { id: "stages-title" }, text: "Stages" }),
        stagesLegend(),
        renderStagesStrip(view.stages),
      ]),
      el("section", { class: "over-time", attrs: { "aria-labelledby": "time-title" } }, [
        el("h2", { attrs: { id: "time-title" }, text: "Palette size over time" }),
        timeline ??
          el("p", {
            class: "muted",
            text:
              view.unreadableTimes > 0
                ? `The traces' times could not be read as dates (${count(view.unreadableTimes)}).`
                : "The traces carry no times, or all fall in one second.",
          }),
        timeline && view.unreadableTimes > 0
          ? el("p", {
              class: "muted",
              text: `${count(view.unreadableTimes)} traces with unreadable times are left out.`,
            })
          : null,
      ]),
      el("section", { class: "tools", attrs: { "aria-labelledby": "tools-title" } }, [
        el("h2", { attrs: { id: "tools-title" }, text: "Tools" }),
        el("div", { class: "table-controls" }, [
          el("label", { attrs: { for: "tool-filter" }, text: "Filter" }),
          filter,
          this.shownCount,
        ]),
        table.element,
      ]),
      this.missing,
    );
    this.refreshTable();
    if (this.ui.tool !== null) void this.openTool(this.ui.tool, false);
  }

  private refreshTable(): void {
    if (!this.view || !this.table) return;
    const tools = this.view.tools;
    const all = tools.names.length;
    const shown = visibleTools(tools, this.ui.filter, this.ui.sort);
    this.table.setRows(shown, this.ui.sort);
    this.shownCount.textContent =
      shown.length === all
        ? `${count(all)} tools`
        : `${count(shown.length)} of ${count(all)} tools`;
  }

  /** Asks the host for the traces where the tool went missing, and lists them. */
  private async openTool(tool: string, focus = true): Promise<void> {
    const tools = this.view?.tools;
    const i = tools ? tools.names.indexOf(tool) : -1;
    if (!tools || i === -1) return;
    const row = { name: tool, seen: tools.seen[i]!, missing: tools.missing[i]! };
    this.save({ tool });
    const seq = ++this.missingSeq;
    let reply: Awaited<ReturnType<StatsChannel["request"]>>;
    try {
      reply = await this.channel.request({ type: "missing", tool });
    } catch (error) {
      if (seq === this.missingSeq) this.status.textContent = String((error as Error).message);
      return;
    }
    if (seq !== this.missingSeq) return;
    if (reply.type === "reply") this.status.textContent = reply.message;
    if (reply.type !== "missing") return;
    this.missing.replaceChildren(
      renderMissing(row, reply.groups, (trace: MissingTrace) =>
        this.channel.post({ type: "openTrace", ref: trace.ref, tool }),
      ),
    );
    if (focus) this.missing.querySelector<HTMLElement>("#missing-title")?.focus();
  }

  private async export(type: "copyMarkdown" | "saveCsv"): Promise<void> {
    try {
      const reply = await this.channel.request({ type, tools: this.table?.names ?? [] });
      if (reply.type === "reply") this.status.textContent = reply.message;
    } catch (error) {
      // A request the host left unanswered: say so rather than wait for ever.
      this.status.textContent = String((error as Error).message);
    }
  }

  private save(change: Partial<StatsPanelState>): void {
    this.ui = { ...this.ui, ...change };
    this.channel.state = this.ui;
  }
}

/** "1,200 traces in 3 logs · 4 problems · errors: ForcedToolUnavailable 2" */
function summary(view: StatsView): string {
  const parts = [
    `${count(view.traces)} trace${view.traces === 1 ? "" : "s"} in ${count(view.files.length)} log${view.files.length === 1 ? "" : "s"}`,
    `${count(view.problems)} problem${view.problems === 1 ? "" : "s"}`,
  ];
  if (view.errors.length > 0)
    parts.push(`errors: ${view.errors.map((e) => `${e.kind} ${count(e.n)}`).join(", ")}`);
  return parts.join(" · ");
}
