/** docs/formats.md: how a valid fixture is composed and run (defaults, resolvers, warnings). */
import { describe, expect, it } from "vitest";
import { runFixture } from "../../../src/core/run-fixture.js";
import { at, catalogFiles, load, loadValid, noCatalogFile, positionOf, run } from "./helpers.js";

const CATALOG = [
  { name: "search", summary: "Search the web", safety_level: "low", cost_usd: 0.01 },
  {
    name: "get_weather",
    summary: "Weather",
    safety_level: "low",
    cost_usd: 0.01,
    trigger_keywords: ["weather"],
  },
  { name: "sql", summary: "SQL", safety_level: "high", cost_usd: 0.02, trigger_keywords: ["sql"] },
  {
    name: "delete_rows",
    summary: "Delete",
    safety_level: "critical",
    trigger_keywords: ["delete"],
  },
  { name: "final_answer", summary: "Answer", visibility: "internal" },
];

describe("docs/formats.md fixture composition", () => {
  it("offered defaults to every catalogue name, in catalogue order", async () => {
    const report = await run({ catalog: CATALOG });
    expect(report.offered).toEqual(["search", "get_weather", "sql", "delete_rows", "final_answer"]);
    expect(report.names).toEqual(report.offered);
  });

  it("an explicit empty offered list offers nothing, even with a catalogue (not the default)", async () => {
    expect((await run({ catalog: CATALOG, offered: [] })).offered).toEqual([]);
  });

  it("without a catalogue and without offered, nothing is offered", async () => {
    expect((await run({})).offered).toEqual([]);
  });

  it("offered may hold tool objects, named or unnamed; the run keeps them as given", async () => {
    const report = await run({
      offered: ["a", { name: "b", schema: {} }, { description: "unnamed" }],
      pipeline: [{ kind: "lazy", allowed_names: ["b"] }],
    });
    expect(report.tools).toEqual([{ name: "b", schema: {} }, { description: "unnamed" }]);
    expect(report.names).toEqual(["b"]);
  });

  it("turn defaults: query '', role '', state {}, messages []", async () => {
    const report = await run({
      offered: ["a"],
      pipeline: [
        { kind: "role", role_tools: { "": ["a"] } },
        { kind: "forced", resolver: { kind: "keyword", rules: [{ keywords: [""], tool: "a" }] } },
      ],
    });
    expect(report.trace.map((r) => r.action)).toEqual(["select", "force"]);
    expect(report.forcedChoice).toBe("a");
  });

  it("§4 intent in a fixture reads trigger keywords from the catalogue when the stage gives none", async () => {
    const report = await run({
      catalog: CATALOG,
      pipeline: [
        { kind: "intent", verdict: { label: "action", matched_tool_keywords: ["get_weather"] } },
      ],
    });
    expect(report.names).toEqual(["search", "get_weather", "final_answer"]);
    expect(report.trace[0]!.dropped).toEqual(["sql", "delete_rows"]);
  });

  it("§4 intent in a fixture: a given trigger_keywords map is used instead of the catalogue's", async () => {
    const report = await run({
      catalog: CATALOG,
      pipeline: [
        {
          kind: "intent",
          verdict: { label: "action", matched_tool_keywords: [] },
          trigger_keywords: { search: ["find"] },
        },
      ],
    });
    expect(report.names).toEqual(["get_weather", "sql", "delete_rows", "final_answer"]);
  });

  it("§4 intent in a fixture: a null verdict abstains; always_include defaults to empty", async () => {
    const report = await run({
      catalog: CATALOG,
      pipeline: [
        { kind: "intent", verdict: null },
        { kind: "intent", name: "k", verdict: { label: "knowledge" } },
      ],
    });
    expect(report.trace.map((r) => r.action)).toEqual(["abstain", "select"]);
    expect(report.names).toEqual([]);
  });

  it("allowlist use_catalog defaults to true with a catalogue: an offered, uncatalogued mandated name is not re-added", async () => {
    const report = await run({
      catalog: CATALOG,
      offered: ["search", "extra"],
      pipeline: [
        { kind: "lazy", allowed_names: [] },
        { kind: "allowlist", always_include: ["extra", "search"] },
      ],
    });
    expect(report.names).toEqual(["search"]);
  });

  it("allowlist use_catalog false re-adds any offered mandated name", async () => {
    const report = await run({
      catalog: CATALOG,
      offered: ["search", "extra"],
      pipeline: [
        { kind: "lazy", allowed_names: [] },
        { kind: "allowlist", always_include: ["extra", "search"], use_catalog: false },
      ],
    });
    expect(report.names).toEqual(["search", "extra"]);
    expect(report.trace[1]!.added).toEqual(["search", "extra"]);
  });

  it("allowlist without a catalogue re-adds any offered mandated name", async () => {
    const report = await run({
      offered: ["a", "b"],
      pipeline: [
        { kind: "lazy", allowed_names: [] },
        { kind: "allowlist", always_include: ["b"] },
      ],
    });
    expect(report.names).toEqual(["b"]);
  });

  it("a stage with enabled false is not run but is listed (greyed)", async () => {
    const report = await run({
      offered: ["a", "b"],
      pipeline: [
        { kind: "lazy", allowed_names: ["a"], enabled: false },
        { kind: "policy", budget_usd: 1 },
      ],
    });
    expect(report.trace.map((r) => r.stage)).toEqual(["policy"]);
    expect(report.stages.map((s) => [s.name, s.enabled])).toEqual([
      ["lazy", false],
      ["policy", true],
    ]);
    expect(report.names).toEqual(["a", "b"]);
  });

  it("§3 protects_forced false in a fixture is a hard filter: visible in the stage list and no reinstatement", async () => {
    const report = await run({
      offered: ["a", "b"],
      pipeline: [
        { kind: "forced", resolver: { kind: "fixed", tool: "b" } },
        { kind: "lazy", allowed_names: ["a"], protects_forced: false },
      ],
    });
    expect(report.stages.map((s) => s.protectsForced)).toEqual([true, false]);
    expect(report.error).toMatchObject({
      kind: "ForcedToolUnavailable",
      tool: "b",
      droppedBy: "lazy",
    });
    expect(report.trace).toHaveLength(2);
    expect(report.names).toEqual(["a"]);
  });

  it("§3 protecting stage in a fixture: the forced tool is reinstated at the end", async () => {
    const report = await run({
      offered: ["a", "b", "c"],
      pipeline: [
        { kind: "forced", resolver: { kind: "fixed", tool: "a" } },
        { kind: "role", role_tools: { x: ["c", "b"] }, role: "x" },
      ],
    });
    expect(report.names).toEqual(["b", "c", "a"]);
    expect(report.trace[1]).toMatchObject({ reinstated: ["a"], kept: ["b", "c"] });
    expect(report.error).toBeNull();
  });

  it("ForcedToolUnavailable of a tool never offered: droppedBy null, the trace is still reported", async () => {
    const report = await run({
      offered: ["a"],
      catalog: [{ name: "z" }],
      pipeline: [{ kind: "forced", resolver: { kind: "fixed", tool: "z" } }],
    });
    expect(report.error).toMatchObject({
      kind: "ForcedToolUnavailable",
      tool: "z",
      droppedBy: null,
    });
    expect(report.trace.map((r) => r.action)).toEqual(["force"]);
  });

  it("§4 forced resolver kinds: state reads a key of turn.state; keyword takes the first matching rule, case-insensitively", async () => {
    const report = await run({
      offered: ["a", "b", "c"],
      turn: {
        query: "Please check the WEATHER and the SQL",
        state: { pick: "c", nonstring: null },
      },
      pipeline: [
        { kind: "forced", name: "st", resolver: { kind: "state", key: "pick" } },
        { kind: "forced", name: "st_missing", resolver: { kind: "state", key: "absent" } },
        {
          kind: "forced",
          name: "kw",
          resolver: {
            kind: "keyword",
            rules: [
              { keywords: ["nothing"], tool: "c" },
              { keywords: ["sql"], tool: "b" },
              { keywords: ["weather"], tool: "a" },
            ],
          },
        },
        {
          kind: "forced",
          name: "kw_none",
          resolver: { kind: "keyword", rules: [{ keywords: ["zzz"], tool: "a" }] },
        },
        { kind: "forced", name: "nul", resolver: null },
        { kind: "forced", name: "raise", resolver: { kind: "raise", message: "resolver down" } },
      ],
    });
    expect(report.trace.map((r) => [r.stage, r.forcedChoice, r.degraded])).toEqual([
      ["st", "c", false],
      ["st_missing", null, false],
      ["kw", "b", false],
      ["kw_none", null, false],
      ["nul", null, false],
      ["raise", null, true],
    ]);
    expect(report.trace[5]!.detail).toContain("resolver down");
  });

  it("§4 forced in a fixture: the stamp comes from turn.state[state_key] and a tool message in turn.messages spends it", async () => {
    const stamped = await run({
      offered: ["a", "b"],
      turn: { state: { pin: "b" } },
      pipeline: [{ kind: "forced", state_key: "pin", resolver: { kind: "fixed", tool: "a" } }],
    });
    expect(stamped.forcedChoice).toBe("b");
    const spent = await run({
      offered: ["a", "b"],
      turn: { state: { pin: "b" }, messages: [{ role: "tool", name: "b", content: "done" }] },
      pipeline: [{ kind: "forced", state_key: "pin", resolver: { kind: "fixed", tool: "a" } }],
    });
    expect(spent.forcedChoice).toBeNull();
  });

  it("§4 forced in a fixture: messages come from turn.state.messages when turn.messages is empty", async () => {
    const report = await run({
      offered: ["a"],
      turn: { state: { messages: [{ type: "tool", name: "a" }] } },
      pipeline: [{ kind: "forced", resolver: { kind: "fixed", tool: "a" } }],
    });
    expect(report.forcedChoice).toBeNull();
  });

  it("§4 role in a fixture: role_tools null for a role abstains; an unmapped role abstains; [] abstains degraded", async () => {
    const report = await run({
      offered: ["a", "b"],
      turn: { role: "analyst" },
      pipeline: [
        { kind: "role", name: "r_null", role_tools: { analyst: null } },
        { kind: "role", name: "r_unmapped", role_tools: { other: ["a"] } },
        { kind: "role", name: "r_empty", role_tools: { analyst: [] } },
        { kind: "role", name: "r_constructor", role: "constructor", role_tools: {} },
        { kind: "role", name: "r_raise", resolver: { kind: "raise", message: "no directory" } },
        {
          kind: "role",
          name: "r_own",
          role: "other",
          role_tools: { other: ["b"], analyst: ["a"] },
        },
      ],
    });
    expect(report.trace.map((r) => [r.stage, r.action, r.degraded])).toEqual([
      ["r_null", "abstain", false],
      ["r_unmapped", "abstain", false],
      ["r_empty", "abstain", true],
      ["r_constructor", "abstain", false],
      ["r_raise", "error", true],
      ["r_own", "select", false],
    ]);
    expect(report.names).toEqual(["b"]);
  });

  it("§4 policy in a fixture without a catalogue keeps every tool (all unknown)", async () => {
    const report = await run({
      offered: ["a", "b"],
      pipeline: [{ kind: "policy", include_unknown_cost: false, max_safety_level: "none" }],
    });
    expect(report.trace[0]).toMatchObject({ action: "select", dropped: [] });
    expect(report.names).toEqual(["a", "b"]);
  });

  it("§4 policy in a fixture uses the catalogue's custom scale", async () => {
    const report = await run({
      catalog: {
        safety_levels: ["green", "amber", "red"],
        tools: [
          { name: "g", safety_level: "green" },
          { name: "r", safety_level: "red" },
        ],
      },
      pipeline: [{ kind: "policy", max_safety_level: "amber" }],
    });
    expect(report.names).toEqual(["g"]);
    expect(report.trace[0]!.reasons).toHaveProperty("r");
  });

  it("scripted in a fixture: select takes a catalogued, not offered tool (added), in the order listed", async () => {
    const report = await run({
      catalog: [{ name: "c" }],
      offered: ["a", "b"],
      pipeline: [
        {
          kind: "scripted",
          name: "mine",
          outcome: { select: ["c", "a"] },
          detail: "adopter stage",
        },
      ],
    });
    expect(report.names).toEqual(["c", "a"]);
    expect(report.trace[0]).toMatchObject({
      stage: "mine",
      action: "select",
      kept: ["a"],
      dropped: ["b"],
      added: ["c"],
      detail: "adopter stage",
    });
  });

  it("scripted in a fixture: select takes an offered tool an earlier stage dropped (added), as the offered object", async () => {
    const report = await run({
      offered: ["a", { name: "b", v: 1 }],
      pipeline: [
        { kind: "lazy", allowed_names: ["a"] },
        { kind: "scripted", name: "mine", outcome: { select: ["b"] } },
      ],
    });
    expect(report.tools).toEqual([{ name: "b", v: 1 }]);
    expect(report.trace[1]).toMatchObject({ added: ["b"], dropped: ["a"] });
  });

  it("scripted in capability mode: a registered but not routed name is found (not a contained error)", async () => {
    const report = await run({
      routing: { registered: ["a", "b"], entries: [{ content: "a" }] },
      pipeline: [{ kind: "scripted", name: "mine", outcome: { select: ["a", "b"] } }],
    });
    expect(report.trace[0]).toMatchObject({ action: "select", kept: ["a"], added: ["b"] });
    expect(report.names).toEqual(["a", "b"]);
  });

  it("scripted in a fixture: raise is contained as an error record with the message as detail", async () => {
    const report = await run({
      offered: ["a"],
      pipeline: [{ kind: "scripted", name: "mine", outcome: { raise: "kaboom" } }],
    });
    expect(report.trace[0]).toMatchObject({
      action: "error",
      detail: "kaboom",
      degraded: true,
      kept: ["a"],
    });
  });

  it("§2 the report's manifest lists the final agent-visible catalogued tools as {name, summary}", async () => {
    const report = await run({
      catalog: CATALOG,
      offered: ["final_answer", "sql", "unknown", "search"],
    });
    expect(report.manifest).toEqual([
      { name: "sql", summary: "SQL" },
      { name: "search", summary: "Search the web" },
    ]);
  });

  it("the docs/formats.md example fixture runs as the pipeline's rules say", async () => {
    const report = await run({
      description: "analyst asks for the weather; policy ceiling is medium",
      catalog: CATALOG,
      offered: ["search", "get_weather", "sql", "delete_rows", "final_answer"],
      turn: {
        query: "what's the weather in Lyon?",
        role: "analyst",
        state: { tenant: "acme" },
        messages: [
          { type: "human", content: "what's the weather in Lyon?" },
          { type: "tool", name: "search", content: "..." },
        ],
      },
      pipeline: [
        {
          kind: "intent",
          verdict: { label: "action", matched_tool_keywords: ["get_weather"] },
          always_include: ["final_answer"],
        },
        { kind: "forced", resolver: { kind: "fixed", tool: "get_weather" } },
        { kind: "role", role_tools: { analyst: ["search", "get_weather", "sql"] } },
        { kind: "policy", max_safety_level: "medium", budget_usd: 0.05 },
        { kind: "allowlist", always_include: ["final_answer"] },
      ],
    });
    expect(report.trace.map((r) => [r.stage, r.action, r.dropped, r.added, r.reinstated])).toEqual([
      ["intent", "select", ["sql", "delete_rows"], [], []],
      ["forced", "force", [], [], []],
      ["role", "select", ["final_answer"], [], []],
      ["policy", "select", [], [], []],
      ["allowlist", "select", [], ["final_answer"], []],
    ]);
    expect(report.names).toEqual(["search", "get_weather", "final_answer"]);
    expect(report.forcedChoice).toBe("get_weather");
  });

  it("the report names its fixture file and description (empty when absent) and how long the run took", async () => {
    const fixture = await loadValid(
      { description: "a weather turn", offered: ["a"] },
      noCatalogFile,
      "w.turn.json",
    );
    const before = performance.now();
    const report = runFixture(fixture);
    const took = performance.now() - before;
    expect(report).toMatchObject({
      origin: { kind: "fixture" },
      file: "w.turn.json",
      description: "a weather turn",
    });
    expect(report.durationMs).toBeGreaterThanOrEqual(0);
    expect(report.durationMs).toBeLessThanOrEqual(took);
    expect((await run({ offered: ["a"] })).description).toBe("");
  });

  it("the stage list reports each stage's kind, enabled and protects_forced, defaults included", async () => {
    const report = await run({
      offered: ["a"],
      pipeline: [
        { kind: "lazy", allowed_names: ["a"] },
        { kind: "role", name: "r", enabled: false, protects_forced: false },
      ],
    });
    expect(report.stages).toEqual([
      { name: "lazy", kind: "lazy", enabled: true, protectsForced: true },
      { name: "r", kind: "role", enabled: false, protectsForced: false },
    ]);
  });
});

describe("docs/formats.md catalogue entries", () => {
  it("a catalogue object gives its own scale; a catalogue file is read with the default scale when it has none", async () => {
    const inline = await loadValid({
      catalog: { safety_levels: ["green", "red"], tools: [{ name: "a", safety_level: "red" }] },
    });
    expect(inline.catalog.safetyLevels).toEqual(["green", "red"]);
    expect(inline.catalog.get("a")?.safetyLevel).toBe("red");
    const fromFile = await loadValid(
      { catalog: "t.catalog.json" },
      catalogFiles({ "t.catalog.json": '{"tools": [{"name": "b", "safety_level": "medium"}]}' }),
    );
    expect(fromFile.catalog.safetyLevels).toEqual(["none", "low", "medium", "high", "critical"]);
    expect(fromFile.catalog.names).toEqual(["b"]);
    expect([fromFile.hasCatalog, fromFile.catalogFile]).toEqual([true, "t.catalog.json"]);
    const none = await loadValid({ offered: ["a"] });
    expect([none.hasCatalog, none.catalogFile, none.catalog.names]).toEqual([false, null, []]);
  });
});

describe("docs/formats.md warnings: a stage names a tool neither offered nor catalogued", () => {
  const fixture = {
    catalog: [{ name: "cat" }],
    offered: ["off"],
    pipeline: [
      {
        kind: "intent",
        verdict: { label: "action", matched_tool_keywords: ["w_matched", "cat"] },
        always_include: ["w_intent_always"],
        trigger_keywords: { w_trigger: ["k"], off: ["k"] },
      },
      { kind: "lazy", allowed_names: ["off", "w_lazy"] },
      { kind: "allowlist", always_include: ["w_allow"] },
      { kind: "role", role_tools: { analyst: ["w_role", "cat"], other: null } },
      { kind: "forced", resolver: { kind: "fixed", tool: "w_fixed" } },
      {
        kind: "forced",
        name: "kw",
        resolver: { kind: "keyword", rules: [{ keywords: ["x"], tool: "w_keyword" }] },
      },
    ],
  };

  it("each unknown name is a warning at its own position; known names (offered or catalogued) are not", async () => {
    const text = JSON.stringify(fixture, null, 2);
    const loaded = await load(text);
    expect(loaded.ok).toBe(true);
    const warnings = loaded.problems.filter((p) => p.severity === "warning");
    expect(loaded.problems.every((p) => p.severity === "warning")).toBe(true);
    const byName = Object.fromEntries(warnings.map((w) => [w.message.match(/'([^']+)'/)![1]!, w]));
    expect(Object.keys(byName).sort()).toEqual([
      "w_allow",
      "w_fixed",
      "w_intent_always",
      "w_keyword",
      "w_lazy",
      "w_matched",
      "w_role",
      "w_trigger",
    ]);
    for (const [name, warning] of Object.entries(byName)) {
      expect(warning.message).toBe(`'${name}' is neither offered nor in the catalogue`);
      expect(at(warning)).toBe(positionOf(text, `"${name}"`));
    }
    expect(byName.w_lazy!.path).toEqual(["pipeline", 1, "allowed_names", 1]);
    expect(byName.w_role!.path).toEqual(["pipeline", 3, "role_tools", "analyst", 0]);
    expect(byName.w_keyword!.path).toEqual(["pipeline", 5, "resolver", "rules", 0, "tool"]);
  });

  it("a fixture with warnings still runs", async () => {
    const report = await run(fixture);
    expect(report.trace).toHaveLength(6);
  });

  it("§5 in capability mode registered names are known (no warning)", async () => {
    const loaded = await load({
      routing: { registered: ["r"] },
      pipeline: [{ kind: "lazy", allowed_names: ["r"] }],
    });
    expect(loaded.problems).toEqual([]);
  });
});

describe("docs/formats.md warnings: near misses carry the name they most likely meant", () => {
  const problemsAt = async (fixture: object) =>
    Object.fromEntries(
      (await load(fixture)).problems.map((p) => [
        JSON.stringify(p.path),
        { severity: p.severity, message: p.message, fix: p.fix },
      ]),
    );

  it("an offered name one letter from a catalogued one is a warning with a replace fix; a far one is not", async () => {
    expect(
      await problemsAt({
        catalog: [{ name: "search" }, { name: "sql" }],
        offered: ["serch", "search", "internal_tool"],
      }),
    ).toEqual({
      '["offered",0]': {
        severity: "warning",
        message: "'serch' is offered but not in the catalogue; did you mean 'search'?",
        fix: { kind: "replace", with: "search" },
      },
    });
  });

  it("a stage's unknown name close to a known one suggests it, with a replace fix", async () => {
    expect(
      await problemsAt({
        offered: ["get_weather"],
        pipeline: [{ kind: "lazy", allowed_names: ["get_wether", "zzz"] }],
      }),
    ).toEqual({
      '["pipeline",0,"allowed_names",0]': {
        severity: "warning",
        message:
          "'get_wether' is neither offered nor in the catalogue; did you mean 'get_weather'?",
        fix: { kind: "replace", with: "get_weather" },
      },
      '["pipeline",0,"allowed_names",1]': {
        severity: "warning",
        message: "'zzz' is neither offered nor in the catalogue",
        fix: undefined,
      },
    });
  });

  it("use_catalog true without a catalogue is a warning with a fix that removes the key", async () => {
    const text = '{"offered": ["a"], "pipeline": [{"kind": "allowlist", "use_catalog": true}]}';
    const loaded = await load(text);
    expect(loaded.ok).toBe(true);
    expect(loaded.problems).toHaveLength(1);
    expect(loaded.problems[0]).toMatchObject({
      severity: "warning",
      path: ["pipeline", 0, "use_catalog"],
      fix: { kind: "remove" },
    });
    expect(loaded.problems[0]!.message).toMatch(
      /^'use_catalog' is true but the fixture has no catalogue/,
    );
    // Marked at the key, since the fix removes the whole member.
    expect(at(loaded.problems[0]!)).toBe(positionOf(text, '"use_catalog"'));
    expect(
      (
        await load({
          catalog: [{ name: "a" }],
          pipeline: [{ kind: "allowlist", use_catalog: true }],
        })
      ).problems,
    ).toEqual([]);
  });
});

describe("docs/formats.md errors a schema cannot express", () => {
  it("expect.dropped_by naming a stage not in the pipeline is an error at that tool; null (kept) is fine", async () => {
    const loaded = await load({
      offered: ["a", "b"],
      pipeline: [{ kind: "lazy", allowed_names: ["a"] }],
      expect: { dropped_by: { b: "lazzy", a: null } },
    });
    expect(loaded.ok).toBe(false);
    expect(loaded.problems.map((p) => [p.severity, p.path, p.message])).toEqual([
      ["error", ["expect", "dropped_by", "b"], "no stage named 'lazzy' in the pipeline"],
    ]);
  });

  it("a stamp read by a state resolver must be a tool name or null; the stage's own state_key is checked too", async () => {
    const loaded = await load({
      offered: ["a"],
      turn: { state: { pick: ["a"], pin: { tool: "a" }, ok: null } },
      pipeline: [
        { kind: "forced", state_key: "pin", resolver: { kind: "state", key: "pick" } },
        { kind: "forced", name: "fine", resolver: { kind: "state", key: "ok" } },
        { kind: "forced", name: "absent", resolver: { kind: "state", key: "missing" } },
      ],
    });
    expect(loaded.problems.map((p) => [p.path, p.message])).toEqual([
      [
        ["turn", "state", "pin"],
        "a forced-choice stamp must be a tool name or null, found an object",
      ],
      [
        ["turn", "state", "pick"],
        "a forced-choice stamp must be a tool name or null, found an array",
      ],
    ]);
  });

  it("a policy ceiling not on the scale names the scale", async () => {
    const loaded = await load({
      offered: ["a"],
      pipeline: [{ kind: "policy", max_safety_level: "extreme" }],
    });
    expect(loaded.problems.map((p) => [p.path, p.message])).toEqual([
      [
        ["pipeline", 0, "max_safety_level"],
        "safety level 'extreme' is not on the scale (none, low, medium, high, critical)",
      ],
    ]);
  });

  it("in capability mode a turn role is a warning, and with 'offered' too the routing is an error", async () => {
    const loaded = await load({
      offered: ["a"],
      routing: { registered: ["a"] },
      turn: { role: "analyst" },
    });
    expect(loaded.problems.map((p) => [p.severity, p.path])).toEqual([
      ["error", ["routing"]],
      ["warning", ["turn", "role"]],
    ]);
    expect(loaded.problems[0]!.message).toBe(
      "give either 'offered' or 'routing' (capability mode), not both",
    );
  });
});

describe("docs/formats.md every stage key reaches its stage", () => {
  it("policy keys: visibility, capabilities, categories and budget each drop what they forbid", async () => {
    const catalog = [
      { name: "inner", visibility: "internal", category: "ops" },
      { name: "net", requires_capability: "network", category: "web" },
      { name: "dear", cost_usd: 2, category: "web" },
      { name: "plain", category: "web" },
    ];
    const report = await run({
      catalog,
      pipeline: [
        {
          kind: "policy",
          agent_visible_only: true,
          available_capabilities: ["disk"],
          categories: ["web"],
          budget_usd: 1,
        },
      ],
    });
    expect(report.names).toEqual(["plain"]);
    expect(report.trace[0]!.reasons).toEqual({
      inner: "not agent-visible; category 'ops' not allowed",
      net: "requires capability 'network'",
      dear: "cost $2 > budget $1",
    });
    // None of the keys given: no policy at all, the stage abstains.
    const open = await run({ catalog, pipeline: [{ kind: "policy" }] });
    expect(open.trace[0]).toMatchObject({ action: "abstain", detail: "no policy configured" });
    expect(open.names).toEqual(["inner", "net", "dear", "plain"]);
  });

  it("intent keys: the verdict's keywords, trigger keywords and always_include reach the stage", async () => {
    const report = await run({
      offered: ["a", "b", "c", "d"],
      pipeline: [
        {
          kind: "intent",
          verdict: { label: "action", matched_tool_keywords: ["a"] },
          trigger_keywords: { a: ["x"], b: ["deploy"], c: ["y"] },
          always_include: ["c"],
        },
      ],
    });
    // d has no trigger keywords; a is matched, c always included, b neither.
    expect(report.names).toEqual(["a", "c", "d"]);
    expect(report.trace[0]!.dropped).toEqual(["b"]);
  });

  it("forced keys: a state resolver reads only the state's own keys and only a string; keywords match in any case", async () => {
    const report = await run({
      offered: ["a", "b"],
      turn: { query: "check the weather", state: { num: "x" } },
      pipeline: [
        { kind: "forced", name: "own", resolver: { kind: "state", key: "constructor" } },
        {
          kind: "forced",
          name: "kw",
          resolver: { kind: "keyword", rules: [{ keywords: ["WEATHER"], tool: "b" }] },
        },
      ],
    });
    expect(report.trace.map((r) => [r.stage, r.forcedChoice])).toEqual([
      ["own", null],
      ["kw", "b"],
    ]);
  });

  it("scripted keys: reasons, degraded and keeps_unnamed reach the stage", async () => {
    const report = await run({
      offered: ["a", "b", { description: "unnamed" }],
      pipeline: [
        {
          kind: "scripted",
          name: "mine",
          outcome: { select: ["a"] },
          reasons: { b: "not today" },
          degraded: true,
          keeps_unnamed: true,
        },
      ],
    });
    expect(report.trace[0]).toMatchObject({ degraded: true, reasons: { b: "not today" } });
    expect(report.tools).toEqual(["a", { description: "unnamed" }]);
    const plain = await run({
      offered: ["a", { description: "unnamed" }],
      pipeline: [{ kind: "scripted", name: "mine", outcome: { select: ["a"] } }],
    });
    expect(plain.tools).toEqual(["a"]);
    expect(plain.trace[0]!.degraded).toBe(false);
  });
});
