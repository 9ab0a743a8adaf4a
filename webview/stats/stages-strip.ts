/** Per stage, a small stacked bar of its select / abstain / force / error shares, and its degraded count. */
import { ACTION_ORDER } from "../../src/core/stats/json.js";
import { percent, type StageRow } from "../../src/core/stats/rows.js";
import { count, el, nameText } from "../dom.js";

export function renderStagesStrip(stages: readonly StageRow[]): HTMLElement {
  if (stages.length === 0) return el("p", { class: "muted", text: "No stage records." });
  return el(
    "ol",
    { class: "stages-strip", label: "Stages in the order they first appear" },
    stages.map((stage) => {
      const shares = ACTION_ORDER.map((action) => ({
        action,
        n: stage[action],
        share: percent(stage[action], stage.records),
      }));
      const said = shares
        .filter((s) => s.n > 0)
        .map((s) => `${s.action} ${s.share}%`)
        .join(", ");
      const bar = el(
        "div",
        { class: "stack", role: "img", label: `${stage.stage}: ${said || "no records"}` },
        shares
          .filter((s) => s.n > 0)
          .map((s) => {
            const segment = el("span", { class: `segment action-${s.action}` });
            segment.style.width = `${(100 * s.n) / stage.records}%`;
            return segment;
          }),
      );
      return el("li", { class: "stage-card", attrs: { "data-stage": stage.stage } }, [
        el("div", { class: "stage-title" }, [
          nameText(stage.stage, "stage-name"),
          el("span", { class: "muted", text: ` ${count(stage.records)} records` }),
        ]),
        bar,
        el("div", { class: "stage-legend", attrs: { "aria-hidden": "true" } }, [said]),
        el("div", {
          class: stage.degraded > 0 ? "degraded" : "muted",
          text: `${count(stage.degraded)} degraded`,
        }),
      ]);
    }),
  );
}

/** The colour key shared by every bar. */
export function stagesLegend(): HTMLElement {
  return el(
    "p",
    { class: "legend", attrs: { "aria-hidden": "true" } },
    ACTION_ORDER.map((action) =>
      el("span", { class: "key" }, [el("span", { class: `swatch action-${action}` }), action]),
    ),
  );
}
