/** What changed: this set (NEW) against another (OLD), per tool biggest change first, with both final rates as two bars. */
import { html, nothing, type TemplateResult } from "lit";
import { repeat } from "lit/directives/repeat.js";
import { pointsText, pText } from "../../src/core/stats/comparison-text.js";
import type {
  ComparedTool,
  ComparisonView,
  MissingGroup,
  MissingTrace,
} from "../../src/stats-protocol.js";
import { counted } from "../../src/core/words.js";
import { count } from "../dom.js";
import { cssomStyle, nameText } from "../parts.js";
import { missingView } from "./missing-view.js";
import { timeLabel, timelineChart } from "./timeline-chart.js";

/** Rows drawn: past them the table is a plain DOM table, not a virtualised one. */
export const CHANGES_SHOWN = 500;

/** The traces that lost a tool of the comparison, on each side, once the host answered. */
export interface ComparedMissing {
  readonly tool: string;
  readonly old: readonly MissingGroup[];
  readonly new: readonly MissingGroup[];
}

/** `pick` asks where a tool went on both sides; `open` opens one of those traces. */
export interface ComparisonActions {
  readonly pick: (tool: string) => void;
  readonly open: (trace: MissingTrace, tool: string) => void;
}

/** `width`: the timeline's, as chartWidth gives it for the view. */
export function comparisonView(
  view: ComparisonView,
  missing: ComparedMissing | null,
  actions: ComparisonActions,
  width: number,
): TemplateResult {
  const against =
    view.against.length === 1 ? view.against[0]! : `${count(view.against.length)} logs`;
  const traces = (n: number) => counted(n, "trace", undefined, count);
  return html`<section class="comparison" aria-labelledby="comparison-title">
    <h2 id="comparison-title" tabindex="-1">What changed</h2>
    ${
      view.split
        ? html`<p>
            This set split at <strong>${view.split.at} UTC</strong>: before it OLD
            (${traces(view.oldTraces)}), from it NEW (${traces(view.newTraces)}).
            ${
              view.split.untimed > 0
                ? `${traces(view.split.untimed)} without a readable time are in neither.`
                : nothing
            }
          </p>`
        : html`<p>
            This set (NEW, ${traces(view.newTraces)}) against <bdi>${against}</bdi> (OLD,
            ${traces(view.oldTraces)}).
          </p>`
    }
    ${
      view.empty.length > 0
        ? html`<p class="warning">
            ${view.empty.map((side) => side.toUpperCase()).join(" and ")}
            ${view.empty.length > 1 ? "have" : "has"} no traces: nothing to compare.
          </p>`
        : changesTable(view, actions.pick)
    }
    ${periodsFigure(view, width)} ${missing ? sidesMissing(view, missing, actions.open) : nothing}
  </section>`;
}

function changesTable(view: ComparisonView, pick: (tool: string) => void): TemplateResult {
  return html`${
    view.tools.length === 0
      ? html`<p class="muted">No tool is seen in both sets.</p>`
      : html`<p class="muted" id="changes-caption">
            Final rate (final / seen) on each side, biggest change first; the bars: OLD above, NEW below
          </p>
          <div class="changes-scroll" role="region" aria-labelledby="comparison-title" tabindex="0">
          <table class="changes" aria-describedby="changes-caption">
            
            <thead>
              <tr>
                <th scope="col">Tool</th>
                <th scope="col" class="num">Final OLD</th>
                <th scope="col" class="num">Final NEW</th>
                <th scope="col"><span class="sr-only">Both rates</span></th>
                <th scope="col" class="num">Change</th>
                <th scope="col" class="num">p</th>
                <th scope="col">Moved most (missing OLD → NEW)</th>
              </tr>
            </thead>
            <tbody>
              ${repeat(
                view.tools.slice(0, CHANGES_SHOWN),
                (tool) => tool.name,
                (tool) => changeRow(tool, pick),
              )}
            </tbody>
          </table>
        </div>`
  }
    ${
      view.tools.length > CHANGES_SHOWN
        ? html`<p class="muted">
            … and ${count(view.tools.length - CHANGES_SHOWN)} more tools, each in
            <code>palette-inspector stats --against --json</code>.
          </p>`
        : nothing
    }
    ${oneSide("Only in NEW", view.onlyNew)} ${oneSide("Only in OLD", view.onlyOld)}`;
}

function changeRow(tool: ComparedTool, pick: (tool: string) => void): TemplateResult {
  const rate = (side: ComparedTool["old"]) =>
    `${Math.round(100 * side.rate)}% of ${counted(side.seen, "turn", undefined, count)}`;
  const direction = tool.points < 0 ? "down" : tool.points > 0 ? "up" : "same";
  return html`<tr data-tool=${tool.name} class=${`change-${direction}`}>
    <th scope="row">
      <button
        class="link"
        type="button"
        data-tool=${tool.name}
        title="The traces that lost it, on each side"
        @click=${() => pick(tool.name)}
      >
        ${nameText(tool.name)}
      </button>
    </th>
    <td class="num">${rate(tool.old)}</td>
    <td class="num">${rate(tool.new)}</td>
    <td>
      <div class="two-bars" aria-hidden="true">
        <div class="bar bar-old" ${cssomStyle({ width: `${(100 * tool.old.rate).toFixed(1)}%` })}></div>
        <div class="bar bar-new" ${cssomStyle({ width: `${(100 * tool.new.rate).toFixed(1)}%` })}></div>
      </div>
    </td>
    <td class="num">${pointsText(tool.points)}</td>
    <td class="num">${pText(tool.p)}</td>
    <td>
      ${
        tool.stage
          ? html`${
              tool.stage.failed
                ? html`failed turns (${nameText(tool.stage.stage, "stage-name")})`
                : nameText(tool.stage.stage, "stage-name")
            }
            ${Math.round(100 * tool.stage.old)}% → ${Math.round(100 * tool.stage.new)}%`
          : "—"
      }
    </td>
  </tr>`;
}

function oneSide(title: string, names: readonly string[]): TemplateResult | typeof nothing {
  if (names.length === 0) return nothing;
  return html`<p class="one-side">
    <strong>${title}:</strong>
    ${names.map((name, i) => html`${i > 0 ? ", " : ""}${nameText(name)}`)}
  </p>`;
}

/** Where the tool went on each side: OLD's traces, then NEW's, each opening in the trace panel. */
function sidesMissing(
  view: ComparisonView,
  missing: ComparedMissing,
  open: (trace: MissingTrace, tool: string) => void,
): TemplateResult | typeof nothing {
  const tool = view.tools.find((t) => t.name === missing.tool);
  if (!tool) return nothing;
  const side = (label: string, seen: number, groups: readonly MissingGroup[]) =>
    missingView(
      { name: tool.name, seen, missing: groups.reduce((n, g) => n + g.total, 0) },
      groups,
      (trace) => open(trace, tool.name),
      label,
    );
  return html`<div class="sides-missing">
    ${side("OLD", tool.old.seen, missing.old)} ${side("NEW", tool.new.seen, missing.new)}
  </div>`;
}

/** When each side's traces are: both periods named on one timeline, and in words. */
function periodsFigure(view: ComparisonView, chartWidth: number): TemplateResult {
  const { periods, timeline } = view;
  const width = timeline[0]?.width ?? 60_000;
  const period = (name: string, side: ComparisonView["periods"]["old"]) =>
    side
      ? html`<span class="period-text"
          ><strong>${name}:</strong> ${timeLabel(side.from, width)} to ${timeLabel(side.to, width)}
          UTC</span
        >`
      : html`<span class="period-text"><strong>${name}:</strong> no trace with a time</span>`;
  const marks = { ...periods, ...(view.split ? { split: view.split.atMs } : {}) };
  return html`<div class="periods">
    <h3 id="periods-title">The two periods</h3>
    <p class="period-lines">${period("Before (OLD)", periods.old)} ${period("After (NEW)", periods.new)}</p>
    ${timelineChart(timeline, chartWidth, marks, "periods-timeline") ?? nothing}
  </div>`;
}
