import { explainUnavailable } from "../forced-unavailable.js";
import { sentenceText, waterfallRows, type WaterfallRow } from "../lineage.js";
import type { RunReport } from "../report.js";
import {
  MODEL_HEADING,
  MODEL_MARK_TEXT,
  modelCallLabel,
  modelGot,
  NO_MODEL_CALL,
  noToolDefinitions,
  notRecorded,
  choiceWarning,
  toolChoiceText,
  unofferedWarning,
} from "../model-got.js";

export interface MarkdownOptions {
  /** Names listed per cell before "… and N more", so a 2,000-tool run still pastes into a PR. */
  readonly maxNames?: number;
  /** How the title names the file (workspace-relative); by default its last path segment, never a local absolute path. */
  readonly title?: string;
}

/** The waterfall as a GitHub-flavoured Markdown table, for pull requests and issues. */
export function reportMarkdown(report: RunReport, options: MarkdownOptions = {}): string {
  const max = options.maxNames ?? 30;
  const file = options.title ?? report.file.split(/[\\/]/).pop() ?? report.file;
  const origin = report.origin;
  const title =
    origin.kind === "log"
      ? `${file}, line ${origin.line}`
      : origin.kind === "received"
        ? `live turn #${origin.index + 1}`
        : origin.kind === "debug"
          ? `${origin.expression} in ${origin.frame}`
          : file;
  const lines = [`### Selection trace: ${inline(title)}`, ""];
  if (report.description) lines.push(inline(report.description), "");
  lines.push(
    `Offered ${report.offered.length} → final ${report.names.length}; forced choice: ${report.forcedChoice === null ? "none" : inline(report.forcedChoice)}.`,
  );
  const unavailable = explainUnavailable(report);
  if (unavailable)
    lines.push("", `**ForcedToolUnavailable:** ${sentenceText(unavailable.parts, inline)}`);
  lines.push(
    "",
    "| # | Stage | Kind | Action | Tools | Kept | Dropped | Added | Reinstated | Forced | Detail |",
    "|---:|---|---|---|---:|---|---|---|---|---|---|",
  );
  const capability = report.capability;
  if (capability) {
    const router = capability.router;
    const routed = router.state === "routed" ? names(router.names, max) : "";
    lines.push(
      row([
        "",
        "router",
        "capability",
        router.state,
        `${capability.registered.length} → ${report.offered.length}`,
        routed,
        "",
        "",
        "",
        "",
        inline(router.state === "routed" ? "routed" : capability.routerReason),
      ]),
    );
  }
  waterfallRows(report).forEach((stage, i) => lines.push(stageRow(stage, i + 1, max)));
  if (capability) {
    const palette = capability.palette;
    lines.push(
      row([
        "",
        "palette",
        "capability",
        palette.outcome === "applied" ? "applied" : "no change",
        palette.names ? String(palette.names.length) : "",
        "",
        "",
        "",
        "",
        palette.forced ? inline(palette.forced) : "",
        inline(palette.reason),
      ]),
    );
  }
  lines.push("", `Final: ${report.names.length === 0 ? "none" : names(report.names, max)}`);
  lines.push(...modelSection(report, max));
  return lines.join("\n") + "\n";
}

/** What the model got, for a trace read from OpenTelemetry; nothing for any other run. */
function modelSection(report: RunReport, max: number): string[] {
  const got = modelGot(report);
  if (got === undefined) return [];
  const lines = ["", `#### ${MODEL_HEADING}`, ""];
  if (got === null) return [...lines, NO_MODEL_CALL];
  lines.push(`Model call: ${modelCallLabel(got, inline)}.`, "");
  if (got.tools === null) lines.push(`- ${noToolDefinitions(got)}`);
  else {
    const marks = new Map(got.tools.map((tool) => [tool.name, tool.mark]));
    const marked = (name: string) => {
      const mark = marks.get(name);
      return mark === undefined || mark === "both" ? "" : ` (${MODEL_MARK_TEXT[mark]})`;
    };
    const listed = got.tools.map((tool) => tool.name);
    lines.push(
      `- Offered to the model, against the final palette: ${listed.length === 0 ? "none" : names(listed, max, marked)}`,
    );
  }
  lines.push(`- Tool choice: ${toolChoiceText(got, inline)}`);
  const called = got.called?.map((call) => call.name) ?? null;
  lines.push(
    `- Called: ${called === null ? notRecorded(got) : called.length === 0 ? "none" : names(called, max)}`,
  );
  if (got.choiceMismatch)
    lines.push("", `> **Warning:** ${choiceWarning(got.choiceMismatch, inline)}.`);
  const warning = unofferedWarning(got);
  for (const name of got.unoffered.slice(0, max))
    lines.push("", `> **Warning:** ${inline(name)} ${warning}.`);
  return lines;
}

function stageRow(
  { info, record, input, output, pin }: WaterfallRow,
  index: number,
  max: number,
): string {
  const kind = info.protectsForced ? info.kind : `${info.kind} (hard filter)`;
  if (record === null)
    return row([
      String(index),
      inline(info.name),
      inline(kind),
      "disabled",
      "",
      "",
      "",
      "",
      "",
      "",
      "",
    ]);
  const action = record.degraded ? `${record.action} (degraded)` : record.action;
  const dropped = names(record.dropped, max, (name) =>
    Object.hasOwn(record.reasons, name) ? ` (${record.reasons[name]})` : "",
  );
  const forced =
    pin === null
      ? ""
      : `${pin}: ${record.forcedChoice === null ? "none" : inline(record.forcedChoice)}`;
  return row([
    String(index),
    inline(info.name),
    inline(kind),
    action,
    `${input} → ${output}`,
    names(record.kept, max),
    dropped,
    names(record.added, max),
    names(record.reinstated, max),
    forced,
    inline(record.detail),
  ]);
}

function row(cells: readonly string[]): string {
  return `| ${cells.join(" | ")} |`;
}

function names(
  list: readonly string[],
  max: number,
  suffix: (name: string) => string = () => "",
): string {
  const shown = list.slice(0, max).map((name) => inline(name + suffix(name)));
  if (list.length > max) shown.push(`… and ${list.length - max} more`);
  return shown.join(", ");
}

/**
 * Untrusted text as one literal table cell: no line breaks, no HTML, no Markdown syntax, no `|`
 * that would end the cell, and no invisible bidi controls that would reorder what a reviewer reads.
 * Text GitHub or GitLab would turn into a link or a ping becomes a code span, where they do not.
 */
export function inline(text: string): string {
  const flat = text
    .replace(/[\r\n\u2028\u2029\u0085\t]+/g, " ")
    .replace(
      /[\u0000-\u001f\u007f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g,
      (c) => `U+${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, "0")}`,
    );
  if (LINKABLE.test(flat)) return codeSpan(flat);
  return flat
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/[\\`*_[\]|~$]/g, "\\$&");
}

// URLs, www. and e-mail addresses (autolinks); @mentions; #12, !12, &12, $12 references; ~label, %milestone.
const LINKABLE = /[a-z][\w+.-]*:\/\/|www\.|@\w|[#!&$]\d|[~%]["\w]/i;

/** A code span no backtick inside can close; `|` stays escaped, as a table cell needs even there. */
function codeSpan(text: string): string {
  const longest = (text.match(/`+/g) ?? []).reduce((n, run) => Math.max(n, run.length), 0);
  const fence = "`".repeat(longest + 1);
  const pad = text.startsWith("`") || text.endsWith("`") ? " " : "";
  return `${fence}${pad}${text.replace(/\|/g, "\\|")}${pad}${fence}`;
}
