import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { choiceWarning, modelCallLabel, modelGot } from "../../src/core/model-got.js";
import { choiceMismatch } from "../../src/core/traces/model-call.js";
import { formatModelGot } from "../../src/core/render/model-text.js";
import { reportMarkdown } from "../../src/core/render/markdown.js";
import { reportToJson } from "../../src/core/report-json.js";
import type { RunReport } from "../../src/core/report.js";
import { reportFromTrace } from "../../src/core/traces/report.js";
import { scanText } from "../../src/core/traces/scan.js";
import { chatSpan, lines, request, selectionTrace, TRACE_A, turnSpan } from "./otel/otlp.js";

/** The report of the one selection of an OTLP request holding a selection and, maybe, chat spans. */
function reportOf(chats: ReturnType<typeof chatSpan>[], tools = ["get_weather", "final_answer"]) {
  const text = lines(request([turnSpan(TRACE_A, 10, selectionTrace("t-1", tools)), ...chats]));
  const scan = scanText(text);
  expect(scan.problems).toEqual([]);
  return reportFromTrace(scan.traces[0]!, "turns.otlp.jsonl");
}

const mixed = () =>
  reportOf([
    chatSpan(TRACE_A, 20, {
      model: "gpt-4o",
      offered: ["get_weather", "search"],
      calls: ["search", "send_email", "send_email"],
      id: "00000000000000aa",
    }),
  ]);

describe("the report of a trace read from OpenTelemetry", () => {
  it("carries the model call it fed, and null when none was joined", () => {
    expect(mixed().model).toEqual({
      span_id: "00000000000000aa",
      model: "gpt-4o",
      offered: ["get_weather", "search"],
      called: ["search", "send_email", "send_email"],
      tool_choice: null,
      convention: "gen_ai",
      final_not_offered: ["final_answer"],
      offered_not_final: ["search"],
      called_not_offered: ["send_email", "send_email"],
    });
    expect(reportOf([]).model).toBeNull();
  });

  it("has no model at all when the trace is from a log, and show --json gains it only for OpenTelemetry", () => {
    const logged = scanText(`${JSON.stringify(selectionTrace("t-1", ["a"]))}\n`).traces[0]!;
    const report = reportFromTrace(logged, "agent.log");
    expect("model" in report).toBe(false);
    expect("model" in reportToJson(report)).toBe(false);
    expect(reportToJson(mixed()).model).toEqual(mixed().model);
    expect(reportToJson(reportOf([]))).toMatchObject({ model: null });
  });
});

describe("modelGot", () => {
  it("lists the offered tools in order, marks those added after selection, then the final ones lost", () => {
    expect(modelGot(mixed())).toEqual({
      model: "gpt-4o",
      spanId: "00000000000000aa",
      convention: "OTel GenAI",
      toolChoice: null,
      choiceMismatch: null,
      tools: [
        { name: "get_weather", mark: "both" },
        { name: "search", mark: "added" },
        { name: "final_answer", mark: "lost" },
      ],
      called: [
        { name: "search", unoffered: false },
        { name: "send_email", unoffered: true },
        { name: "send_email", unoffered: true },
      ],
      unoffered: ["send_email"],
    });
  });

  it("says nothing for a run not from OpenTelemetry, and null when no call was joined", () => {
    expect(modelGot({ forcedChoice: null })).toBeUndefined();
    expect(modelGot({ model: null, forcedChoice: null })).toBeNull();
  });

  it("without tool definitions, compares nothing and warns on calls outside the final palette", () => {
    const got = modelGot(reportOf([chatSpan(TRACE_A, 20, { calls: ["get_weather", "sql"] })]));
    expect(got).toMatchObject({ model: null, tools: null, unoffered: ["sql"] });
  });

  it("labels a call whose span names no model as such", () => {
    const got = modelGot(reportOf([chatSpan(TRACE_A, 20, { id: "00000000000000bb" })]))!;
    expect(modelCallLabel(got, (text) => `<${text}>`)).toBe(
      "model not named, span <00000000000000bb> (OTel GenAI)",
    );
  });
});

const md = (report: RunReport) => reportMarkdown(report);

describe("Copy as Markdown: what the model got", () => {
  it("lists the offered tools with each difference marked, the calls, and a warning per unoffered call", () => {
    const text = md(mixed());
    expect(text.slice(text.indexOf("#### "))).toBe(
      [
        "#### What the model got",
        "",
        "Model call: gpt-4o, span 00000000000000aa (OTel GenAI).",
        "",
        "- Offered to the model, against the final palette: get\\_weather, search (added after selection), final\\_answer (lost after selection)",
        "- Tool choice: not recorded (OTel GenAI)",
        "- Called: search, send\\_email, send\\_email",
        "",
        "> **Warning:** send\\_email called, but not offered to the model.",
        "",
      ].join("\n"),
    );
  });

  it("says plainly that no model call was joined, and shows nothing for a logged trace", () => {
    expect(md(reportOf([]))).toMatch(/\n#### What the model got\n\nNo model call joined: /);
    const logged = scanText(`${JSON.stringify(selectionTrace("t-1", ["a"]))}\n`).traces[0]!;
    expect(md(reportFromTrace(logged, "agent.log"))).not.toContain("What the model got");
  });

  it("without tool definitions says so, after a blank line and the heading", () => {
    const text = md(
      reportOf([chatSpan(TRACE_A, 20, { calls: ["get_weather"], id: "00000000000000cc" })]),
    );
    expect(text).toContain(
      [
        "",
        "",
        "#### What the model got",
        "",
        "Model call: model not named, span 00000000000000cc (OTel GenAI).",
        "",
        "- The tools offered to the model: not recorded (OTel GenAI).",
        "- Tool choice: not recorded (OTel GenAI)",
        "- Called: get\\_weather",
        "",
      ].join("\n"),
    );
  });

  it("says none for an empty palette offered and no call made, and not recorded for calls no span records", () => {
    const report = reportOf([chatSpan(TRACE_A, 20, { offered: [], calls: [] })], []);
    expect(md(report)).toContain(
      "- Offered to the model, against the final palette: none\n- Tool choice: not recorded (OTel GenAI)\n- Called: none\n",
    );
    expect(formatModelGot(report, false)).toContain("\n  called: none\n");
    const unrecorded = reportOf([chatSpan(TRACE_A, 20, { offered: [] })], []);
    expect(unrecorded.model?.called).toBeNull();
    expect(md(unrecorded)).toContain("- Called: not recorded (OTel GenAI)\n");
    expect(formatModelGot(unrecorded, false)).toContain("\n  called: not recorded (OTel GenAI)\n");
  });

  it("warns of at most as many unoffered calls as the names it lists", () => {
    const report = reportOf([chatSpan(TRACE_A, 20, { offered: [], calls: ["x", "y"] })]);
    const text = reportMarkdown(report, { maxNames: 1 });
    expect(text.match(/\*\*Warning:\*\*/g)).toHaveLength(1);
    expect(text).toContain("> **Warning:** x called, but not offered to the model.");
  });

  it("neutralises hostile tool and model names as every other cell", () => {
    const text = md(
      reportOf(
        [chatSpan(TRACE_A, 20, { model: "<img src=x>|", offered: ["a|b"], calls: ["[x](y)"] })],
        ["a|b"],
      ),
    );
    expect(text).toContain("Model call: &lt;img src=x&gt;\\|, span");
    expect(text).toContain("against the final palette: a\\|b\n");
    expect(text).toContain("> **Warning:** \\[x\\](y) called, but not offered to the model.");
    expect(text).not.toMatch(/<img|[^\\]\|b/);
  });
});

describe("show: what the model got", () => {
  it("prints the tools with their marks, the calls and the warning, terminal-safe", () => {
    expect(formatModelGot(mixed(), false)).toBe(
      [
        "",
        "what the model got: gpt-4o, span 00000000000000aa (OTel GenAI)",
        "  offered to the model, against the final palette:",
        "    get_weather",
        "    search  (added after selection)",
        "    final_answer  (lost after selection)",
        "  tool choice: not recorded (OTel GenAI)",
        "  called: search, send_email, send_email",
        "  warning: send_email called, but not offered to the model",
        "",
      ].join("\n"),
    );
    const hostile = reportOf([chatSpan(TRACE_A, 20, { model: "m\x1b[2J", calls: ["x\u202e"] })]);
    const text = formatModelGot(hostile, true);
    expect(text).toContain("what the model got: m\\u001b[2J, span");
    expect(text).toContain("  The tools offered to the model: not recorded (OTel GenAI).");
    expect(text).toContain(
      "\x1b[33m  warning: x\\u202e called, but not in the final palette\x1b[0m",
    );
    expect(formatModelGot(reportOf([]), false)).toMatch(
      /^\nwhat the model got: No model call joined: /,
    );
    expect(formatModelGot({ forcedChoice: null }, false)).toBe("");
  });
});

describe("the request's tool choice against the pipeline's forced choice", () => {
  /** OpenInference's recording of a pipeline forcing get_weather: sent forced, then not sent. */
  const reports = () => {
    const text = readFileSync(
      join(import.meta.dirname, "../otel-libs/recordings/openinference-openai/forced.otlp.jsonl"),
    );
    return scanText(text).traces.map((found) => reportFromTrace(found, "forced.otlp.jsonl"));
  };

  it("is reported as sent, and a warning in every view when the request did not force the forced tool", () => {
    const [sent, unsent] = reports();
    expect([sent!.model?.tool_choice, unsent!.model?.tool_choice]).toEqual(["get_weather", "auto"]);
    expect(modelGot(sent!)?.choiceMismatch).toBeNull();
    expect(formatModelGot(sent!, false)).toContain("\n  tool choice: forced get_weather\n");
    expect(formatModelGot(sent!, false)).not.toContain("warning");
    const warning = "the pipeline forced get_weather; the request sent auto";
    expect(formatModelGot(unsent!, false)).toContain(`\n  warning: ${warning}\n`);
    expect(md(unsent!)).toContain(
      `> **Warning:** the pipeline forced get\\_weather; the request sent auto.`,
    );
    expect(modelCallLabel(modelGot(unsent!)!, (t) => t)).toMatch(/ \(OpenInference\)$/);
  });

  it("warns the other way when the request forced a tool the pipeline did not", () => {
    expect(choiceMismatch(null, "search")).toEqual({ forced: null, sent: "search" });
    expect(choiceWarning({ forced: null, sent: "search" }, (t) => `<${t}>`)).toBe(
      "the request forced <search>; the pipeline forced no tool",
    );
    expect(choiceMismatch("a", "b")).toEqual({ forced: "a", sent: "b" });
    expect(choiceWarning({ forced: "a", sent: "b" }, (t) => t)).toBe(
      "the pipeline forced a; the request sent forced b",
    );
    // Agreeing, a mode without a forced tool, or not recorded: nothing to warn of.
    for (const [forced, sent] of [
      ["a", "a"],
      [null, "auto"],
      [null, "none"],
      [null, "required"],
      ["a", null],
      [null, null],
    ] as const)
      expect(choiceMismatch(forced, sent)).toBeNull();
  });
});
