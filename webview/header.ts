import { html, nothing, type TemplateResult } from "lit";
import type { ReportView, RunReport } from "../src/core/report.js";
import type { ExpectationFailure } from "../src/core/expect.js";
import { explainUnavailable } from "../src/core/forced-unavailable.js";
import { baseName, counted } from "../src/core/words.js";
import type { DebugAction, ProblemView, TraceView } from "../src/protocol.js";
import { count } from "./dom.js";
import { icon, nameText, toolLink } from "./parts.js";

type Part = TemplateResult | typeof nothing;

/** The turn on screen; `fixtureRole` when a what-if moved the role away from the fixture's. */
export type TurnShown = NonNullable<TraceView["turn"]> & { readonly fixtureRole?: string };

const CODICONS: Record<ReportView["origin"]["kind"], string> = {
  fixture: "json",
  log: "output",
  received: "broadcast",
  debug: "debug-alt",
};

/**
 * `variant` labels a run shown in place of the fixture's own (a what-if, or the second of two
 * traces); `openSource` goes back to the log line a logged trace came from.
 */
export function renderHeader(
  report: ReportView,
  variant: string | null,
  openSource: () => void,
  turn: TurnShown | null,
  debug: { readonly stale: boolean; readonly act: (action: DebugAction) => void } | null = null,
): TemplateResult {
  const origin = report.origin;
  const codicon = CODICONS[origin.kind];
  // The one numbering of a logged trace: 1-based across its set, as in the Selection Traces view.
  const logged =
    origin.kind === "log"
      ? html`<p class="origin">Logged trace #${origin.index + 1}, read-only — <button type="button" class="link" data-action="open-source" @click=${openSource}>${icon("go-to-file")} Open ${baseName(report.file)} at line ${origin.line}</button></p>`
      : origin.kind === "received"
        ? html`<p class="origin">Received over OpenTelemetry, read-only: no log line to open</p>`
        : nothing;
  // A received turn's place (`otlp://live/3`) has no file name to show.
  const name =
    origin.kind === "received" ? `Live turn #${origin.index + 1}` : baseName(report.file);
  return html`<header class="header"><h1>${icon(codicon)}${nameText(name, "file-name")}${variant ? html`<span class="tag tag-variant">${variant}</span>` : nothing}</h1>${logged}${origin.kind === "debug" && debug ? renderDebugOrigin(origin, debug.stale, debug.act) : nothing}${report.description ? html`<p class="description">${report.description}</p>` : nothing}${turn ? turnLine(turn) : nothing}${statsLine(report)}</header>`;
}

function turnLine(turn: TurnShown): TemplateResult {
  const fixtureRole =
    turn.fixtureRole === undefined
      ? nothing
      : html`<span class="muted"> (what-if; the fixture's: ${roleText(turn.fixtureRole)})</span>`;
  return html`<p class="turn" data-stat="turn"><span class="stat">Query: ${turn.query ? html`<q class="query">${turn.query}</q>` : "(none)"}</span><span class="stat" data-stat="role">Role: ${roleText(turn.role)}${fixtureRole}</span></p>`;
}

function statsLine(report: ReportView): TemplateResult {
  const forced = report.forcedChoice;
  // A logged trace or a debuggee's value was not run here: it has no run time to show.
  const time =
    report.origin.kind !== "fixture"
      ? nothing
      : html`<span class="stat" data-stat="time">${icon("watch")}Ran in ${report.durationMs.toFixed(report.durationMs < 10 ? 2 : 0)} ms</span>`;
  return html`<p class="stats"><span class="stat" data-stat="flow">Offered ${count(report.offered.length)} → final ${count(report.names.length)}</span><span class="stat" data-stat="forced">${forced === null ? "No forced choice" : html`${icon("pinned")}Forced: ${nameText(forced)}`}</span>${time}</p>`;
}

function roleText(role: string): TemplateResult | string {
  return role ? nameText(role) : "(none)";
}

const DEBUG_BUTTONS: readonly [DebugAction, string, string][] = [
  ["refresh", "refresh", "Refresh"],
  ["turnIntoFixture", "new-file", "Turn into Fixture"],
  ["captureTurn", "record", "Capture Turn Fixture"],
  ["compare", "diff", "Compare…"],
];

/** Where a debuggee's value came from, whether it is still current, and what to do with it. */
function renderDebugOrigin(
  origin: Extract<RunReport["origin"], { kind: "debug" }>,
  stale: boolean,
  act: (action: DebugAction) => void,
): TemplateResult {
  const note = stale
    ? html`<p class="stale-note" role="status">The program has moved on since this value was read. Pause where it is in scope and Refresh.</p>`
    : nothing;
  return html`<div class="origin debug-origin"><p>Read from the debug session ${nameText(origin.session)}, frame ${nameText(origin.frame)}, expression ${nameText(origin.expression)}${stale ? html`<span class="tag tag-stale">stale</span>` : nothing}</p>${note}<p class="debug-actions">${DEBUG_BUTTONS.map(
    ([action, codicon, label]) =>
      html`<button type="button" class="link" data-action=${action} @click=${() => act(action)}>${icon(codicon)} ${label}</button>`,
  )}</p></div>`;
}

/** ForcedToolUnavailable: which tool, and why no stage kept it (the one explanation every view shows). */
export function renderErrorBanner(report: ReportView): Part {
  const unavailable = explainUnavailable(report);
  if (unavailable === null) return nothing;
  return html`<div class="banner banner-error" role="alert">${icon("error")}<div><strong>ForcedToolUnavailable: </strong>${unavailable.parts.map((part) => (typeof part === "string" ? part : nameText(part.name)))}</div></div>`;
}

/** The fixture's expectations this run misses, each in words; the rows where it differs are marked too. */
export function renderExpectations(failed: readonly ExpectationFailure[]): Part {
  if (failed.length === 0) return nothing;
  return html`<section class="banner banner-expect" aria-label="Failed expectations">${icon("error")}<div><strong>${counted(failed.length, "expectation fails", "expectations fail")}:</strong><ul class="expect-list">${failed.map(
    (failure) =>
      html`<li data-key=${failure.key}>${failure.text}${failure.stages.length ? html` — at ${failure.stages.map((stage, i) => html`${i ? ", " : ""}${nameText(stage)}`)}` : nothing}</li>`,
  )}</ul></div></section>`;
}

/** An invalid fixture: its problems, located, and nothing else (never a stack). */
export function renderProblems(file: string, problems: readonly ProblemView[]): TemplateResult {
  const one = problems.length === 1;
  return html`<section class="problems" aria-label="Fixture problems"><h1>${icon("error")}${nameText(baseName(file), "file-name")}</h1><p>The fixture cannot run: ${counted(problems.length, "problem", "problems")}. Fix ${one ? "it" : "them"} and the panel re-runs.</p><ul class="problem-list">${problems.map(
    (problem) =>
      html`<li class="problem problem-${problem.severity}">${icon(problem.severity === "error" ? "error" : "warning")}${where(problem)} ${problem.severity}: <span class="message">${problem.message}</span></li>`,
  )}</ul></section>`;
}

/**
 * `folder/file:line:col`, breakable only after a path separator: the file's name and its place
 * stay whole on a narrow panel.
 */
function where(problem: ProblemView): TemplateResult {
  const parts = problem.file.split(/(?<=[\\/])/);
  const last = parts.pop() ?? "";
  // One text node: an inline box of several reports a rectangle for each.
  const place = `${last}:${problem.line}:${problem.column}`;
  return html`<span class="where">${parts.map((part) => html`${part}<wbr>`)}<span class="where-end">${place}</span></span>`;
}

/** Final tools listed before an expander. */
const MODEL_TOOLS_SHOWN = 50;

/** The manifest this run would send on the model call: the final tools with their summaries, and the tool_choice; `all` once "Show all" was clicked. Beside "What the model got", which is what a recorded call was sent. */
export function renderModelSees(
  report: ReportView,
  select: (tool: string) => void,
  all: boolean,
  showAll: () => void,
): TemplateResult {
  const summaries = new Map(report.manifest.map((entry) => [entry.name, entry.summary]));
  // Without a catalogue no tool has a summary: said once, not on every tool.
  const catalogued = summaries.size > 0;
  const forced = report.forcedChoice;
  const item = (name: string) => {
    const summary = summaries.get(name);
    const said =
      summary === undefined
        ? catalogued
          ? html`<span class="muted"> — not in the agent-facing manifest (internal or not catalogued)</span>`
          : nothing
        : summary
          ? html`<span> — ${summary}</span>`
          : nothing;
    return html`<li>${toolLink(name, select)}${said}</li>`;
  };
  const folded = !all && report.names.length > MODEL_TOOLS_SHOWN;
  const names = folded ? report.names.slice(0, MODEL_TOOLS_SHOWN) : report.names;
  const more = folded
    ? html`<li><button type="button" class="expander" @click=${showAll}>Show all ${count(report.names.length)} tools</button></li>`
    : nothing;
  const list =
    report.names.length === 0
      ? html`<p class="muted">No tools are bound.</p>`
      : html`<ul class="model-tools">${names.map(item)}${more}</ul>`;
  const noCatalogue =
    catalogued || report.names.length === 0
      ? nothing
      : html`<p class="muted no-catalogue">This run has no tool catalogue, so the tools' descriptions are not known.</p>`;
  return html`<section class="model-sees" aria-label="What this run would send the model"><h2>What this run would send the model</h2>${noCatalogue}${list}<p class="tool-choice">tool_choice: ${forced === null ? "auto (the model chooses)" : html`<span>forced to ${nameText(forced)}</span>`}</p></section>`;
}
