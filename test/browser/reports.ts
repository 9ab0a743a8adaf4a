/** Real RunReports for the browser tests and the benchmark, made by the core from fixtures. */
import { readFileSync } from "node:fs";
import { compareReports } from "../../src/core/compare.js";
import { expectationFailures } from "../../src/core/expect.js";
import type { Fixture } from "../../src/core/fixture/load.js";
import type { FixtureJson, StageJson } from "../../src/core/fixture/schema.js";
import { reportView, type RunReport } from "../../src/core/report.js";
import { runFixture } from "../../src/core/run-fixture.js";
import { reportFromTrace } from "../../src/core/traces/report.js";
import { scanText } from "../../src/core/traces/scan.js";
import { applyWhatIf, whatIfLevers, type WhatIf } from "../../src/core/whatif.js";
import type { ToWebview } from "../../src/protocol.js";
import { loadValid, noCatalogFile } from "../core/spec/helpers.js";

export function load(json: FixtureJson, file = "weather.turn.json"): Promise<Fixture> {
  return loadValid(json, noCatalogFile, file);
}

/** The `show` message the host posts for a fixture run. */
export function showFixture(fixture: Fixture, report: RunReport = runFixture(fixture)): ToWebview {
  return {
    type: "show",
    view: {
      report: reportView(report),
      levers: whatIfLevers(fixture.json, fixture.catalog.safetyLevels),
      source: `file:///work/${fixture.file}`,
      compared: null,
      whatIf: null,
      turn: { query: fixture.json.turn?.query ?? "", role: fixture.json.turn?.role ?? "" },
      failed: expectationFailures(fixture.json.expect, report),
    },
  };
}

/** The `show` message for a trace logged at `line` of agent.log, read-only as the host posts it. */
export function showLogged(report: RunReport, line: number, index: number): ToWebview {
  return {
    type: "show",
    view: {
      report: {
        ...reportView(report),
        origin: { kind: "log", line, index },
        file: "file:///ws/logs/agent.log",
        // A logged trace carries no composition of its own.
        stages: [],
      },
      levers: null,
      source: null,
      compared: null,
      whatIf: null,
      turn: null,
      failed: [],
    },
  };
}

/** The `show` message for a logged trace's own report, as the host posts it: read-only. */
export function showTrace(report: RunReport): ToWebview {
  return {
    type: "show",
    view: {
      report: reportView(report),
      levers: null,
      source: null,
      compared: null,
      whatIf: null,
      turn: null,
      failed: [],
    },
  };
}

/** The turns of examples/otel/turns.otlp.jsonl as the host reports them: each joined to its model call. */
export function otelTurns(): RunReport[] {
  const found = scanText(readFileSync("examples/otel/turns.otlp.jsonl", "utf8")).traces;
  return found.map((trace) => reportFromTrace(trace, "file:///ws/turns.otlp.jsonl"));
}

export function whatIfResult(fixture: Fixture, edit: WhatIf, requestId: number): ToWebview {
  const variant = runFixture(fixture, applyWhatIf(fixture.json, edit));
  return {
    type: "whatIfResult",
    requestId,
    variant: reportView(variant),
    comparison: compareReports(runFixture(fixture), variant),
  };
}

export const CATALOG = [
  { name: "search", summary: "Search the web.", safety_level: "low", cost_usd: 0.01 },
  {
    name: "get_weather",
    summary: "Current weather for a city.",
    safety_level: "low",
    cost_usd: 0.01,
    trigger_keywords: ["weather"],
  },
  {
    name: "sql",
    summary: "Run a read-only SQL query.",
    safety_level: "high",
    cost_usd: 0.02,
    trigger_keywords: ["sql"],
  },
  {
    name: "delete_rows",
    summary: "Delete rows from a table.",
    safety_level: "critical",
    trigger_keywords: ["delete"],
  },
  { name: "final_answer", summary: "Answer the user." },
];

/** The docs/formats.md example: select, force, drop with reasons, re-add. */
export const EXAMPLE: FixtureJson = {
  description: "analyst asks for the weather; policy ceiling is medium",
  catalog: CATALOG,
  turn: { query: "what's the weather in Lyon?", role: "analyst" },
  pipeline: [
    {
      kind: "intent",
      verdict: { label: "action", matched_tool_keywords: ["get_weather"] },
      always_include: ["final_answer"],
    },
    { kind: "forced", resolver: { kind: "fixed", tool: "get_weather" } },
    {
      kind: "role",
      role_tools: {
        analyst: ["search", "get_weather", "sql"],
        admin: ["search", "get_weather", "sql", "delete_rows"],
      },
    },
    { kind: "policy", max_safety_level: "medium", budget_usd: 0.05 },
    { kind: "allowlist", always_include: ["final_answer"] },
  ],
};

/** Every action, a degraded stage, a reinstated forced tool, a release, and a disabled stage. */
export const EVERY_ACTION: FixtureJson = {
  description: "every kind of row",
  catalog: CATALOG,
  turn: { role: "nobody" },
  pipeline: [
    { kind: "lazy", allowed_names: null },
    { kind: "forced", resolver: { kind: "fixed", tool: "sql" } },
    { kind: "role", role_tools: { nobody: [] } },
    { kind: "scripted", name: "flaky", outcome: { raise: "upstream timed out" } },
    { kind: "policy", max_safety_level: "medium" },
    {
      kind: "scripted",
      name: "adopter",
      outcome: { select: ["search", "sql", "final_answer"] },
      detail: "adopter's own narrowing",
    },
    { kind: "scripted", name: "release", outcome: { force: null }, detail: "let the model choose" },
    { kind: "allowlist", always_include: ["final_answer"], enabled: false },
  ],
};

/** ForcedToolUnavailable: a hard filter drops the forced tool. */
export const FORCED_UNAVAILABLE: FixtureJson = {
  description: "a hard filter drops the forced tool",
  catalog: CATALOG,
  pipeline: [
    { kind: "forced", resolver: { kind: "fixed", tool: "sql" } },
    { kind: "policy", max_safety_level: "medium", protects_forced: false },
  ],
};

export const CAPABILITY: FixtureJson = {
  description: "capability mode: the router first, the palette outcome last",
  catalog: CATALOG,
  routing: {
    registered: ["search", "get_weather", "sql", "final_answer"],
    entries: [
      { content: "weather", metadata: { action_tool: "get_weather" } },
      { content: "search" },
    ],
  },
  pipeline: [{ kind: "allowlist", always_include: ["final_answer"] }],
};

/** Untrusted strings that must render as literal text and run nothing. */
export const XSS = [
  "<script>window.__pwned++</script>",
  '<img src=x onerror="window.__pwned++">',
  "</script><script>window.__pwned++</script>",
  "javascript:window.__pwned++",
  "line\u2028separator\u2029paragraph",
  "\u202Eevil\u202C-bidi-\u2066isolate\u2069",
  "x".repeat(10_000),
  '" onmouseover="window.__pwned++" x="',
  "{{constructor.constructor('window.__pwned++')()}}",
];

export const XSS_FIXTURE: FixtureJson = {
  description: '<img src=x onerror="window.__pwned++"> description',
  offered: XSS,
  pipeline: [
    {
      kind: "scripted",
      name: "<b>stage</b><script>window.__pwned++</script>",
      outcome: { select: XSS.slice(0, 5) },
      detail: '<img src=x onerror="window.__pwned++">\u2028detail',
      reasons: Object.fromEntries(
        XSS.slice(5).map((name) => [name, "<script>window.__pwned++</script> reason"]),
      ),
    },
    { kind: "forced", name: "javascript:alert(1)", resolver: { kind: "fixed", tool: XSS[0]! } },
  ],
};

/** `tools` tools through `stages` stages, each narrowing a little and one re-adding: the large-trace case. */
export function largeFixture(tools: number, stages: number): FixtureJson {
  const names = Array.from(
    { length: tools },
    (_, i) => `tool_${String(i).padStart(4, "0")}_${["search", "fetch", "write", "query"][i % 4]}`,
  );
  const pipeline: StageJson[] = [];
  let current = names;
  for (let s = 0; s < stages; s++) {
    if (s === Math.floor(stages / 2)) {
      pipeline.push({
        kind: "allowlist",
        name: `mandate_${s}`,
        always_include: names.slice(0, 10),
      });
      continue;
    }
    const drop = new Set(current.filter((_, i) => i % (stages + 7 - s) === 3));
    current = current.filter((name) => !drop.has(name));
    pipeline.push({
      kind: "scripted",
      name: `stage_${String(s).padStart(2, "0")}`,
      outcome: { select: current },
      detail: `narrowed to ${current.length} tools`,
      reasons: Object.fromEntries([...drop].map((name) => [name, `stage ${s} rule`])),
    });
  }
  return { description: `${tools} tools through ${stages} stages`, offered: names, pipeline };
}
