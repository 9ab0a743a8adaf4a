import type { Lineage } from "../src/core/lineage.js";
import { el, nameText } from "./dom.js";
import { Tag } from "./toolkit.js";

/** "Where did X go?": type a name (or click a chip) and read one sentence. */
export function renderLineage(lineage: Lineage | null, query: string, ask: (name: string) => void): HTMLElement {
  const field = el(Tag.textField, { attrs: { placeholder: "a tool name", "aria-label": "Tool name", id: "lineage-input" } });
  (field as HTMLInputElement).value = query;
  field.addEventListener("change", () => ask((field as HTMLInputElement).value.trim()));
  field.addEventListener("keydown", (event) => {
    if ((event as KeyboardEvent).key === "Enter") ask((field as HTMLInputElement).value.trim());
  });
  const answer = el("p", { class: "lineage-answer", attrs: { "aria-live": "polite", id: "lineage-answer" } });
  if (lineage) {
    answer.append(nameText(lineage.tool, "name lineage-tool"), ": ");
    for (const part of lineage.parts) answer.append(typeof part === "string" ? part : el("code", {}, [nameText(part.name)]));
  } else if (query) answer.textContent = "Type a tool's exact name, or click a chip.";
  else answer.textContent = "Click a chip or type a name to follow one tool through every stage.";
  return el("section", { class: "lineage", label: "Where did X go?" }, [el("h2", { text: "Where did X go?" }), el("div", { class: "lineage-ask" }, [field]), answer]);
}
