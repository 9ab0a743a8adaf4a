import { html, nothing, type TemplateResult } from "lit";
import {
  MODEL_HEADING,
  MODEL_MARK_TEXT,
  modelGot,
  NO_MODEL_CALL,
  noToolDefinitions,
  notRecorded,
  choiceWarning,
  toolChoiceText,
  unofferedWarning,
  type ModelGot,
  type ModelToolMark,
} from "../src/core/model-got.js";
import type { ReportView } from "../src/core/report.js";
import { count } from "./dom.js";
import { icon, nameText, toolLink } from "./parts.js";

/** Rows listed before an expander; a difference is listed whatever its place. */
const ROWS_SHOWN = 50;

const MARK_ICON: Readonly<Record<Exclude<ModelToolMark, "both">, string>> = {
  added: "diff-added",
  lost: "diff-removed",
};

/**
 * The tools the model call a turn fed was offered, against the final palette, and the ones it
 * called: nothing for a run not read from OpenTelemetry. `all` once "Show all" was clicked.
 */
export function renderModelGot(
  report: ReportView,
  select: (tool: string) => void,
  all: boolean,
  showAll: () => void,
): TemplateResult | typeof nothing {
  const got = modelGot(report);
  if (got === undefined) return nothing;
  const body =
    got === null
      ? html`<p class="model-none">${NO_MODEL_CALL}</p>`
      : html`<p class="model-call">Model call: ${got.model === null ? "model not named" : nameText(got.model)}, span ${nameText(got.spanId, "span-id")} <span class="tag model-convention">${got.convention}</span></p>${offered(got, select, all, showAll)}${choice(got)}${called(got, select)}`;
  return html`<section class="model-got" aria-labelledby="model-got-title"><h2 id="model-got-title">${MODEL_HEADING}</h2>${body}</section>`;
}

function offered(
  got: ModelGot,
  select: (tool: string) => void,
  all: boolean,
  showAll: () => void,
): TemplateResult {
  const tools = got.tools;
  if (tools === null)
    return html`<p class="muted model-no-definitions">${noToolDefinitions(got)}</p>`;
  const folded = !all && tools.length > ROWS_SHOWN;
  const rows = folded ? tools.filter((tool, i) => i < ROWS_SHOWN || tool.mark !== "both") : tools;
  const more = folded
    ? html`<li><button type="button" class="expander" @click=${showAll}>Show all ${count(tools.length)} tools</button></li>`
    : nothing;
  return html`<h3>Offered to the model, against the final palette</h3>${
    tools.length === 0
      ? html`<p class="muted">None.</p>`
      : html`<ul class="model-tools model-offered">${rows.map(
          (tool) =>
            html`<li data-mark=${tool.mark}>${toolLink(tool.name, select)}${tool.mark === "both" ? nothing : html` <span class="tag tag-${tool.mark}">${icon(MARK_ICON[tool.mark])}${MODEL_MARK_TEXT[tool.mark]}</span>`}</li>`,
        )}${more}</ul>`
  }`;
}

/** The request's tool choice, with a warning when it disagrees with the pipeline's forced choice. */
function choice(got: ModelGot): TemplateResult {
  const mismatch = got.choiceMismatch;
  return html`<p class="model-tool-choice">Tool choice: ${toolChoiceText(got, same)}</p>${
    mismatch
      ? html`<p class="model-warning model-choice-warning">${icon("warning")}${choiceWarning(mismatch, same)}</p>`
      : nothing
  }`;
}

/** Lit renders text as text: a name needs no neutralising. */
const same = (text: string) => text;

function called(got: ModelGot, select: (tool: string) => void): TemplateResult {
  const warning = unofferedWarning(got);
  const calls = got.called;
  return html`<h3>Called</h3>${
    calls === null
      ? html`<p class="muted model-not-recorded">${notRecorded(got)}</p>`
      : calls.length === 0
        ? html`<p class="muted">No tool calls.</p>`
        : html`<ol class="model-tools model-called">${calls.map(
            (call) =>
              html`<li data-unoffered=${call.unoffered}>${toolLink(call.name, select)}${call.unoffered ? html` <span class="model-warning">${icon("warning")}${warning}</span>` : nothing}</li>`,
          )}</ol>`
  }`;
}
