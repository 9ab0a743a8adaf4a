import { cellState, type CellState, type PinKind, type WaterfallRow } from "../src/core/lineage.js";
import type { ReportView } from "../src/core/report.js";
import { chipGroup, type ChipContext } from "./chips.js";
import { counted } from "../src/core/words.js";
import { count, el, icon, nameText, type Child } from "./dom.js";
import { roveChips, settleRove } from "./rove.js";

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

/** The waterfall: one row per stage, the candidate count flowing as a bar from row to row. */
export function renderWaterfall(
  report: ReportView,
  rows: readonly WaterfallRow[],
  context: ChipContext,
): HTMLElement {
  const lazy = report.offered.length >= LAZY_FROM_TOOLS ? lazyFiller() : null;
  const widest = Math.max(
    1,
    report.offered.length,
    report.capability?.registered.length ?? 0,
    ...rows.map((row) => row.output),
  );
  const list = el("ol", { class: "waterfall", label: "Stages in pipeline order" });
  roveChips(list);
  const capability = report.capability;
  if (capability) {
    const router = capability.router;
    const routed = router.state === "routed" ? report.offered : [];
    const notRouted =
      router.state === "routed"
        ? capability.registered.filter((name) => !routed.includes(name))
        : [];
    list.append(
      rowElement({
        key: "router",
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
      }),
    );
  }
  const unknownTag = unknownStageTag(report.origin.kind);
  rows.forEach((row, index) =>
    list.append(
      stageRow(
        row,
        index,
        widest,
        context,
        lazy !== null && index >= EAGER_ROWS ? lazy : null,
        unknownTag,
      ),
    ),
  );
  if (capability) {
    const palette = capability.palette;
    list.append(
      rowElement({
        key: "palette",
        className: "stage-row capability-row",
        name: "palette",
        kind: "capability",
        action: palette.outcome,
        actionText: palette.outcome === "applied" ? "applied" : "no change",
        counts: palette.names ? [palette.names.length, palette.names.length] : null,
        widest,
        detail: palette.reason,
        pin: palette.forced
          ? el("span", { class: "pin", label: `forced choice: ${palette.forced}` }, [
              icon("pinned"),
              "forced: ",
              nameText(palette.forced),
            ])
          : null,
        groups: [chipGroup("palette:names", "kept", "Palette", palette.names ?? [], {}, context)],
      }),
    );
  }
  return list;
}

/** Fills a row's chip groups the first time it comes near the viewport. */
function lazyFiller(): (row: HTMLElement, fill: () => readonly (HTMLElement | null)[]) => void {
  const pending = new WeakMap<Element, () => readonly (HTMLElement | null)[]>();
  const observer = new IntersectionObserver(
    (entries) => {
      for (const entry of entries) {
        const fill = entry.isIntersecting ? pending.get(entry.target) : undefined;
        if (!fill) continue;
        pending.delete(entry.target);
        observer.unobserve(entry.target);
        entry.target
          .querySelector(".chips-pending")
          ?.replaceWith(...fill().filter((group): group is HTMLElement => group !== null));
        settleRove(entry.target as HTMLElement);
      }
    },
    { rootMargin: "600px 0px" },
  );
  return (row, fill) => {
    pending.set(row, fill);
    observer.observe(row);
  };
}

/**
 * The tag of a stage known only from its record (its configuration is not known), named for where
 * the record came from: a log, or a value read from a paused program.
 */
function unknownStageTag(origin: ReportView["origin"]["kind"]): () => HTMLElement {
  const [codicon, text, title] =
    origin === "debug"
      ? [
          "debug-alt",
          "read from the debuggee",
          "known only from the value read in the debug session: its configuration is not known",
        ]
      : ["output", "logged", "known only from a logged trace: its configuration is not known"];
  return () => el("span", { class: "tag tag-unknown", title }, [icon(codicon), text]);
}

function stageRow(
  row: WaterfallRow,
  index: number,
  widest: number,
  context: ChipContext,
  lazy: ((row: HTMLElement, fill: () => readonly (HTMLElement | null)[]) => void) | null,
  unknownTag: () => HTMLElement,
): HTMLElement {
  const { info, record } = row;
  const key = `${index}:${info.name}`;
  const tags: Child[] = [];
  if (!info.protectsForced)
    tags.push(
      el(
        "span",
        {
          class: "tag tag-hard",
          title: "a hard filter: this stage does not protect the forced choice",
        },
        [icon("lock"), "hard filter"],
      ),
    );
  if (context.changed.has(info.name))
    tags.push(
      el("span", { class: "tag tag-changed", title: "this stage decides differently here" }, [
        icon("diff"),
        "changed",
      ]),
    );
  if (context.failed.has(info.name))
    tags.push(
      el(
        "span",
        { class: "tag tag-failed", title: "the run misses an expectation of the fixture here" },
        [icon("error"), "expectation fails here"],
      ),
    );
  if (info.kind === "logged") tags.push(unknownTag());
  if (record === null) {
    return rowElement({
      key,
      className: `stage-row is-disabled${marks(info.name, context)}`,
      name: info.name,
      kind: info.kind,
      action: "disabled",
      counts: null,
      widest,
      detail: "not run: the stage is disabled",
      tags,
      selected: context.selected === null ? null : cellLabel(context.selected, "disabled", false),
      groups: [],
    });
  }
  if (record.degraded)
    tags.push(
      el(
        "span",
        {
          class: "tag tag-degraded",
          title: "the stage could not do its job properly and fell back",
          label: "degraded",
        },
        [icon("warning"), "degraded"],
      ),
    );
  const selected = context.selected;
  const groups = () => [
    chipGroup(`${key}:kept`, "kept", "Kept", record.kept, record.reasons, context),
    chipGroup(`${key}:dropped`, "dropped", "Dropped", record.dropped, record.reasons, context),
    chipGroup(`${key}:added`, "added", "Added", record.added, record.reasons, context),
    chipGroup(
      `${key}:reinstated`,
      "reinstated",
      "Reinstated (protected forced choice)",
      record.reinstated,
      record.reasons,
      context,
    ),
    whyDropped(record.dropped, record.reasons, context),
  ];
  const element = rowElement({
    key,
    className: `stage-row action-${record.action}${marks(info.name, context)}`,
    name: info.name,
    kind: info.kind,
    action: record.action,
    counts: [row.input, row.output],
    widest,
    detail: record.detail,
    tags,
    pin: row.pin === null ? null : pin(row.pin, record.forcedChoice, row.forcedBefore),
    selected:
      selected === null
        ? null
        : cellLabel(selected, cellState(row, selected), record.forcedChoice === selected),
    groups: lazy
      ? [
          el("div", {
            class: "chips-pending",
            text: `${count(record.kept.length)} kept, ${count(record.dropped.length)} dropped, ${count(record.added.length)} added`,
          }),
        ]
      : groups(),
  });
  lazy?.(element, groups);
  settleRove(element);
  return element;
}

/** Extra classes for a row the comparison or the expectations single out. */
function marks(stage: string, context: ChipContext): string {
  return `${context.changed.has(stage) ? " is-changed" : ""}${context.failed.has(stage) ? " is-failed" : ""}`;
}

/** Reasons listed at once up to this many; more fold into a "why" line. */
const REASONS_SHOWN = 4;

/** Why each tool was dropped, readable without hovering: listed when few, behind "Why…" when many. */
function whyDropped(
  dropped: readonly string[],
  reasons: Readonly<Record<string, string>>,
  context: ChipContext,
): HTMLElement | null {
  const place = (tool: string) => context.order.get(tool) ?? Number.MAX_SAFE_INTEGER;
  const explained = dropped
    .filter((tool) => Object.hasOwn(reasons, tool))
    .sort((a, b) => place(a) - place(b));
  if (explained.length === 0) return null;
  const items = () =>
    explained.map((tool) => el("li", {}, [nameText(tool), `: ${reasons[tool]!}`]));
  if (explained.length <= REASONS_SHOWN)
    return el("ul", { class: "why", label: "Why they were dropped" }, items());
  const list = el("ul", { class: "why" });
  const details = el("details", { class: "why-more" }, [
    el("summary", { text: `Why ${counted(explained.length, "tool was", "tools were")} dropped` }),
    list,
  ]);
  // A 2,000-tool row builds its reasons only when asked.
  details.addEventListener("toggle", () => {
    if (details.open && list.childElementCount === 0) list.append(...items());
  });
  return details;
}

function pin(kind: PinKind, after: string | null, before: string | null): HTMLElement {
  const text: Child[] =
    kind === "released"
      ? [
          "force released",
          before ? " (was " : "",
          before ? nameText(before) : null,
          before ? ")" : "",
        ]
      : kind === "changed"
        ? ["forced: ", nameText(after!), " (was ", nameText(before!), ")"]
        : [kind === "set" ? "forced: " : "forced again: ", nameText(after!)];
  const label = kind === "released" ? "forced choice released" : `forced choice ${kind}: ${after}`;
  return el("span", { class: `pin pin-${kind}`, label, title: label }, [
    icon(kind === "released" ? "pin" : "pinned"),
    ...text,
  ]);
}

function cellLabel(tool: string, state: CellState, forced: boolean): HTMLElement {
  return el(
    "span",
    {
      class: `cell cell-${state}`,
      label: `${tool} here: ${CELL_TEXT[state]}${forced ? ", forced" : ""}`,
    },
    [icon("target"), nameText(tool), `: ${CELL_TEXT[state]}${forced ? " (forced)" : ""}`],
  );
}

interface RowSpec {
  readonly key: string;
  readonly className: string;
  readonly name: string;
  readonly kind: string;
  readonly action: string;
  readonly actionText?: string;
  readonly counts: readonly [number, number] | null;
  readonly widest: number;
  readonly detail: string;
  readonly tags?: readonly Child[];
  readonly pin?: HTMLElement | null;
  readonly selected?: HTMLElement | null;
  readonly groups: readonly (HTMLElement | null)[];
}

function rowElement(spec: RowSpec): HTMLElement {
  const actionText = spec.actionText ?? spec.action;
  const bar = el("div", { class: "bar", attrs: { "aria-hidden": "true" } }, [
    el("div", { class: "bar-fill" }),
  ]);
  if (spec.counts)
    (bar.firstChild as HTMLElement).style.width = `${(100 * spec.counts[1]) / spec.widest}%`;
  const countText = spec.counts ? `${count(spec.counts[0])} → ${count(spec.counts[1])}` : "—";
  return el("li", { class: spec.className, attrs: { "data-stage": spec.name } }, [
    el("div", { class: "row-head" }, [
      nameText(spec.name, "stage-name"),
      // The kind only when it adds something: not "intent intent", and "logged" has its own tag.
      spec.kind === spec.name || spec.kind === "logged"
        ? null
        : el("span", { class: "stage-kind", text: spec.kind }),
      el(
        "span",
        { class: `badge badge-${spec.action}`, label: `action: ${actionText}`, role: "img" },
        [
          icon(ACTION_ICON[spec.action] ?? "dash"),
          el("span", { text: actionText, attrs: { "aria-hidden": "true" } }),
        ],
      ),
      ...(spec.tags ?? []),
      spec.pin ?? null,
      el(
        "span",
        {
          class: "flow",
          role: "img",
          label: spec.counts
            ? `${spec.counts[0]} in, ${spec.counts[1]} out`
            : "no candidates counted",
        },
        [
          bar,
          el("span", { class: "flow-count", text: countText, attrs: { "aria-hidden": "true" } }),
        ],
      ),
    ]),
    spec.detail ? el("p", { class: "detail", text: spec.detail }) : null,
    spec.selected ?? null,
    ...spec.groups,
  ]);
}
