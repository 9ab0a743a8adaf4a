import { describe, expect, it } from "vitest";
import type { FixtureJson } from "../../src/core/fixture/schema.js";
import { loadValid } from "./spec/helpers.js";
import {
  applyWhatIf,
  describeWhatIf,
  isWhatIf,
  runWhatIf,
  type WhatIf,
  whatIfLevers,
  movesNothing,
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

  it("its errors are WhatIfErrors by name, so a host can tell them from a crash", () => {
    expect(new WhatIfError("x").name).toBe("WhatIfError");
  });

  it("refuses a stage that is not there or of another kind", () => {
    expect(() => applyWhatIf(fixture, { enabled: { ghost: false } })).toThrow(WhatIfError);
    expect(() => applyWhatIf(fixture, { policies: { role: { budgetUsd: 1 } } })).toThrow(
      "stage 'role' is of kind role, not policy",
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

describe("a what-if that moves nothing", () => {
  it("is the unmodified run: no lever, or only empty maps", () => {
    expect(movesNothing({})).toBe(true);
    expect(movesNothing({ enabled: {}, verdicts: {}, forcedTools: {}, policies: {} })).toBe(true);
    expect(movesNothing({ role: "" })).toBe(false);
    expect(movesNothing({ forcedTools: { f: null } })).toBe(false);
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

describe("applyWhatIf on a bare fixture", () => {
  it("sets the role on a fixture with no turn, and turns a stage back on", () => {
    const bare: FixtureJson = { pipeline: [{ kind: "lazy", enabled: false }] };
    const variant = applyWhatIf(bare, { role: "support", enabled: { lazy: true } });
    expect(variant.turn).toEqual({ role: "support" });
    expect(variant.pipeline).toEqual([{ kind: "lazy", enabled: true }]);
  });

  it("gives a fixture with no pipeline an empty one", () => {
    expect(applyWhatIf({ offered: ["a"] }, {}).pipeline).toEqual([]);
  });

  it("leaves the turn as it is when the what-if does not move the role", () => {
    const variant = applyWhatIf(fixture, { enabled: { intent: false } });
    expect(variant.turn).toBe(fixture.turn);
  });

  it("keeps the policy limits no lever names, and clears a ceiling with null", () => {
    const variant = applyWhatIf(fixture, { policies: { ceiling: { maxSafetyLevel: null } } });
    expect(variant.pipeline![3]).toEqual({
      kind: "policy",
      name: "ceiling",
      max_safety_level: null,
      budget_usd: 0.05,
    });
  });

  it("names the missing stage, and refuses a verdict or a forced tool on a stage of another kind", () => {
    expect(() => applyWhatIf(fixture, { enabled: { ghost: false } })).toThrow(
      "no stage named 'ghost' in the pipeline",
    );
    expect(() => applyWhatIf({}, { enabled: { intent: false } })).toThrow(
      "no stage named 'intent' in the pipeline",
    );
    expect(() =>
      applyWhatIf(fixture, { verdicts: { role: { label: "x", matchedToolKeywords: [] } } }),
    ).toThrow("stage 'role' is of kind role, not intent");
    expect(() => applyWhatIf(fixture, { forcedTools: { intent: "a" } })).toThrow(
      "stage 'intent' is of kind intent, not forced",
    );
  });

  it("copies the matched keywords, so editing the what-if later cannot change the variant", () => {
    const matched = ["a"];
    const variant = applyWhatIf(fixture, {
      verdicts: { intent: { label: "action", matchedToolKeywords: matched } },
    });
    matched.push("b");
    expect(variant.pipeline![0]).toEqual({
      kind: "intent",
      verdict: { label: "action", matched_tool_keywords: ["a"] },
    });
  });
});

describe("whatIfLevers defaults", () => {
  it("reads a fixed resolver's tool, a missing verdict and missing limits as null", () => {
    const levers = whatIfLevers(
      {
        pipeline: [
          { kind: "intent", name: "route", enabled: false },
          { kind: "intent", verdict: { label: "knowledge" } },
          { kind: "forced", resolver: { kind: "fixed", tool: "search" } },
          { kind: "forced", name: "bare" },
          { kind: "policy" },
          { kind: "role" },
        ],
      },
      [],
    );
    expect(levers).toEqual({
      stages: [
        { name: "route", kind: "intent", enabled: false },
        { name: "intent", kind: "intent", enabled: true },
        { name: "forced", kind: "forced", enabled: true },
        { name: "bare", kind: "forced", enabled: true },
        { name: "policy", kind: "policy", enabled: true },
        { name: "role", kind: "role", enabled: true },
      ],
      role: "",
      roles: [],
      verdicts: [
        { stage: "route", verdict: null },
        { stage: "intent", verdict: { label: "knowledge", matchedToolKeywords: [] } },
      ],
      forced: [
        { stage: "forced", tool: "search", resolver: "fixed" },
        { stage: "bare", tool: null, resolver: null },
      ],
      policies: [{ stage: "policy", maxSafetyLevel: null, budgetUsd: null }],
      safetyLevels: [],
    });
  });

  it("has no stages and no role for a fixture with neither", () => {
    expect(whatIfLevers({}, ["low"])).toMatchObject({ stages: [], role: "", roles: [] });
  });

  it("lists each role once although two role stages give it a palette", () => {
    const levers = whatIfLevers(
      {
        pipeline: [
          { kind: "role", role_tools: { analyst: [], admin: [] } },
          { kind: "role", name: "second", role_tools: { admin: [], support: [] } },
        ],
      },
      [],
    );
    expect(levers.roles).toEqual(["analyst", "admin", "support"]);
  });
});

describe("describeWhatIf", () => {
  it("says what every lever moves, in the order the panel lists them", () => {
    expect(
      describeWhatIf({
        enabled: { allowlist: false, lazy: true },
        role: "support",
        verdicts: {
          intent: { label: "action", matchedToolKeywords: ["sql", "search"] },
          route: { label: "knowledge", matchedToolKeywords: [] },
          other: null,
        },
        forcedTools: { forced: "sql", pin: null },
        policies: {
          ceiling: { maxSafetyLevel: "high", budgetUsd: 0.5 },
          open: { maxSafetyLevel: null, budgetUsd: null },
          cap: { budgetUsd: 0 },
        },
      }),
    ).toBe(
      "stage allowlist off; stage lazy on; role support; intent verdict action (sql, search); " +
        "route verdict knowledge; other has no verdict; forced forces sql; pin forces nothing; " +
        "ceiling ceiling high; ceiling budget $0.5; open ceiling none; open budget none; cap budget $0",
    );
  });

  it("shows an empty role as (none), and nothing for an empty what-if", () => {
    expect(describeWhatIf({ role: "" })).toBe("role (none)");
    expect(describeWhatIf({ policies: { ceiling: { maxSafetyLevel: "low" } } })).toBe(
      "ceiling ceiling low",
    );
    expect(describeWhatIf({})).toBe("");
  });
});

describe("isWhatIf edge cases", () => {
  it.each([
    ["null", null],
    ["an array", []],
    ["a toggle map that is an array", { enabled: [true] }],
    ["a non-string role", { role: 3 }],
    ["a verdict that is an array", { verdicts: { i: [] } }],
    [
      "a verdict with a non-string label",
      { verdicts: { i: { label: 1, matchedToolKeywords: [] } } },
    ],
    [
      "a verdict with a non-string keyword",
      { verdicts: { i: { label: "a", matchedToolKeywords: [1] } } },
    ],
    [
      "a verdict whose keywords are not a list",
      { verdicts: { i: { label: "a", matchedToolKeywords: "k" } } },
    ],
    ["a non-string forced tool", { forcedTools: { f: 1 } }],
    ["a policy that is not an object", { policies: { p: 1 } }],
    ["a policy that is null", { policies: { p: null } }],
    ["a non-string ceiling", { policies: { p: { maxSafetyLevel: 2 } } }],
    ["a non-number budget", { policies: { p: { budgetUsd: "1" } } }],
    ["a NaN budget", { policies: { p: { budgetUsd: NaN } } }],
  ])("rejects %s", (_why, value) => expect(isWhatIf(value)).toBe(false));

  it.each([
    ["an empty what-if", {}],
    ["a toggle off", { enabled: { a: false } }],
    ["an empty role", { role: "" }],
    ["a verdict with keywords", { verdicts: { i: { label: "a", matchedToolKeywords: ["k"] } } }],
    ["no forced tool", { forcedTools: { f: null } }],
    [
      "a policy that clears both limits",
      { policies: { p: { maxSafetyLevel: null, budgetUsd: null } } },
    ],
    ["a policy with a ceiling only", { policies: { p: { maxSafetyLevel: "low" } } }],
    ["an empty policy edit", { policies: { p: {} } }],
  ])("accepts %s", (_why, value) => expect(isWhatIf(value)).toBe(true));

  it.each([
    ["one bad toggle among good ones", { enabled: { a: true, b: "yes" } }],
    [
      "one non-string keyword among strings",
      { verdicts: { i: { label: "a", matchedToolKeywords: ["k", 1] } } },
    ],
  ])("rejects %s", (_why, value) => expect(isWhatIf(value)).toBe(false));

  it("counts each lever of each kind", () => {
    expect(whatIfSize({ enabled: { a: true, b: false } })).toBe(2);
    expect(whatIfSize({ role: "" })).toBe(1);
    expect(whatIfSize({ verdicts: { a: null, b: null } })).toBe(2);
    expect(whatIfSize({ forcedTools: { a: null, b: "x" } })).toBe(2);
    expect(whatIfSize({ policies: { a: {}, b: {} } })).toBe(2);
  });
});

describe("runWhatIf", () => {
  const twoPolicies: FixtureJson = {
    offered: ["a", "b"],
    pipeline: [
      { kind: "lazy", allowed_names: ["a"] },
      { kind: "intent", verdict: { label: "action", matched_tool_keywords: ["a"] } },
      { kind: "policy", name: "first" },
      { kind: "policy", name: "second" },
    ],
  };

  it("runs the variant, not the fixture", async () => {
    const fixture = await loadValid(twoPolicies);
    const result = runWhatIf(fixture, { enabled: { lazy: false, intent: false } });
    expect("report" in result && result.report.names).toEqual(["a", "b"]);
  });

  it("runs a variant that has only warnings", async () => {
    const fixture = await loadValid(twoPolicies);
    const result = runWhatIf(fixture, {
      verdicts: { intent: { label: "action", matchedToolKeywords: ["zzz"] } },
    });
    // 'zzz' is neither offered nor catalogued: a warning, which does not stop the run.
    expect("report" in result && result.report.names).toEqual(["a"]);
  });

  it("refuses a variant with errors, naming every error", async () => {
    const fixture = await loadValid(twoPolicies);
    const result = runWhatIf(fixture, {
      policies: { first: { maxSafetyLevel: "extreme" }, second: { maxSafetyLevel: "wild" } },
    });
    expect(result).toEqual({
      error:
        "This what-if is not a valid fixture: safety level 'extreme' is not on the scale (none, low, medium, high, critical); safety level 'wild' is not on the scale (none, low, medium, high, critical)",
    });
  });

  it("answers a lever on a stage that is not there with its message", async () => {
    const fixture = await loadValid(twoPolicies);
    expect(runWhatIf(fixture, { enabled: { ghost: false } })).toEqual({
      error: "no stage named 'ghost' in the pipeline",
    });
  });

  it("lets a malformed what-if crash instead of passing for the user's mistake", async () => {
    const fixture = await loadValid(twoPolicies);
    const malformed = { policies: { first: null } } as unknown as WhatIf;
    expect(() => runWhatIf(fixture, malformed)).toThrow(TypeError);
  });
});
