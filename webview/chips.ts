import { count, el, icon, nameText } from "./dom.js";
import { settleRove } from "./rove.js";

export type ChipKind = "kept" | "dropped" | "added" | "reinstated" | "routed";

const LABEL: Record<ChipKind, string> = {
  kept: "kept",
  dropped: "dropped",
  added: "added",
  reinstated: "reinstated as the protected forced choice",
  routed: "routed",
};
const ICON: Record<ChipKind, string> = {
  kept: "check",
  dropped: "close",
  added: "add",
  reinstated: "shield",
  routed: "arrow-right",
};

/** Chips shown before a group collapses: a 2,000-tool row must not cost 2,000 buttons up front. */
export const COLLAPSED_CHIPS = 12;
/** Chips each click on an expander adds. */
export const EXPAND_STEP = 500;

export interface ChipContext {
  readonly selected: string | null;
  readonly select: (tool: string) => void;
  /** How many chips of a group are shown, by group key, kept across re-renders while the panel lives. */
  readonly expanded: Map<string, number>;
  /** Each tool's place in the run (offered order, then first seen): chips are in this order everywhere. */
  readonly order: ReadonlyMap<string, number>;
  /** Stages the run on screen decides differently from the one it is compared with. */
  readonly changed: ReadonlySet<string>;
  /** Stages where the run misses one of the fixture's expectations. */
  readonly failed: ReadonlySet<string>;
}

/** A chip is a button: it answers "Where did X go?" for its tool. */
export function chip(
  kind: ChipKind,
  tool: string,
  reason: string | null,
  context: ChipContext,
): HTMLButtonElement {
  const why = reason ? `: ${reason}` : "";
  const selected = tool === context.selected;
  return el(
    "button",
    {
      class: `chip chip-${kind}${selected ? " is-selected" : ""}`,
      title: `${tool} — ${LABEL[kind]}${why}`,
      label: `${tool}, ${LABEL[kind]}${why}`,
      attrs: {
        type: "button",
        // One tab stop per row: the row's arrow keys move between its chips (see rove.ts).
        tabindex: "-1",
        "aria-pressed": String(selected),
        "data-tool": tool,
        "data-kind": kind,
      },
      on: { click: () => context.select(tool) },
    },
    [icon(ICON[kind]), nameText(tool, "chip-name")],
  );
}

/** One kind of chip in one row, in run order, collapsed past `COLLAPSED_CHIPS` behind an expander; the selected tool always shows. */
export function chipGroup(
  key: string,
  kind: ChipKind,
  heading: string,
  unordered: readonly string[],
  reasons: Readonly<Record<string, string>>,
  context: ChipContext,
): HTMLElement | null {
  if (unordered.length === 0) return null;
  const place = (tool: string) => context.order.get(tool) ?? Number.MAX_SAFE_INTEGER;
  const tools = [...unordered].sort((a, b) => place(a) - place(b));
  const list = el("div", {
    class: "chip-list",
    role: "group",
    label: `${heading}: ${count(tools.length)}`,
  });
  const reason = (tool: string) => (Object.hasOwn(reasons, tool) ? reasons[tool]! : null);
  const button = (text: string, label: string, onClick: () => void) =>
    el("button", {
      class: "expander",
      text,
      label,
      attrs: { type: "button" },
      on: { click: onClick },
    });
  /** Shows the first `shown` chips, then the expanders; keeps the focus on the expander clicked. */
  const fill = (shown: number, focus: "more" | "fewer" | null) => {
    const row = list.closest<HTMLElement>(".stage-row");
    const chips: Node[] = [];
    for (let i = 0; i < shown; i++) chips.push(chip(kind, tools[i]!, reason(tools[i]!), context));
    if (context.selected !== null && tools.indexOf(context.selected, shown) >= 0)
      chips.push(chip(kind, context.selected, reason(context.selected), context));
    const rest = tools.length - shown;
    const more =
      rest > 0
        ? button(
            `+${count(rest)} more`,
            `Show ${count(Math.min(rest, EXPAND_STEP))} more ${heading.toLowerCase()} of ${count(rest)}`,
            () => grow(Math.min(tools.length, shown + EXPAND_STEP), "more"),
          )
        : null;
    const fewer =
      shown > COLLAPSED_CHIPS
        ? button(
            "Show fewer",
            `Show only the first ${COLLAPSED_CHIPS} ${heading.toLowerCase()}`,
            () => grow(COLLAPSED_CHIPS, "fewer"),
          )
        : null;
    list.replaceChildren(
      ...chips,
      ...[more, fewer].filter((b): b is HTMLButtonElement => b !== null),
    );
    if (row) settleRove(row);
    (focus === "more" ? (more ?? fewer) : focus === "fewer" ? (more ?? fewer) : null)?.focus();
  };
  const grow = (shown: number, focus: "more" | "fewer") => {
    context.expanded.set(key, shown);
    fill(shown, focus);
  };
  fill(Math.min(tools.length, Math.max(COLLAPSED_CHIPS, context.expanded.get(key) ?? 0)), null);
  return el("div", { class: `chip-group group-${kind}` }, [
    el("span", { class: "group-label", text: `${heading} (${count(tools.length)})` }),
    list,
  ]);
}
