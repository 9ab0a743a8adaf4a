import { count, el, icon, nameText } from "./dom.js";

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
        "aria-pressed": String(selected),
        "data-tool": tool,
        "data-kind": kind,
      },
      on: { click: () => context.select(tool) },
    },
    [icon(ICON[kind]), nameText(tool, "chip-name")],
  );
}

/** One kind of chip in one row, collapsed past `COLLAPSED_CHIPS` behind an expander; the selected tool always shows. */
export function chipGroup(
  key: string,
  kind: ChipKind,
  heading: string,
  tools: readonly string[],
  reasons: Readonly<Record<string, string>>,
  context: ChipContext,
): HTMLElement | null {
  if (tools.length === 0) return null;
  const list = el("div", {
    class: "chip-list",
    role: "group",
    label: `${heading}: ${count(tools.length)}`,
  });
  const reason = (tool: string) => (Object.hasOwn(reasons, tool) ? reasons[tool]! : null);
  let shown = Math.min(tools.length, Math.max(COLLAPSED_CHIPS, context.expanded.get(key) ?? 0));
  for (let i = 0; i < shown; i++) list.append(chip(kind, tools[i]!, reason(tools[i]!), context));
  const hiddenSelected = context.selected !== null && tools.indexOf(context.selected, shown) >= 0;
  if (hiddenSelected)
    list.append(chip(kind, context.selected!, reason(context.selected!), context));
  if (shown < tools.length) {
    const expander = el("button", {
      class: "expander",
      attrs: { type: "button", "aria-expanded": "false" },
    });
    const label = () => {
      const rest = tools.length - shown;
      expander.textContent = `+${count(rest)} more`;
      expander.setAttribute(
        "aria-label",
        `Show ${count(Math.min(rest, EXPAND_STEP))} more ${heading.toLowerCase()} of ${count(rest)}`,
      );
    };
    label();
    expander.addEventListener("click", () => {
      const next = Math.min(tools.length, shown + EXPAND_STEP);
      const fragment = document.createDocumentFragment();
      for (let i = shown; i < next; i++)
        if (tools[i] !== context.selected || !hiddenSelected)
          fragment.append(chip(kind, tools[i]!, reason(tools[i]!), context));
      list.insertBefore(fragment, expander);
      shown = next;
      context.expanded.set(key, shown);
      if (shown >= tools.length) expander.remove();
      else label();
    });
    list.append(expander);
  }
  return el("div", { class: `chip-group group-${kind}` }, [
    el("span", { class: "group-label", text: `${heading} (${count(tools.length)})` }),
    list,
  ]);
}
