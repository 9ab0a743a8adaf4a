import { describe, expect, it } from "vitest";
import type { FixtureJson } from "../../src/core/fixture/schema.js";
import { cellState, lineageMatrix, toolLineage, waterfallRows } from "../../src/core/lineage.js";
import { run } from "./spec/helpers.js";

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
      "forced by `forced`, dropped by `lazy` (not routed by procedural routing); the run failed: it is the forced choice but not in the final palette (ForcedToolUnavailable, dropped by `lazy`, which does not protect the forced choice).",
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
});
