// §4: every stage says why. The detail of each decision and the reason for each tool a stage
// drops or adds are what the panel, the CLI table and the Markdown show; each is pinned here.
import { describe, expect, it } from "vitest";
import { AllowlistStage } from "../../../src/core/stages/allowlist.js";
import { ForcedChoiceStage } from "../../../src/core/stages/forced.js";
import { IntentRoutingStage } from "../../../src/core/stages/intent.js";
import { LazyRoutingStage } from "../../../src/core/stages/lazy.js";
import { PolicyStage } from "../../../src/core/stages/policy.js";
import { RolePaletteStage } from "../../../src/core/stages/role.js";
import type { StageOutcome } from "../../../src/core/contract.js";
import { catalogOf, contextFor } from "./helpers.js";

/** What a person reads of an outcome. */
const said = (outcome: StageOutcome) => ({
  detail: outcome.detail,
  degraded: outcome.degraded,
  reasons: { ...outcome.reasons },
});

describe("§4 intent explains its decision", () => {
  const catalog = catalogOf([
    { name: "search" },
    { name: "get_weather", triggerKeywords: ["weather"] },
    { name: "sql", triggerKeywords: ["sql"] },
  ]);
  const tools = ["search", "get_weather", "sql"];

  it("§4 intent: abstentions say there was nothing to route, or no actionable verdict", () => {
    const knowledge = { label: "knowledge", matchedToolKeywords: [] };
    expect(said(new IntentRoutingStage({ verdict: knowledge }).apply([]))).toEqual({
      detail: "no candidate tools",
      degraded: false,
      reasons: {},
    });
    for (const verdict of [null, { label: "ambiguous", matchedToolKeywords: [] }])
      expect(new IntentRoutingStage({ catalog, verdict }).apply(tools).detail).toBe(
        "no actionable verdict",
      );
  });

  it("§4 intent: a knowledge turn keeps always-include only, and says so per tool", () => {
    const stage = new IntentRoutingStage({
      catalog,
      verdict: { label: "knowledge", matchedToolKeywords: [] },
      alwaysInclude: ["search"],
    });
    expect(said(stage.apply(tools))).toEqual({
      detail: "knowledge turn: always-include only",
      degraded: false,
      reasons: {
        get_weather: "knowledge turn: not always-include",
        sql: "knowledge turn: not always-include",
      },
    });
  });

  it("§4 intent: another label intersects keywords; an unmatched tool's reason names its keywords", () => {
    const stage = new IntentRoutingStage({
      catalog,
      verdict: { label: "action", matchedToolKeywords: ["get_weather"] },
    });
    expect(said(stage.apply(tools))).toEqual({
      detail: "action turn: keyword intersection",
      degraded: false,
      reasons: { sql: "its trigger keywords were not matched by the verdict" },
    });
  });
});

describe("§4 lazy explains its decision", () => {
  it("§4 lazy: no routing abstains; a routing counts its names and gives each drop a reason", () => {
    expect(new LazyRoutingStage({ allowedNames: null }).apply(["a"]).detail).toBe(
      "no procedural routing",
    );
    expect(said(new LazyRoutingStage({ allowedNames: ["a", "z"] }).apply(["a", "b", "c"]))).toEqual(
      {
        detail: "routed to 2 names",
        degraded: false,
        reasons: { b: "not routed by procedural routing", c: "not routed by procedural routing" },
      },
    );
  });
});

describe("§4 allowlist explains its decision", () => {
  it("§4 allowlist: it counts what it re-adds and marks each as mandated, or has nothing to re-add", () => {
    const stage = new AllowlistStage({ alwaysInclude: ["a", "c"] });
    expect(said(stage.apply(["b"], contextFor(["a", "b", "c"])))).toEqual({
      detail: "re-added 2 mandated tools",
      degraded: false,
      reasons: { a: "mandated by the allowlist", c: "mandated by the allowlist" },
    });
    expect(said(stage.apply(["a", "c"], contextFor(["a", "b", "c"])))).toEqual({
      detail: "nothing to re-add",
      degraded: false,
      reasons: {},
    });
  });
});

describe("§4 role explains its decision", () => {
  const palettes: Record<string, string[] | null> = { analyst: ["a"], guest: null, nobody: [] };
  const stage = (role = "") => new RolePaletteStage({ resolver: (r) => palettes[r] ?? null, role });

  it("§4 role: without a resolver, or with no palette for the role, it abstains and says which", () => {
    expect(new RolePaletteStage().apply(["a"], contextFor()).detail).toBe("no role resolver");
    expect(stage().apply(["a"], contextFor([], { role: "guest" })).detail).toBe(
      "no palette for role 'guest'",
    );
  });

  it("§4 role: an empty palette abstains degraded, with a warning that names the role", () => {
    expect(said(stage().apply(["a"], contextFor([], { role: "nobody" })))).toEqual({
      detail: "role 'nobody' resolved an empty palette; abstaining to all tools",
      degraded: true,
      reasons: {},
    });
  });

  it("§4 role: a palette names its role, and each dropped tool is 'not in' it (the stage's own role first)", () => {
    expect(said(stage("analyst").apply(["a", "b"], contextFor([], { role: "guest" })))).toEqual({
      detail: "palette of role 'analyst'",
      degraded: false,
      reasons: { b: "not in the 'analyst' palette" },
    });
  });
});

describe("§4 forced explains its decision", () => {
  const context = (state: Record<string, unknown> = {}, messages: unknown[] = []) =>
    contextFor([], { state, messages });

  it("§4 forced: a stamp forces and names its key; a resolver forces and says so", () => {
    expect(said(new ForcedChoiceStage().apply([], context({ forced_tool_choice: "sql" })))).toEqual(
      { detail: "state stamp 'forced_tool_choice' forces 'sql'", degraded: false, reasons: {} },
    );
    expect(new ForcedChoiceStage({ resolver: () => "sql" }).apply([], context()).detail).toBe(
      "resolver forces 'sql'",
    );
  });

  it("§4 forced: no stamp and no resolver, or a resolver that chose nothing, lets the model choose", () => {
    expect(new ForcedChoiceStage().apply([], context()).detail).toBe(
      "no stamp and no resolver: the model chooses",
    );
    expect(new ForcedChoiceStage({ resolver: () => null }).apply([], context()).detail).toBe(
      "resolver chose no tool: the model chooses",
    );
  });

  it("§4 forced: a raising resolver releases, degraded, quoting the error; a spent force says which tool", () => {
    const raising = new ForcedChoiceStage({
      resolver: () => {
        throw new Error("boom");
      },
    });
    expect(said(raising.apply([], context()))).toEqual({
      detail: "resolver raised (boom): force released",
      degraded: true,
      reasons: {},
    });
    const spent = context({ forced_tool_choice: "sql" }, [{ type: "tool", name: "sql" }]);
    expect(said(new ForcedChoiceStage().apply([], spent))).toEqual({
      detail: "force of 'sql' spent: a tool message names it",
      degraded: false,
      reasons: {},
    });
  });
});

describe("§4 policy explains its decision", () => {
  const catalog = catalogOf([
    { name: "cheap", costUsd: 0.01, safetyLevel: "low", category: "web" },
    { name: "risky", costUsd: 0.01, safetyLevel: "high", category: "web" },
    { name: "dear", costUsd: 0.5, safetyLevel: "low", category: "web" },
    { name: "unpriced", safetyLevel: "low", category: "web" },
    { name: "gated", costUsd: 0, requiresCapability: "db", category: "web" },
    { name: "internal", costUsd: 0, visibility: "internal", category: "web" },
    { name: "elsewhere", costUsd: 0, category: "admin" },
    { name: "loose", costUsd: 0 },
  ]);
  const names = ["cheap", "risky", "dear", "unpriced", "gated", "internal", "elsewhere", "loose"];

  it("§4 policy: with no constraint it abstains and says so", () => {
    expect(new PolicyStage({ catalog }).apply(names).detail).toBe("no policy configured");
  });

  it("§4 policy: each dropped tool's reason names the rule it breaks and the numbers", () => {
    const stage = new PolicyStage({
      catalog,
      maxSafetyLevel: "medium",
      budgetUsd: 0.1,
      includeUnknownCost: false,
      availableCapabilities: [],
      agentVisibleOnly: true,
      categories: ["web"],
    });
    expect(said(stage.apply(names))).toEqual({
      detail: "policy forbids 7 tools",
      degraded: false,
      reasons: {
        risky: "safety high > medium",
        dear: "cost $0.5 > budget $0.1",
        unpriced: "cost unknown",
        gated: "requires capability 'db'",
        internal: "not agent-visible",
        elsewhere: "category 'admin' not allowed",
        loose: "no category",
      },
    });
  });

  it("§4 policy: a tool breaking several rules gets every reason, joined; a clean run says all pass", () => {
    const both = catalogOf([{ name: "x", costUsd: 1, safetyLevel: "critical" }]);
    const stage = new PolicyStage({ catalog: both, maxSafetyLevel: "low", budgetUsd: 0.5 });
    expect(stage.apply(["x"]).reasons).toEqual({
      x: "safety critical > low; cost $1 > budget $0.5",
    });
    expect(said(new PolicyStage({ catalog, budgetUsd: 1 }).apply(["cheap"]))).toEqual({
      detail: "policy allows every tool",
      degraded: false,
      reasons: {},
    });
  });

  it("§4 policy: a forbidden name offered twice is counted once, as its reasons hold it once", () => {
    const stage = new PolicyStage({ catalog, budgetUsd: 0.1 });
    expect(said(stage.apply(["dear", "cheap", "dear", { name: "dear" }]))).toEqual({
      detail: "policy forbids 1 tool",
      degraded: false,
      reasons: { dear: "cost $0.5 > budget $0.1" },
    });
  });

  it("§4 policy: a limit exactly met is allowed (only above the level or over the budget drops)", () => {
    const edge = catalogOf([{ name: "x", costUsd: 0.1, safetyLevel: "medium" }]);
    const stage = new PolicyStage({ catalog: edge, maxSafetyLevel: "medium", budgetUsd: 0.1 });
    expect(stage.apply(["x"]).tools).toEqual(["x"]);
  });
});
