import type { Lineage } from "../src/core/lineage.js";
import { el, nameText } from "./dom.js";
import { Tag } from "./toolkit.js";

/** "Where did X go?": the field for a name; built once, so typing never loses focus to a re-render. */
export function lineageSection(
  ask: (name: string) => void,
  answer: HTMLElement,
): { section: HTMLElement; field: HTMLInputElement } {
  const field = el(Tag.textField, {
    attrs: { placeholder: "a tool name", "aria-label": "Tool name", id: "lineage-input" },
  }) as HTMLElement as HTMLInputElement;
  field.addEventListener("change", () => ask(field.value.trim()));
  field.addEventListener("keydown", (event) => {
    if (event.key === "Enter") ask(field.value.trim());
  });
  const section = el("section", { class: "lineage", label: "Where did X go?" }, [
    el("h2", { text: "Where did X go?" }),
    el("div", { class: "lineage-ask" }, [field]),
    answer,
  ]);
  return { section, field };
}

/** The one-sentence answer, names set apart (and bidi-isolated) from the prose. */
export function fillLineageAnswer(
  answer: HTMLElement,
  lineage: Lineage | null,
  asked: boolean,
): void {
  answer.replaceChildren();
  if (lineage) {
    answer.append(nameText(lineage.tool, "name lineage-tool"), ": ");
    for (const part of lineage.parts)
      answer.append(typeof part === "string" ? part : el("code", {}, [nameText(part.name)]));
  } else
    answer.textContent = asked
      ? "Type a tool's exact name, or click a chip."
      : "Click a chip or type a name to follow one tool through every stage.";
}
