import { html, nothing, type TemplateResult } from "lit";
import {
  whatIfSize,
  type PolicyEdit,
  type VerdictEdit,
  type WhatIf,
  type WhatIfLevers,
} from "../src/core/whatif.js";
import { counted } from "../src/core/words.js";
import { icon, nameText } from "./parts.js";
import { controlChecked, controlValue, StaticTag } from "./toolkit.js";
import { html as staticHtml } from "lit/static-html.js";

type Mutable<T> = { -readonly [K in keyof T]: T[K] };
/** Turns the edit on screen into the next one. */
export type EditChange = (edit: WhatIf) => WhatIf;
/** A lever moved: at once (a click), or as the user types (the caller lets typing settle). */
export type MoveLever = (change: EditChange, typing: boolean) => void;

/** The what-if controls, showing `edit` over the fixture's `levers`; every move hands `move` the change it makes. */
export function renderWhatIf(levers: WhatIfLevers, edit: WhatIf, move: MoveLever): TemplateResult {
  return html`<div class="whatif-controls">${stageLevers(levers, edit, move)}${turnLevers(levers, edit, move)}${levers.verdicts.map((lever) => verdictLevers(lever, edit, move))}${levers.forced.map((lever) => forcedLevers(lever, edit, move))}${levers.policies.map((lever) => policyLevers(lever, levers.safetyLevels, edit, move))}</div>`;
}

function stageLevers(levers: WhatIfLevers, edit: WhatIf, move: MoveLever): TemplateResult {
  return html`<fieldset class="whatif-group whatif-stages"><legend>Stages</legend>${levers.stages.map(
    (stage) => {
      const toggled = (event: Event) => {
        const checked = controlChecked(event.currentTarget as Element);
        move(
          (now) =>
            withEntry(now, "enabled", stage.name, checked === stage.enabled ? undefined : checked),
          false,
        );
      };
      // The kind only when it says more than the name ("intent (intent)" says nothing twice).
      const kind =
        stage.kind === stage.name ? nothing : html`<span class="muted"> (${stage.kind})</span>`;
      return staticHtml`<${StaticTag.checkbox} data-lever="stage:${stage.name}" .checked=${edit.enabled?.[stage.name] ?? stage.enabled} @change=${toggled}>${nameText(stage.name)}${kind}</${StaticTag.checkbox}>`;
    },
  )}</fieldset>`;
}

function turnLevers(levers: WhatIfLevers, edit: WhatIf, move: MoveLever): TemplateResult {
  const typed = (value: string) => (now: WhatIf) =>
    withRole(now, value === levers.role ? undefined : value);
  const roles =
    levers.roles.length > 0
      ? html`<p class="hint">Roles with a palette: ${levers.roles.join(", ")}</p>`
      : nothing;
  return html`<fieldset class="whatif-group"><legend>Turn</legend>${field("Role", edit.role ?? levers.role, "role", typed, move)}${roles}</fieldset>`;
}

function verdictLevers(
  { stage, verdict }: WhatIfLevers["verdicts"][number],
  edit: WhatIf,
  move: MoveLever,
): TemplateResult {
  const current =
    edit.verdicts && Object.hasOwn(edit.verdicts, stage) ? edit.verdicts[stage]! : verdict;
  // Both fields make one verdict: each reads the other from the page as it is.
  const fieldText = (event: Event, lever: string) =>
    controlValue(
      (event.currentTarget as Element)
        .closest("fieldset")!
        .querySelector(`[data-lever="verdict:${stage}:${lever}"]`)!,
    );
  const apply = (label: string, keywords: string) => (now: WhatIf) => {
    const text = label.trim();
    const next: VerdictEdit | null =
      text === ""
        ? null
        : {
            label: text,
            matchedToolKeywords: keywords
              .split(",")
              .map((k) => k.trim())
              .filter(Boolean),
          };
    return withEntry(now, "verdicts", stage, sameVerdict(next, verdict) ? undefined : next);
  };
  const label = field(
    "Verdict label",
    current?.label ?? "",
    `verdict:${stage}:label`,
    (text, event) => apply(text, fieldText(event, "keywords")),
    move,
    "knowledge, ambiguous, or an action label; empty: no verdict",
  );
  const keywords = field(
    "Matched tool keywords",
    current?.matchedToolKeywords.join(", ") ?? "",
    `verdict:${stage}:keywords`,
    (text, event) => apply(fieldText(event, "label"), text),
    move,
    "tool names, comma-separated",
  );
  return html`<fieldset class="whatif-group"><legend>Intent verdict: ${nameText(stage)}</legend>${label}${keywords}</fieldset>`;
}

function forcedLevers(
  { stage, tool, resolver }: WhatIfLevers["forced"][number],
  edit: WhatIf,
  move: MoveLever,
): TemplateResult {
  const current =
    edit.forcedTools && Object.hasOwn(edit.forcedTools, stage) ? edit.forcedTools[stage] : tool;
  const hint =
    resolver !== null && resolver !== "fixed"
      ? `Type a tool name to force it instead of the ${resolver} resolver`
      : "Type a tool name to force it; leave empty to force nothing";
  const typed = (text: string) => (now: WhatIf) => {
    const value = text.trim();
    const moved = !(value === (tool ?? "") || (value === "" && resolver !== "fixed"));
    return withEntry(now, "forcedTools", stage, moved ? (value === "" ? null : value) : undefined);
  };
  return html`<fieldset class="whatif-group"><legend>Forced resolver: ${nameText(stage)}</legend>${field("Forced tool", current ?? "", `forced:${stage}`, typed, move, hint)}</fieldset>`;
}

function policyLevers(
  { stage, maxSafetyLevel, budgetUsd }: WhatIfLevers["policies"][number],
  safetyLevels: readonly string[],
  edit: WhatIf,
  move: MoveLever,
): TemplateResult {
  const current: PolicyEdit = edit.policies?.[stage] ?? {};
  const level = current.maxSafetyLevel !== undefined ? current.maxSafetyLevel : maxSafetyLevel;
  const budget = current.budgetUsd !== undefined ? current.budgetUsd : budgetUsd;
  const apply =
    (levelValue: string | null, budgetText: string, budgetField: Element) => (now: WhatIf) => {
      const text = budgetText.trim();
      const budgetValue = text === "" ? null : Number(text);
      const invalid = budgetValue !== null && (!Number.isFinite(budgetValue) || budgetValue < 0);
      budgetField.toggleAttribute("data-invalid", invalid);
      const next: Mutable<PolicyEdit> = {};
      if (levelValue !== maxSafetyLevel) next.maxSafetyLevel = levelValue;
      if (!invalid && budgetValue !== budgetUsd) next.budgetUsd = budgetValue;
      return withEntry(now, "policies", stage, Object.keys(next).length === 0 ? undefined : next);
    };
  const group = (event: Event) => (event.currentTarget as Element).closest("fieldset")!;
  const levelOf = (event: Event) =>
    controlValue(group(event).querySelector(`[data-lever="policy:${stage}:level"]`)!) || null;
  const budgetOf = (event: Event) =>
    group(event).querySelector(`[data-lever="policy:${stage}:budget"]`)!;
  const picked = (event: Event) =>
    move(apply(levelOf(event), controlValue(budgetOf(event)), budgetOf(event)), false);
  const options = [
    option("", "no ceiling", level === null),
    ...safetyLevels.map((name) => option(name, name, name === level)),
  ];
  const budgetField = field(
    "Budget (USD)",
    budget === null || budget === undefined ? "" : String(budget),
    `policy:${stage}:budget`,
    (text, event) => apply(levelOf(event), text, event.currentTarget as Element),
    move,
    "empty: no budget",
  );
  return html`<fieldset class="whatif-group"><legend>Policy: ${nameText(stage)}</legend><label class="field-label">Max safety level</label>${staticHtml`<${StaticTag.dropdown} aria-label="Max safety level" data-lever="policy:${stage}:level" .value=${level ?? ""} @change=${picked}>${options}</${StaticTag.dropdown}>`}${budgetField}</fieldset>`;
}

/** A text field whose typing (settled) and change (at once) hand `move` what `typed` makes of its text. */
function field(
  label: string,
  value: string,
  lever: string,
  typed: (text: string, event: Event) => EditChange,
  move: MoveLever,
  hint?: string,
): TemplateResult {
  const moved = (typing: boolean) => (event: Event) =>
    move(typed(controlValue(event.currentTarget as Element), event), typing);
  return staticHtml`<${StaticTag.textField} data-lever=${lever} placeholder=${hint ?? nothing} title=${hint ?? nothing} .value=${value} @input=${moved(true)} @change=${moved(false)}>${label}</${StaticTag.textField}>`;
}

function option(value: string, text: string, selected: boolean): TemplateResult {
  return staticHtml`<${StaticTag.option} value=${value} ?selected=${selected}>${text}</${StaticTag.option}>`;
}

function sameVerdict(a: VerdictEdit | null, b: VerdictEdit | null): boolean {
  if (a === null || b === null) return a === b;
  return (
    a.label === b.label &&
    a.matchedToolKeywords.join("\u0000") === b.matchedToolKeywords.join("\u0000")
  );
}

type Keyed = "enabled" | "verdicts" | "forcedTools" | "policies";

/** The edit with one stage's lever set (`undefined`: back to the fixture's), without empty groups. */
function withEntry<K extends Keyed>(
  edit: WhatIf,
  group: K,
  stage: string,
  value: NonNullable<WhatIf[K]>[string] | undefined,
): WhatIf {
  const entries: Record<string, unknown> = { ...edit[group] };
  if (value === undefined) delete entries[stage];
  else entries[stage] = value;
  const out: Mutable<WhatIf> = { ...edit };
  if (Object.keys(entries).length) (out as Record<string, unknown>)[group] = entries;
  else delete out[group];
  return out;
}

function withRole(edit: WhatIf, role: string | undefined): WhatIf {
  const out: Mutable<WhatIf> = { ...edit };
  if (role === undefined) delete out.role;
  else out.role = role;
  return out;
}

/** The bar that says a what-if is on screen, with the way back. */
export function whatIfBar(edit: WhatIf, reset: () => void): TemplateResult {
  return html`<div class="whatif-bar" role="status">${icon("beaker")}What-if on screen: ${counted(whatIfSize(edit), "lever")} moved.${staticHtml`<${StaticTag.button} appearance="secondary" data-action="reset" @click=${reset}>Reset</${StaticTag.button}>`}</div>`;
}
