import { html, nothing, type TemplateResult } from "lit";
import type { Lineage } from "../src/core/lineage.js";
import type { RolePalette } from "../src/protocol.js";
import { icon, nameText } from "./parts.js";

export interface LineageAsk {
  /** What the field holds: the name typed, or the tool a chip selected. */
  readonly text: string;
  /** The run's tool names, as the field's suggestions. */
  readonly names: readonly string[];
  readonly typed: (text: string) => void;
  /** Asks about a name once typing settles, or at once on Enter. */
  readonly ask: (name: string, now: boolean) => void;
}

/** "Where did X go?": a labelled field that answers as the user types and suggests the run's tool names. */
export function lineageSection(ask: LineageAsk, answer: TemplateResult): TemplateResult {
  const input = (event: Event) => {
    const text = (event.currentTarget as HTMLInputElement).value;
    ask.typed(text);
    ask.ask(text.trim(), false);
  };
  const enter = (event: KeyboardEvent) => {
    if (event.key === "Enter")
      ask.ask((event.currentTarget as HTMLInputElement).value.trim(), true);
  };
  return html`<section class="lineage" aria-label="Where did X go?"><h2>Where did X go?</h2><div class="lineage-ask"><label class="field-label" for="lineage-input">Tool name</label><input class="text-input" id="lineage-input" type="text" list="lineage-names" autocomplete="off" spellcheck="false" placeholder="a tool name" aria-describedby="lineage-answer" .value=${ask.text} @input=${input} @keydown=${enter}><datalist id="lineage-names">${ask.names.map((tool) => html`<option value=${tool}></option>`)}</datalist></div>${answer}</section>`;
}

export interface LineageAnswer {
  readonly lineage: Lineage | null;
  readonly asked: boolean;
  /** For a name the run does not know, the closest one it does, as a button that asks about it. */
  readonly suggestion: { readonly name: string; readonly pick: () => void } | null;
  /** For a tool the run never offered, the role palettes of the fixture that name it. */
  readonly palettes: readonly RolePalette[];
  /** For a known tool of a fixture, the way to its place in the fixture. */
  readonly reveal: (() => void) | null;
}

/** The one-sentence answer, names set apart (and bidi-isolated) from the prose. */
export function lineageAnswer(answer: LineageAnswer): TemplateResult {
  return html`<p class="lineage-answer" aria-live="polite" id="lineage-answer">${answerText(answer)}</p>`;
}

function answerText({ lineage, asked, suggestion, palettes, reveal }: LineageAnswer): unknown {
  if (!lineage)
    return asked
      ? "Type a tool's exact name, or click a chip."
      : "Click a chip or type a name to follow one tool through every stage.";
  // The sentence about a tool the run does not know starts with its name already.
  const known = lineage.known ? html`${nameText(lineage.tool, "name lineage-tool")}: ` : nothing;
  const parts = lineage.parts.map((part) =>
    typeof part === "string" ? part : html`<code>${nameText(part.name)}</code>`,
  );
  const near =
    !lineage.known && suggestion
      ? html` Did you mean <button type="button" class="link" data-action="suggestion" @click=${suggestion.pick}>${nameText(suggestion.name)}</button>?`
      : nothing;
  const where = lineage.known ? nothing : inPalettes(lineage.tool, palettes);
  const revealLink =
    reveal && lineage.known
      ? html` <button type="button" class="link" data-action="reveal" @click=${reveal}>${icon("go-to-file")} Reveal in fixture</button>`
      : nothing;
  return html`${known}${parts}${near}${where}${revealLink}`;
}

/** For a tool the run never offered that a role palette of the fixture names: where, and why it is not here. */
function inPalettes(
  tool: string,
  palettes: readonly RolePalette[],
): TemplateResult | typeof nothing {
  const naming = palettes.filter((palette) => palette.tools.includes(tool));
  if (naming.length === 0) return nothing;
  return html` It is in the palette of ${naming.map(
    (palette, i) =>
      html`${i === 0 ? "" : ", "}role ${nameText(palette.role)} (stage ${nameText(palette.stage)})`,
  )}, but the run never offered it: add it to the turn's offered tools or to the catalogue.`;
}
