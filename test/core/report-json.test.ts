/** docs/formats.md: a run as the JSON of `palette-inspector run --json`, records in snake_case. */
import { describe, expect, it } from "vitest";
import { recordToJson, reportToJson } from "../../src/core/report-json.js";
import { run } from "./spec/helpers.js";

const catalog = [
  { name: "a", summary: "A" },
  { name: "b", summary: "B", safety_level: "high" },
];

describe("recordToJson", () => {
  it("writes every field of a stage record in snake_case", async () => {
    const report = await run({
      catalog,
      pipeline: [
        { kind: "forced", resolver: { kind: "fixed", tool: "b" } },
        { kind: "policy", max_safety_level: "low", protects_forced: false },
        { kind: "allowlist", always_include: ["b"], use_catalog: false },
      ],
    });
    expect(report.trace.map(recordToJson)).toEqual([
      {
        stage: "forced",
        action: "force",
        kept: ["a", "b"],
        dropped: [],
        added: [],
        reinstated: [],
        forced_choice: "b",
        detail: "resolver forces 'b'",
        degraded: false,
        reasons: {},
      },
      {
        stage: "policy",
        action: "select",
        kept: ["a"],
        dropped: ["b"],
        added: [],
        reinstated: [],
        forced_choice: "b",
        detail: "policy forbids 1 tool",
        degraded: false,
        reasons: { b: "safety high > low" },
      },
      {
        stage: "allowlist",
        action: "select",
        kept: ["a"],
        dropped: [],
        added: ["b"],
        reinstated: [],
        forced_choice: "b",
        detail: "re-added 1 mandated tool",
        degraded: false,
        reasons: { b: "mandated by the allowlist" },
      },
    ]);
  });

  it("writes a reinstated name and a degraded record", async () => {
    const report = await run({
      offered: ["a", "b"],
      pipeline: [
        { kind: "forced", resolver: { kind: "fixed", tool: "b" } },
        { kind: "lazy", allowed_names: ["a"] },
        { kind: "role", role_tools: { "": [] } },
      ],
    });
    const [, lazy, role] = report.trace.map(recordToJson);
    expect(lazy).toMatchObject({ kept: ["a"], dropped: [], reinstated: ["b"] });
    expect(role).toMatchObject({ action: "abstain", degraded: true });
  });
});

describe("reportToJson", () => {
  it("holds exactly the final names and tools, the forced choice, the trace, no error and the manifest", async () => {
    const report = await run({ catalog, offered: ["a", { name: "b", schema: {} }] });
    expect(reportToJson(report)).toEqual({
      names: ["a", "b"],
      tools: ["a", { name: "b", schema: {} }],
      forced_choice: null,
      trace: [],
      error: null,
      manifest: [
        { name: "a", summary: "A" },
        { name: "b", summary: "B" },
      ],
    });
  });

  it("gives a failed run's error as its kind and message only", async () => {
    const report = await run({
      offered: ["a"],
      pipeline: [{ kind: "forced", resolver: { kind: "fixed", tool: "ghost" } }],
    });
    expect(reportToJson(report).error).toEqual({
      kind: "ForcedToolUnavailable",
      message: "forced tool 'ghost' is not among the final tools",
    });
  });

  it("adds the palette in capability mode, and only then", async () => {
    const routed = await run({
      routing: { registered: ["a", "b"], entries: [{ content: "b" }] },
    });
    expect(reportToJson(routed).palette).toEqual({
      outcome: "applied",
      names: ["b"],
      forced: null,
      reason: "routed",
    });
    expect(Object.keys(reportToJson(routed))).toContain("palette");
    expect(Object.keys(reportToJson(await run({ offered: ["a"] })))).not.toContain("palette");
  });
});
