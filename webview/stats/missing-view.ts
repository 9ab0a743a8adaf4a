/** Where a tool went: the traces in which it went missing, grouped by the stage that removed it. */
import { html, nothing, type TemplateResult } from "lit";
import { repeat } from "lit/directives/repeat.js";
import { percent, type ToolRow } from "../../src/core/stats/rows.js";
import type { MissingGroup, MissingTrace } from "../../src/stats-protocol.js";
import { count } from "../dom.js";
import { icon, nameText } from "../parts.js";

type Counts = Pick<ToolRow, "name" | "seen" | "missing">;

/** `side` names the compared set the traces are of ("OLD", "NEW"); its heading then has its own id. */
export function missingView(
  row: Counts,
  groups: readonly MissingGroup[],
  open: (trace: MissingTrace) => void,
  side?: string,
): TemplateResult {
  const id = side === undefined ? "missing-title" : `missing-title-${side.toLowerCase()}`;
  const summary =
    row.missing === 0
      ? `Final in every one of the ${count(row.seen)} traces that name it.`
      : `Missing in ${percent(row.missing, row.seen)}% of the ${count(row.seen)} traces that name it (${count(row.missing)}).`;
  return html`<section class="missing" aria-labelledby=${id} data-side=${side ?? nothing}>
    <h2 id=${id} tabindex="-1">
      ${side === undefined ? nothing : `${side}: `}Where ${nameText(row.name)} went
    </h2>
    <p>${summary}</p>
    ${repeat(
      groups,
      (group) => group.stage,
      (group) => groupView(group, row.missing, open),
    )}
  </section>`;
}

function groupView(
  group: MissingGroup,
  missing: number,
  open: (trace: MissingTrace) => void,
): TemplateResult {
  const listed =
    group.traces.length < group.total ? `, first ${count(group.traces.length)} listed` : "";
  return html`<div class="missing-group" data-stage=${group.stage}>
    <h3>
      ${
        group.failed
          ? html`the turn failed with ${nameText(group.stage, "stage-name")} before the model was
            called`
          : group.stage === "?"
            ? "no stage dropped it (never offered, or an inconsistent log)"
            : nameText(group.stage, "stage-name")
      }<span class="muted">
        — ${percent(group.total, missing)}% (${count(group.total)} traces${listed})</span
      >
    </h3>
    <ul class="trace-list">
      ${repeat(
        group.traces,
        (trace) => trace.ref,
        (trace) =>
          html`<li>
            <button
              class="link"
              type="button"
              data-ref=${String(trace.ref)}
              @click=${() => open(trace)}
            >
              ${icon("type-hierarchy")} ${traceText(trace)}
            </button>
          </li>`,
      )}
    </ul>
  </div>`;
}

/** "agent.log:12 · t-4f1c2a · 2025-03-14 09:26:50,011" */
function traceText(trace: MissingTrace): string {
  const parts = [`${trace.file}:${trace.line}`];
  if (trace.id !== null) parts.push(String(trace.id));
  if (trace.time !== null) parts.push(String(trace.time));
  return parts.join(" · ");
}
