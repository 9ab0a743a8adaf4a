/**
 * A roving tab stop for the chips of each waterfall row: Tab enters a row on one chip (the one
 * last focused, else the selected, else the first); the arrow keys, Home and End move inside it.
 * The tab stop lives in the chips' `tabIndex`, which the templates leave alone once a chip exists.
 */
const CHIP = ".chip";
const ROW = ".stage-row";

/** Gives each row its one tab stop if it has chips and none holds it. */
export function settleRove(list: ParentNode): void {
  for (const row of list.querySelectorAll<HTMLElement>(ROW)) {
    const chips = [...row.querySelectorAll<HTMLElement>(CHIP)];
    if (chips.length === 0 || chips.some((chip) => chip.tabIndex === 0)) continue;
    (chips.find((chip) => chip.getAttribute("aria-pressed") === "true") ?? chips[0]!).tabIndex = 0;
  }
}

/** The focused chip becomes its row's tab stop. */
export function roveFocus(event: FocusEvent): void {
  const chip = (event.target as HTMLElement).closest<HTMLElement>(CHIP);
  const row = chip?.closest<HTMLElement>(ROW);
  if (!chip || !row) return;
  for (const other of row.querySelectorAll<HTMLElement>(CHIP)) other.tabIndex = -1;
  chip.tabIndex = 0;
}

/** The arrow keys, Home and End move between the chips of a row. */
export function roveKey(event: KeyboardEvent): void {
  const chip = (event.target as HTMLElement).closest<HTMLElement>(CHIP);
  const row = chip?.closest<HTMLElement>(ROW);
  if (!chip || !row) return;
  const chips = [...row.querySelectorAll<HTMLElement>(CHIP)];
  const at = chips.indexOf(chip);
  const to =
    event.key === "ArrowRight" || event.key === "ArrowDown"
      ? Math.min(chips.length - 1, at + 1)
      : event.key === "ArrowLeft" || event.key === "ArrowUp"
        ? Math.max(0, at - 1)
        : event.key === "Home"
          ? 0
          : event.key === "End"
            ? chips.length - 1
            : null;
  if (to === null) return;
  event.preventDefault();
  chips[to]!.focus();
}
