import { describe, expect, it } from "vitest";
import { loadFixture } from "../../src/core/fixture/load.js";
import { runFixture } from "../../src/core/report.js";

const noCatalog = async () => { throw new Error("no"); };

describe("smoke", () => {
  it("runs the FORMATS example", async () => {
    const text = JSON.stringify({
      description: "x",
      catalog: [
        { name: "search", safety_level: "low", cost_usd: 0.01 },
        { name: "get_weather", safety_level: "low", cost_usd: 0.01, trigger_keywords: ["weather"] },
        { name: "sql", safety_level: "high", cost_usd: 0.01, trigger_keywords: ["sql"] },
        { name: "delete_rows", safety_level: "critical", trigger_keywords: ["delete"] },
        { name: "final_answer" },
      ],
      turn: { query: "weather", role: "analyst" },
      pipeline: [
        { kind: "intent", verdict: { label: "action", matched_tool_keywords: ["get_weather"] }, always_include: ["final_answer"] },
        { kind: "forced", resolver: { kind: "fixed", tool: "get_weather" } },
        { kind: "role", role_tools: { analyst: ["search", "get_weather", "sql"] } },
        { kind: "policy", max_safety_level: "medium", budget_usd: 0.05 },
        { kind: "allowlist", always_include: ["final_answer"] },
      ],
    }, null, 2);
    const loaded = await loadFixture({ file: "a.turn.json", text }, noCatalog);
    if (!loaded.ok) throw new Error(JSON.stringify(loaded.problems));
    const report = runFixture(loaded.fixture);
    expect(report.names).toEqual(["search", "get_weather", "final_answer"]);
    console.log(report.trace);
  });
  it("reports errors", async () => {
    const text = '{\n  "pipeline": [\n    { "kind": "intnet" },\n    { "kind": "policy", "max_safty_level": "x" },\n    {"kind":"forced","resolver":{"kind":"fixed"}},\n    {"kind":"scripted","name":"s","outcome":{"selekt":[]}}\n  ],\n  "catalog": {"tools":[{"name":"a","cost_usd":"x"}]}\n}';
    const loaded = await loadFixture({ file: "a.turn.json", text }, noCatalog);
    console.log(loaded.problems.map((p) => `${p.range.start.line + 1}:${p.range.start.character + 1} ${JSON.stringify(p.path)} ${p.message}`).join("\n"));
  });
});
