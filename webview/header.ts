import type { ReportView, RunReport } from "../src/core/report.js";
import type { ExpectationFailure } from "../src/core/expect.js";
import { explainUnavailable } from "../src/core/forced-unavailable.js";
import { counted } from "../src/core/words.js";
import type { DebugAction, ProblemView, TraceView } from "../src/protocol.js";
import { count, el, icon, nameText, type Child } from "./dom.js";

/** The file's last path segment: what the user calls the fixture. */
export function baseName(file: string): string {
  return file.split(/[\\/]/).pop() || file;
}

/** The turn on screen; `fixtureRole` when a what-if moved the role away from the fixture's. */
export type TurnShown = NonNullable<TraceView["turn"]> & { readonly fixtureRole?: string };

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
): HTMLElement {
  const origin = report.origin;
  const forced = report.forcedChoice;
  return el("header", { class: "header" }, [
    el("h1", {}, [
      icon(origin.kind === "log" ? "output" : origin.kind === "debug" ? "debug-alt" : "json"),
      nameText(baseName(report.file), "file-name"),
      variant ? el("span", { class: "tag tag-variant", text: variant }) : null,
    ]),
    origin.kind === "log"
      ? el("p", { class: "origin" }, [
          // The one numbering of a logged trace: 1-based across its set, as in the Selection Traces view.
          `Logged trace #${origin.index + 1}, read-only — `,
          el(
            "button",
            {
              class: "link",
              attrs: { type: "button", "data-action": "open-source" },
              on: { click: openSource },
            },
            [icon("go-to-file"), ` Open ${baseName(report.file)} at line ${origin.line}`],
          ),
        ])
      : null,
    origin.kind === "debug" && debug ? renderDebugOrigin(origin, debug.stale, debug.act) : null,
    report.description ? el("p", { class: "description", text: report.description }) : null,
    turn
      ? el("p", { class: "turn", attrs: { "data-stat": "turn" } }, [
          el("span", { class: "stat" }, [
            "Query: ",
            turn.query ? el("q", { class: "query", text: turn.query }) : "(none)",
          ]),
          el("span", { class: "stat", attrs: { "data-stat": "role" } }, [
            "Role: ",
            roleText(turn.role),
            turn.fixtureRole === undefined
              ? null
              : el("span", { class: "muted" }, [
                  " (what-if; the fixture's: ",
                  roleText(turn.fixtureRole),
                  ")",
                ]),
          ]),
        ])
      : null,
    el("p", { class: "stats" }, [
      el("span", { class: "stat", attrs: { "data-stat": "flow" } }, [
        `Offered ${count(report.offered.length)} → final ${count(report.names.length)}`,
      ]),
      el(
        "span",
        { class: "stat", attrs: { "data-stat": "forced" } },
        forced === null ? ["No forced choice"] : [icon("pinned"), "Forced: ", nameText(forced)],
      ),
      // A logged trace or a debuggee's value was not run here: it has no run time to show.
      origin.kind !== "fixture"
        ? null
        : el("span", { class: "stat", attrs: { "data-stat": "time" } }, [
            icon("watch"),
            `Ran in ${report.durationMs.toFixed(report.durationMs < 10 ? 2 : 0)} ms`,
          ]),
    ]),
  ]);
}

function roleText(role: string): Child {
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
): HTMLElement {
  return el("div", { class: "origin debug-origin" }, [
    el("p", {}, [
      "Read from the debug session ",
      nameText(origin.session),
      ", frame ",
      nameText(origin.frame),
      ", expression ",
      nameText(origin.expression),
      stale ? el("span", { class: "tag tag-stale", text: "stale" }) : null,
    ]),
    stale
      ? el("p", {
          class: "stale-note",
          role: "status",
          text: "The program has moved on since this value was read. Pause where it is in scope and Refresh.",
        })
      : null,
    el(
      "p",
      { class: "debug-actions" },
      DEBUG_BUTTONS.map(([action, codicon, label]) =>
        el(
          "button",
          {
            class: "link",
            attrs: { type: "button", "data-action": action },
            on: { click: () => act(action) },
          },
          [icon(codicon), ` ${label}`],
        ),
      ),
    ),
  ]);
}

/** ForcedToolUnavailable: which tool, and why no stage kept it (the one explanation every view shows). */
export function renderErrorBanner(report: ReportView): HTMLElement | null {
  const unavailable = explainUnavailable(report);
  if (unavailable === null) return null;
  return el("div", { class: "banner banner-error", role: "alert" }, [
    icon("error"),
    el("div", {}, [
      el("strong", { text: "ForcedToolUnavailable: " }),
      ...unavailable.parts.map((part) => (typeof part === "string" ? part : nameText(part.name))),
    ]),
  ]);
}

/** The fixture's expectations this run misses, each in words; the rows where it differs are marked too. */
export function renderExpectations(failed: readonly ExpectationFailure[]): HTMLElement | null {
  if (failed.length === 0) return null;
  return el("section", { class: "banner banner-expect", label: "Failed expectations" }, [
    icon("error"),
    el("div", {}, [
      el("strong", {
        text: `${counted(failed.length, "expectation fails", "expectations fail")}:`,
      }),
      el(
        "ul",
        { class: "expect-list" },
        failed.map((failure) =>
          el("li", { attrs: { "data-key": failure.key } }, [
            failure.text,
            ...(failure.stages.length
              ? [
                  " — at ",
                  ...failure.stages.flatMap((stage, i) => [i ? ", " : "", nameText(stage)]),
                ]
              : []),
          ]),
        ),
      ),
    ]),
  ]);
}

/** An invalid fixture: its problems, located, and nothing else (never a stack). */
export function renderProblems(file: string, problems: readonly ProblemView[]): HTMLElement {
  return el("section", { class: "problems", label: "Fixture problems" }, [
    el("h1", {}, [icon("error"), nameText(baseName(file), "file-name")]),
    el("p", {
      text: `The fixture cannot run: ${problems.length} problem${problems.length === 1 ? "" : "s"}. Fix ${problems.length === 1 ? "it" : "them"} and the panel re-runs.`,
    }),
    el(
      "ul",
      { class: "problem-list" },
      problems.map((problem) =>
        el("li", { class: `problem problem-${problem.severity}` }, [
          icon(problem.severity === "error" ? "error" : "warning"),
          where(problem),
          ` ${problem.severity}: `,
          el("span", { class: "message", text: problem.message }),
        ]),
      ),
    ),
  ]);
}

/**
 * `folder/file:line:col`, breakable only after a path separator: the file's name and its place
 * stay whole on a narrow panel.
 */
function where(problem: ProblemView): HTMLElement {
  const parts = problem.file.split(/(?<=[\\/])/);
  const last = parts.pop() ?? "";
  return el("span", { class: "where" }, [
    ...parts.flatMap((part) => [part, el("wbr")]),
    el("span", { class: "where-end", text: `${last}:${problem.line}:${problem.column}` }),
  ]);
}

/** Final tools listed before an expander. */
const MODEL_TOOLS_SHOWN = 50;

/** What is bound on the model call: the final tools with their summaries, and the tool_choice. */
export function renderModelSees(report: ReportView, select: (tool: string) => void): HTMLElement {
  const summaries = new Map(report.manifest.map((entry) => [entry.name, entry.summary]));
  // Without a catalogue no tool has a summary: said once, not on every tool.
  const catalogued = summaries.size > 0;
  const forced = report.forcedChoice;
  const list = el("ul", { class: "model-tools" });
  const item = (name: string) => {
    const summary = summaries.get(name);
    return el("li", {}, [
      el(
        "button",
        {
          class: "link",
          attrs: { type: "button", "data-tool": name },
          label: `Where did ${name} go?`,
          on: { click: () => select(name) },
        },
        [nameText(name)],
      ),
      summary === undefined
        ? catalogued &&
          el("span", {
            class: "muted",
            text: " — not in the agent-facing manifest (internal or not catalogued)",
          })
        : summary
          ? el("span", { text: ` — ${summary}` })
          : null,
    ]);
  };
  list.append(...report.names.slice(0, MODEL_TOOLS_SHOWN).map(item));
  if (report.names.length > MODEL_TOOLS_SHOWN) {
    const more = el("button", {
      class: "expander",
      text: `Show all ${count(report.names.length)} tools`,
      attrs: { type: "button" },
    });
    more.addEventListener("click", () => {
      more.parentElement!.replaceWith(...report.names.slice(MODEL_TOOLS_SHOWN).map(item));
    });
    list.append(el("li", {}, [more]));
  }
  return el("section", { class: "model-sees", label: "What the model sees" }, [
    el("h2", { text: "What the model sees" }),
    catalogued || report.names.length === 0
      ? null
      : el("p", {
          class: "muted no-catalogue",
          text: "This run has no tool catalogue, so the tools' descriptions are not known.",
        }),
    report.names.length === 0 ? el("p", { class: "muted", text: "No tools are bound." }) : list,
    el("p", { class: "tool-choice" }, [
      "tool_choice: ",
      forced === null
        ? "auto (the model chooses)"
        : el("span", {}, ["forced to ", nameText(forced)]),
    ]),
  ]);
}
