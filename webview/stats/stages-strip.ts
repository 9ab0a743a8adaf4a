/** Per stage, a small stacked bar of its select / abstain / force / error shares, and its degraded count. */
import { html, type TemplateResult } from "lit";
import { repeat } from "lit/directives/repeat.js";
import { ACTION_ORDER } from "../../src/core/stats/json.js";
import { percent, type StageRow } from "../../src/core/stats/rows.js";
import { count } from "../dom.js";
import { cssomStyle, nameText } from "../parts.js";

export function stagesStrip(stages: readonly StageRow[]): TemplateResult {
  if (stages.length === 0) return html`<p class="muted">No stage records.</p>`;
  return html`<ol class="stages-strip" aria-label="Stages in the order they first appear">
    ${repeat(stages, (stage) => stage.stage, stageCard)}
  </ol>`;
}

function stageCard(stage: StageRow): TemplateResult {
  const shares = ACTION_ORDER.map((action) => ({
    action,
    n: stage[action],
    share: percent(stage[action], stage.records),
  })).filter((s) => s.n > 0);
  const said = shares.map((s) => `${s.action} ${s.share}%`).join(", ");
  return html`<li class="stage-card" data-stage=${stage.stage}>
    <div class="stage-title">
      ${nameText(stage.stage, "stage-name")}<span class="muted">
        ${count(stage.records)} records</span
      >
    </div>
    <div class="stack" role="img" aria-label=${`${stage.stage}: ${said || "no records"}`}>
      ${shares.map(
        (s) =>
          html`<span
            class="segment action-${s.action}"
            ${cssomStyle({ width: `${(100 * s.n) / stage.records}%` })}
          ></span>`,
      )}
    </div>
    <div class="stage-legend" aria-hidden="true">${said}</div>
    <div class=${stage.degraded > 0 ? "degraded" : "muted"}>${count(stage.degraded)} degraded</div>
  </li>`;
}

/** The colour key shared by every bar. */
export function stagesLegend(): TemplateResult {
  return html`<p class="legend" aria-hidden="true">
    ${ACTION_ORDER.map(
      (action) =>
        html`<span class="key"><span class="swatch action-${action}"></span>${action}</span>`,
    )}
  </p>`;
}
