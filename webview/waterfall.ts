import { html, nothing, type TemplateResult } from "lit";
import { ref } from "lit/directives/ref.js";
import { repeat } from "lit/directives/repeat.js";
import { cellState, type CellState, type PinKind, type WaterfallRow } from "../src/core/lineage.js";
import type { ReportView } from "../src/core/report.js";
import { counted } from "../src/core/words.js";
import { chipGroup, inRunOrder, type ChipContext } from "./chips.js";
import { count } from "./dom.js";
import { cssomStyle, icon, nameText } from "./parts.js";
import { roveFocus, roveKey } from "./rove.js";

type Part = TemplateResult | typeof nothing;

const ACTION_ICON: Record<string, string> = {
  abstain: "dash",
  select: "filter",
  force: "pinned",
  error: "error",
  disabled: "circle-slash",
  routed: "type-hierarchy-sub",
  refused: "circle-slash",
  none: "dash",
  applied: "check",
  no_change: "dash",
};
const CELL_TEXT: Record<CellState, string> = {
  kept: "kept",
  dropped: "dropped here",
  added: "added here",
  reinstated: "reinstated here",
  absent: "not in the set",
  disabled: "stage disabled",
};

/** Rows whose chips render at once; below them, a large trace fills a row's chips when it nears the viewport. */
const EAGER_ROWS = 6;
/** From this many tools on, off-screen rows wait for their chips. */
const LAZY_FROM_TOOLS = 200;

/** What the waterfall needs beyond the chips: which rows have their chips, and what is open. */
export interface WaterfallContext extends ChipContext {
  /** Rows (by key) whose chips were filled in, and the callback that watches a row still waiting. */
  readonly filled: ReadonlySet<string>;
  readonly watch: (element: Element | undefined) => void;
  /** The "Why…" lists opened, by row key: a 2,000-tool row builds its reasons only when asked. */
  readonly whyOpen: ReadonlySet<string>;
  readonly openWhy: (key: string, open: boolean) => void;
}

/** The waterfall: one row per stage, the candidate count flowing as a bar from row to row. */
export function renderWaterfall(
  report: ReportView,
  rows: readonly WaterfallRow[],
  context: WaterfallContext,
): TemplateResult {
  const lazy = report.offered.length >= LAZY_FROM_TOOLS;
  const widest = Math.max(
    1,
    report.offered.length,
    report.capability?.registered.length ?? 0,
    ...rows.map((row) => row.output),
  );
  const unknownTag = unknownStageTag(report.origin.kind);
  const keyed = rows.map((row, index) => ({ row, index, key: `${index}:${row.info.name}` }));
  return html`<ol class="waterfall" aria-label="Stages in pipeline order" @focusin=${roveFocus} @keydown=${roveKey}>${routerRow(report, widest, context)}${repeat(
    keyed,
    (item) => item.key,
    ({ row, index, key }) =>
      stageRow(
        row,
        key,
        widest,
        context,
        lazy && index >= EAGER_ROWS && !context.filled.has(key),
        unknownTag,
      ),
  )}${paletteRow(report, widest, context)}</ol>`;
}

/** The capability router's row, above the stages: which registered tools it routed. */
function routerRow(report: ReportView, widest: number, context: ChipContext): Part {
  const capability = report.capability;
  if (!capability) return nothing;
  const router = capability.router;
  const routed = router.state === "routed" ? report.offered : [];
  const notRouted =
    router.state === "routed" ? capability.registered.filter((name) => !routed.includes(name)) : [];
  return rowTemplate({
    className: "stage-row capability-row",
    name: "router",
    kind: "capability",
    action: router.state,
    counts: [capability.registered.length, report.offered.length],
    widest,
    detail:
      router.state === "routed"
        ? `routed ${count(routed.length)} of ${count(capability.registered.length)} registered tools`
        : `${capability.routerReason}: the stages run over every registered tool`,
    groups: [
      chipGroup("router:routed", "routed", "Routed", routed, {}, context),
      chipGroup(
        "router:dropped",
        "dropped",
        "Not routed",
        notRouted,
        Object.fromEntries(notRouted.map((name) => [name, "not routed by the router"])),
        context,
      ),
    ],
  });
}

/** The capability palette's row, below the stages: the tools it bound, and its forced choice. */
function paletteRow(report: ReportView, widest: number, context: ChipContext): Part {
  const palette = report.capability?.palette;
  if (!palette) return nothing;
  return rowTemplate({
    className: "stage-row capability-row",
    name: "palette",
    kind: "capability",
    action: palette.outcome,
    actionText: palette.outcome === "applied" ? "applied" : "no change",
    counts: palette.names ? [palette.names.length, palette.names.length] : null,
    widest,
    detail: palette.reason,
    pin: palette.forced
      ? html`<span class="pin" aria-label="forced choice: ${palette.forced}">${icon("pinned")}forced: ${nameText(palette.forced)}</span>`
      : nothing,
    groups: [chipGroup("palette:names", "kept", "Palette", palette.names ?? [], {}, context)],
  });
}

/**
 * The tag of a stage known only from its record (its configuration is not known), named for where
 * the record came from: a log, or a value read from a paused program.
 */
function unknownStageTag(origin: ReportView["origin"]["kind"]): TemplateResult {
  const [codicon, text, title] =
    origin === "debug"
      ? [
          "debug-alt",
          "read from the debuggee",
          "known only from the value read in the debug session: its configuration is not known",
        ]
      : origin === "received"
        ? [
            "broadcast",
            "received",
            "known only from a turn received over OpenTelemetry: its configuration is not known",
          ]
        : ["output", "logged", "known only from a logged trace: its configuration is not known"];
  return html`<span class="tag tag-unknown" title=${title}>${icon(codicon)}${text}</span>`;
}

/** The tags that single a stage out: a hard filter, changed by the comparison, failing an expectation, known only from its record. */
function stageTags(
  row: WaterfallRow,
  context: ChipContext,
  unknownTag: TemplateResult,
): TemplateResult[] {
  const { info, record } = row;
  const tag = (name: string, title: string, codicon: string, text: string) =>
    html`<span class="tag tag-${name}" title=${title}>${icon(codicon)}${text}</span>`;
  const tags: TemplateResult[] = [];
  if (!info.protectsForced)
    tags.push(
      tag(
        "hard",
        "a hard filter: this stage does not protect the forced choice",
        "lock",
        "hard filter",
      ),
    );
  if (context.changed.has(info.name))
    tags.push(tag("changed", "this stage decides differently here", "diff", "changed"));
  if (context.failed.has(info.name))
    tags.push(
      tag(
        "failed",
        "the run misses an expectation of the fixture here",
        "error",
        "expectation fails here",
      ),
    );
  if (info.kind === "logged") tags.push(unknownTag);
  if (record?.degraded)
    tags.push(
      html`<span class="tag tag-degraded" title="the stage could not do its job properly and fell back" aria-label="degraded">${icon("warning")}degraded</span>`,
    );
  return tags;
}

function stageRow(
  row: WaterfallRow,
  key: string,
  widest: number,
  context: WaterfallContext,
  waiting: boolean,
  unknownTag: TemplateResult,
): TemplateResult {
  const { info, record } = row;
  const tags = stageTags(row, context, unknownTag);
  const selected = context.selected;
  if (record === null)
    return rowTemplate({
      className: `stage-row is-disabled${marks(info.name, context)}`,
      name: info.name,
      kind: info.kind,
      action: "disabled",
      counts: null,
      widest,
      detail: "not run: the stage is disabled",
      tags,
      selected: selected === null ? nothing : cellLabel(selected, "disabled", false),
      groups: [],
    });
  return rowTemplate({
    className: `stage-row action-${record.action}${marks(info.name, context)}`,
    name: info.name,
    kind: info.kind,
    action: record.action,
    counts: [row.input, row.output],
    widest,
    detail: record.detail,
    tags,
    pin: row.pin === null ? nothing : pin(row.pin, record.forcedChoice, row.forcedBefore),
    selected:
      selected === null
        ? nothing
        : cellLabel(selected, cellState(row, selected), record.forcedChoice === selected),
    groups: waiting
      ? [
          html`<div class="chips-pending" data-row=${key} ${ref(context.watch)}>${count(record.kept.length)} kept, ${count(record.dropped.length)} dropped, ${count(record.added.length)} added</div>`,
        ]
      : recordGroups(key, record, context),
  });
}

/** A stage's chips, a group per what it did to each tool, then why it dropped the ones it dropped. */
function recordGroups(
  key: string,
  record: NonNullable<WaterfallRow["record"]>,
  context: WaterfallContext,
): Part[] {
  const group = (kind: "kept" | "dropped" | "added" | "reinstated", heading: string) =>
    chipGroup(`${key}:${kind}`, kind, heading, record[kind], record.reasons, context);
  return [
    group("kept", "Kept"),
    group("dropped", "Dropped"),
    group("added", "Added"),
    group("reinstated", "Reinstated (protected forced choice)"),
    whyDropped(key, record.dropped, record.reasons, context),
  ];
}

/** Extra classes for a row the comparison or the expectations single out. */
function marks(stage: string, context: ChipContext): string {
  return `${context.changed.has(stage) ? " is-changed" : ""}${context.failed.has(stage) ? " is-failed" : ""}`;
}

/** Reasons listed at once up to this many; more fold into a "why" line. */
const REASONS_SHOWN = 4;

/** Why each tool was dropped, readable without hovering: listed when few, behind "Why…" when many. */
function whyDropped(
  key: string,
  dropped: readonly string[],
  reasons: Readonly<Record<string, string>>,
  context: WaterfallContext,
): Part {
  const explained = inRunOrder(
    dropped.filter((tool) => Object.hasOwn(reasons, tool)),
    context.order,
  );
  if (explained.length === 0) return nothing;
  const items = () =>
    repeat(
      explained,
      (tool) => tool,
      (tool) => html`<li>${nameText(tool)}: ${reasons[tool]!}</li>`,
    );
  if (explained.length <= REASONS_SHOWN)
    return html`<ul class="why" aria-label="Why they were dropped">${items()}</ul>`;
  const open = context.whyOpen.has(key);
  return html`<details class="why-more" .open=${open} @toggle=${(event: Event) => context.openWhy(key, (event.currentTarget as HTMLDetailsElement).open)}><summary>Why ${counted(explained.length, "tool was", "tools were")} dropped</summary><ul class="why">${open ? items() : nothing}</ul></details>`;
}

function pin(kind: PinKind, after: string | null, before: string | null): TemplateResult {
  const text =
    kind === "released"
      ? html`force released${before ? html` (was ${nameText(before)})` : nothing}`
      : kind === "changed"
        ? html`forced: ${nameText(after!)} (was ${nameText(before!)})`
        : html`${kind === "set" ? "forced: " : "forced again: "}${nameText(after!)}`;
  const label = kind === "released" ? "forced choice released" : `forced choice ${kind}: ${after}`;
  return html`<span class="pin pin-${kind}" aria-label=${label} title=${label}>${icon(kind === "released" ? "pin" : "pinned")}${text}</span>`;
}

function cellLabel(tool: string, state: CellState, forced: boolean): TemplateResult {
  return html`<span class="cell cell-${state}" aria-label="${tool} here: ${CELL_TEXT[state]}${forced ? ", forced" : ""}">${icon("target")}${nameText(tool)}: ${CELL_TEXT[state]}${forced ? " (forced)" : ""}</span>`;
}

interface RowSpec {
  readonly className: string;
  readonly name: string;
  readonly kind: string;
  readonly action: string;
  readonly actionText?: string;
  readonly counts: readonly [number, number] | null;
  readonly widest: number;
  readonly detail: string;
  readonly tags?: readonly TemplateResult[];
  readonly pin?: Part;
  readonly selected?: Part;
  readonly groups: readonly Part[];
}

function rowTemplate(spec: RowSpec): TemplateResult {
  const actionText = spec.actionText ?? spec.action;
  const fill = spec.counts ? (100 * spec.counts[1]) / spec.widest : null;
  const countText = spec.counts ? `${count(spec.counts[0])} → ${count(spec.counts[1])}` : "—";
  const flowLabel = spec.counts
    ? `${spec.counts[0]} in, ${spec.counts[1]} out`
    : "no candidates counted";
  // The kind only when it adds something: not "intent intent", and "logged" has its own tag.
  const kind =
    spec.kind === spec.name || spec.kind === "logged"
      ? nothing
      : html`<span class="stage-kind">${spec.kind}</span>`;
  return html`<li class=${spec.className} data-stage=${spec.name}><div class="row-head">${nameText(spec.name, "stage-name")}${kind}<span class="badge badge-${spec.action}" aria-label="action: ${actionText}" role="img">${icon(ACTION_ICON[spec.action] ?? "dash")}<span aria-hidden="true">${actionText}</span></span>${spec.tags ?? nothing}${spec.pin ?? nothing}<span class="flow" role="img" aria-label=${flowLabel}><div class="bar" aria-hidden="true"><div class="bar-fill" ${cssomStyle({ width: fill === null ? "" : `${fill}%` })}></div></div><span class="flow-count" aria-hidden="true">${countText}</span></span></div>${spec.detail ? html`<p class="detail">${spec.detail}</p>` : nothing}${spec.selected ?? nothing}${spec.groups}</li>`;
}
