import { describe, expect, it } from "vitest";
import { runSelection, ToolSelectionPipeline } from "../../../src/core/pipeline.js";
import { AllowlistStage } from "../../../src/core/stages/allowlist.js";
import { ForcedChoiceStage, isToolMessage } from "../../../src/core/stages/forced.js";
import { IntentRoutingStage } from "../../../src/core/stages/intent.js";
import { LazyRoutingStage } from "../../../src/core/stages/lazy.js";
import { PolicyStage, type PolicyOptions } from "../../../src/core/stages/policy.js";
import { RolePaletteStage } from "../../../src/core/stages/role.js";
import { ScriptedStage } from "../../../src/core/stages/scripted.js";
import type { Tool } from "../../../src/core/tools.js";
import { StageOutcome, type SelectionContext } from "../../../src/core/contract.js";
import { catalogOf, contextFor, pipelineOf, stub } from "./helpers.js";

const UNNAMED = Object.freeze({ description: "an unnamed tool" });

describe("§4 IntentRoutingStage (seed: decide)", () => {
  const catalog = catalogOf([
    { name: "search" },
    { name: "get_weather", triggerKeywords: ["weather"] },
    { name: "sql", triggerKeywords: ["sql", "query"] },
    { name: "final_answer" },
  ]);
  const tools: Tool[] = ["search", "get_weather", "sql", "final_answer", UNNAMED];

  it("§4 intent: default name 'intent', protects_forced true", () => {
    const stage = new IntentRoutingStage();
    expect([stage.name, stage.protectsForced]).toEqual(["intent", true]);
  });

  it("§4 intent: no candidate tools → abstain (even with an actionable verdict)", () => {
    const outcome = new IntentRoutingStage({
      verdict: { label: "knowledge", matchedToolKeywords: [] },
    }).apply([]);
    expect(outcome.tools).toBeNull();
    expect(outcome.setsForcedChoice).toBe(false);
  });

  it("§4 intent: no verdict → abstain", () => {
    expect(new IntentRoutingStage({ catalog, verdict: null }).apply(tools).tools).toBeNull();
  });

  it("§4 intent: label 'ambiguous' → abstain", () => {
    expect(
      new IntentRoutingStage({
        catalog,
        verdict: { label: "ambiguous", matchedToolKeywords: ["sql"] },
      }).apply(tools).tools,
    ).toBeNull();
  });

  it("§4 intent: 'knowledge' → select filter_by_names(tools, always_include) (unnamed tools survive)", () => {
    const stage = new IntentRoutingStage({
      catalog,
      alwaysInclude: ["final_answer", "not_offered"],
      verdict: { label: "knowledge", matchedToolKeywords: ["sql"] },
    });
    const outcome = stage.apply(tools);
    expect(outcome.tools).toEqual(["final_answer", UNNAMED]);
    expect(outcome.detail).toBe("knowledge turn: always-include only");
  });

  it("§4 intent: 'knowledge' with empty always_include (the default) keeps only unnamed tools", () => {
    expect(
      new IntentRoutingStage({
        catalog,
        verdict: { label: "knowledge", matchedToolKeywords: [] },
      }).apply(tools).tools,
    ).toEqual([UNNAMED]);
  });

  it("§4 intent: action label → always_include ∪ matched ∪ every named tool with no trigger keywords (from the catalogue)", () => {
    const stage = new IntentRoutingStage({
      catalog,
      verdict: { label: "action", matchedToolKeywords: ["get_weather"] },
    });
    const outcome = stage.apply(tools);
    expect(outcome.tools).toEqual(["search", "get_weather", "final_answer", UNNAMED]);
    expect(outcome.detail).toBe("action turn: keyword intersection");
    expect(Object.keys(outcome.reasons)).toEqual(["sql"]);
  });

  it("§4 intent: any label other than knowledge/ambiguous takes the action path (label in the detail)", () => {
    const outcome = new IntentRoutingStage({
      catalog,
      alwaysInclude: ["sql"],
      verdict: { label: "lookup", matchedToolKeywords: [] },
    }).apply(tools);
    expect(outcome.tools).toEqual(["search", "sql", "final_answer", UNNAMED]);
    expect(outcome.detail).toBe("lookup turn: keyword intersection");
  });

  it("§4 intent: a tool not in the catalogue has no trigger keywords, so an action turn keeps it", () => {
    const outcome = new IntentRoutingStage({
      catalog,
      verdict: { label: "action", matchedToolKeywords: [] },
    }).apply(["uncatalogued", "sql"]);
    expect(outcome.tools).toEqual(["uncatalogued"]);
  });

  it("§4 intent: a given trigger_keywords map replaces the catalogue's; a tool with no entry or an empty one has none", () => {
    const map = new Map<string, readonly string[]>([
      ["search", ["find"]],
      ["sql", []],
    ]);
    const outcome = new IntentRoutingStage({
      catalog,
      triggerKeywords: map,
      verdict: { label: "action", matchedToolKeywords: [] },
    }).apply(tools);
    // search has keywords in the map (dropped); get_weather has none in the map (kept, although the catalogue has some);
    // sql has an empty entry (kept); final_answer has no entry (kept).
    expect(outcome.tools).toEqual(["get_weather", "sql", "final_answer", UNNAMED]);
  });

  it("§4 intent: an empty trigger_keywords map means every tool has none (as symfonic's dict({}) does)", () => {
    const outcome = new IntentRoutingStage({
      catalog,
      triggerKeywords: new Map(),
      verdict: { label: "action", matchedToolKeywords: [] },
    }).apply(tools);
    expect(outcome.tools).toEqual(tools);
  });

  it("§4 intent: without a catalogue or map, every tool is keyless, so an action turn keeps all", () => {
    const outcome = new IntentRoutingStage({
      verdict: { label: "action", matchedToolKeywords: [] },
    }).apply(["a", "b"]);
    expect(outcome.tools).toEqual(["a", "b"]);
  });

  it("§4 intent: empty names in always_include are ignored (seed: `name for name in always_include if name`)", () => {
    const outcome = new IntentRoutingStage({
      catalog,
      alwaysInclude: [""],
      verdict: { label: "knowledge", matchedToolKeywords: [] },
    }).apply(["", "sql"]);
    expect(outcome.tools).toEqual([]);
  });

  it("§4 intent: duplicates of a kept name all survive, in input order", () => {
    const outcome = new IntentRoutingStage({
      catalog,
      alwaysInclude: ["sql"],
      verdict: { label: "knowledge", matchedToolKeywords: [] },
    }).apply(["sql", "search", "sql"]);
    expect(outcome.tools).toEqual(["sql", "sql"]);
  });
});

describe("§4 LazyRoutingStage", () => {
  it("§4 lazy: default name 'lazy'; allowed_names null (or absent) → abstain", () => {
    expect(new LazyRoutingStage().name).toBe("lazy");
    expect(new LazyRoutingStage({ allowedNames: null }).apply(["a"]).tools).toBeNull();
    expect(new LazyRoutingStage().apply(["a"]).tools).toBeNull();
  });

  it("§4 lazy: protects the forced choice unless configured as a hard filter", () => {
    expect(new LazyRoutingStage().protectsForced).toBe(true);
    expect(new LazyRoutingStage({ protectsForced: false }).protectsForced).toBe(false);
  });

  it("§4 lazy: a list → select filter_by_names(tools, allowed_names), unnamed tools kept", () => {
    const outcome = new LazyRoutingStage({ allowedNames: ["c", "a", "zzz"] }).apply([
      "a",
      "b",
      UNNAMED,
      "c",
    ]);
    expect(outcome.tools).toEqual(["a", UNNAMED, "c"]);
    expect(Object.keys(outcome.reasons)).toEqual(["b"]);
  });

  it("§4 lazy: an empty list is a policy that keeps nothing named (not an abstain)", () => {
    expect(new LazyRoutingStage({ allowedNames: [] }).apply(["a", UNNAMED]).tools).toEqual([
      UNNAMED,
    ]);
  });
});

describe("§4 AllowlistStage", () => {
  const catalog = catalogOf([{ name: "a" }, { name: "b" }, { name: "final_answer" }]);
  const offered: Tool[] = ["final_answer", "a", "b", "x"];

  it("§4 allowlist: default name 'allowlist', protects_forced true", () => {
    const stage = new AllowlistStage();
    expect([stage.name, stage.protectsForced]).toEqual(["allowlist", true]);
  });

  it("§4 allowlist: re-adds a mandated name an earlier stage dropped, appended after the current set", () => {
    const outcome = new AllowlistStage({ alwaysInclude: ["final_answer"], catalog }).apply(
      ["a"],
      contextFor(offered),
    );
    expect(outcome.tools).toEqual(["a", "final_answer"]);
    expect(outcome.reasons).toHaveProperty("final_answer");
  });

  it("§4 allowlist: re-added tools come in offered order, not always_include order", () => {
    const outcome = new AllowlistStage({ alwaysInclude: ["b", "final_answer"], catalog }).apply(
      [],
      contextFor(offered),
    );
    expect(outcome.tools).toEqual(["final_answer", "b"]);
  });

  it("§4 allowlist: never fabricates: a mandated name that was not offered is not added", () => {
    const outcome = new AllowlistStage({ alwaysInclude: ["final_answer"], catalog }).apply(
      ["a"],
      contextFor(["a", "b"]),
    );
    expect(outcome.tools).toBeNull();
  });

  it("§4 allowlist: with a catalogue, an offered mandated name the catalogue lacks is not re-added", () => {
    expect(
      new AllowlistStage({ alwaysInclude: ["x"], catalog }).apply([], contextFor(offered)).tools,
    ).toBeNull();
  });

  it("§4 allowlist: without a catalogue, any offered mandated name is re-added", () => {
    expect(
      new AllowlistStage({ alwaysInclude: ["x"] }).apply([], contextFor(offered)).tools,
    ).toEqual(["x"]);
  });

  it("§4 allowlist: a mandated name still in the current set is not re-added; nothing to re-add → abstain", () => {
    const outcome = new AllowlistStage({ alwaysInclude: ["a"], catalog }).apply(
      ["a"],
      contextFor(offered),
    );
    expect(outcome.tools).toBeNull();
    expect(outcome.degraded).toBe(false);
  });

  it("§4 allowlist: empty names in always_include are ignored (seed: `name for name in always_include if name`)", () => {
    expect(
      new AllowlistStage({ alwaysInclude: [""] }).apply([], contextFor(["", "a"])).tools,
    ).toBeNull();
  });

  it("§4 allowlist: a name offered twice is re-added once (the first offered tool object)", () => {
    const first = { name: "a", v: 1 };
    const outcome = new AllowlistStage({ alwaysInclude: ["a"] }).apply(
      [],
      contextFor([first, { name: "a", v: 2 }]),
    );
    expect(outcome.tools).toEqual([first]);
  });

  it("§4 allowlist in a pipeline: the re-added name shows as added, after the kept ones", () => {
    const result = runSelection(
      pipelineOf(
        new LazyRoutingStage({ allowedNames: ["a"] }),
        new AllowlistStage({ alwaysInclude: ["final_answer", "b"], catalog }),
      ),
      offered,
    );
    expect(result.names).toEqual(["a", "final_answer", "b"]);
    expect(result.trace[1]).toMatchObject({
      action: "select",
      kept: ["a"],
      dropped: [],
      added: ["final_answer", "b"],
    });
  });
});

describe("§4 RolePaletteStage", () => {
  const palettes: Record<string, readonly string[] | null> = {
    analyst: ["b", "a", "zzz"],
    empty: [],
    none: null,
  };
  const resolver = (role: string) => (Object.hasOwn(palettes, role) ? palettes[role]! : null);
  const tools: Tool[] = ["a", "b", "c", UNNAMED];

  it("§4 role: default name 'role', protects_forced true", () => {
    const stage = new RolePaletteStage();
    expect([stage.name, stage.protectsForced]).toEqual(["role", true]);
  });

  it("§4 role: the context's role is used when the stage has none", () => {
    const outcome = new RolePaletteStage({ resolver }).apply(
      tools,
      contextFor(tools, { role: "analyst" }),
    );
    expect(outcome.tools).toEqual(["a", "b", UNNAMED]);
  });

  it("§4 role: a reason for each dropped named tool only; an unnamed tool is kept and has none", () => {
    const outcome = new RolePaletteStage({ resolver }).apply(
      tools,
      contextFor(tools, { role: "analyst" }),
    );
    expect(outcome.reasons).toEqual({ c: "not in the 'analyst' palette" });
  });

  it("§4 role: the stage's own non-empty role wins over the context's", () => {
    const seen: string[] = [];
    new RolePaletteStage({
      role: "analyst",
      resolver: (role) => {
        seen.push(role);
        return null;
      },
    }).apply(tools, contextFor(tools, { role: "other" }));
    expect(seen).toEqual(["analyst"]);
  });

  it("§4 role: an empty stage role falls back to the context's role", () => {
    const seen: string[] = [];
    new RolePaletteStage({
      role: "",
      resolver: (role) => {
        seen.push(role);
        return null;
      },
    }).apply(tools, contextFor(tools, { role: "ctx" }));
    expect(seen).toEqual(["ctx"]);
  });

  it("§4 role: resolver answers null → abstain, not degraded", () => {
    const outcome = new RolePaletteStage({ resolver }).apply(
      tools,
      contextFor(tools, { role: "none" }),
    );
    expect(outcome.tools).toBeNull();
    expect(outcome.degraded).toBe(false);
  });

  it("§4 role: resolver answers [] → abstain with degraded true and a warning detail (never binds nothing)", () => {
    const outcome = new RolePaletteStage({ resolver }).apply(
      tools,
      contextFor(tools, { role: "empty" }),
    );
    expect(outcome.tools).toBeNull();
    expect(outcome.degraded).toBe(true);
    expect(outcome.detail).toMatch(/empty palette/);
  });

  it("§4 role: a palette can only narrow: names it returns that were not offered to the stage are not honoured", () => {
    const result = runSelection(pipelineOf(new RolePaletteStage({ resolver })), ["a", "c"], {
      role: "analyst",
    });
    expect(result.names).toEqual(["a"]);
    expect(result.trace[0]).toMatchObject({
      action: "select",
      kept: ["a"],
      dropped: ["c"],
      added: [],
    });
  });

  it("§4 role: no resolver → abstain", () => {
    expect(
      new RolePaletteStage().apply(tools, contextFor(tools, { role: "analyst" })).tools,
    ).toBeNull();
  });

  it("§4 role: a raising resolver propagates, so the pipeline records the stage as error", () => {
    const stage = new RolePaletteStage({
      resolver: () => {
        throw new Error("directory down");
      },
    });
    const result = runSelection(pipelineOf(stage), ["a"], { role: "analyst" });
    expect(result.trace[0]).toMatchObject({
      action: "error",
      detail: "directory down",
      degraded: true,
      kept: ["a"],
    });
  });
});

describe("§4 ForcedChoiceStage", () => {
  const apply = (stage: ForcedChoiceStage, init: Parameters<typeof contextFor>[1] = {}) =>
    stage.apply([], contextFor([], init));
  const fixed = (tool: string | null) => () => tool;

  it("§4 forced: default name 'forced', state_key 'forced_tool_choice', protects_forced true", () => {
    const stage = new ForcedChoiceStage();
    expect([stage.name, stage.stateKey, stage.protectsForced]).toEqual([
      "forced",
      "forced_tool_choice",
      true,
    ]);
  });

  it("§4 forced: always answers force(...) with tools untouched, even with nothing to force", () => {
    const outcome = apply(new ForcedChoiceStage());
    expect(outcome).toMatchObject({
      tools: null,
      setsForcedChoice: true,
      forcedChoice: null,
      degraded: false,
    });
  });

  it("§4 forced precedence (1): a state stamp wins over the resolver", () => {
    let called = false;
    const outcome = apply(
      new ForcedChoiceStage({
        resolver: () => {
          called = true;
          return "b";
        },
      }),
      { state: { forced_tool_choice: "a" } },
    );
    expect(outcome.forcedChoice).toBe("a");
    expect(called).toBe(false);
  });

  it("§4 forced: the stamp is read from the configured state_key", () => {
    const outcome = apply(new ForcedChoiceStage({ stateKey: "pin" }), {
      state: { pin: "a", forced_tool_choice: "b" },
    });
    expect(outcome.forcedChoice).toBe("a");
  });

  it("§4 forced precedence (2): a stamp that is null or absent falls to the resolver", () => {
    expect(
      apply(new ForcedChoiceStage({ resolver: fixed("b") }), {
        state: { forced_tool_choice: null },
      }).forcedChoice,
    ).toBe("b");
    expect(apply(new ForcedChoiceStage({ resolver: fixed("b") })).forcedChoice).toBe("b");
  });

  it("§4 forced: a stamp key present with the value undefined (no JSON value) counts as no stamp", () => {
    expect(
      apply(new ForcedChoiceStage({ resolver: fixed("b") }), {
        state: { forced_tool_choice: undefined },
      }).forcedChoice,
    ).toBe("b");
  });

  it("§4 forced precedence (3): no stamp, resolver answers null → force(null)", () => {
    expect(apply(new ForcedChoiceStage({ resolver: fixed(null) }))).toMatchObject({
      setsForcedChoice: true,
      forcedChoice: null,
    });
  });

  it("§4 forced: the resolver receives the context, with state by identity, and is re-run on every run", () => {
    const state = { who: "a" };
    const states: unknown[] = [];
    const stage = new ForcedChoiceStage({
      resolver: (c: SelectionContext) => {
        states.push(c.state);
        return c.state.who as string;
      },
    });
    const pipeline = pipelineOf(stage);
    expect(runSelection(pipeline, ["a", "b"], { state }).forcedChoice).toBe("a");
    state.who = "b";
    expect(runSelection(pipeline, ["a", "b"], { state }).forcedChoice).toBe("b");
    expect(states).toEqual([state, state]);
    expect(states[0]).toBe(state);
  });

  it("§4 forced: a resolver that raises → force(null) with degraded true (released, not an error record)", () => {
    const stage = new ForcedChoiceStage({
      resolver: () => {
        throw new Error("lookup failed");
      },
    });
    const outcome = apply(stage);
    expect(outcome).toMatchObject({
      tools: null,
      setsForcedChoice: true,
      forcedChoice: null,
      degraded: true,
    });
    expect(outcome.detail).toContain("lookup failed");
    const result = runSelection(pipelineOf(stage), ["a"]);
    expect(result.trace[0]).toMatchObject({ action: "force", forcedChoice: null, degraded: true });
  });

  it("§4 forced: a raising resolver releases an earlier stage's force", () => {
    const result = runSelection(
      pipelineOf(
        stub("first", () => StageOutcome.force("a")),
        new ForcedChoiceStage({
          resolver: () => {
            throw new Error("x");
          },
        }),
      ),
      ["a"],
    );
    expect(result.forcedChoice).toBeNull();
  });

  it.each([
    ["type", { type: "tool", name: "a" }],
    ["role", { role: "tool", name: "a" }],
  ])(
    "§4 forced release: a tool message (by `%s`) naming the resolver's choice spends the force → null",
    (_by, message) => {
      const outcome = apply(new ForcedChoiceStage({ resolver: fixed("a") }), {
        messages: [{ type: "human", content: "hi" }, message],
      });
      expect(outcome).toMatchObject({
        setsForcedChoice: true,
        forcedChoice: null,
        degraded: false,
      });
    },
  );

  it("§4 forced release: a stamped choice is spent by a tool message too", () => {
    const outcome = apply(new ForcedChoiceStage(), {
      state: { forced_tool_choice: "a" },
      messages: [{ type: "tool", name: "a" }],
    });
    expect(outcome.forcedChoice).toBeNull();
  });

  it("§4 forced: a spent stamp does not fall through to the resolver", () => {
    let called = false;
    const stage = new ForcedChoiceStage({
      resolver: () => {
        called = true;
        return "b";
      },
    });
    const outcome = apply(stage, {
      state: { forced_tool_choice: "a" },
      messages: [{ role: "tool", name: "a" }],
    });
    expect(outcome.forcedChoice).toBeNull();
    expect(called).toBe(false);
  });

  it("§4 forced release: messages are taken from state.messages when `messages` is empty", () => {
    const outcome = apply(new ForcedChoiceStage({ resolver: fixed("a") }), {
      messages: [],
      state: { messages: [{ type: "tool", name: "a" }] },
    });
    expect(outcome.forcedChoice).toBeNull();
  });

  it("§4 forced release: state.messages is not consulted when `messages` is non-empty", () => {
    const outcome = apply(new ForcedChoiceStage({ resolver: fixed("a") }), {
      messages: [{ type: "human", content: "x" }],
      state: { messages: [{ type: "tool", name: "a" }] },
    });
    expect(outcome.forcedChoice).toBe("a");
  });

  it.each([
    ["a tool message naming another tool", { type: "tool", name: "b" }],
    ["a non-tool message naming the tool", { type: "ai", name: "a" }],
    ["a tool message without a name", { type: "tool", content: "a" }],
    ["a string", "a"],
    ["null", null],
  ])("§4 forced release: %s does not spend the force", (_what, message) => {
    expect(
      apply(new ForcedChoiceStage({ resolver: fixed("a") }), { messages: [message] }).forcedChoice,
    ).toBe("a");
  });

  it("§4 a tool message is an object whose `type` or `role` is 'tool'", () => {
    expect(
      [
        { type: "tool" },
        { role: "tool" },
        { type: "human", role: "tool" },
        { type: "ai" },
        "tool",
        null,
        1,
      ].map(isToolMessage),
    ).toEqual([true, true, true, false, false, false, false]);
  });
});

describe("§4 PolicyStage", () => {
  const catalog = catalogOf([
    { name: "safe", safetyLevel: "low", costUsd: 0.01, category: "read" },
    { name: "risky", safetyLevel: "high", costUsd: 0.01, category: "write" },
    { name: "pricey", safetyLevel: "none", costUsd: 1, category: "read" },
    { name: "unknown_cost", costUsd: null, category: "read" },
    { name: "needs_gpu", requiresCapability: "gpu", costUsd: 0 },
    { name: "internal", visibility: "internal", costUsd: 0 },
    { name: "no_level", costUsd: 0, category: "read" },
  ]);
  const all: Tool[] = [
    "safe",
    "risky",
    "pricey",
    "unknown_cost",
    "needs_gpu",
    "internal",
    "no_level",
    "absent",
    UNNAMED,
  ];
  const names = (options: Omit<PolicyOptions, "catalog">, cat = catalog) => {
    const outcome = new PolicyStage({ catalog: cat, ...options }).apply(all);
    return outcome.tools === null
      ? null
      : outcome.tools.map((t) => (typeof t === "string" ? t : "<unnamed>"));
  };
  const dropped = (options: Omit<PolicyOptions, "catalog">) => {
    const kept = names(options);
    return kept === null ? null : all.filter((t) => typeof t === "string" && !kept.includes(t));
  };

  it("§4 policy: default name 'policy', protects_forced true", () => {
    const stage = new PolicyStage({ catalog });
    expect([stage.name, stage.protectsForced]).toEqual(["policy", true]);
  });

  it("§4 policy: no constraint configured → abstain", () => {
    expect(names({})).toBeNull();
    expect(
      names({
        maxSafetyLevel: null,
        budgetUsd: null,
        includeUnknownCost: true,
        availableCapabilities: null,
        agentVisibleOnly: false,
        categories: null,
      }),
    ).toBeNull();
  });

  it("§4 policy: max_safety_level drops a catalogued tool whose level ranks above it (no level: kept)", () => {
    expect(dropped({ maxSafetyLevel: "medium" })).toEqual(["risky"]);
    expect(dropped({ maxSafetyLevel: "none" })).toEqual(["safe", "risky"]);
    expect(dropped({ maxSafetyLevel: "high" })).toEqual([]);
  });

  it("§4 policy: budget_usd drops a tool whose known cost exceeds it (equal is allowed; unknown cost kept by default)", () => {
    expect(dropped({ budgetUsd: 0.5 })).toEqual(["pricey"]);
    expect(dropped({ budgetUsd: 0.01 })).toEqual(["pricey"]);
    expect(dropped({ budgetUsd: 0 })).toEqual(["safe", "risky", "pricey"]);
  });

  it("§4 policy: include_unknown_cost false drops unknown-cost tools without a budget", () => {
    expect(dropped({ includeUnknownCost: false })).toEqual(["unknown_cost"]);
  });

  it("§4 policy: include_unknown_cost false drops unknown-cost tools with a budget too", () => {
    expect(dropped({ includeUnknownCost: false, budgetUsd: 10 })).toEqual(["unknown_cost"]);
  });

  it("§4 policy: available_capabilities set and lacking a required capability → dropped; null → not checked", () => {
    expect(dropped({ availableCapabilities: [] })).toEqual(["needs_gpu"]);
    expect(dropped({ availableCapabilities: ["gpu"] })).toEqual([]);
    expect(names({ availableCapabilities: null })).toBeNull();
  });

  it("§4 policy: agent_visible_only drops internal tools", () => {
    expect(dropped({ agentVisibleOnly: true })).toEqual(["internal"]);
  });

  it("§4 policy: categories set → a catalogued tool whose category (possibly none) is not in it is dropped", () => {
    expect(dropped({ categories: ["read"] })).toEqual(["risky", "needs_gpu", "internal"]);
    expect(dropped({ categories: [] })).toEqual([
      "safe",
      "risky",
      "pricey",
      "unknown_cost",
      "needs_gpu",
      "internal",
      "no_level",
    ]);
  });

  it("§4 policy: a tool absent from the catalogue, and an unnamed tool, are kept under every constraint", () => {
    const kept = names({
      maxSafetyLevel: "none",
      budgetUsd: 0,
      includeUnknownCost: false,
      availableCapabilities: [],
      agentVisibleOnly: true,
      categories: [],
    });
    expect(kept).toEqual(["absent", "<unnamed>"]);
  });

  it("§4 policy: a constraint that drops nothing still selects (not abstain), with no reasons", () => {
    const outcome = new PolicyStage({ catalog, budgetUsd: 100 }).apply(["safe", "absent"]);
    expect(outcome.tools).toEqual(["safe", "absent"]);
    expect(outcome.reasons).toEqual({});
  });

  it("§4 policy: each dropped tool gets a reason", () => {
    const outcome = new PolicyStage({ catalog, maxSafetyLevel: "medium", budgetUsd: 0.5 }).apply(
      all,
    );
    expect(Object.keys(outcome.reasons).sort()).toEqual(["pricey", "risky"]);
  });

  it("§4 policy: without a catalogue every tool is unknown, so all are kept", () => {
    expect(names({ maxSafetyLevel: "none", includeUnknownCost: false }, catalogOf([]))).toEqual(
      all.map((t) => (typeof t === "string" ? t : "<unnamed>")),
    );
  });

  it("§2/§4 policy: ranks come from the catalogue's own safety scale", () => {
    const custom = catalogOf(
      [
        { name: "g", safetyLevel: "green" },
        { name: "a", safetyLevel: "amber" },
        { name: "r", safetyLevel: "red" },
      ],
      ["green", "amber", "red"],
    );
    expect(
      new PolicyStage({ catalog: custom, maxSafetyLevel: "amber" }).apply(["g", "a", "r"]).tools,
    ).toEqual(["g", "a"]);
    expect(() => new PolicyStage({ catalog: custom, maxSafetyLevel: "medium" })).toThrow(
      /not on the catalogue's scale/,
    );
  });
});

describe("scripted stage (docs/formats.md: an adopter's own stage played back)", () => {
  const lookup = (name: string, context: SelectionContext) =>
    context.offered.find((t) => t === name) ?? (name === "catalogued" ? name : undefined);
  const scripted = (
    outcome: ConstructorParameters<typeof ScriptedStage>[0]["outcome"],
    extra: { detail?: string; degraded?: boolean } = {},
  ) => new ScriptedStage({ name: "mine", outcome, lookup, ...extra });

  it("scripted select returns the named tools in the order listed", () => {
    const result = runSelection(pipelineOf(scripted({ select: ["c", "a"] })), ["a", "b", "c"]);
    expect(result.names).toEqual(["c", "a"]);
    expect(result.trace[0]).toMatchObject({
      action: "select",
      kept: ["a", "c"],
      dropped: ["b"],
      added: [],
    });
  });

  it("scripted select of a name not offered to it takes it from the offered set or the catalogue (shows as added)", () => {
    const result = runSelection(
      pipelineOf(
        new LazyRoutingStage({ allowedNames: ["a"] }),
        scripted({ select: ["b", "a", "catalogued"] }),
      ),
      ["a", "b"],
    );
    expect(result.names).toEqual(["b", "a", "catalogued"]);
    expect(result.trace[1]).toMatchObject({ kept: ["a"], dropped: [], added: ["b", "catalogued"] });
  });

  it("scripted select drops unnamed tools (it is not a name filter)", () => {
    expect(runSelection(pipelineOf(scripted({ select: ["a"] })), ["a", UNNAMED]).tools).toEqual([
      "a",
    ]);
  });

  it("scripted select with keepsUnnamed also keeps its input's unnamed tools, after the named ones", () => {
    const other = { description: "another unnamed tool" };
    const stage = new ScriptedStage({
      name: "mine",
      outcome: { select: ["b"] },
      lookup,
      keepsUnnamed: true,
    });
    expect(stage.apply([UNNAMED, "a", "b", other], contextFor()).tools).toEqual([
      "b",
      UNNAMED,
      other,
    ]);
  });

  it("scripted abstain / force / force null / raise map to the pipeline's actions, with detail and degraded", () => {
    const tools = ["a", "b"];
    const trace = runSelection(
      new ToolSelectionPipeline([
        new ScriptedStage({
          name: "s1",
          outcome: { abstain: true },
          lookup,
          detail: "d1",
          degraded: true,
        }),
        new ScriptedStage({ name: "s2", outcome: { force: "a" }, lookup, detail: "d2" }),
        new ScriptedStage({ name: "s3", outcome: { raise: "boom" }, lookup }),
        new ScriptedStage({ name: "s4", outcome: { force: null }, lookup }),
      ]),
      tools,
    ).trace;
    expect(trace.map((r) => [r.action, r.forcedChoice, r.detail, r.degraded])).toEqual([
      ["abstain", null, "d1", true],
      ["force", "a", "d2", false],
      ["error", "a", "boom", true],
      ["force", null, "", false],
    ]);
  });

  it("scripted: protects the forced choice unless configured as a hard filter", () => {
    expect(scripted({ abstain: true }).protectsForced).toBe(true);
    const hard = new ScriptedStage({
      name: "h",
      outcome: { abstain: true },
      lookup,
      protectsForced: false,
    });
    expect(hard.protectsForced).toBe(false);
  });

  it("scripted select takes a name's first tool in the stage's input before any lookup", () => {
    const first = { name: "a", version: 1 };
    const second = { name: "a", version: 2 };
    const fromLookup = { name: "a", version: 0 };
    const stage = new ScriptedStage({
      name: "mine",
      outcome: { select: ["a"] },
      lookup: () => fromLookup,
    });
    const outcome = stage.apply([UNNAMED, first, second], contextFor([fromLookup, first, second]));
    expect(outcome.tools).toHaveLength(1);
    expect(outcome.tools![0]).toBe(first);
  });

  it("scripted select of a name neither offered nor catalogued raises, naming the stage and the tool", () => {
    expect(() => scripted({ select: ["a", "ghost"] }).apply(["a"], contextFor(["a"]))).toThrow(
      new Error("scripted stage 'mine' selects 'ghost', which is neither offered nor catalogued"),
    );
  });

  it("scripted select carries degraded when configured", () => {
    expect(
      scripted({ select: ["a"] }, { degraded: true }).apply(["a"], contextFor(["a"])).degraded,
    ).toBe(true);
  });
});
