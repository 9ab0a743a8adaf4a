/**
 * Palette size over time, and on it the control that splits the set at a time: a slider over the
 * chart (arrow keys or the pointer move the split, Enter or a click sets it, Escape cancels). Only
 * the boundaries between the chart's buckets are offered, so a split outside the set's times
 * cannot be picked.
 */
import { html, nothing, type TemplateResult } from "lit";
import { html as staticHtml, unsafeStatic } from "lit/static-html.js";
import type { TimeBucket } from "../../src/core/stats/timeline.js";
import { counted } from "../../src/core/words.js";
import type { StatsView } from "../../src/stats-protocol.js";
import { count } from "../dom.js";
import { icon } from "../parts.js";
import { Tag } from "../toolkit.js";
import {
  boundaryAt,
  boundaryMs,
  splitBoundaries,
  timeLabel,
  timelineChart,
} from "./timeline-chart.js";

const BUTTON = unsafeStatic(Tag.button);

/** `start` shows the split on the chart; `move` moves it to boundary k; `set` compares at it; `cancel` leaves. */
export interface SplitActions {
  readonly start: () => void;
  readonly move: (k: number) => void;
  readonly set: (at: string) => void;
  readonly cancel: () => void;
}

/** The time of boundary k as the host and `stats --split-at` read it (UTC, no zone). */
export function splitText(buckets: readonly TimeBucket[], k: number): string {
  return timeLabel(boundaryMs(buckets, k), buckets[0]!.width);
}

/** The section: the chart (or why there is none), and the split control or where it would be. */
export function overTimeSection(
  view: StatsView,
  picking: number | null,
  actions: SplitActions,
  width: number,
): TemplateResult {
  const buckets = view.timeline;
  const marks =
    picking === null
      ? null
      : {
          old: { from: buckets[0]!.start, to: boundaryMs(buckets, picking) - 1 },
          new: { from: boundaryMs(buckets, picking), to: buckets.at(-1)!.start },
          split: boundaryMs(buckets, picking),
        };
  const chart = timelineChart(buckets, width, marks);
  const unreadable = count(view.unreadableTimes);
  return html`<section class="over-time" aria-labelledby="time-title">
    <h2 id="time-title">Palette size over time</h2>
    ${
      chart === null
        ? html`<p class="muted">
              ${
                view.unreadableTimes > 0
                  ? `The traces' times could not be read as dates (${unreadable}).`
                  : "The traces carry no times, or all fall in one second."
              }
            </p>
            <p class="muted" data-split="none">
              So this set cannot be split at a time to compare before with after.
            </p>`
        : picking === null
          ? html`${chart}
              <div class="split-start">
                ${staticHtml`<${BUTTON} appearance="secondary" data-action="split" @click=${actions.start}
                  >${icon("split-horizontal")} Compare before and after a time…</${BUTTON}>`}
              </div>`
          : picker(buckets, picking, chart, actions, width)
    }
    ${
      chart && view.unreadableTimes > 0
        ? html`<p class="muted">${unreadable} traces with unreadable times are left out.</p>`
        : nothing
    }
  </section>`;
}

function picker(
  buckets: readonly TimeBucket[],
  k: number,
  chart: TemplateResult,
  actions: SplitActions,
  width: number,
): TemplateResult {
  const last = splitBoundaries(buckets);
  const at = splitText(buckets, k);
  const before = buckets.slice(0, k).reduce((n, b) => n + b.traces, 0);
  const after = buckets.slice(k).reduce((n, b) => n + b.traces, 0);
  const page = Math.max(1, Math.round(last / 10));
  const keys: Record<string, () => void> = {
    ArrowLeft: () => actions.move(Math.max(1, k - 1)),
    ArrowDown: () => actions.move(Math.max(1, k - 1)),
    ArrowRight: () => actions.move(Math.min(last, k + 1)),
    ArrowUp: () => actions.move(Math.min(last, k + 1)),
    PageDown: () => actions.move(Math.max(1, k - page)),
    PageUp: () => actions.move(Math.min(last, k + page)),
    Home: () => actions.move(1),
    End: () => actions.move(last),
    Enter: () => actions.set(at),
    Escape: actions.cancel,
  };
  const fraction = (event: MouseEvent) => {
    const box = (event.currentTarget as HTMLElement).getBoundingClientRect();
    return (event.clientX - box.left) / box.width;
  };
  return html`<div
      class="split-picker"
      role="slider"
      tabindex="0"
      aria-label="Split time (UTC)"
      aria-valuemin="1"
      aria-valuemax=${last}
      aria-valuenow=${k}
      aria-valuetext=${`${at} UTC: ${counted(before, "trace", undefined, count)} before, ${count(after)} from it`}
      aria-describedby="split-help"
      @keydown=${(event: KeyboardEvent) => {
        const key = keys[event.key];
        if (!key) return;
        event.preventDefault();
        key();
      }}
      @pointermove=${(event: PointerEvent) => {
        const to = boundaryAt(buckets, fraction(event), width);
        if (to !== k) actions.move(to);
      }}
      @click=${(event: MouseEvent) => actions.set(splitText(buckets, boundaryAt(buckets, fraction(event), width)))}
    >
      ${chart}
    </div>
    <p id="split-help" class="split-help">
      Split at <strong>${at} UTC</strong>: ${counted(before, "trace", undefined, count)} before
      (OLD), ${count(after)} from it (NEW).
      <span class="muted">← → move the split, Enter compares, Escape cancels.</span>
    </p>
    <div class="split-buttons">
      ${staticHtml`<${BUTTON} data-action="split-set" @click=${() => actions.set(at)}
          >Compare before and after ${at}</${BUTTON}>
        <${BUTTON} appearance="secondary" data-action="split-cancel" @click=${actions.cancel}>Cancel</${BUTTON}>`}
    </div>`;
}
