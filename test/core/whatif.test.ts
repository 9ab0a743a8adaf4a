import { describe, expect, it } from "vitest";
import type { FixtureJson } from "../../src/core/fixture/schema.js";
import {
  applyWhatIf,
  isWhatIf,
  whatIfLevers,
  whatIfSize,
  WhatIfError,
} from "../../src/core/whatif.js";

const fixture: FixtureJson = {
  turn: { query: "q", role: "analyst", state: { tenant: "acme" } },
  pipeline: [
    { kind: "intent", verdict: { label: "action", matched_tool_keywords: ["a"] } },
    { kind: "forced", resolver: { kind: "keyword", rules: [] } },
    { kind: "role", role_tools: { analyst: ["a"], admin: ["a", "b"] } },
    { kind: "policy", name: "ceiling", max_safety_level: "medium", budget_usd: 0.05 },
  ],
  expect: { names: ["a"] },
};

describe("applyWhatIf", () => {
  it("moves every lever and leaves the original untouched", () => {
    const before = JSON.stringify(fixture);
    const variant = applyWhatIf(fixture, {
      enabled: { role: false },
      role: "admin",
      verdicts: { intent: { label: "knowledge", matchedToolKeywords: ["b"] } },
      forcedTools: { forced: "b" },
      policies: { ceiling: { maxSafetyLevel: "high", budgetUsd: null } },
    });
    expect(JSON.stringify(fixture)).toBe(before);
    expect(variant.turn).toEqual({ query: "q", role: "admin", state: { tenant: "acme" } });
    expect(variant.pipeline).toEqual([
      { kind: "intent", verdict: { label: "knowledge", matched_tool_keywords: ["b"] } },
      { kind: "forced", resolver: { kind: "fixed", tool: "b" } },
      { kind: "role", role_tools: { analyst: ["a"], admin: ["a", "b"] }, enabled: false },
      { kind: "policy", name: "ceiling", max_safety_level: "high", budget_usd: null },
    ]);
    expect(variant.expect).toBeUndefined();
  });

  it("removes a verdict and a resolver with null, and keeps policy numbers not mentioned", () => {
    const variant = applyWhatIf(fixture, {
      verdicts: { intent: null },
      forcedTools: { forced: null },
      policies: { ceiling: { budgetUsd: 1 } },
    });
    expect(variant.pipeline![0]).toEqual({ kind: "intent", verdict: null });
    expect(variant.pipeline![1]).toEqual({ kind: "forced", resolver: null });
    expect(variant.pipeline![3]).toMatchObject({ max_safety_level: "medium", budget_usd: 1 });
  });

  it("refuses a stage that is not there or of another kind", () => {
    expect(() => applyWhatIf(fixture, { enabled: { ghost: false } })).toThrow(WhatIfError);
    expect(() => applyWhatIf(fixture, { policies: { role: { budgetUsd: 1 } } })).toThrow(
      "stage 'role' is a role stage, not policy",
    );
  });
});

describe("whatIfLevers", () => {
  it("reads the current value of every lever", () => {
    expect(whatIfLevers(fixture, ["low", "medium", "high"])).toEqual({
      stages: [
        { name: "intent", kind: "intent", enabled: true },
        { name: "forced", kind: "forced", enabled: true },
        { name: "role", kind: "role", enabled: true },
        { name: "ceiling", kind: "policy", enabled: true },
      ],
      role: "analyst",
      roles: ["analyst", "admin"],
      verdicts: [{ stage: "intent", verdict: { label: "action", matchedToolKeywords: ["a"] } }],
      forced: [{ stage: "forced", tool: null, resolver: "keyword" }],
      policies: [{ stage: "ceiling", maxSafetyLevel: "medium", budgetUsd: 0.05 }],
      safetyLevels: ["low", "medium", "high"],
    });
  });
});

describe("isWhatIf and whatIfSize", () => {
  it("accepts well-formed edits and counts their levers", () => {
    const edit = {
      enabled: { a: true },
      role: "x",
      verdicts: { i: null },
      forcedTools: { f: "t" },
      policies: { p: { budgetUsd: 0 } },
    };
    expect(isWhatIf(edit)).toBe(true);
    expect(whatIfSize(edit)).toBe(5);
    expect(whatIfSize({})).toBe(0);
  });

  it.each([
    ["not an object", "x"],
    ["an unknown key", { stages: {} }],
    ["a non-boolean toggle", { enabled: { a: "yes" } }],
    ["a verdict without keywords", { verdicts: { i: { label: "x" } } }],
    ["an empty forced tool", { forcedTools: { f: "" } }],
    ["a negative budget", { policies: { p: { budgetUsd: -1 } } }],
    ["an infinite budget", { policies: { p: { budgetUsd: Infinity } } }],
  ])("rejects %s", (_why, value) => expect(isWhatIf(value)).toBe(false));
});
