import { describe, expect, it } from "vitest";
import type { FixtureJson } from "../../src/core/fixture/schema.js";
import {
  cellState,
  lineageMatrix,
  runTools,
  toolLineage,
  waterfallRows,
} from "../../src/core/lineage.js";
import { explainUnavailable } from "../../src/core/forced-unavailable.js";
import { DROPPED_BEFORE_FORCE, recordOf, reportOf, run } from "./spec/helpers.js";

const catalog = [
  { name: "search", safety_level: "low", cost_usd: 0.01 },
  { name: "get_weather", safety_level: "low", cost_usd: 0.01, trigger_keywords: ["weather"] },
  { name: "sql", safety_level: "high", cost_usd: 0.01, trigger_keywords: ["sql"] },
  { name: "delete_rows", safety_level: "critical", trigger_keywords: ["delete"] },
  { name: "final_answer" },
];

const example: FixtureJson = {
  catalog,
  turn: { query: "weather", role: "analyst" },
  pipeline: [
    {
      kind: "intent",
      verdict: { label: "action", matched_tool_keywords: ["get_weather"] },
      always_include: ["final_answer"],
    },
    { kind: "forced", resolver: { kind: "fixed", tool: "get_weather" } },
    { kind: "role", role_tools: { analyst: ["search", "get_weather", "sql"] } },
    { kind: "policy", max_safety_level: "medium", budget_usd: 0.05, enabled: false },
    { kind: "allowlist", always_include: ["final_answer"] },
  ],
};

describe("waterfallRows", () => {
  it("joins every stage with its record, counts the flow and marks disabled stages", async () => {
    const rows = waterfallRows(await run(example));
    expect(
      rows.map((row) => [row.info.name, row.record?.action ?? null, row.input, row.output]),
    ).toEqual([
      ["intent", "select", 5, 3],
      ["forced", "force", 3, 3],
      ["role", "select", 3, 2],
      ["policy", null, 2, 2],
      ["allowlist", "select", 2, 3],
    ]);
    expect(rows.map((row) => row.pin)).toEqual([null, "set", null, null, null]);
  });

  it("counts a reinstated tool among the stage's input, as the CLI table does", async () => {
    const rows = waterfallRows(
      await run({
        offered: ["a", "b", "c"],
        pipeline: [
          { kind: "forced", resolver: { kind: "fixed", tool: "c" } },
          { kind: "lazy", allowed_names: ["a"] },
        ],
      }),
    );
    expect(rows[1]!.record!.reinstated).toEqual(["c"]);
    expect([rows[1]!.input, rows[1]!.output]).toEqual([3, 2]);
  });

  it("pins a released and a changed forced choice", async () => {
    const rows = waterfallRows(
      await run({
        catalog,
        pipeline: [
          { kind: "scripted", name: "a", outcome: { force: "sql" } },
          { kind: "scripted", name: "b", outcome: { force: "search" } },
          { kind: "scripted", name: "c", outcome: { force: "search" } },
          { kind: "scripted", name: "d", outcome: { force: null } },
        ],
      }),
    );
    expect(rows.map((row) => row.pin)).toEqual(["set", "changed", "confirmed", "released"]);
  });

  it("gives no pin to a force of nothing when nothing was forced", async () => {
    const rows = waterfallRows(
      await run({
        offered: ["a"],
        pipeline: [{ kind: "scripted", name: "s", outcome: { force: null } }],
      }),
    );
    expect(rows.map((row) => [row.record?.action, row.pin])).toEqual([["force", null]]);
  });

  it("joins records to stages by name, counts each record's own flow, and shows unlisted records as logged", () => {
    const stage = (name: string, enabled = true) => ({
      name,
      kind: "scripted" as const,
      enabled,
      protectsForced: true,
    });
    const rows = waterfallRows(
      reportOf({
        offered: ["a", "b", "c", "d"],
        // `s` ran twice in the log but is listed disabled once; `u` is listed and has no record.
        stages: [stage("s", false), stage("s"), stage("u"), stage("t")],
        trace: [
          recordOf("s", ["a"], { dropped: ["b", "c"] }),
          recordOf("t", ["a", "b", "c"], { added: ["x"], forcedChoice: "x", action: "force" }),
          recordOf("v", ["x"]),
        ],
      }),
    );
    expect(
      rows.map((row) => [row.info.name, row.record?.stage ?? null, row.input, row.output, row.pin]),
    ).toEqual([
      ["s", null, 4, 4, null],
      ["s", "s", 3, 1, null],
      ["u", null, 1, 1, null],
      ["t", "t", 3, 4, "set"],
      ["v", "v", 1, 1, "released"],
    ]);
    expect(rows[4]!.info).toEqual({
      name: "v",
      kind: "logged",
      enabled: true,
      protectsForced: true,
    });
    expect(rows[4]!.forcedBefore).toBe("x");
    // A listed stage after the last record has none.
    const unrun = waterfallRows(reportOf({ offered: ["a"], stages: [stage("late")] }));
    expect(unrun.map((row) => [row.info.name, row.record, row.input, row.output])).toEqual([
      ["late", null, 1, 1],
    ]);
  });
});

describe("toolLineage", () => {
  it("answers for a tool dropped then re-added, with the stages' reasons", async () => {
    const lineage = toolLineage(await run(example), "final_answer");
    expect(lineage.events.map((e) => e.kind)).toEqual(["dropped", "re-added"]);
    expect(lineage.sentence).toBe(
      "dropped by `role` (not in the 'analyst' palette), re-added by `allowlist` (mandated by the allowlist); in the final palette.",
    );
    expect(lineage.parts.filter((part) => typeof part !== "string")).toEqual([
      { name: "role" },
      { name: "allowlist" },
    ]);
  });

  it("answers for a dropped tool, a forced one and one kept throughout", async () => {
    const report = await run(example);
    expect(toolLineage(report, "sql").sentence).toBe(
      `dropped by \`intent\` (${report.trace[0]!.reasons.sql}); not in the final palette.`,
    );
    expect(toolLineage(report, "get_weather").sentence).toBe(
      "kept by every stage, forced by `forced`; in the final palette, as the forced tool_choice.",
    );
    expect(toolLineage(report, "nope")).toMatchObject({
      known: false,
      sentence: "`nope` is not a tool of this run.",
    });
  });

  it("answers for a tool never offered but added, and for a reinstated forced choice", async () => {
    const report = await run({
      catalog,
      offered: ["search", "sql"],
      pipeline: [
        { kind: "forced", resolver: { kind: "fixed", tool: "sql" } },
        { kind: "lazy", allowed_names: ["search"] },
        {
          kind: "scripted",
          name: "adopter",
          outcome: { select: ["search", "sql", "final_answer"] },
        },
      ],
    });
    expect(toolLineage(report, "sql").sentence).toBe(
      "forced by `forced`, dropped by `lazy` but reinstated as the protected forced choice; in the final palette, as the forced tool_choice.",
    );
    expect(toolLineage(report, "final_answer").sentence).toBe(
      "never offered to the pipeline, added by `adopter`; in the final palette.",
    );
  });

  it("explains a ForcedToolUnavailable and a release", async () => {
    const failed = await run({
      catalog,
      offered: ["search", "sql"],
      pipeline: [
        { kind: "forced", resolver: { kind: "fixed", tool: "sql" } },
        { kind: "lazy", allowed_names: ["search"], protects_forced: false },
      ],
    });
    expect(toolLineage(failed, "sql").sentence).toBe(
      "forced by `forced`, dropped by `lazy` (not routed by procedural routing); the run failed with ForcedToolUnavailable: it was dropped by `lazy`, a hard filter (a stage that does not protect the forced choice).",
    );
    const released = await run({
      catalog,
      offered: ["sql"],
      pipeline: [
        { kind: "scripted", name: "a", outcome: { force: "sql" } },
        { kind: "scripted", name: "b", outcome: { force: null } },
      ],
    });
    expect(toolLineage(released, "sql").sentence).toBe(
      "kept by every stage, forced by `a`, force released by `b`; in the final palette.",
    );
  });

  it("follows a forced choice set, confirmed, replaced and released, as events and as parts", async () => {
    const report = await run({
      catalog,
      pipeline: [
        { kind: "scripted", name: "a", outcome: { force: "sql" } },
        { kind: "scripted", name: "b", outcome: { force: "search" } },
        { kind: "scripted", name: "c", outcome: { force: "search" } },
        { kind: "scripted", name: "d", outcome: { force: null } },
      ],
    });
    const sql = toolLineage(report, "sql");
    expect(sql.events).toEqual([
      { kind: "forced", stage: "a" },
      { kind: "replaced", stage: "b", by: "search" },
    ]);
    expect(sql.parts).toEqual([
      "kept by every stage",
      ", ",
      "forced by ",
      { name: "a" },
      ", ",
      "forced choice replaced by ",
      { name: "search" },
      " at ",
      { name: "b" },
      "; ",
      "in the final palette",
      ".",
    ]);
    expect(toolLineage(report, "search").sentence).toBe(
      "kept by every stage, forced by `b`, forced by `c`, force released by `d`; in the final palette.",
    );
    expect([sql.forced, toolLineage(report, "search").forced]).toEqual([false, false]);
  });

  it("gives a reasonless event a null reason and says which tool is the forced one", async () => {
    const report = await run({
      catalog: [{ name: "a" }, { name: "constructor" }, { name: "new" }],
      offered: ["a", "constructor"],
      pipeline: [
        { kind: "forced", resolver: { kind: "fixed", tool: "a" } },
        { kind: "scripted", name: "cut", outcome: { select: ["a"] } },
        { kind: "scripted", name: "back", outcome: { select: ["a", "constructor", "new"] } },
      ],
    });
    const named = toolLineage(report, "constructor");
    expect(named).toMatchObject({ known: true, offered: true, final: true, forced: false });
    expect(named.events).toEqual([
      { kind: "dropped", stage: "cut", reason: null },
      { kind: "re-added", stage: "back", reason: null },
    ]);
    expect(toolLineage(report, "new")).toMatchObject({
      offered: false,
      events: [{ kind: "added", stage: "back", reason: null }],
      sentence: "never offered to the pipeline, added by `back`; in the final palette.",
    });
    expect(toolLineage(report, "a")).toMatchObject({ forced: true, final: true });
  });

  it("explains a forced tool dropped before the force was set in the one explanation's words", async () => {
    const report = await run(DROPPED_BEFORE_FORCE);
    const why = explainUnavailable(report)!.why;
    const lineage = toolLineage(report, "sql");
    expect(lineage.parts.slice(-why.length - 1, -1)).toEqual(why);
    expect(lineage.sentence).toBe(
      "dropped by `intent` (its trigger keywords were not matched by the verdict), forced by `forced`; the run failed with ForcedToolUnavailable: it was dropped by `intent` before `forced` set the force, so nothing reinstated it.",
    );
  });

  it("explains a forced choice that was never offered, and a run where no stage ran", async () => {
    const failed = await run({
      offered: ["a"],
      pipeline: [{ kind: "forced", resolver: { kind: "fixed", tool: "zz" } }],
    });
    expect(toolLineage(failed, "zz")).toMatchObject({
      known: true,
      offered: false,
      final: false,
      forced: true,
      sentence:
        "never offered to the pipeline, forced by `forced`; the run failed with ForcedToolUnavailable.",
    });
    expect(toolLineage(await run({ offered: ["a"], pipeline: [] }), "a").sentence).toBe(
      "offered; no stage ran; in the final palette.",
    );
  });

  it("marks where a logged trace first shows a forced choice, even on a select", () => {
    const report = reportOf({
      offered: ["a"],
      names: ["a"],
      forcedChoice: "a",
      trace: [recordOf("s", ["a"], { forcedChoice: "a" })],
    });
    expect(toolLineage(report, "a").sentence).toBe(
      "kept by every stage, forced by `s`; in the final palette, as the forced tool_choice.",
    );
  });

  it("knows a tool only the final palette or only the forced choice names", () => {
    expect(toolLineage(reportOf({ names: ["a"] }), "a")).toMatchObject({
      known: true,
      final: true,
      sentence: "never offered to the pipeline; in the final palette.",
    });
    expect(toolLineage(reportOf({ forcedChoice: "f" }), "f")).toMatchObject({
      known: true,
      forced: true,
      events: [],
    });
    const failed = reportOf({
      error: { kind: "ForcedToolUnavailable", message: "", tool: "e", droppedBy: null },
    });
    expect(toolLineage(failed, "e")).toMatchObject({ known: true, forced: true });
  });

  it("names tools registered but not routed in capability mode", async () => {
    const report = await run({
      catalog,
      routing: { registered: ["search", "sql"], entries: [{ content: "search" }] },
      pipeline: [{ kind: "lazy", allowed_names: null }],
    });
    expect(toolLineage(report, "sql").sentence).toBe(
      "registered but not routed by the router; not in the final palette.",
    );
  });
});

describe("lineageMatrix", () => {
  it("gives every tool's state in every row, with the forced mark", async () => {
    const report = await run(example);
    const matrix = lineageMatrix(report);
    expect(matrix.tools).toEqual(["search", "get_weather", "sql", "delete_rows", "final_answer"]);
    const states = (tool: string) =>
      matrix.cells[matrix.tools.indexOf(tool)]!.map((cell) => cell.state);
    expect(states("final_answer")).toEqual(["kept", "kept", "dropped", "disabled", "added"]);
    expect(states("sql")).toEqual(["dropped", "absent", "absent", "disabled", "absent"]);
    expect(matrix.cells[1]!.map((cell) => cell.forced)).toEqual([false, true, true, false, true]);
    // The matrix and the per-row answer agree.
    matrix.rows.forEach((row, r) =>
      matrix.tools.forEach((tool, t) =>
        expect(cellState(row, tool)).toBe(matrix.cells[t]![r]!.state),
      ),
    );
  });

  it("lists tools added later and registered ones, and marks a reinstated cell", async () => {
    const report = await run({
      catalog: [{ name: "a" }, { name: "b" }, { name: "c" }, { name: "x" }],
      routing: { registered: ["a", "b", "c"], entries: [{ content: "a" }, { content: "b" }] },
      pipeline: [
        { kind: "forced", resolver: { kind: "fixed", tool: "b" } },
        { kind: "lazy", allowed_names: ["a"] },
        { kind: "scripted", name: "add", outcome: { select: ["a", "b", "x"] } },
        { kind: "scripted", name: "cut", outcome: { select: ["a", "b"] } },
      ],
    });
    const matrix = lineageMatrix(report);
    expect(matrix.tools).toEqual(["a", "b", "x", "c"]);
    expect(runTools(report)).toEqual(matrix.tools);
    // Only the forced tool is marked, from the stage that forced it until it is released.
    expect(matrix.cells.map((row) => row.map((cell) => cell.forced))).toEqual([
      [false, false, false, false],
      [true, true, true, true],
      [false, false, false, false],
      [false, false, false, false],
    ]);
    expect(toolLineage(report, "x")).toMatchObject({
      known: true,
      sentence:
        "never offered to the pipeline, added by `add`, dropped by `cut`; not in the final palette.",
    });
    expect(matrix.cells.map((row) => row.map((cell) => cell.state))).toEqual([
      ["kept", "kept", "kept", "kept"],
      ["kept", "reinstated", "kept", "kept"],
      ["absent", "absent", "added", "dropped"],
      ["absent", "absent", "absent", "absent"],
    ]);
    matrix.rows.forEach((row, r) =>
      matrix.tools.forEach((tool, t) =>
        expect(cellState(row, tool)).toBe(matrix.cells[t]![r]!.state),
      ),
    );
  });

  it("has an empty row of cells per tool when no stage ran", () => {
    expect(lineageMatrix(reportOf({ offered: ["a", "b"] }))).toMatchObject({
      tools: ["a", "b"],
      rows: [],
      cells: [[], []],
    });
  });
});
