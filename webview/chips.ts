import { html, nothing, type TemplateResult } from "lit";
import { repeat } from "lit/directives/repeat.js";
import { count } from "./dom.js";
import { icon, nameText } from "./parts.js";

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
  readonly expanded: ReadonlyMap<string, number>;
  /** Shows `shown` chips of the group `key`. */
  readonly expand: (key: string, shown: number) => void;
  /** Each tool's place in the run (offered order, then first seen): chips are in this order everywhere. */
  readonly order: ReadonlyMap<string, number>;
  /** Stages the run on screen decides differently from the one it is compared with. */
  readonly changed: ReadonlySet<string>;
  /** Stages where the run misses one of the fixture's expectations. */
  readonly failed: ReadonlySet<string>;
}

/** A chip is a button: it answers "Where did X go?" for its tool. */
function chip(
  kind: ChipKind,
  tool: string,
  reason: string | null,
  context: ChipContext,
): TemplateResult {
  const why = reason ? `: ${reason}` : "";
  const selected = tool === context.selected;
  // One tab stop per row: the row's arrow keys move between its chips (see rove.ts).
  return html`<button type="button" tabindex="-1" class="chip chip-${kind}${selected ? " is-selected" : ""}" title="${tool} — ${LABEL[kind]}${why}" aria-label="${tool}, ${LABEL[kind]}${why}" aria-pressed=${String(selected)} data-tool=${tool} data-kind=${kind} @click=${() => context.select(tool)}>${icon(ICON[kind])}${nameText(tool, "chip-name")}</button>`;
}

/** Tools in the run's order. */
export function inRunOrder(tools: readonly string[], order: ReadonlyMap<string, number>): string[] {
  const place = (tool: string) => order.get(tool) ?? Number.MAX_SAFE_INTEGER;
  return [...tools].sort((a, b) => place(a) - place(b));
}

/** One kind of chip in one row, in run order, collapsed past `COLLAPSED_CHIPS` behind an expander; the selected tool always shows. */
export function chipGroup(
  key: string,
  kind: ChipKind,
  heading: string,
  unordered: readonly string[],
  reasons: Readonly<Record<string, string>>,
  context: ChipContext,
): TemplateResult | typeof nothing {
  if (unordered.length === 0) return nothing;
  const tools = inRunOrder(unordered, context.order);
  const shown = Math.min(tools.length, Math.max(COLLAPSED_CHIPS, context.expanded.get(key) ?? 0));
  const visible = tools.slice(0, shown);
  if (context.selected !== null && tools.indexOf(context.selected, shown) >= 0)
    visible.push(context.selected);
  const reason = (tool: string) => (Object.hasOwn(reasons, tool) ? reasons[tool]! : null);
  const rest = tools.length - shown;
  const lower = heading.toLowerCase();
  const grow = (to: number) => (event: Event) =>
    expandKeepingFocus(event, () => context.expand(key, to));
  return html`<div class="chip-group group-${kind}"><span class="group-label">${heading} (${count(tools.length)})</span><div class="chip-list" role="group" aria-label="${heading}: ${count(tools.length)}">${repeat(
    visible,
    (tool) => tool,
    (tool) => chip(kind, tool, reason(tool), context),
  )}${rest > 0 ? expander(`+${count(rest)} more`, `Show ${count(Math.min(rest, EXPAND_STEP))} more ${lower} of ${count(rest)}`, grow(Math.min(tools.length, shown + EXPAND_STEP))) : nothing}${shown > COLLAPSED_CHIPS ? expander("Show fewer", `Show only the first ${COLLAPSED_CHIPS} ${lower}`, grow(COLLAPSED_CHIPS)) : nothing}</div></div>`;
}

function expander(text: string, label: string, click: (event: Event) => void): TemplateResult {
  return html`<button type="button" class="expander" aria-label=${label} @click=${click}>${text}</button>`;
}

/** An expander that disappears with its click (all shown, or back to the first few) hands the focus to the other one. */
function expandKeepingFocus(event: Event, expand: () => void): void {
  const button = event.currentTarget as HTMLElement;
  const list = button.parentElement;
  expand();
  if (!button.isConnected) list?.querySelector<HTMLElement>(".expander")?.focus();
}
