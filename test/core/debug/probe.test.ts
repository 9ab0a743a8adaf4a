import { describe, expect, it } from "vitest";
import {
  captureExpression,
  inspectExpression,
  MAX_PROBE_VALUES,
  PROBE_SOURCE,
  type ProbeLimits,
} from "../../../src/core/debug/probe.js";
import { readInspectReply, type DebugProblem } from "../../../src/core/debug/reply.js";
import type { LoggedTrace } from "../../../src/core/traces/trace.js";
import { AGENT_PRELUDE, evaluateIn } from "./python.js";

const TURN = `
    tools = [Tool("search"), {"name": "get_weather", "parameters": {"big": "y" * 100}}, "sql", Tool("delete_rows"), Tool("final_answer")]
    pipeline = ToolSelectionPipeline([
        IntentRoutingStage(verdict=Verdict("action", ["get_weather"]), trigger_keywords={"get_weather": ["weather"], "sql": ["table"], "delete_rows": ["delete"]}, always_include=["final_answer"]),
        ForcedChoiceStage(resolver=weather_first),
        RolePaletteStage(resolver={"analyst": ["search", "get_weather", "sql"]}),
        PolicyStage(catalog=CATALOG, max_safety_level="medium", budget_usd=0.05),
        AllowlistStage(always_include=["final_answer"], catalog=CATALOG),
    ])
    context = SelectionContext(state={"tenant": "acme"}, role="analyst", query="what's the weather in Lyon?")
    result = pipeline.run(tools, context)
    return locals()`;

function inspect(setup: string, expression: string): LoggedTrace {
  const reply = evaluateIn(setup, inspectExpression(expression), AGENT_PRELUDE);
  expect(reply.side_effects).toEqual([]);
  const read = readInspectReply(reply);
  if (!read.ok) throw new Error(JSON.stringify(read.problem));
  return read.value;
}

function problem(
  setup: string,
  expression: string,
  limits: Partial<ProbeLimits> = {},
): DebugProblem {
  const reply = evaluateIn(setup, inspectExpression(expression, limits), AGENT_PRELUDE);
  const read = readInspectReply(reply);
  if (read.ok) throw new Error("expected a problem");
  return read.problem;
}

const STAGES = ["intent", "forced", "role", "policy", "allowlist"];

describe("the probe expression", () => {
  it("is one line whose embedded source is ASCII, so its JSON literal is a Python literal", () => {
    expect(inspectExpression("result")).not.toMatch(/[\r\n]/);
    expect(/^[\x20-\x7e\n]*$/.test(PROBE_SOURCE)).toBe(true);
    expect(captureExpression(null, "result")).toContain("locals(), ((result),), ()");
  });

  it("refuses an empty or multi-line expression", () => {
    expect(() => inspectExpression("  ")).toThrow(/one non-empty line/);
    expect(() => inspectExpression("a\nimport os")).toThrow(/one non-empty line/);
    expect(() => captureExpression("p\rq", null)).toThrow(/one non-empty line/);
  });

  it("binds nothing in the paused frame or its module and runs no tool's code", () => {
    const reply = evaluateIn(TURN, inspectExpression("result"), AGENT_PRELUDE);
    expect(reply.type).toBe("str");
    expect(reply.globals_changed).toBe(false);
    expect(reply.locals).toEqual(["context", "pipeline", "result", "tools"]);
    expect(reply.side_effects).toEqual([]);
  });
});

describe("reading a paused program's value", () => {
  it("a SelectionResult: every record, tools by name only, the forced choice", () => {
    const trace = inspect(TURN, "result");
    expect(trace.records.map((r) => r.stage)).toEqual(STAGES);
    expect(trace.records.map((r) => r.action)).toEqual([
      "select",
      "force",
      "select",
      "select",
      "select",
    ]);
    expect(trace.records[0]).toMatchObject({
      kept: ["search", "get_weather", "final_answer"],
      dropped: ["sql", "delete_rows"],
      detail: "action turn: keyword intersection",
    });
    expect(trace.tools).toEqual(["search", "get_weather", "final_answer"]);
    expect(trace.forcedChoice).toBe("get_weather");
    expect(trace.error).toBeNull();
  });

  it("a tuple of StageRecords, and a single StageRecord", () => {
    expect(inspect(TURN, "result.trace").records.map((r) => r.stage)).toEqual(STAGES);
    const one = inspect(TURN, "result.trace[2]");
    expect(one.records).toHaveLength(1);
    expect(one.records[0]).toMatchObject({ stage: "role", dropped: ["final_answer"] });
  });

  it("a ForcedToolUnavailable carrying the result: the trace and the error", () => {
    const setup = `
    pipeline = ToolSelectionPipeline([ForcedChoiceStage(), LazyRoutingStage(allowed_names=["search"])])
    pipeline.stages[1].protects_forced = False
    try:
        pipeline.run(["search", "sql"], SelectionContext(state={"forced_tool_choice": "sql"}))
    except ForcedToolUnavailable as caught:
        error = caught
    return locals()`;
    const trace = inspect(setup, "error");
    expect(trace.records.map((r) => r.stage)).toEqual(["forced", "lazy"]);
    expect(trace.error).toEqual({
      kind: "ForcedToolUnavailable",
      message: "forced tool 'sql' is not in the final palette",
      tool: "sql",
    });
  });

  it("an exception that carries the records in its args", () => {
    const trace = inspect(
      `${TURN.replace("return locals()", "")}
    error = RuntimeError("stopped", result.trace)
    return locals()`,
      "error",
    );
    expect(trace.records).toHaveLength(5);
    expect(trace.error?.kind).toBe("RuntimeError");
  });

  it("a dict in the log format, nested in an event, and a JSON string", () => {
    const setup = `
    event = {"event": "selection", "selection": {"trace": [{"stage": "a", "action": "abstain", "kept": ["x"]}], "tools": ["x"]}}
    text = '{"trace": [{"stage": "b", "action": "select", "kept": [], "dropped": ["x"]}]}'
    return locals()`;
    expect(inspect(setup, "event").records[0]).toMatchObject({ stage: "a", kept: ["x"] });
    expect(inspect(setup, "text").records[0]).toMatchObject({ stage: "b", dropped: ["x"] });
  });

  it("hostile names arrive exactly as written", () => {
    const hostile = [
      `"); __import__('os').system('x') #`,
      "a\nb\\c'''\"\"\"",
      "[link](command:workbench.action.quit)",
      "\u202e\u2028<img src=x onerror=alert(1)>",
      "\ud800 lone",
    ];
    const setup = `
    names = ${JSON.stringify(hostile)}
    result = SelectionResult(tools=tuple(names), trace=(StageRecord(names[0], "select", kept=tuple(names), detail=names[1]),))
    return locals()`;
    const trace = inspect(setup, "result");
    const expected = hostile;
    expect(trace.tools).toEqual(expected);
    expect(trace.records[0]!.stage).toBe(expected[0]);
    expect(trace.records[0]!.detail).toBe(expected[1]);
  });

  it("10,000 tools arrive whole", () => {
    const setup = `
    tools = [Tool("tool_%05d" % i) for i in range(10000)]
    result = ToolSelectionPipeline([IntentRoutingStage(verdict=Verdict("action"))]).run(tools, SelectionContext())
    return locals()`;
    const trace = inspect(setup, "result");
    expect(trace.tools).toHaveLength(10_000);
    expect(trace.records[0]!.kept).toHaveLength(10_000);
    expect(trace.tools?.[9_999]).toBe("tool_09999");
  });
});

describe("what the probe refuses", () => {
  it("a name that does not exist: Python's NameError, as the reply's type", () => {
    expect(problem(TURN, "reslt")).toEqual({
      kind: "evaluation",
      pythonType: "NameError",
      message: "name 'reslt' is not defined",
    });
  });

  it("a value of another shape says what it is", () => {
    expect(problem(TURN, "42")).toEqual({ kind: "shape", found: "a value of type int" });
    expect(problem(TURN, "[1, 2]")).toEqual({
      kind: "shape",
      found: "a list of 2 items that are not all StageRecords",
    });
    expect(problem(TURN, "ValueError('no')")).toMatchObject({ kind: "shape" });
  });

  it("a record with a wrong field names it", () => {
    expect(problem(TURN, "StageRecord('s', 'select', kept=(1,))")).toEqual({
      kind: "invalid",
      message:
        "trace record 0 (stage 's'): 'kept' must be a list of tool names, found a number at position 0",
    });
    expect(problem(TURN, "StageRecord('s', 'dance')")).toMatchObject({ kind: "invalid" });
  });

  it("a string or dict without a trace", () => {
    expect(problem(TURN, "'hello'")).toEqual({ kind: "noTrace" });
    expect(problem(TURN, "{'a': 1}")).toEqual({ kind: "noTrace" });
  });

  it("a value larger than the limit is refused in the debuggee", () => {
    expect(problem(TURN, "result", { chars: 100 })).toMatchObject({ kind: "tooLarge" });
  });

  it("a quoted (repr) answer or foreign JSON is not taken for the probe's", () => {
    expect(readInspectReply({ result: "'{\"a\": 1}'", type: "str" })).toMatchObject({
      ok: false,
      problem: { kind: "unreadable" },
    });
    expect(readInspectReply({ result: '{"trace": []}', type: "str" })).toMatchObject({
      ok: false,
      problem: { kind: "unreadable" },
    });
  });
});

// Debuggee classes that run code wherever a careless reader would call them; each logs it.
const HOSTILE = `${AGENT_PRELUDE}
class FakeDict:
    @property
    def __class__(self):
        SIDE_EFFECTS.append("__class__")
        return dict

class LyingSet(set):
    def __iter__(self):
        SIDE_EFFECTS.append("set __iter__")
        return iter(["fake_a", "fake_b"])

ARMED = []

class Collides:
    def __hash__(self):
        return hash("name")
    def __eq__(self, other):
        if ARMED:
            SIDE_EFFECTS.append("__eq__")
        return False

class Named(type):
    @property
    def __name__(cls):
        SIDE_EFFECTS.append("__name__")
        return "SelectionResult"

class Odd(metaclass=Named):
    pass

class Carrier(Exception):
    @property
    def result(self):
        SIDE_EFFECTS.append("property result")
        return None
    def __getattr__(self, name):
        SIDE_EFFECTS.append("__getattr__ " + name)
        return ()
`;

function hostile(setup: string, expression: string, limits: Partial<ProbeLimits> = {}) {
  const started = performance.now();
  const reply = evaluateIn(
    `${setup}\n    return locals()`,
    inspectExpression(expression, limits),
    HOSTILE,
  );
  return { reply, read: readInspectReply(reply), ms: performance.now() - started };
}

describe("a hostile debuggee", () => {
  it("a __class__ property or a metaclass __name__ is not consulted: the real type is named", () => {
    for (const [setup, type] of [
      ["    fake = FakeDict()", "FakeDict"],
      ["    fake = Odd()", "Odd"],
    ] as const) {
      const { reply, read } = hostile(setup, "fake");
      expect(reply.side_effects).toEqual([]);
      expect(read).toEqual({
        ok: false,
        problem: { kind: "shape", found: `a value of type ${type}` },
      });
    }
  });

  it("a set subclass's __iter__ does not run: its real members are read", () => {
    const { reply, read } = hostile(
      `    result = SelectionResult(tools=LyingSet({"sql"}), trace=(StageRecord("s", "select", kept=LyingSet({"sql", "search"})),))`,
      "result",
    );
    expect(reply.side_effects).toEqual([]);
    expect(read.ok && read.value.tools).toEqual(["sql"]);
    expect(read.ok && read.value.records[0]!.kept).toEqual(["search", "sql"]);
  });

  it("a mapping's key whose hash collides is never compared", () => {
    const { reply, read } = hostile(
      `    result = SelectionResult(tools=({Collides(): 1, "name": "sql"},), trace=(StageRecord("s", "select", kept=("sql",)),))
    ARMED.append(True)`,
      "result",
    );
    expect(reply.side_effects).toEqual([]);
    expect(read.ok && read.value.tools).toEqual(["sql"]);
  });

  it("a property or __getattr__ of an exception is not called while looking for what it carries", () => {
    const { reply, read } = hostile("    boom = Carrier('no')", "boom");
    expect(reply.side_effects).toEqual([]);
    expect(read).toMatchObject({ ok: false, problem: { kind: "shape" } });
  });

  it("a list holding itself twice is cut at the cycle", () => {
    const { reply, read, ms } = hostile(
      `    loop = []
    loop.append(loop)
    loop.append(loop)
    event = {"trace": [{"stage": "s", "action": "select", "kept": loop}]}`,
      "event",
    );
    const cut = { python_type: "list", cycle: true };
    expect((JSON.parse(reply.result) as { value: unknown }).value).toEqual({
      trace: [{ stage: "s", action: "select", kept: [cut, cut] }],
    });
    expect(read).toMatchObject({ ok: false, problem: { kind: "invalid" } });
    expect(ms).toBeLessThan(5_000);
  });

  it("a 60-level DAG whose every level holds the next twice stops at the value budget, fast", () => {
    const dag = `    node = ["leaf"]
    for _ in range(60):
        node = [node, node]
    event = {"trace": node}
    big = {"trace": [0] * 5000000}`;
    const { read, ms } = hostile(dag, "event");
    expect(read).toEqual({
      ok: false,
      problem: { kind: "tooManyValues", values: MAX_PROBE_VALUES },
    });
    expect(ms).toBeLessThan(10_000);
    expect(hostile(dag, "event", { values: 1_000 }).read).toEqual({
      ok: false,
      problem: { kind: "tooManyValues", values: 1_000 },
    });
    // A long list is refused before it is copied.
    const long = hostile(dag, "big");
    expect(long.read).toMatchObject({ ok: false, problem: { kind: "tooManyValues" } });
  });

  it("stops at its deadline, so the paused thread is released before the host gives up", () => {
    const { read, ms } = hostile(
      `    node = ["leaf"]
    for _ in range(60):
        node = [node, node]
    event = {"trace": node}`,
      "event",
      { seconds: 0.05 },
    );
    expect(read).toEqual({ ok: false, problem: { kind: "timedOut", seconds: 0.05 } });
    expect(ms).toBeLessThan(5_000);
  });
});
