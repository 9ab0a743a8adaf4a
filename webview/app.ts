import type { Comparison } from "../src/core/compare.js";
import {
  lineageMatrix,
  runTools,
  toolLineage,
  waterfallRows,
  type LineageMatrix,
} from "../src/core/lineage.js";
import { closestName, counted } from "../src/core/words.js";
import type { ReportView } from "../src/core/report.js";
import { whatIfSize, type WhatIf, type WhatIfLevers } from "../src/core/whatif.js";
import {
  parsePanelState,
  type PanelState,
  type ProblemView,
  type RolePalette,
  type ToWebview,
  type TraceView,
} from "../src/protocol.js";
import type { ChipContext } from "./chips.js";
import { decidingDifferently, renderComparison } from "./compare-view.js";
import type { TurnShown } from "./header.js";
import { append, el, icon, nameText, type Child } from "./dom.js";
import {
  renderErrorBanner,
  renderExpectations,
  renderHeader,
  renderModelSees,
  renderProblems,
} from "./header.js";
import type { HostChannel } from "./host.js";
import { fillLineageAnswer, lineageSection, suggestNames } from "./lineage-view.js";
import { renderMatrix } from "./matrix.js";
import { controlChecked, Tag } from "./toolkit.js";
import { renderWaterfall } from "./waterfall.js";
import { renderWhatIf, settleControls, whatIfBar } from "./whatif-panel.js";

const FRESH: PanelState = { source: null, selectedTool: null, scrollY: 0, matrix: false, edit: {} };

/** The panel: regions re-render separately, so typing in a control never loses its focus to a re-run. */
export class App {
  private ui: PanelState;
  private base: TraceView | null = null;
  private variant: { readonly report: ReportView; readonly comparison: Comparison } | null = null;
  private matrixCache: { readonly report: ReportView; readonly matrix: LineageMatrix } | null =
    null;
  /** The run's tool names in run order, and each one's place: chips, suggestions and "did you mean". */
  private toolsCache: {
    readonly report: ReportView;
    readonly tools: readonly string[];
    readonly order: ReadonlyMap<string, number>;
  } | null = null;
  private readonly expanded = new Map<string, number>();
  private readonly matrixShown = { rows: 0 };
  private whatIfSeq = 0;
  private scrollRestored = false;

  private readonly regions = {
    header: el("div", { class: "region-header" }),
    banner: el("div", { class: "region-banner" }),
    expectations: el("div"),
    status: el("p", { class: "status", role: "status", attrs: { "aria-live": "polite" } }),
    whatIfBar: el("div"),
    compare: el("div"),
    lineageAnswer: el("p", {
      class: "lineage-answer",
      attrs: { "aria-live": "polite", id: "lineage-answer" },
    }),
    main: el("div", { class: "region-main" }),
    modelSees: el("div"),
    whatIf: el("div"),
    whatIfSummary: el("p", {
      class: "whatif-summary",
      role: "status",
      attrs: { "aria-live": "polite" },
    }),
  };
  private readonly toolbar: HTMLElement;
  private readonly matrixToggle: HTMLElement;
  private readonly saveButton: HTMLElement;
  private readonly whatIfSection: HTMLElement;
  private readonly whatIfToggle: HTMLElement;
  private readonly compareButton: HTMLElement;
  /** Where the levers go in a one-column panel: under the toolbar, above the rows they change. */
  private readonly whatIfNarrowSlot = el("div");
  private readonly lineage: {
    readonly section: HTMLElement;
    readonly field: HTMLInputElement;
    readonly names: HTMLDataListElement;
  };
  private readonly aside: HTMLElement;
  /** The what-if controls are built when first opened: toolkit elements cost time the first screen must not pay. */
  private controlsBuilt = false;

  constructor(
    private readonly root: HTMLElement,
    private readonly channel: HostChannel,
  ) {
    this.ui = parsePanelState(channel.state) ?? FRESH;
    this.matrixToggle = el(Tag.checkbox, { attrs: { "data-action": "matrix" } }, [
      "Tools × stages matrix",
    ]);
    (this.matrixToggle as HTMLInputElement).checked = this.ui.matrix;
    this.matrixToggle.addEventListener("change", () => {
      this.save({ matrix: controlChecked(this.matrixToggle) });
      this.renderMain();
    });
    this.saveButton = el(
      Tag.button,
      {
        attrs: { appearance: "secondary", "data-action": "save" },
        on: { click: () => void this.saveVariant() },
      },
      [icon("save"), " Save as fixture…"],
    );
    this.whatIfToggle = el(
      Tag.button,
      {
        attrs: {
          appearance: "secondary",
          "data-action": "whatif",
          "aria-controls": "whatif",
          "aria-expanded": "false",
        },
        on: { click: () => this.openWhatIf(!this.whatIfOpen, false) },
      },
      [icon("beaker"), " What-if…"],
    );
    this.compareButton = el(
      Tag.button,
      {
        attrs: { appearance: "secondary", "data-action": "compare" },
        on: { click: () => this.channel.post({ type: "compare" }) },
      },
      [icon("diff"), " Compare…"],
    );
    this.toolbar = el("div", { class: "toolbar", role: "toolbar", label: "Trace actions" }, [
      el(
        Tag.button,
        { attrs: { "data-action": "copy" }, on: { click: () => void this.copyMarkdown() } },
        [icon("copy"), " Copy as Markdown"],
      ),
      this.whatIfToggle,
      this.compareButton,
      this.saveButton,
      this.matrixToggle,
    ]);
    this.whatIfSection = el(
      "section",
      { class: "whatif", label: "What-if", attrs: { id: "whatif", hidden: "" } },
      [
        el("h2", {}, [icon("beaker"), " What-if"]),
        el("p", {
          class: "hint",
          text: "Move a lever: the waterfall shows the run it would give, compared with the fixture's.",
        }),
        // What the levers changed, next to them: the banner and comparison are at the top.
        this.regions.whatIfSummary,
        this.regions.whatIf,
      ],
    );
    // Escape closes the levers and gives the focus back to the button that opened them.
    this.whatIfSection.addEventListener("keydown", (event) => {
      if (event.key === "Escape") this.openWhatIf(false, true);
    });
    this.lineage = lineageSection((name) => {
      const report = this.shown;
      if (report) this.select(resolveName(report, name));
    }, this.regions.lineageAnswer);
    root.replaceChildren(
      this.regions.header,
      this.regions.banner,
      this.regions.expectations,
      this.toolbar,
      this.whatIfNarrowSlot,
      this.regions.status,
      this.regions.whatIfBar,
      this.regions.compare,
      el("div", { class: "layout" }, [
        el("div", { class: "layout-main" }, [this.lineage.section, this.regions.main]),
        (this.aside = el("aside", { class: "layout-side" }, [this.regions.modelSees])),
      ]),
    );
    // Beside the waterfall when the panel has two columns, above it when it has one.
    const wide = window.matchMedia("(min-width: 980px)");
    const place = () =>
      wide.matches
        ? this.aside.prepend(this.whatIfSection)
        : this.whatIfNarrowSlot.append(this.whatIfSection);
    wide.addEventListener("change", place);
    place();
    this.openWhatIf(whatIfSize(this.ui.edit) > 0, false);
    channel.post({ type: "ready", edit: this.ui.edit });
    let frame = 0;
    window.addEventListener(
      "scroll",
      () => {
        cancelAnimationFrame(frame);
        frame = requestAnimationFrame(() => this.save({ scrollY: Math.round(window.scrollY) }));
      },
      { passive: true },
    );
  }

  receive(message: Exclude<ToWebview, { requestId: number }>): void {
    if (message.type === "problems")
      this.showProblems(message.file, message.source, message.problems);
    else this.show(message.view);
  }

  private show(view: TraceView): void {
    this.base = view;
    if (view.selectedTool !== undefined) this.save({ selectedTool: view.selectedTool });
    this.root.classList.remove("is-invalid");
    this.save({
      source: view.source,
      edit: view.levers ? keepKnown(this.ui.edit, view.levers) : {},
    });
    this.saveButton.hidden = view.levers === null;
    this.whatIfToggle.hidden = view.levers === null;
    // A comparison already has its two runs; a debug value has its own Compare… with its replay.
    this.compareButton.hidden = view.compared !== null || view.report.origin.kind === "debug";
    this.whatIfSection.hidden = view.levers === null || !this.whatIfOpen;
    this.controlsBuilt = false;
    this.regions.whatIf.replaceChildren();
    if (view.levers && this.whatIfOpen) this.renderControls(view.levers, this.ui.edit);
    this.variant = view.compared;
    if (whatIfSize(this.ui.edit) > 0) {
      // The host ran the what-if with this text already: one round trip, and no flash of the unmodified run.
      const ran = view.whatIf;
      if (ran && JSON.stringify(ran.edit) === JSON.stringify(this.ui.edit)) {
        this.whatIfSeq++;
        this.status("error" in ran ? ran.error : "");
        if (!("error" in ran)) this.variant = { report: ran.variant, comparison: ran.comparison };
      } else void this.runWhatIf();
    }
    this.renderAll();
    if (!this.scrollRestored) {
      this.scrollRestored = true;
      window.scrollTo(0, this.ui.scrollY);
    }
  }

  private showProblems(
    file: string,
    source: string | null,
    problems: readonly ProblemView[],
  ): void {
    this.base = null;
    this.variant = null;
    this.save({ source });
    this.root.classList.add("is-invalid");
    this.regions.header.replaceChildren(renderProblems(file, problems));
    for (const region of [
      this.regions.banner,
      this.regions.expectations,
      this.regions.whatIfSummary,
      this.regions.whatIfBar,
      this.regions.compare,
      this.regions.lineageAnswer,
      this.regions.main,
      this.regions.modelSees,
    ])
      region.replaceChildren();
  }

  /** The run on screen: the what-if's when one is active, else the fixture's. */
  private get shown(): ReportView | null {
    return this.variant?.report ?? this.base?.report ?? null;
  }

  private get whatIfOpen(): boolean {
    return this.whatIfToggle.getAttribute("aria-expanded") === "true";
  }

  /** Shows or hides the levers (built the first time they are shown); `refocus` puts the focus back on the toggle. */
  private openWhatIf(open: boolean, refocus: boolean): void {
    this.whatIfToggle.setAttribute("aria-expanded", String(open));
    this.whatIfSection.hidden = !open || this.base?.levers === null;
    if (open && !this.controlsBuilt && this.base?.levers)
      this.renderControls(this.base.levers, this.ui.edit);
    if (refocus) this.whatIfToggle.focus();
  }

  private renderAll(): void {
    const report = this.shown;
    if (report === null) return;
    this.regions.header.replaceChildren(
      renderHeader(
        report,
        this.variant === null
          ? null
          : this.base?.compared
            ? comparedTag(this.base.compared)
            : "what-if",
        () => this.channel.post({ type: "openSource", compared: this.variant !== null }),
        this.shownTurn(),
        {
          stale: this.base?.stale === true,
          act: (action) => this.channel.post({ type: "debugAction", action }),
        },
      ),
    );
    // The expectations are the fixture's; a what-if on screen is not what they were written for.
    this.regions.expectations.replaceChildren(
      ...[this.variant === null ? renderExpectations(this.base?.failed ?? []) : null].filter(
        (node): node is HTMLElement => node !== null,
      ),
    );
    // Suggestions are not needed for the first screen: a 2,000-tool run builds them after it.
    setTimeout(() => {
      if (this.shown === report) suggestNames(this.lineage.names, this.tools(report).tools);
    }, 0);
    this.regions.banner.replaceChildren(
      ...[renderErrorBanner(report)].filter((node): node is HTMLElement => node !== null),
    );
    this.regions.modelSees.replaceChildren(renderModelSees(report, (tool) => this.select(tool)));
    this.renderWhatIfState();
    this.renderLineage();
    this.renderMain();
  }

  /** The turn of the run on screen: a what-if that moves the role shows its role, and the fixture's beside it. */
  private shownTurn(): TurnShown | null {
    const turn = this.base?.turn ?? null;
    const role = this.ui.edit.role;
    if (turn === null || this.variant === null || this.base?.compared || role === undefined)
      return turn;
    return { query: turn.query, role, fixtureRole: turn.role };
  }

  /** The run's tool names in order, computed once per run. */
  private tools(report: ReportView): NonNullable<App["toolsCache"]> {
    if (this.toolsCache?.report !== report) {
      const tools = runTools(report);
      this.toolsCache = { report, tools, order: new Map(tools.map((tool, i) => [tool, i])) };
    }
    return this.toolsCache;
  }

  /** One line beside the levers: what the what-if changed, and a link to the comparison. */
  private renderWhatIfSummary(): void {
    const summary = this.regions.whatIfSummary;
    const comparison = this.base?.compared ? null : (this.variant?.comparison ?? null);
    if (whatIfSize(this.ui.edit) === 0 || comparison === null) {
      summary.replaceChildren();
      return;
    }
    const changed = decidingDifferently(comparison).size;
    const { onlyVariant, onlyBase } = comparison.final;
    const parts: string[] = [
      comparison.changed
        ? counted(changed, "stage decides differently", "stages decide differently")
        : "No stage decides differently",
    ];
    if (onlyVariant.length) parts.push(`final gains ${onlyVariant.join(", ")}`);
    if (onlyBase.length) parts.push(`final loses ${onlyBase.join(", ")}`);
    if (comparison.forced.changed)
      parts.push(
        `forced ${comparison.forced.base ?? "none"} → ${comparison.forced.variant ?? "none"}`,
      );
    summary.replaceChildren(
      icon("beaker"),
      ` ${parts.join("; ")}. `,
      el(
        "button",
        {
          class: "link",
          attrs: { type: "button", "data-action": "show-comparison" },
          on: {
            click: () => {
              const target = this.regions.compare.querySelector<HTMLElement>(".comparison");
              target?.scrollIntoView({ block: "start" });
              target?.focus();
            },
          },
        },
        [icon("arrow-up"), " See the comparison"],
      ),
    );
  }

  private renderWhatIfState(): void {
    this.renderWhatIfSummary();
    const size = whatIfSize(this.ui.edit);
    this.regions.whatIfBar.replaceChildren(
      ...(this.base?.levers && size > 0 ? [whatIfBar(size, () => this.reset())] : []),
    );
    const compared = this.base?.compared ?? null;
    if (compared)
      this.regions.compare.replaceChildren(
        renderComparison(compared.comparison, compared.names, compared.replay),
      );
    else
      this.regions.compare.replaceChildren(
        ...(this.variant && size > 0
          ? [renderComparison(this.variant.comparison, ["the fixture's run", "the what-if"], false)]
          : []),
      );
  }

  private renderLineage(): void {
    const report = this.shown;
    if (report === null) return;
    const selected = this.ui.selectedTool;
    const lineage = selected === null ? null : toolLineage(report, selected);
    if (selected !== null && document.activeElement !== this.lineage.field)
      this.lineage.field.value = selected;
    const near =
      lineage && !lineage.known && selected
        ? closestName(selected, this.tools(report).tools)
        : undefined;
    fillLineageAnswer(
      this.regions.lineageAnswer,
      lineage,
      selected !== null,
      near
        ? { name: near, pick: () => ((this.lineage.field.value = near), this.select(near)) }
        : null,
    );
    if (selected !== null && lineage && !lineage.known)
      append(this.regions.lineageAnswer, inPalettes(selected, this.base?.rolePalettes ?? []));
    if (selected !== null && report.origin.kind === "fixture" && lineage?.known) {
      this.regions.lineageAnswer.append(
        " ",
        el(
          "button",
          {
            class: "link",
            attrs: { type: "button", "data-action": "reveal" },
            on: { click: () => this.channel.post({ type: "revealTool", tool: selected }) },
          },
          [icon("go-to-file"), " Reveal in fixture"],
        ),
      );
    }
  }

  private renderMain(): void {
    const report = this.shown;
    if (report === null) return;
    const focus = focusKey();
    const compared = this.variant?.comparison ?? null;
    const context: ChipContext = {
      selected: this.ui.selectedTool,
      select: (tool) => this.select(tool),
      expanded: this.expanded,
      order: this.tools(report).order,
      changed: new Set(
        [...(compared ? decidingDifferently(compared) : [])].map((stage) => stage.stage),
      ),
      failed: new Set(
        this.variant === null ? (this.base?.failed ?? []).flatMap((f) => f.stages) : [],
      ),
    };
    if (this.ui.matrix) {
      if (this.matrixCache?.report !== report)
        this.matrixCache = { report, matrix: lineageMatrix(report) };
      this.regions.main.replaceChildren(
        renderMatrix(
          this.matrixCache.matrix,
          this.ui.selectedTool,
          (tool) => this.select(tool),
          this.matrixShown,
        ),
      );
    } else {
      this.regions.main.replaceChildren(
        el("h2", { class: "sr-only", text: "Waterfall" }),
        el("p", {
          class: "hint",
          // Following a tool is the lineage answer's hint; this one says only how chips are laid out.
          text: "Chips keep the order the tools were offered in; the arrow keys move between them.",
        }),
        renderWaterfall(report, waterfallRows(report), context),
      );
    }
    restoreFocus(this.regions.main, focus);
  }

  private select(tool: string): void {
    this.save({ selectedTool: tool === "" ? null : tool });
    this.renderLineage();
    this.renderMain();
  }

  private edit(edit: WhatIf): void {
    this.save({ edit });
    if (whatIfSize(edit) === 0) {
      this.whatIfSeq++;
      this.variant = null;
      this.channel.post({ type: "clearWhatIf" });
      this.renderAll();
    } else void this.runWhatIf();
  }

  private reset(): void {
    this.save({ edit: {} });
    if (this.base?.levers && this.controlsBuilt) this.renderControls(this.base.levers, {});
    this.edit({});
  }

  private renderControls(levers: WhatIfLevers, edit: WhatIf): void {
    this.controlsBuilt = true;
    this.regions.whatIf.replaceChildren(renderWhatIf(levers, edit, (next) => this.edit(next)));
    settleControls(this.regions.whatIf);
  }

  private async runWhatIf(): Promise<void> {
    const seq = ++this.whatIfSeq;
    const reply = await this.channel.request({ type: "whatIf", edit: this.ui.edit });
    if (seq !== this.whatIfSeq) return;
    if (reply.type === "whatIfResult") {
      this.variant = { report: reply.variant, comparison: reply.comparison };
      this.status("");
    } else {
      this.variant = null;
      this.status(reply.message);
    }
    this.renderAll();
  }

  private async copyMarkdown(): Promise<void> {
    const reply = await this.channel.request({
      type: "copyMarkdown",
      run: whatIfSize(this.ui.edit) > 0 ? "whatIf" : "shown",
    });
    if (reply.type === "reply") this.status(reply.message);
  }

  private async saveVariant(): Promise<void> {
    const reply = await this.channel.request({ type: "saveVariant", edit: this.ui.edit });
    if (reply.type === "reply") this.status(reply.message);
  }

  private status(message: string): void {
    this.regions.status.textContent = message;
  }

  private save(change: Partial<PanelState>): void {
    this.ui = { ...this.ui, ...change };
    this.channel.state = this.ui;
  }
}

/** For a tool the run never offered that a role palette of the fixture names: where, and why it is not here. */
function inPalettes(tool: string, palettes: readonly RolePalette[]): Child[] {
  const naming = palettes.filter((palette) => palette.tools.includes(tool));
  if (naming.length === 0) return [];
  return [
    " It is in the palette of ",
    ...naming.flatMap((palette, i) => [
      i === 0 ? "" : ", ",
      "role ",
      nameText(palette.role),
      " (stage ",
      nameText(palette.stage),
      ")",
    ]),
    ", but the run never offered it: add it to the turn's offered tools or to the catalogue.",
  ];
}

/** The header's tag on the second of two compared runs: what it replays, or what it is compared with. */
function comparedTag(compared: NonNullable<TraceView["compared"]>): string {
  return compared.replay ? compared.names[1] : `compared with ${compared.names[0]}`;
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

interface FocusKey {
  readonly stage: string | null;
  readonly tool: string | null;
  readonly kind: string | null;
}

/** Which chip had the focus, so a re-render puts it back on the same chip. */
function focusKey(): FocusKey | null {
  const active = document.activeElement;
  if (!(active instanceof HTMLElement) || !active.dataset.tool) return null;
  return {
    stage: active.closest<HTMLElement>("[data-stage]")?.dataset.stage ?? null,
    tool: active.dataset.tool,
    kind: active.dataset.kind ?? null,
  };
}

function restoreFocus(region: HTMLElement, key: FocusKey | null): void {
  if (key === null) return;
  for (const candidate of region.querySelectorAll<HTMLElement>("[data-tool]")) {
    if (
      candidate.dataset.tool === key.tool &&
      (candidate.dataset.kind ?? null) === key.kind &&
      (candidate.closest<HTMLElement>("[data-stage]")?.dataset.stage ?? null) === key.stage
    ) {
      candidate.focus();
      return;
    }
  }
}
