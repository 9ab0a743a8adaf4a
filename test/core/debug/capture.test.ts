import { describe, expect, it } from "vitest";
import { captureFixture } from "../../../src/core/debug/capture.js";
import { captureExpression } from "../../../src/core/debug/probe.js";
import { probeOutput } from "../../../src/core/debug/reply.js";
import { loadFixture } from "../../../src/core/fixture/load.js";
import { runFixture } from "../../../src/core/run-fixture.js";
import type { FixtureJson } from "../../../src/core/fixture/schema.js";
import { AGENT_PRELUDE, evaluateIn } from "./python.js";

const PIPELINE = `
    pipeline = ToolSelectionPipeline([
        IntentRoutingStage(verdict=Verdict("action", ["get_weather"]), trigger_keywords={"get_weather": ["weather"], "sql": ["table"], "delete_rows": ["delete"]}, always_include=["final_answer"]),
        ForcedChoiceStage(resolver=weather_first),
        RolePaletteStage(resolver={"analyst": ["search", "get_weather", "sql"]}),
        PolicyStage(catalog=CATALOG, max_safety_level="medium", budget_usd=0.05),
        AllowlistStage(always_include=["final_answer"], catalog=CATALOG),
    ])`;

async function capture(
  setup: string,
  pipeline: string | null = null,
  selection: string | null = null,
) {
  const reply = evaluateIn(setup, captureExpression(pipeline, selection), AGENT_PRELUDE);
  expect(reply.side_effects).toEqual([]);
  expect(reply.globals_changed).toBe(false);
  const out = probeOutput(reply);
  if (!out.ok) throw new Error(JSON.stringify(out.problem));
  return captureFixture(out.value, "captured");
}

async function run(fixture: FixtureJson) {
  const loaded = await loadFixture({ file: "c.turn.json", text: JSON.stringify(fixture) }, () =>
    Promise.reject(new Error("no file")),
  );
  if (!loaded.ok) throw new Error(loaded.problems.map((p) => p.message).join("; "));
  return runFixture(loaded.fixture);
}

describe("Capture Turn Fixture", () => {
  it("writes the built-in stages' configuration; a resolver function is played back, and the replay is identical", async () => {
    const read = await capture(`${PIPELINE}
    tools = [Tool("search"), "get_weather", {"name": "sql"}, Tool("delete_rows"), Tool("final_answer")]
    context = SelectionContext(state={"tenant": "acme", "secret": object()}, role="analyst", query="what's the weather?")
    result = pipeline.run(tools, context)
    return locals()`);
    if (!read.ok) throw new Error(JSON.stringify(read));
    const { fixture, notes, differences } = read.capture;
    expect(differences).toEqual([]);
    expect(fixture.pipeline?.map((stage) => stage.kind)).toEqual([
      "intent",
      "scripted",
      "role",
      "policy",
      "allowlist",
    ]);
    expect(fixture.pipeline?.[0]).toMatchObject({
      verdict: { label: "action", matched_tool_keywords: ["get_weather"] },
      always_include: ["final_answer"],
    });
    expect(fixture.pipeline?.[2]).toMatchObject({
      role_tools: { analyst: ["search", "get_weather", "sql"] },
    });
    expect(fixture.pipeline?.[3]).toMatchObject({ max_safety_level: "medium", budget_usd: 0.05 });
    expect(fixture.pipeline?.[1]).toMatchObject({
      name: "forced",
      outcome: { force: "get_weather" },
    });
    expect(notes).toEqual([
      "stage 2 'forced' is played back as it answered on this turn: its _resolver is a function (weather_first), not data",
    ]);
    expect(fixture.offered).toEqual([
      "search",
      "get_weather",
      "sql",
      "delete_rows",
      "final_answer",
    ]);
    // Only the state keys a stage reads: no stamp here, and the unreadable object is not copied.
    expect(fixture.turn).toEqual({ query: "what's the weather?", role: "analyst" });
    const report = await run(fixture);
    expect(report.names).toEqual(["search", "get_weather", "final_answer"]);
    expect(report.forcedChoice).toBe("get_weather");
    expect(fixture.expect).toEqual({
      names: ["search", "get_weather", "final_answer"],
      forced_choice: "get_weather",
    });
  });

  it("reads no local's properties or __getattr__ while looking for the pipeline, the turn and the result", async () => {
    // \`capture\` fails the test if any of these ran (SIDE_EFFECTS).
    const read = await capture(`
    class Spy:
        def __getattr__(self, name):
            SIDE_EFFECTS.append("__getattr__ " + name)
            return ()
    for key in ("state", "messages", "role", "query", "stages", "trace", "tools", "run", "name"):
        setattr(Spy, key, property(lambda self, key=key: SIDE_EFFECTS.append("property " + key)))
    spy = Spy()
    pipeline = ToolSelectionPipeline([LazyRoutingStage(allowed_names=["a"])])
    context = SelectionContext(query="q")
    result = pipeline.run(["a", "b"], context)
    return locals()`);
    if (!read.ok) throw new Error(JSON.stringify(read));
    expect(read.capture.fixture.turn).toEqual({ query: "q" });
    expect(read.capture.differences).toEqual([]);
  });

  it("a catalogue's Enum safety level is read from the member, not through its value property", async () => {
    const read = await capture(`
    import enum
    class Level(enum.Enum):
        LOW = "low"
        HIGH = "high"
    catalog = ToolCatalog([ToolEntry("a", safety_level=Level.LOW), ToolEntry("b", safety_level=Level.HIGH)])
    pipeline = ToolSelectionPipeline([PolicyStage(catalog=catalog, max_safety_level="medium")])
    result = pipeline.run(["a", "b"], SelectionContext())
    return locals()`);
    if (!read.ok) throw new Error(JSON.stringify(read));
    expect(read.capture.differences).toEqual([]);
    expect(read.capture.fixture.catalog).toEqual([
      expect.objectContaining({ name: "a", safety_level: "low" }),
      expect.objectContaining({ name: "b", safety_level: "high" }),
    ]);
  });

  it("an attribute holding an object whose class defines __get__ is read as stored, not called", async () => {
    const read = await capture(`
    class Resolver:
        def __get__(self, obj, kind):
            SIDE_EFFECTS.append("__get__")
            return self
        def __call__(self, context):
            return "b"
    pipeline = ToolSelectionPipeline([ForcedChoiceStage(resolver=Resolver())])
    result = pipeline.run(["a", "b"], SelectionContext())
    return locals()`);
    if (!read.ok) throw new Error(JSON.stringify(read));
    expect(read.capture.notes).toEqual([
      "stage 1 'forced' is played back as it answered on this turn: its _resolver is a Resolver (paused.<locals>.Resolver), not data",
    ]);
  });

  it("a state stamp and a spent force are captured as data", async () => {
    const read = await capture(`
    pipeline = ToolSelectionPipeline([ForcedChoiceStage(state_key="pin"), LazyRoutingStage(allowed_names=["a", "b"])])
    context = SelectionContext(state={"pin": "b", "other": 1}, messages=({"type": "tool", "name": "b", "content": "ok"},))
    result = pipeline.run(["a", "b", "c"], context)
    return locals()`);
    if (!read.ok) throw new Error(JSON.stringify(read));
    expect(read.capture.differences).toEqual([]);
    expect(read.capture.notes).toEqual([]);
    expect(read.capture.fixture.turn).toEqual({
      state: { pin: "b" },
      messages: [{ type: "tool", name: "b", content: "ok" }],
    });
    expect(read.capture.fixture.pipeline?.[0]).toMatchObject({
      kind: "forced",
      state_key: "pin",
      resolver: null,
    });
  });

  it("a stamp under the default state key is captured, and no other state", async () => {
    const read = await capture(`
    pipeline = ToolSelectionPipeline([ForcedChoiceStage(), LazyRoutingStage(allowed_names=["a", "b"])])
    context = SelectionContext(state={"forced_tool_choice": "b", "other": 1})
    result = pipeline.run(["a", "b", "c"], context)
    return locals()`);
    if (!read.ok) throw new Error(JSON.stringify(read));
    expect(read.capture.differences).toEqual([]);
    expect(read.capture.fixture.turn).toEqual({ state: { forced_tool_choice: "b" } });
    expect(read.capture.fixture.pipeline?.[0]).toMatchObject({
      kind: "forced",
      state_key: "forced_tool_choice",
    });
  });

  it("an adopter's own stage class is played back and named", async () => {
    const read = await capture(`
    class Mine:
        name = "mine"
        def apply(self, tools, context):
            from symfonic.capabilities.tools.values import StageOutcome
            return StageOutcome(tools=tuple(tools[:1]), detail="first only")
    pipeline = ToolSelectionPipeline([Mine(), LazyRoutingStage()])
    result = pipeline.run(["a", "b"], SelectionContext())
    return locals()`);
    if (!read.ok) throw new Error(JSON.stringify(read));
    expect(read.capture.notes).toEqual([
      "stage 1 'mine' is played back as it answered on this turn: it is an adopter's own stage class (Mine)",
    ]);
    expect(read.capture.fixture.pipeline?.[0]).toMatchObject({
      kind: "scripted",
      outcome: { select: ["a"] },
    });
    expect(read.capture.differences).toEqual([]);
  });

  it("a configured stage whose replay decides otherwise is played back, and the capture says why", async () => {
    // Mutated after construction: the configuration no longer explains what the stage did.
    const read = await capture(`
    pipeline = ToolSelectionPipeline([LazyRoutingStage(allowed_names=["a"])])
    result = pipeline.run(["a", "b"], SelectionContext())
    pipeline.stages[0]._allowed = ("b",)
    return locals()`);
    if (!read.ok) throw new Error(JSON.stringify(read));
    expect(read.capture.notes).toEqual([
      "stage 1 'lazy' (lazy) is played back as recorded: replaying its configuration, the replay kept [b], the program [a]",
    ]);
    expect(read.capture.differences).toEqual([]);
  });

  it("no pipeline, or several, in the frame: their names, to pick one", async () => {
    const none = await capture(`
    x = 1
    return locals()`);
    expect(none).toEqual({ ok: false, pipelines: [] });
    const two = await capture(`
    first = ToolSelectionPipeline([])
    second = ToolSelectionPipeline([])
    return locals()`);
    expect(two).toEqual({ ok: false, pipelines: ["first", "second"] });
    const picked = await capture(
      `
    first = ToolSelectionPipeline([LazyRoutingStage(allowed_names=["a"])])
    second = ToolSelectionPipeline([])
    result = first.run(["a", "b"], SelectionContext())
    return locals()`,
      "first",
    );
    expect(picked.ok).toBe(true);
  });

  it("a non-data stage with no result in the frame cannot be captured", async () => {
    const read = await capture(`${PIPELINE}
    return locals()`);
    expect(read).toEqual({
      ok: false,
      problem:
        "stage 2 'forced' is not data (its _resolver is a function (weather_first), not data) and the frame holds no SelectionResult of this turn to play it back from",
    });
  });
});
