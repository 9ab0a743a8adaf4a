import { html, nothing, render, type TemplateResult } from "lit";
import type { Comparison } from "../src/core/compare.js";
import {
  lineageMatrix,
  runTools,
  toolLineage,
  waterfallRows,
  type LineageMatrix,
} from "../src/core/lineage.js";
import type { ReportView } from "../src/core/report.js";
import { movesNothing, type WhatIf, type WhatIfLevers } from "../src/core/whatif.js";
import { closestName } from "../src/core/words.js";
import {
  parsePanelState,
  type PanelState,
  type ProblemView,
  type ToWebview,
  type TraceView,
} from "../src/protocol.js";
import { decidingDifferently, WHAT_IF_SIDES } from "../src/core/compare-text.js";
import { renderComparison } from "./compare-view.js";
import {
  renderErrorBanner,
  renderExpectations,
  renderHeader,
  renderModelSees,
  renderProblems,
  type TurnShown,
} from "./header.js";
import type { HostChannel } from "./host.js";
import { lineageAnswer, lineageSection } from "./lineage-view.js";
import { MATRIX_STEP, renderMatrix, ScrollCue } from "./matrix.js";
import { settleRove } from "./rove.js";
import { renderWaterfall } from "./waterfall.js";
import { renderModelGot } from "./model-got-view.js";
import { whatIfBar } from "./whatif-panel.js";
import { toolbar, whatIfSection } from "./panel-parts.js";

const FRESH: PanelState = { source: null, selectedTool: null, scrollY: 0, matrix: false, edit: {} };
/** Typing settles for this long before the what-if re-runs, or the lineage answer follows it. */
const TYPING_MS = 150;

/** What the host last showed: a run to draw, or the problems of a fixture that cannot run. */
export type Shown =
  | { readonly kind: "run"; readonly view: TraceView; readonly run: RunFacts }
  | {
      readonly kind: "problems";
      readonly file: string;
      readonly problems: readonly ProblemView[];
    };

/** A run on screen, with what its chips, suggestions and "did you mean" need, worked out once when it arrives. */
export interface RunFacts {
  readonly report: ReportView;
  /** The run's tool names in run order, and each one's place. */
  readonly tools: readonly string[];
  readonly order: ReadonlyMap<string, number>;
}

/** The run a what-if or a second trace shows in place of the fixture's own. */
export interface Variant {
  readonly run: RunFacts;
  readonly comparison: Comparison;
}

/** The panel's one store: what is persisted (`ui`), what the host showed (`view`), the variant on screen. */
export interface Store {
  readonly ui: PanelState;
  readonly view: Shown | null;
  readonly variant: Variant | null;
}

/** What lives as long as the page and is never persisted: what is open, expanded and typed. */
interface PageState {
  /** What the what-if said (why it did not run), beside the levers. */
  status: string;
  /** What a toolbar button's request answered, beside the toolbar. */
  actionStatus: string;
  whatIfOpen: boolean;
  wide: boolean;
  lineageText: string;
  matrixRows: number;
  modelAll: boolean;
  modelGotAll: boolean;
  matrix: { readonly report: ReportView; readonly matrix: LineageMatrix } | null;
  readonly expanded: Map<string, number>;
  readonly filled: Set<string>;
  readonly whyOpen: Set<string>;
}

function facts(report: ReportView): RunFacts {
  const tools = runTools(report);
  return { report, tools, order: new Map(tools.map((tool, i) => [tool, i])) };
}

/** The panel: one store, one template, drawn by lit into the root on every change. */
export class App {
  private store: Store;
  private readonly page: PageState;
  private readonly cue = new ScrollCue();
  private readonly lazy: IntersectionObserver;
  private whatIfSeq = 0;
  private scrollRestored = false;
  private typing: ReturnType<typeof setTimeout> | undefined;
  private asking: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly root: HTMLElement,
    private readonly channel: HostChannel,
  ) {
    const ui = parsePanelState(channel.state) ?? FRESH;
    this.store = { ui, view: null, variant: null };
    const wide = window.matchMedia("(min-width: 980px)");
    this.page = {
      status: "",
      actionStatus: "",
      whatIfOpen: !movesNothing(ui.edit),
      wide: wide.matches,
      lineageText: ui.selectedTool ?? "",
      matrixRows: MATRIX_STEP,
      modelAll: false,
      modelGotAll: false,
      matrix: null,
      expanded: new Map(),
      filled: new Set(),
      whyOpen: new Set(),
    };
    // A large trace fills a row's chips the first time it comes near the viewport.
    this.lazy = new IntersectionObserver(
      (entries) => {
        const near = entries.filter((entry) => entry.isIntersecting);
        for (const entry of near) {
          this.lazy.unobserve(entry.target);
          this.page.filled.add((entry.target as HTMLElement).dataset.row ?? "");
        }
        if (near.length) this.draw();
      },
      { rootMargin: "600px 0px" },
    );
    // Beside the waterfall when the panel has two columns, above it when it has one.
    wide.addEventListener("change", () => ((this.page.wide = wide.matches), this.draw()));
    channel.ready({ type: "ready", edit: ui.edit });
    let frame = 0;
    window.addEventListener(
      "scroll",
      () => {
        cancelAnimationFrame(frame);
        frame = requestAnimationFrame(() => this.save({ scrollY: Math.round(window.scrollY) }));
      },
      { passive: true },
    );
    this.draw();
  }

  receive(message: Exclude<ToWebview, { requestId: number }>): void {
    if (message.type === "problems") {
      this.save({ source: message.source });
      this.set({
        view: { kind: "problems", file: message.file, problems: message.problems },
        variant: null,
      });
    } else this.show(message.view);
  }

  private show(view: TraceView): void {
    const edit = view.levers ? keepKnown(this.store.ui.edit, view.levers) : {};
    this.save({
      source: view.source,
      edit,
      ...(view.selectedTool !== undefined ? { selectedTool: view.selectedTool } : {}),
    });
    // A tool the host selects (a restored panel, "Where did X go?" from a view) shows in the field.
    if (view.selectedTool !== undefined) this.page.lineageText = view.selectedTool;
    let variant: Variant | null = view.compared
      ? { run: facts(view.compared.report), comparison: view.compared.comparison }
      : null;
    if (!movesNothing(edit)) {
      // The host ran the what-if with this text already: one round trip, and no flash of the unmodified run.
      const ran = view.whatIf;
      if (ran && JSON.stringify(ran.edit) === JSON.stringify(edit)) {
        this.whatIfSeq++;
        this.page.status = "error" in ran ? ran.error : "";
        if (!("error" in ran)) variant = { run: facts(ran.variant), comparison: ran.comparison };
      } else this.runWhatIf();
    }
    this.set({ view: { kind: "run", view, run: facts(view.report) }, variant });
    if (!this.scrollRestored) {
      this.scrollRestored = true;
      window.scrollTo(0, this.store.ui.scrollY);
    }
  }

  /** The trace view the host last showed, if it showed one. */
  private get base(): TraceView | null {
    return this.store.view?.kind === "run" ? this.store.view.view : null;
  }

  private set(change: Partial<Store>): void {
    this.store = { ...this.store, ...change };
    this.draw();
  }

  private save(change: Partial<PanelState>): void {
    this.store = { ...this.store, ui: { ...this.store.ui, ...change } };
    this.channel.state = this.store.ui;
  }

  private draw(): void {
    const shown = this.store.view;
    this.root.classList.toggle("is-invalid", shown?.kind === "problems");
    render(this.template(), this.root);
    settleRove(this.root);
  }

  private template(): TemplateResult {
    const shown = this.store.view;
    if (shown?.kind === "problems") return renderProblems(shown.file, shown.problems);
    const base = shown?.view ?? null;
    const run = this.store.variant?.run ?? shown?.run ?? null;
    const levers = base?.levers ?? null;
    const section = levers && this.page.whatIfOpen ? this.whatIf(levers) : nothing;
    const report = run?.report;
    return html`<div class="region-header">${report ? this.header(report) : nothing}</div><div class="region-banner">${report ? renderErrorBanner(report) : nothing}</div><div>${report && this.store.variant === null ? renderExpectations(base?.failed ?? []) : nothing}</div>${toolbar(this.toolbarState(), this.actions)}<p class="status action-status" role="status" aria-live="polite">${this.page.actionStatus}</p><div>${this.page.wide ? nothing : section}</div><p class="status whatif-status" role="status" aria-live="polite">${this.page.status}</p><div>${levers && !movesNothing(this.store.ui.edit) ? whatIfBar(this.store.ui.edit, () => this.reset()) : nothing}</div><div>${this.comparison()}</div><div class="layout"><div class="layout-main">${run ? this.lineage(run) : nothing}<div class="region-main">${run ? this.main(run) : nothing}</div></div><aside class="layout-side">${this.page.wide ? section : nothing}<div>${report ? renderModelSees(report, this.actions.select, this.page.modelAll, () => ((this.page.modelAll = true), this.draw())) : nothing}</div><div>${report ? renderModelGot(report, this.actions.select, this.page.modelGotAll, () => ((this.page.modelGotAll = true), this.draw())) : nothing}</div></aside></div>`;
  }

  /** The toolbar's buttons and toggle as the store has them. */
  private toolbarState() {
    const base = this.base;
    return {
      fixture: base !== null && base.levers !== null,
      // A comparison already has its two runs; a debug value has its own Compare… with its replay.
      compare: base !== null && base.compared === null && base.report.origin.kind !== "debug",
      whatIfOpen: this.page.whatIfOpen,
      matrix: this.store.ui.matrix,
    };
  }

  private readonly actions = {
    select: (tool: string) => this.select(tool),
    copy: () => this.copyMarkdown(),
    save: () => this.saveVariant(),
    compare: () => this.channel.post({ type: "compare" }),
    toggleWhatIf: () => this.openWhatIf(!this.page.whatIfOpen, false),
    matrix: (on: boolean) => {
      this.save({ matrix: on });
      this.draw();
    },
  };

  private header(report: ReportView): TemplateResult {
    const base = this.base;
    const variant = this.store.variant;
    const tag =
      variant === null
        ? null
        : base?.compared
          ? base.compared.replay
            ? base.compared.names[1]
            : `compared with ${base.compared.names[0]}`
          : "what-if";
    return renderHeader(
      report,
      tag,
      () => this.channel.post({ type: "openSource", compared: variant !== null }),
      this.shownTurn(),
      {
        stale: base?.stale === true,
        act: (action) => this.channel.post({ type: "debugAction", action }),
      },
    );
  }

  /** The turn of the run on screen: a what-if that moves the role shows its role, and the fixture's beside it. */
  private shownTurn(): TurnShown | null {
    const base = this.base;
    const turn = base?.turn ?? null;
    const role = this.store.ui.edit.role;
    if (turn === null || this.store.variant === null || base?.compared || role === undefined)
      return turn;
    return { query: turn.query, role, fixtureRole: turn.role };
  }

  private whatIf(levers: WhatIfLevers): TemplateResult {
    const base = this.base;
    const comparison = base?.compared ? null : (this.store.variant?.comparison ?? null);
    return whatIfSection(levers, this.store.ui.edit, comparison, {
      move: (change, typing) => this.move(change, typing),
      close: () => this.openWhatIf(false, true),
      seeComparison: () => {
        const target = this.root.querySelector<HTMLElement>(".comparison");
        target?.scrollIntoView({ block: "start" });
        target?.focus();
      },
    });
  }

  private comparison(): TemplateResult | typeof nothing {
    const base = this.base;
    const compared = base?.compared ?? null;
    if (compared)
      return renderComparison(compared.comparison, compared.names, compared.replay, [
        base!.report.names,
        compared.report.names,
      ]);
    const variant = this.store.variant;
    return variant && base && !movesNothing(this.store.ui.edit)
      ? renderComparison(variant.comparison, WHAT_IF_SIDES, false, [
          base.report.names,
          variant.run.report.names,
        ])
      : nothing;
  }

  private lineage(run: RunFacts): TemplateResult {
    const { report } = run;
    const selected = this.store.ui.selectedTool;
    const lineage = selected === null ? null : toolLineage(report, selected);
    const near =
      lineage && !lineage.known && selected ? closestName(selected, run.tools) : undefined;
    const answer = lineageAnswer({
      lineage,
      asked: selected !== null,
      suggestion: near ? { name: near, pick: () => this.select(near) } : null,
      palettes: this.base?.rolePalettes ?? [],
      reveal:
        selected !== null && report.origin.kind === "fixture"
          ? () => this.channel.post({ type: "revealTool", tool: selected })
          : null,
    });
    return lineageSection(
      {
        text: this.page.lineageText,
        names: run.tools,
        typed: (text) => (this.page.lineageText = text),
        ask: (name, now) => {
          clearTimeout(this.asking);
          const ask = () => this.select(resolveName(report, name), false);
          if (now) ask();
          else this.asking = setTimeout(ask, TYPING_MS);
        },
      },
      answer,
    );
  }

  private main(run: RunFacts): TemplateResult {
    const { report } = run;
    const ui = this.store.ui;
    if (ui.matrix) {
      if (this.page.matrix?.report !== report)
        this.page.matrix = { report, matrix: lineageMatrix(report) };
      return renderMatrix(this.page.matrix.matrix, {
        selected: ui.selectedTool,
        select: this.actions.select,
        rows: this.page.matrixRows,
        showRows: (rows) => ((this.page.matrixRows = rows), this.draw()),
        cue: this.cue,
      });
    }
    const variant = this.store.variant;
    const base = this.base;
    const compared = variant?.comparison ?? null;
    // Following a tool is the lineage answer's hint; this one says only how chips are laid out.
    return html`<h2 class="sr-only">Waterfall</h2><p class="hint">Chips keep the order the tools were offered in; the arrow keys move between them.</p>${renderWaterfall(
      report,
      waterfallRows(report),
      {
        selected: ui.selectedTool,
        select: this.actions.select,
        expanded: this.page.expanded,
        expand: (key, shown) => (this.page.expanded.set(key, shown), this.draw()),
        order: run.order,
        changed: new Set([...(compared ? decidingDifferently(compared) : [])].map((s) => s.stage)),
        failed: new Set(variant === null ? (base?.failed ?? []).flatMap((f) => f.stages) : []),
        filled: this.page.filled,
        watch: this.watchRow,
        whyOpen: this.page.whyOpen,
        openWhy: (key, open) => {
          if (open === this.page.whyOpen.has(key)) return;
          if (open) this.page.whyOpen.add(key);
          else this.page.whyOpen.delete(key);
          this.draw();
        },
      },
    )}`;
  }

  /** One callback for every waiting row, so lit does not re-attach it on each render. */
  private readonly watchRow = (element: Element | undefined): void => {
    if (element) this.lazy.observe(element);
  };

  /** Selects a tool (or none, for ""); a chip or link also puts its name in the field. */
  private select(tool: string, fromChip = true): void {
    if (fromChip) this.page.lineageText = tool;
    this.save({ selectedTool: tool === "" ? null : tool });
    this.draw();
  }

  /** Shows or hides the levers; `refocus` puts the focus back on the toggle. */
  private openWhatIf(open: boolean, refocus: boolean): void {
    this.page.whatIfOpen = open;
    this.draw();
    if (refocus) this.root.querySelector<HTMLElement>('[data-action="whatif"]')?.focus();
  }

  /** A lever moved: typing settles first; an edit that is the one on screen changes nothing. */
  private move(change: (edit: WhatIf) => WhatIf, typing: boolean): void {
    clearTimeout(this.typing);
    const apply = () => {
      const next = change(this.store.ui.edit);
      if (JSON.stringify(next) !== JSON.stringify(this.store.ui.edit)) this.edit(next);
    };
    if (typing) this.typing = setTimeout(apply, TYPING_MS);
    else apply();
  }

  private edit(edit: WhatIf): void {
    this.save({ edit });
    if (movesNothing(edit)) {
      this.whatIfSeq++;
      this.channel.post({ type: "clearWhatIf" });
      this.set({ variant: null });
    } else {
      this.draw();
      this.runWhatIf();
    }
  }

  private reset(): void {
    clearTimeout(this.typing);
    this.edit({});
  }

  private runWhatIf(): void {
    const seq = ++this.whatIfSeq;
    this.channel
      .request({ type: "whatIf", edit: this.store.ui.edit })
      .then((reply) => {
        if (seq !== this.whatIfSeq) return;
        if (reply.type === "whatIfResult") {
          this.page.status = "";
          this.set({ variant: { run: facts(reply.variant), comparison: reply.comparison } });
        } else {
          this.page.status = reply.message;
          this.set({ variant: null });
        }
      })
      .catch((error: unknown) => this.failed("The what-if did not run", error));
  }

  private copyMarkdown(): void {
    this.channel
      .request({
        type: "copyMarkdown",
        run: movesNothing(this.store.ui.edit) ? "shown" : "whatIf",
      })
      .then((reply) => reply.type === "reply" && this.actionSaid(reply.message))
      .catch((error: unknown) => this.actionSaid(`Nothing was copied: ${errorText(error)}`));
  }

  private saveVariant(): void {
    this.channel
      .request({ type: "saveVariant", edit: this.store.ui.edit })
      .then((reply) => reply.type === "reply" && this.actionSaid(reply.message))
      .catch((error: unknown) => this.actionSaid(`Nothing was saved: ${errorText(error)}`));
  }

  /** A toolbar request's answer (or refusal), beside the button that was pressed. */
  private actionSaid(message: string): void {
    this.page.actionStatus = message;
    this.draw();
  }

  /** A what-if that failed or timed out (RequestTimedOut says which and how long), beside the levers. */
  private failed(what: string, error: unknown): void {
    this.page.status = `${what}: ${errorText(error)}`;
    this.draw();
  }
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** An exact name, else the one name that matches ignoring case, else what was typed. */
function resolveName(report: ReportView, name: string): string {
  if (name === "" || toolLineage(report, name).known) return name;
  const lower = name.toLowerCase();
  const matches = new Set(
    [...report.offered, ...report.names, ...report.trace.flatMap((record) => record.added)].filter(
      (tool) => tool.toLowerCase() === lower,
    ),
  );
  return matches.size === 1 ? [...matches][0]! : name;
}

/** Drops what-if levers for stages the re-run fixture no longer has. */
function keepKnown(edit: WhatIf, levers: WhatIfLevers): WhatIf {
  const names = new Set(levers.stages.map((stage) => stage.name));
  const pick = <T>(record: Readonly<Record<string, T>> | undefined) =>
    record
      ? Object.fromEntries(Object.entries(record).filter(([name]) => names.has(name)))
      : undefined;
  const out: { -readonly [K in keyof WhatIf]: WhatIf[K] } = {};
  const enabled = pick(edit.enabled),
    verdicts = pick(edit.verdicts),
    forcedTools = pick(edit.forcedTools),
    policies = pick(edit.policies);
  if (enabled && Object.keys(enabled).length) out.enabled = enabled;
  if (edit.role !== undefined) out.role = edit.role;
  if (verdicts && Object.keys(verdicts).length) out.verdicts = verdicts;
  if (forcedTools && Object.keys(forcedTools).length) out.forcedTools = forcedTools;
  if (policies && Object.keys(policies).length) out.policies = policies;
  return out;
}
