import type { Lineage } from "../src/core/lineage.js";
import { el, nameText } from "./dom.js";

/** Typing settles for this long before the answer follows it. */
const TYPING_MS = 150;

/**
 * "Where did X go?": a labelled field that answers as the user types and suggests the run's tool
 * names; built once, so typing never loses focus to a re-render.
 */
export function lineageSection(
  ask: (name: string) => void,
  answer: HTMLElement,
): { section: HTMLElement; field: HTMLInputElement; names: HTMLDataListElement } {
  const names = el("datalist", { attrs: { id: "lineage-names" } });
  const field = el("input", {
    class: "text-input",
    attrs: {
      id: "lineage-input",
      type: "text",
      list: "lineage-names",
      autocomplete: "off",
      spellcheck: "false",
      placeholder: "a tool name",
      "aria-describedby": "lineage-answer",
    },
  });
  let timer: ReturnType<typeof setTimeout> | undefined;
  field.addEventListener("input", () => {
    clearTimeout(timer);
    timer = setTimeout(() => ask(field.value.trim()), TYPING_MS);
  });
  field.addEventListener("keydown", (event) => {
    if (event.key !== "Enter") return;
    clearTimeout(timer);
    ask(field.value.trim());
  });
  const section = el("section", { class: "lineage", label: "Where did X go?" }, [
    el("h2", { text: "Where did X go?" }),
    el("div", { class: "lineage-ask" }, [
      el("label", { class: "field-label", text: "Tool name", attrs: { for: "lineage-input" } }),
      field,
      names,
    ]),
    answer,
  ]);
  return { section, field, names };
}

/** Offers the run's tool names as the field's suggestions. */
export function suggestNames(list: HTMLDataListElement, tools: readonly string[]): void {
  list.replaceChildren(...tools.map((tool) => el("option", { attrs: { value: tool } })));
}

/**
 * The one-sentence answer, names set apart (and bidi-isolated) from the prose; for a name the run
 * does not know, the closest one it does, as a button that asks about it.
 */
export function fillLineageAnswer(
  answer: HTMLElement,
  lineage: Lineage | null,
  asked: boolean,
  suggestion: { readonly name: string; readonly pick: () => void } | null,
): void {
  answer.replaceChildren();
  if (lineage) {
    // The sentence about a tool the run does not know starts with its name already.
    if (lineage.known) answer.append(nameText(lineage.tool, "name lineage-tool"), ": ");
    for (const part of lineage.parts)
      answer.append(typeof part === "string" ? part : el("code", {}, [nameText(part.name)]));
    if (!lineage.known && suggestion)
      answer.append(
        " Did you mean ",
        el(
          "button",
          {
            class: "link",
            attrs: { type: "button", "data-action": "suggestion" },
            on: { click: suggestion.pick },
          },
          [nameText(suggestion.name)],
        ),
        "?",
      );
  } else
    answer.textContent = asked
      ? "Type a tool's exact name, or click a chip."
      : "Click a chip or type a name to follow one tool through every stage.";
}
