import type { PolicyEdit, VerdictEdit, WhatIf, WhatIfLevers } from "../src/core/whatif.js";
import { el, icon, nameText } from "./dom.js";
import { controlChecked, controlValue, Tag } from "./toolkit.js";

type Mutable<T> = { -readonly [K in keyof T]: T[K] };
/** Typing settles for this long before the what-if re-runs. */
const TYPING_MS = 150;

/** The what-if controls; every change hands the whole edit (levers the user moved, nothing else) to `onEdit`. */
export function renderWhatIf(
  levers: WhatIfLevers,
  initial: WhatIf,
  onEdit: (edit: WhatIf) => void,
): HTMLElement {
  const edit = {
    enabled: { ...initial.enabled },
    role: initial.role,
    verdicts: { ...initial.verdicts },
    forcedTools: { ...initial.forcedTools },
    policies: { ...initial.policies },
  };
  // Toolkit controls also fire `change` when set programmatically; only a real move re-runs.
  let last = JSON.stringify(normalised(edit));
  const emit = () => {
    const next = normalised(edit);
    const key = JSON.stringify(next);
    if (key === last) return;
    last = key;
    onEdit(next);
  };
  let timer: ReturnType<typeof setTimeout> | undefined;
  const typed = (field: HTMLElement, apply: () => void) => {
    field.addEventListener("input", () => {
      clearTimeout(timer);
      timer = setTimeout(() => (apply(), emit()), TYPING_MS);
    });
    field.addEventListener("change", () => (clearTimeout(timer), apply(), emit()));
  };

  const stages = el("fieldset", { class: "whatif-group whatif-stages" }, [
    el("legend", { text: "Stages" }),
  ]);
  for (const stage of levers.stages) {
    const on = edit.enabled[stage.name] ?? stage.enabled;
    const box = el(Tag.checkbox, { attrs: { "data-lever": `stage:${stage.name}` } }, [
      nameText(stage.name),
      // The kind only when it says more than the name ("intent (intent)" says nothing twice).
      stage.kind === stage.name ? null : el("span", { class: "muted", text: ` (${stage.kind})` }),
    ]);
    (box as HTMLInputElement).checked = on;
    box.addEventListener("change", () => {
      const checked = controlChecked(box);
      if (checked === stage.enabled) delete edit.enabled[stage.name];
      else edit.enabled[stage.name] = checked;
      emit();
    });
    stages.append(box);
  }

  const role = field("Role", edit.role ?? levers.role, "role");
  typed(role, () => {
    const value = controlValue(role);
    edit.role = value === levers.role ? undefined : value;
  });
  const turn = el("fieldset", { class: "whatif-group" }, [
    el("legend", { text: "Turn" }),
    role,
    levers.roles.length > 0
      ? el("p", { class: "hint", text: `Roles with a palette: ${levers.roles.join(", ")}` })
      : null,
  ]);

  const verdicts = levers.verdicts.map(({ stage, verdict }) => {
    const current = Object.hasOwn(edit.verdicts, stage) ? edit.verdicts[stage]! : verdict;
    const label = field(
      "Verdict label",
      current?.label ?? "",
      `verdict:${stage}:label`,
      "knowledge, ambiguous, or an action label; empty: no verdict",
    );
    const keywords = field(
      "Matched tool keywords",
      current?.matchedToolKeywords.join(", ") ?? "",
      `verdict:${stage}:keywords`,
      "tool names, comma-separated",
    );
    const apply = () => {
      const text = controlValue(label).trim();
      const next: VerdictEdit | null =
        text === ""
          ? null
          : {
              label: text,
              matchedToolKeywords: controlValue(keywords)
                .split(",")
                .map((k) => k.trim())
                .filter(Boolean),
            };
      if (sameVerdict(next, verdict)) delete edit.verdicts[stage];
      else edit.verdicts[stage] = next;
    };
    typed(label, apply);
    typed(keywords, apply);
    return el("fieldset", { class: "whatif-group" }, [
      el("legend", {}, ["Intent verdict: ", nameText(stage)]),
      label,
      keywords,
    ]);
  });

  const forced = levers.forced.map(({ stage, tool, resolver }) => {
    const current = Object.hasOwn(edit.forcedTools, stage) ? edit.forcedTools[stage] : tool;
    const hint =
      resolver !== null && resolver !== "fixed"
        ? `Type a tool name to force it instead of the ${resolver} resolver`
        : "Type a tool name to force it; leave empty to force nothing";
    const input = field("Forced tool", current ?? "", `forced:${stage}`, hint);
    typed(input, () => {
      const value = controlValue(input).trim();
      if (value === (tool ?? "") || (value === "" && resolver !== "fixed"))
        delete edit.forcedTools[stage];
      else edit.forcedTools[stage] = value === "" ? null : value;
    });
    return el("fieldset", { class: "whatif-group" }, [
      el("legend", {}, ["Forced resolver: ", nameText(stage)]),
      input,
    ]);
  });

  const policies = levers.policies.map(({ stage, maxSafetyLevel, budgetUsd }) => {
    const current: PolicyEdit = edit.policies[stage] ?? {};
    const level = current.maxSafetyLevel !== undefined ? current.maxSafetyLevel : maxSafetyLevel;
    const dropdown = el(
      Tag.dropdown,
      {
        attrs: {
          "aria-label": "Max safety level",
          "data-lever": `policy:${stage}:level`,
          "data-initial": level ?? "",
        },
      },
      [
        option("", "no ceiling", level === null),
        ...levers.safetyLevels.map((name) => option(name, name, name === level)),
      ],
    );
    const budget = field(
      "Budget (USD)",
      numberText(current.budgetUsd !== undefined ? current.budgetUsd : budgetUsd),
      `policy:${stage}:budget`,
      "empty: no budget",
    );
    const apply = () => {
      const levelValue = controlValue(dropdown) || null;
      const budgetText = controlValue(budget).trim();
      const budgetValue = budgetText === "" ? null : Number(budgetText);
      const invalid = budgetValue !== null && (!Number.isFinite(budgetValue) || budgetValue < 0);
      budget.toggleAttribute("data-invalid", invalid);
      const next: Mutable<PolicyEdit> = {};
      if (levelValue !== maxSafetyLevel) next.maxSafetyLevel = levelValue;
      if (!invalid && budgetValue !== budgetUsd) next.budgetUsd = budgetValue;
      if (Object.keys(next).length === 0) delete edit.policies[stage];
      else edit.policies[stage] = next;
    };
    dropdown.addEventListener("change", () => (apply(), emit()));
    typed(budget, apply);
    return el("fieldset", { class: "whatif-group" }, [
      el("legend", {}, ["Policy: ", nameText(stage)]),
      el("label", { class: "field-label", text: "Max safety level" }),
      dropdown,
      budget,
    ]);
  });

  return el("div", { class: "whatif-controls" }, [
    stages,
    turn,
    ...verdicts,
    ...forced,
    ...policies,
  ]);
}

/** Dropdowns take their value only once connected, so the caller calls this after inserting the controls. */
export function settleControls(container: HTMLElement): void {
  for (const dropdown of container.querySelectorAll<HTMLElement>(`${Tag.dropdown}[data-initial]`))
    (dropdown as HTMLInputElement).value = dropdown.dataset.initial!;
}

function field(label: string, value: string, lever: string, hint?: string): HTMLElement {
  const input = el(
    Tag.textField,
    { attrs: { "data-lever": lever, ...(hint ? { placeholder: hint, title: hint } : {}) } },
    [label],
  );
  (input as HTMLInputElement).value = value;
  return input;
}

function option(value: string, text: string, selected: boolean): HTMLElement {
  return el(Tag.option, { text, attrs: { value, ...(selected ? { selected: "" } : {}) } });
}

function numberText(value: number | null | undefined): string {
  return value === null || value === undefined ? "" : String(value);
}

function sameVerdict(a: VerdictEdit | null, b: VerdictEdit | null): boolean {
  if (a === null || b === null) return a === b;
  return (
    a.label === b.label &&
    a.matchedToolKeywords.join("\u0000") === b.matchedToolKeywords.join("\u0000")
  );
}

/** Only the levers that moved, so an edit put back by hand counts as no edit. */
function normalised(edit: {
  enabled: Record<string, boolean>;
  role: string | undefined;
  verdicts: Record<string, VerdictEdit | null>;
  forcedTools: Record<string, string | null>;
  policies: Record<string, PolicyEdit>;
}): WhatIf {
  const out: Mutable<WhatIf> = {};
  if (Object.keys(edit.enabled).length) out.enabled = { ...edit.enabled };
  if (edit.role !== undefined) out.role = edit.role;
  if (Object.keys(edit.verdicts).length) out.verdicts = { ...edit.verdicts };
  if (Object.keys(edit.forcedTools).length) out.forcedTools = { ...edit.forcedTools };
  if (Object.keys(edit.policies).length) out.policies = { ...edit.policies };
  return out;
}

/** The bar that says a what-if is on screen, with the way back. */
export function whatIfBar(size: number, reset: () => void): HTMLElement {
  return el("div", { class: "whatif-bar", role: "status" }, [
    icon("beaker"),
    `What-if on screen: ${size} lever${size === 1 ? "" : "s"} moved.`,
    el(
      Tag.button,
      { attrs: { appearance: "secondary", "data-action": "reset" }, on: { click: reset } },
      ["Reset"],
    ),
  ]);
}
