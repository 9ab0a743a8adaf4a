// captureFixture over the probe's output written by hand: every shape of a stage's settings,
// without a Python process (capture.test.ts runs the probe itself).
import { describe, expect, it } from "vitest";
import { captureFixture } from "../../../src/core/debug/capture.js";
import { loggedRecord as record } from "../../builders/logged.js";

type Json = Record<string, unknown>;
const data = (value: unknown) => ({ data: value });
const object = (type: string, name: string | null = null) => ({ object: type, name });

function stage(cls: string, settings: Json = {}, extra: Json = {}): Json {
  return { class: cls, module: "symfonic", settings, name: null, protects_forced: true, ...extra };
}

async function captured(output: Json) {
  const read = await captureFixture({ kind: "capture", ...output }, "captured here");
  if (!read.ok) throw new Error(JSON.stringify(read));
  return read.capture;
}

async function refused(output: Json) {
  const read = await captureFixture({ kind: "capture", ...output }, "captured here");
  if (read.ok || !("problem" in read)) throw new Error(JSON.stringify(read));
  return read.problem;
}

describe("capture: what the probe found", () => {
  it("several pipelines or none: their names, only if they are names", async () => {
    expect(await captureFixture({ kind: "pipelines", names: ["a", "b"] }, "")).toEqual({
      ok: false,
      pipelines: ["a", "b"],
    });
    expect(await captureFixture({ kind: "pipelines", names: ["a", 1] }, "")).toEqual({
      ok: false,
      pipelines: [],
    });
  });

  it("stages that are not a list of objects, a malformed trace, or a trace of another pipeline", async () => {
    const cannot = "the pipeline's stages could not be read";
    expect(await refused({ stages: null })).toBe(cannot);
    expect(await refused({ stages: [stage("LazyRoutingStage"), 1] })).toBe(cannot);
    expect(
      await refused({ stages: [], trace: { trace: [{ stage: "s", action: "dance" }] } }),
    ).toMatch(/dance/);
    expect(
      await refused({
        stages: [stage("LazyRoutingStage")],
        trace: { trace: [record("a", "abstain"), record("b", "abstain")] },
      }),
    ).toBe(
      "the SelectionResult in the frame has 2 stage records but the pipeline has 1 stage; it is not this pipeline's result",
    );
  });

  it("a catalogue that is not a list of entries is not data", async () => {
    expect(
      await refused({
        stages: [stage("AllowlistStage", { _catalog: data(["a"]) }, { name: "it" })],
      }),
    ).toBe(
      "stage 1 'it' is not data (its catalogue could not be read) and the frame holds no SelectionResult of this turn to play it back from",
    );
  });

  it("without a trace: the configured fixture, not checked, with the offered tools, turn and catalogue found", async () => {
    const capture = await captured({
      stages: [
        stage(
          "AllowlistStage",
          {
            _always_include: data(["z"]),
            _catalog: {
              catalog: [
                {
                  name: "a",
                  summary: "reads",
                  visibility: "internal",
                  cost_usd: 0.5,
                  safety_level: "low",
                  requires_capability: "net",
                  category: "io",
                  trigger_keywords: ["read"],
                },
                {
                  name: "b",
                  summary: "",
                  visibility: "public",
                  cost_usd: -1,
                  trigger_keywords: [],
                },
                { name: "c", cost_usd: "cheap", safety_level: 3, category: null },
                { name: "e", summary: 5, cost_usd: null },
                { name: "f", cost_usd: 0 },
                null,
                { name: "" },
                { summary: "nameless" },
                "d",
              ],
            },
          },
          { name: "gate", protects_forced: false },
        ),
      ],
      offered: ["a", "b", "z"],
      turn: { query: "q", role: "", messages: [], state: { x: 1 } },
      trace: null,
    });
    expect(capture).toEqual({
      fixture: {
        description: "captured here",
        catalog: [
          {
            name: "a",
            summary: "reads",
            visibility: "internal",
            cost_usd: 0.5,
            safety_level: "low",
            requires_capability: "net",
            category: "io",
            trigger_keywords: ["read"],
          },
          { name: "b" },
          { name: "c" },
          { name: "e" },
          { name: "f", cost_usd: 0 },
        ],
        offered: ["a", "b", "z"],
        turn: { query: "q" },
        pipeline: [
          {
            kind: "allowlist",
            name: "gate",
            protects_forced: false,
            always_include: ["z"],
            use_catalog: true,
          },
        ],
      },
      notes: [],
      differences: ["no SelectionResult of this turn in the frame, so the replay was not checked"],
    });
  });

  it("no offered list and no turn: nothing offered, no turn", async () => {
    const { fixture } = await captured({ stages: [stage("LazyRoutingStage")], turn: {} });
    expect(fixture).toEqual({
      description: "captured here",
      offered: [],
      pipeline: [{ kind: "lazy", allowed_names: null }],
    });
  });
});

describe("capture: each built-in stage's configuration", () => {
  const one = async (cls: string, settings: Json) =>
    (await captured({ stages: [stage(cls, settings)] })).fixture.pipeline![0];
  const notData = async (cls: string, settings: Json) =>
    refused({ stages: [stage(cls, settings, { name: "it" })] });
  const because = (why: string) =>
    `stage 1 'it' is not data (${why}) and the frame holds no SelectionResult of this turn to play it back from`;

  it("intent: the verdict, keyword map and always-included names", async () => {
    expect(
      await one("IntentRoutingStage", {
        _verdict: data({ label: "action", matched_tool_keywords: ["a"] }),
        _trigger_keywords: data({ a: ["x"] }),
        _always_include: data(["f"]),
      }),
    ).toEqual({
      kind: "intent",
      verdict: { label: "action", matched_tool_keywords: ["a"] },
      trigger_keywords: { a: ["x"] },
      always_include: ["f"],
    });
    expect(
      await one("IntentRoutingStage", {
        _verdict: data({ label: "chat", matched_tool_keywords: null }),
      }),
    ).toEqual({
      kind: "intent",
      verdict: { label: "chat", matched_tool_keywords: [] },
      trigger_keywords: {},
      always_include: [],
    });
    expect(await one("IntentRoutingStage", {})).toMatchObject({ verdict: null });
    expect(await notData("IntentRoutingStage", { _verdict: data({ label: 1 }) })).toBe(
      because("its verdict has no label"),
    );
    expect(await notData("IntentRoutingStage", { _verdict: data("action") })).toBe(
      because("its verdict has no label"),
    );
    expect(await notData("IntentRoutingStage", { _trigger_keywords: data({ a: "x" }) })).toBe(
      because("its trigger keywords are not a map of tool name to keywords"),
    );
    expect(await notData("IntentRoutingStage", { _trigger_keywords: data(["a"]) })).toBe(
      because("its trigger keywords are not a map of tool name to keywords"),
    );
    expect(await notData("IntentRoutingStage", { _always_include: data("f") })).toBe(
      because("its _always_include is not a list of tool names"),
    );
    expect(await notData("IntentRoutingStage", { _verdict: object("function", "route") })).toBe(
      because("its _verdict is a function (route), not data"),
    );
  });

  it("lazy: the allowed names or none", async () => {
    expect(await one("LazyRoutingStage", { _allowed: data(["a"]) })).toEqual({
      kind: "lazy",
      allowed_names: ["a"],
    });
    expect(await notData("LazyRoutingStage", { _allowed: data([1]) })).toBe(
      because("its allowed names are not a list of names"),
    );
  });

  it("allowlist: the catalogue is used only when there is one to write", async () => {
    expect(await one("AllowlistStage", { _catalog: data(null) })).toEqual({
      kind: "allowlist",
      always_include: [],
      use_catalog: false,
    });
    expect(await one("AllowlistStage", {})).toMatchObject({ use_catalog: false });
    expect(await notData("AllowlistStage", { _catalog: object("Catalog") })).toBe(
      because("its catalogue could not be read"),
    );
  });

  it("role: the fixed role and the resolver map", async () => {
    expect(
      await one("RolePaletteStage", {
        _resolver: data({ analyst: ["a"], guest: null }),
        _role: data("analyst"),
      }),
    ).toEqual({ kind: "role", role: "analyst", role_tools: { analyst: ["a"], guest: null } });
    expect(await one("RolePaletteStage", { _role: data("") })).toEqual({ kind: "role" });
    expect(await one("RolePaletteStage", {})).toEqual({ kind: "role" });
    expect(await one("RolePaletteStage", { _role: data(3) })).toEqual({ kind: "role" });
    expect(await notData("RolePaletteStage", { _resolver: data({ analyst: "a" }) })).toBe(
      because("its resolver is not a map of role to tool names"),
    );
    expect(await notData("RolePaletteStage", { _resolver: data({ a: ["x"], b: "y" }) })).toBe(
      because("its resolver is not a map of role to tool names"),
    );
    expect(await notData("RolePaletteStage", { _resolver: data(["a"]) })).toBe(
      because("its resolver is not a map of role to tool names"),
    );
    expect(await notData("RolePaletteStage", { _resolver: object("lambda") })).toBe(
      because("its _resolver is a lambda, not data"),
    );
  });

  it("forced: the state key; a resolver or a rule of its own is not data", async () => {
    expect(await one("ForcedChoiceStage", { _state_key: data("pin") })).toEqual({
      kind: "forced",
      state_key: "pin",
      resolver: null,
    });
    expect(
      await one("ForcedChoiceStage", {
        _state_key: data(7),
        _is_tool_message: object("function", "_default_is_tool_message"),
      }),
    ).toEqual({ kind: "forced", state_key: "forced_tool_choice", resolver: null });
    expect(await one("ForcedChoiceStage", {})).toMatchObject({ state_key: "forced_tool_choice" });
    expect(await notData("ForcedChoiceStage", { _resolver: data({ a: 1 }) })).toBe(
      because("its resolver is data the fixture cannot express"),
    );
    expect(
      await notData("ForcedChoiceStage", { _is_tool_message: object("function", "mine") }),
    ).toBe(because("it has its own rule for what a tool message is"));
  });

  it("policy: each limit, and the safety ceiling only on the default scale", async () => {
    expect(
      await one("PolicyStage", {
        _max_safety_rank: data(2),
        _budget_usd: data(0.5),
        _include_unknown_cost: data(false),
        _available_capabilities: data(["net"]),
        _agent_visible_only: data(true),
        _categories: data(["io"]),
      }),
    ).toEqual({
      kind: "policy",
      max_safety_level: "medium",
      budget_usd: 0.5,
      include_unknown_cost: false,
      available_capabilities: ["net"],
      agent_visible_only: true,
      categories: ["io"],
    });
    expect(
      await one("PolicyStage", {
        _max_safety_rank: data(0),
        _budget_usd: data("x"),
        _include_unknown_cost: data(0),
        _available_capabilities: data([1]),
        _agent_visible_only: data(1),
        _categories: data("io"),
      }),
    ).toEqual({
      kind: "policy",
      max_safety_level: "none",
      budget_usd: null,
      include_unknown_cost: true,
      available_capabilities: null,
      agent_visible_only: false,
      categories: null,
    });
    expect(await one("PolicyStage", {})).toMatchObject({
      max_safety_level: null,
      budget_usd: null,
    });
    for (const rank of [1.5, 99, -1, "2"])
      expect(await notData("PolicyStage", { _max_safety_rank: data(rank) })).toBe(
        because("its safety ceiling is not on the default scale"),
      );
  });

  it("an adopter's class is named by class when the stage has no name", async () => {
    expect(await refused({ stages: [stage("LazyRoutingStage"), stage("Mine")] })).toBe(
      "stage 2 'Mine' is not data (it is an adopter's own stage class (Mine)) and the frame holds no SelectionResult of this turn to play it back from",
    );
  });
});

describe("capture: checking the replay against the trace", () => {
  const lazy = (allowed: string[] | null, extra: Json = {}) =>
    stage("LazyRoutingStage", { _allowed: data(allowed) }, extra);

  it("a replay that matches: no differences, the trace's expectation, its offered tools when none were found", async () => {
    const capture = await captured({
      stages: [lazy(["a"])],
      trace: {
        trace: [
          record("lazy", "select", { kept: ["a"], dropped: ["b"], detail: "routed to 1 name" }),
        ],
        offered: ["a", "b"],
        tools: ["a"],
      },
    });
    expect(capture.differences).toEqual([]);
    expect(capture.notes).toEqual([]);
    expect(capture.fixture.offered).toEqual(["a", "b"]);
    expect(capture.fixture.expect).toEqual({ names: ["a"], forced_choice: null });
  });

  it("the same decisions with another detail: named, stage by stage", async () => {
    const capture = await captured({
      stages: [lazy(["a"]), lazy(null, { name: "second" })],
      offered: ["a", "b"],
      trace: {
        trace: [
          record("lazy", "select", { kept: ["a"], dropped: ["b"], detail: "by hand" }),
          record("second", "abstain", { kept: ["a"], detail: "no procedural routing" }),
        ],
      },
    });
    expect(capture.differences).toEqual([
      "stage 1 'lazy' decides the same but its detail reads 'routed to 1 name', the program's 'by hand'",
    ]);
  });

  it("a configured stage that decides otherwise is replaced by its playback, and the note says how it differed", async () => {
    const differs = async (recorded: Json, offered = ["a", "b"]) =>
      (await captured({ stages: [lazy(["a"])], offered, trace: { trace: [recorded] } })).notes;
    const note = (why: string, recorded = "lazy") =>
      `stage 1 '${recorded}' (lazy) is played back as recorded: replaying its configuration, ${why}`;
    expect(await differs(record("lazy", "abstain", { kept: ["a", "b"] }))).toEqual([
      note("the replay selects where the program's stage did abstain"),
    ]);
    expect(
      await differs(record("lazy", "select", { kept: ["b", "c"], dropped: ["a"] }), [
        "a",
        "b",
        "c",
      ]),
    ).toEqual([note("the replay kept [a], the program [b, c]")]);
    const wider = await captured({
      stages: [lazy(["a", "c"])],
      offered: ["a", "b", "c"],
      trace: { trace: [record("lazy", "select", { kept: ["a"], dropped: ["b", "c"] })] },
    });
    expect(wider.notes).toEqual([note("the replay kept [a, c], the program [a]")]);
    expect(await differs(record("lazy", "select", { kept: ["a"], dropped: ["b", "c"] }))).toEqual([
      note("the replay dropped [b], the program [b, c]"),
    ]);
    expect(await differs(record("lazy", "select", { kept: ["a"], dropped: [] }), ["a"])).toEqual(
      [],
    );
    expect(await differs(record("lazy", "select", { kept: ["a"], dropped: [] }))).toEqual([
      note("the replay dropped [b], the program []"),
    ]);
    expect(
      await differs(record("lazy", "select", { kept: ["a"], dropped: ["b"], added: ["c"] })),
    ).toEqual([note("the replay added [], the program [c]")]);
    expect(
      await differs(record("lazy", "select", { kept: ["a"], dropped: ["b"], reinstated: ["a"] })),
    ).toEqual([note("the replay reinstated [], the program [a]")]);
    expect(
      await differs(record("lazy", "select", { kept: ["a"], dropped: ["b"], forced_choice: "a" })),
    ).toEqual([note("the replay's forced choice is none, the program's 'a'")]);
    expect(await differs(record("other", "select", { kept: ["a"], dropped: ["b"] }))).toEqual([
      note("the replay names the stage 'lazy'", "other"),
    ]);
  });

  it("only the action differs: the replay plays it back and then matches", async () => {
    const capture = await captured({
      stages: [lazy(["a", "b"])],
      offered: ["a", "b"],
      trace: { trace: [record("lazy", "abstain", { kept: ["a", "b"] })] },
    });
    expect(capture.notes).toEqual([
      "stage 1 'lazy' (lazy) is played back as recorded: replaying its configuration, the replay selects where the program's stage did abstain",
    ]);
    expect(capture.differences).toEqual([]);
    expect(capture.fixture.pipeline).toEqual([
      { kind: "scripted", name: "lazy", outcome: { abstain: true } },
    ]);
  });

  it("a later stage played back leaves the earlier ones configured", async () => {
    const capture = await captured({
      stages: [lazy(["a", "b"]), lazy(["a"], { name: "second" })],
      offered: ["a", "b", "c"],
      trace: {
        trace: [
          record("lazy", "select", {
            kept: ["a", "b"],
            dropped: ["c"],
            detail: "routed to 2 names",
          }),
          record("second", "select", { kept: ["b"], dropped: ["a"] }),
        ],
      },
    });
    expect(capture.fixture.pipeline).toEqual([
      { kind: "lazy", allowed_names: ["a", "b"] },
      { kind: "scripted", name: "second", outcome: { select: ["b"] } },
    ]);
    expect(capture.notes).toHaveLength(1);
    expect(capture.differences).toEqual([]);
  });

  it("a played-back stage that still differs is reported, not replaced again", async () => {
    const capture = await captured({
      stages: [stage("Mine", {}, { name: "mine" })],
      offered: ["a", "b"],
      trace: {
        trace: [record("mine", "select", { kept: ["a"], dropped: ["b"], reinstated: ["a"] })],
      },
    });
    expect(capture.notes).toEqual([
      "stage 1 'mine' is played back as it answered on this turn: it is an adopter's own stage class (Mine)",
    ]);
    expect(capture.differences).toHaveLength(1);
    expect(capture.differences[0]).toMatch(/^stage 1 'mine': the replay /);
  });

  it("a fixture the loader refuses is reported as such", async () => {
    const capture = await captured({
      stages: [stage("RolePaletteStage", { _resolver: data({ r: ["a"] }), _role: data("r") })],
      offered: [1, true],
      trace: { trace: [record("role", "select", { kept: ["a"] })] },
    });
    expect(capture.differences).toHaveLength(1);
    expect(capture.differences[0]).toMatch(/^the captured fixture is not valid: [^;]+; [^;]+$/);
  });
});

describe("capture: the turn", () => {
  const forced = (key: string | null) =>
    stage("ForcedChoiceStage", key === null ? {} : { _state_key: data(key) });

  it("keeps of the state only what a forced stage reads, and the messages it reads there when the turn has none", async () => {
    const turn = { state: { pin: "a", forced_tool_choice: "b", messages: ["m"], other: 1 } };
    expect((await captured({ stages: [forced("pin")], turn })).fixture.turn).toEqual({
      state: { pin: "a", messages: ["m"] },
    });
    expect((await captured({ stages: [forced(null)], turn })).fixture.turn).toEqual({
      state: { forced_tool_choice: "b", messages: ["m"] },
    });
    expect(
      (await captured({ stages: [forced(null)], turn: { ...turn, messages: [{ role: "user" }] } }))
        .fixture.turn,
    ).toEqual({ messages: [{ role: "user" }], state: { forced_tool_choice: "b" } });
    expect(
      (await captured({ stages: [stage("LazyRoutingStage")], turn: { ...turn, role: "r" } }))
        .fixture.turn,
    ).toEqual({ role: "r" });
    expect((await captured({ stages: [forced("x")], turn })).fixture.turn).toEqual({
      state: { messages: ["m"] },
    });
    expect((await captured({ stages: [forced("x")], turn: { state: {} } })).fixture.turn).toBe(
      undefined,
    );
    expect((await captured({ stages: [forced("x")], turn: { state: null } })).fixture.turn).toBe(
      undefined,
    );
    const afterLazy = await captured({ stages: [stage("LazyRoutingStage"), forced(null)], turn });
    expect(afterLazy.fixture.turn).toEqual({ state: { forced_tool_choice: "b", messages: ["m"] } });
  });
});
