import { html, nothing, type TemplateResult } from "lit";
import { html as staticHtml } from "lit/static-html.js";
import type { Comparison } from "../src/core/compare.js";
import { movesNothing, type WhatIf, type WhatIfLevers } from "../src/core/whatif.js";
import { counted } from "../src/core/words.js";
import { decidingDifferently } from "../src/core/compare-text.js";
import { icon } from "./parts.js";
import { controlChecked, StaticTag } from "./toolkit.js";
import { renderWhatIf, type MoveLever } from "./whatif-panel.js";

export interface ToolbarState {
  /** A fixture's run: it has levers to move and a variant to save. */
  readonly fixture: boolean;
  readonly compare: boolean;
  readonly whatIfOpen: boolean;
  readonly matrix: boolean;
}

export interface ToolbarActions {
  readonly copy: () => void;
  readonly toggleWhatIf: () => void;
  readonly compare: () => void;
  readonly save: () => void;
  readonly matrix: (on: boolean) => void;
}

/** The trace's actions: copy, the what-if levers, compare, save, and the matrix toggle. */
export function toolbar(state: ToolbarState, act: ToolbarActions): TemplateResult {
  const matrix = (event: Event) => act.matrix(controlChecked(event.currentTarget as Element));
  return staticHtml`<div class="toolbar" role="toolbar" aria-label="Trace actions"><${StaticTag.button} data-action="copy" @click=${act.copy}>${icon("copy")} Copy as Markdown</${StaticTag.button}><${StaticTag.button} appearance="secondary" data-action="whatif" aria-controls="whatif" aria-expanded=${String(state.whatIfOpen)} ?hidden=${!state.fixture} @click=${act.toggleWhatIf}>${icon("beaker")} What-if…</${StaticTag.button}><${StaticTag.button} appearance="secondary" data-action="compare" ?hidden=${!state.compare} @click=${act.compare}>${icon("diff")} Compare…</${StaticTag.button}><${StaticTag.button} appearance="secondary" data-action="save" ?hidden=${!state.fixture} @click=${act.save}>${icon("save")} Save as fixture…</${StaticTag.button}><${StaticTag.checkbox} data-action="matrix" .checked=${state.matrix} @change=${matrix}>Tools × stages matrix</${StaticTag.checkbox}></div>`;
}

export interface WhatIfActions {
  readonly move: MoveLever;
  /** Escape: closes the levers and gives the focus back to the button that opened them. */
  readonly close: () => void;
  readonly seeComparison: () => void;
}

/** The what-if levers, with a line that says what they changed (the banner and comparison are at the top). */
export function whatIfSection(
  levers: WhatIfLevers,
  edit: WhatIf,
  comparison: Comparison | null,
  act: WhatIfActions,
): TemplateResult {
  const escape = (event: KeyboardEvent) => event.key === "Escape" && act.close();
  return html`<section class="whatif" aria-label="What-if" id="whatif" @keydown=${escape}><h2>${icon("beaker")} What-if</h2><p class="hint">Move a lever: the waterfall shows the run it would give, compared with the fixture's.</p><p class="whatif-summary" role="status" aria-live="polite">${whatIfSummary(edit, comparison, act.seeComparison)}</p>${renderWhatIf(levers, edit, act.move)}</section>`;
}

/** One line beside the levers: what the what-if changed, and a link to the comparison. */
export function whatIfSummary(
  edit: WhatIf,
  comparison: Comparison | null,
  see: () => void,
): TemplateResult | typeof nothing {
  if (movesNothing(edit) || comparison === null) return nothing;
  const { onlyVariant, onlyBase } = comparison.final;
  const parts: string[] = [
    comparison.changed
      ? counted(
          decidingDifferently(comparison).size,
          "stage decides differently",
          "stages decide differently",
        )
      : "No stage decides differently",
  ];
  if (onlyVariant.length) parts.push(`final gains ${onlyVariant.join(", ")}`);
  if (onlyBase.length) parts.push(`final loses ${onlyBase.join(", ")}`);
  if (comparison.forced.changed)
    parts.push(
      `forced ${comparison.forced.base ?? "none"} → ${comparison.forced.variant ?? "none"}`,
    );
  return html`${icon("beaker")} ${parts.join("; ")}. <button type="button" class="link" data-action="show-comparison" @click=${see}>${icon("arrow-up")} See the comparison</button>`;
}
