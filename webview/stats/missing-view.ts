/** Where a tool went: the traces in which it went missing, grouped by the stage that removed it. */
import { percent, type ToolRow } from "../../src/core/stats/rows.js";

type Counts = Pick<ToolRow, "name" | "seen" | "missing">;
import type { MissingGroup, MissingTrace } from "../../src/stats-protocol.js";
import { count, el, icon, nameText } from "../dom.js";

export function renderMissing(
  row: Counts,
  groups: readonly MissingGroup[],
  open: (trace: MissingTrace) => void,
): HTMLElement {
  const heading = el("h2", { attrs: { id: "missing-title", tabindex: "-1" } }, [
    "Where ",
    nameText(row.name),
    " went",
  ]);
  const summary = el("p", {
    text:
      row.missing === 0
        ? `Final in every one of the ${count(row.seen)} traces that name it.`
        : `Missing in ${percent(row.missing, row.seen)}% of the ${count(row.seen)} traces that name it (${count(row.missing)}).`,
  });
  return el("section", { class: "missing", attrs: { "aria-labelledby": "missing-title" } }, [
    heading,
    summary,
    ...groups.map((group) =>
      el("div", { class: "missing-group", attrs: { "data-stage": group.stage } }, [
        el("h3", {}, [
          group.stage === "?"
            ? "no stage dropped it (never offered, or an inconsistent log)"
            : nameText(group.stage, "stage-name"),
          el("span", {
            class: "muted",
            text: ` — ${percent(group.total, row.missing)}% (${count(group.total)} traces${group.traces.length < group.total ? `, first ${count(group.traces.length)} listed` : ""})`,
          }),
        ]),
        el(
          "ul",
          { class: "trace-list" },
          group.traces.map((trace) =>
            el("li", {}, [
              el(
                "button",
                {
                  class: "link",
                  attrs: { type: "button", "data-ref": String(trace.ref) },
                  on: { click: () => open(trace) },
                },
                [icon("type-hierarchy"), " ", traceText(trace)],
              ),
            ]),
          ),
        ),
      ]),
    ),
  ]);
}

/** "agent.log:12 · t-4f1c2a · 2025-03-14 09:26:50,011" */
function traceText(trace: MissingTrace): string {
  const parts = [`${trace.file}:${trace.line}`];
  if (trace.id !== null) parts.push(String(trace.id));
  if (trace.time !== null) parts.push(String(trace.time));
  return parts.join(" · ");
}
