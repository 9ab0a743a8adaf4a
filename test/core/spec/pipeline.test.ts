import { describe, expect, it } from "vitest";
import { ContractViolationError, ForcedToolUnavailable } from "../../../src/core/errors.js";
import { runSelection, ToolSelectionPipeline } from "../../../src/core/pipeline.js";
import type { Tool } from "../../../src/core/tools.js";
import {
  selectionContext,
  StageOutcome,
  type SelectionContext,
} from "../../../src/core/contract.js";
import { AllowlistStage } from "../../../src/core/stages/allowlist.js";
import { LazyRoutingStage } from "../../../src/core/stages/lazy.js";
import { PolicyStage } from "../../../src/core/stages/policy.js";
import { catalogOf, pipelineOf, raising, stub } from "./helpers.js";

const keep =
  (...names: string[]) =>
  (tools: readonly Tool[]) =>
    StageOutcome.select(
      tools.filter((t) => typeof t !== "string" || names.includes(t)),
      "kept some",
    );
const force = (choice: string | null) => () =>
  StageOutcome.force(choice, `force ${String(choice)}`);

function failure(run: () => unknown): ForcedToolUnavailable {
  try {
    run();
  } catch (error) {
    if (error instanceof ForcedToolUnavailable) return error;
    throw error;
  }
  throw new Error("the run did not fail");
}

describe("§3 the pipeline: order and records", () => {
  it("§3 stages run in list order, each over the previous stage's output", () => {
    const seen: string[][] = [];
    const spy = (name: string, ...kept: string[]) =>
      stub(name, (tools) => {
        seen.push(tools.map(String));
        return keep(...kept)(tools);
      });
    const result = runSelection(pipelineOf(spy("one", "a", "b"), spy("two", "b")), ["a", "b", "c"]);
    expect(seen).toEqual([
      ["a", "b", "c"],
      ["a", "b"],
    ]);
    expect(result.trace.map((r) => r.stage)).toEqual(["one", "two"]);
    expect(result.names).toEqual(["b"]);
  });

  it("§3 no stages: the offered tools pass through, no force, empty trace", () => {
    const tools = ["a", { x: 1 }];
    const result = runSelection(pipelineOf(), tools);
    expect(result).toEqual({ tools, names: ["a"], forcedChoice: null, trace: [] });
  });

  it("§4 stage names within one pipeline are unique", () => {
    expect(() =>
      pipelineOf(
        stub("s", () => StageOutcome.abstain()),
        stub("s", () => StageOutcome.abstain()),
      ),
    ).toThrow(/duplicate stage name/);
  });

  it("§3 abstain records action abstain, kept = input names, and leaves the set (by identity) alone", () => {
    const tools: Tool[] = ["a", { name: "b" }, { anonymous: true }];
    const result = runSelection(
      pipelineOf(stub("s", () => StageOutcome.abstain("nothing to say", true))),
      tools,
    );
    expect(result.tools).toEqual(tools);
    expect(result.tools[1]).toBe(tools[1]);
    expect(result.trace[0]).toEqual({
      stage: "s",
      action: "abstain",
      kept: ["a", "b"],
      dropped: [],
      added: [],
      reinstated: [],
      forcedChoice: null,
      detail: "nothing to say",
      degraded: true,
      reasons: {},
    });
  });

  it("§1/§3 abstain ≠ empty select: an empty select drops everything named, an abstain drops nothing", () => {
    const empty = runSelection(
      pipelineOf(stub("s", () => StageOutcome.select([], "none survived"))),
      ["a", "b"],
    );
    expect(empty.names).toEqual([]);
    expect(empty.trace[0]).toMatchObject({ action: "select", kept: [], dropped: ["a", "b"] });
    const abstain = runSelection(pipelineOf(stub("s", () => StageOutcome.abstain())), ["a", "b"]);
    expect(abstain.names).toEqual(["a", "b"]);
    expect(abstain.trace[0]).toMatchObject({ action: "abstain", kept: ["a", "b"], dropped: [] });
  });

  it("§3 select record: kept/dropped in input order, added in output order, detail and reasons carried", () => {
    const stage = stub("s", () =>
      StageOutcome.select(["z", "c", "a", "y"], "why", { b: "not wanted", z: "wanted" }),
    );
    const result = runSelection(pipelineOf(stage), ["a", "b", "c", "d"]);
    expect(result.trace[0]).toEqual({
      stage: "s",
      action: "select",
      kept: ["a", "c"],
      dropped: ["b", "d"],
      added: ["z", "y"],
      reinstated: [],
      forcedChoice: null,
      detail: "why",
      degraded: false,
      reasons: { b: "not wanted", z: "wanted" },
    });
    expect(result.names).toEqual(["z", "c", "a", "y"]);
  });

  it("§3 records are by name: a tool a stage appends without a name adds no name", () => {
    const unnamed = { description: "no name" };
    const appendOnly = stub("append", (tools) => StageOutcome.select([...tools, unnamed]));
    const appendBoth = stub("both", (tools) => StageOutcome.select([...tools, unnamed, "z"]));
    const result = runSelection(pipelineOf(appendOnly, appendBoth), ["a"]);
    expect(result.trace.map((r) => [r.kept, r.added])).toEqual([
      [["a"], []],
      [["a"], ["z"]],
    ]);
    expect(result.names).toEqual(["a", "z"]);
    expect(result.tools).toEqual(["a", unnamed, unnamed, "z"]);
  });

  it("§3 records are by name: a name a stage appends twice is added twice, and the next stage sees both", () => {
    const seen: string[][] = [];
    const twice = stub("twice", (tools) => StageOutcome.select([...tools, "z", "z"]));
    const spy = stub("spy", (tools) => {
      seen.push(tools.map(String));
      return StageOutcome.select(tools.filter((tool) => tool !== "a"));
    });
    const result = runSelection(pipelineOf(twice, spy), ["a"]);
    expect(result.trace.map((r) => [r.kept, r.dropped, r.added])).toEqual([
      [["a"], [], ["z", "z"]],
      [["z", "z"], ["a"], []],
    ]);
    expect(seen).toEqual([["a", "z", "z"]]);
    expect(result.names).toEqual(["z", "z"]);
  });

  it("§3 records are by name: a stage keeping one of two tools named alike keeps the name, drops nothing", () => {
    const first = { name: "a", n: 1 };
    const second = { name: "a", n: 2 };
    const result = runSelection(
      pipelineOf(
        stub("both", keep("a")),
        stub("second", () => StageOutcome.select([second])),
      ),
      [first, second, "b"],
    );
    expect(result.trace.map((r) => [r.kept, r.dropped])).toEqual([
      [["a", "a"], ["b"]],
      [["a", "a"], []],
    ]);
    expect(result.tools).toEqual([second]);
  });

  it("§3 select even when nothing changes is recorded as select, not abstain", () => {
    const result = runSelection(
      pipelineOf(stub("s", (tools) => StageOutcome.select(tools, "same"))),
      ["a"],
    );
    expect(result.trace[0]).toMatchObject({
      action: "select",
      kept: ["a"],
      dropped: [],
      added: [],
    });
  });

  it("§3 force records action force, tools untouched, forced_choice = the choice", () => {
    const result = runSelection(pipelineOf(stub("f", force("a"))), ["a", "b"]);
    expect(result.trace[0]).toMatchObject({
      action: "force",
      kept: ["a", "b"],
      dropped: [],
      added: [],
      forcedChoice: "a",
      detail: "force a",
    });
    expect(result.forcedChoice).toBe("a");
    expect(result.names).toEqual(["a", "b"]);
  });

  it("§1/§3 force with null releases an earlier force (forced_choice null after it)", () => {
    const result = runSelection(pipelineOf(stub("f1", force("zzz")), stub("f2", force(null))), [
      "a",
    ]);
    expect(result.trace.map((r) => [r.action, r.forcedChoice])).toEqual([
      ["force", "zzz"],
      ["force", null],
    ]);
    expect(result.forcedChoice).toBeNull();
  });

  it("§3 every record's forced_choice is the forced choice in effect after that stage", () => {
    const result = runSelection(
      pipelineOf(
        stub("before", () => StageOutcome.abstain()),
        stub("f", force("b")),
        stub("sel", keep("a", "b")),
        stub("boom", () => {
          throw new Error("x");
        }),
        stub("release", force(null)),
        stub("after", keep("a")),
      ),
      ["a", "b", "c"],
    );
    expect(result.trace.map((r) => r.forcedChoice)).toEqual([null, "b", "b", "b", null, null]);
  });

  it("§3 context.forced_choice is reset to null at the start of a run, and is visible to later stages", () => {
    const context: SelectionContext = selectionContext({});
    context.forcedChoice = "stale";
    const seen: (string | null)[] = [];
    const observe = (name: string) =>
      stub(name, (_t, c) => {
        seen.push(c.forcedChoice);
        return StageOutcome.abstain();
      });
    pipelineOf(observe("o1"), stub("f", force("a")), observe("o2")).run(["a"], context);
    expect(seen).toEqual([null, "a"]);
    expect(context.forcedChoice).toBe("a");
  });
});

describe("§3 error containment", () => {
  it("§3 a raising stage is recorded as error: kept = input, dropped/added [], detail = message, degraded true", () => {
    const result = runSelection(pipelineOf(raising("boom", "resolver exploded")), [
      "a",
      { name: "b" },
      { anonymous: true },
    ]);
    expect(result.trace[0]).toEqual({
      stage: "boom",
      action: "error",
      kept: ["a", "b"],
      dropped: [],
      added: [],
      reinstated: [],
      forcedChoice: null,
      detail: "resolver exploded",
      degraded: true,
      reasons: {},
    });
  });

  it("§3 a raising stage leaves the set untouched and the run continues with the next stage", () => {
    const tools: Tool[] = ["a", "b"];
    const result = runSelection(pipelineOf(raising("boom", "x"), stub("next", keep("b"))), tools);
    expect(result.trace.map((r) => r.action)).toEqual(["error", "select"]);
    expect(result.trace[1]!.kept).toEqual(["b"]);
    expect(result.trace[1]!.dropped).toEqual(["a"]);
  });

  it("§3 a raising stage leaves the forced choice unchanged (record and context)", () => {
    const result = runSelection(pipelineOf(stub("f", force("a")), raising("boom", "x")), ["a"]);
    expect(result.trace[1]).toMatchObject({ action: "error", forcedChoice: "a" });
    expect(result.forcedChoice).toBe("a");
  });

  it("§3 error detail is the error's message exactly, even when it is empty", () => {
    const result = runSelection(pipelineOf(raising("boom", "")), ["a"]);
    expect(result.trace[0]).toMatchObject({ action: "error", detail: "" });
  });

  it("§3 a thrown non-Error value is contained too, its detail being its text", () => {
    const result = runSelection(
      pipelineOf(
        stub("boom", () => {
          throw "plain string";
        }),
      ),
      ["a"],
    );
    expect(result.trace[0]).toMatchObject({
      action: "error",
      detail: "plain string",
      degraded: true,
    });
  });
});

describe("§3 protects_forced: reinstatement of the forced tool", () => {
  it("§3 protects_forced: a protecting stage that drops the forced tool has it reinstated, appended at the end", () => {
    const result = runSelection(pipelineOf(stub("f", force("b")), stub("narrow", keep("c", "a"))), [
      "a",
      "b",
      "c",
    ]);
    expect(result.names).toEqual(["a", "c", "b"]);
    expect(result.trace[1]).toMatchObject({
      action: "select",
      kept: ["a", "c"],
      dropped: [],
      added: [],
      reinstated: ["b"],
      forcedChoice: "b",
    });
    expect(result.forcedChoice).toBe("b");
  });

  it("§3 reinstatement appends the input's own tool object named f (the first one)", () => {
    const b1 = { name: "b", v: 1 };
    const b2 = { name: "b", v: 2 };
    const result = runSelection(
      pipelineOf(
        stub("f", force("b")),
        stub("drop", () => StageOutcome.select(["a"])),
      ),
      ["a", b1, b2],
    );
    expect(result.tools).toEqual(["a", b1]);
    expect(result.tools[1]).toBe(b1);
  });

  it("§3 reinstated names are excluded from `kept` and not listed in `dropped`", () => {
    const result = runSelection(
      pipelineOf(
        stub("f", force("a")),
        stub("drop-all", () => StageOutcome.select([])),
      ),
      ["a", "b"],
    );
    expect(result.trace[1]).toMatchObject({ kept: [], dropped: ["b"], reinstated: ["a"] });
  });

  it("§3 a select that reorders the set and drops the forced tool: reinstated, not kept", () => {
    const result = runSelection(
      pipelineOf(
        stub("f", force("f")),
        stub("reorder", () => StageOutcome.select(["b", "a"])),
      ),
      ["a", "b", "f"],
    );
    expect(result.trace[1]).toMatchObject({
      kept: ["a", "b"],
      dropped: [],
      added: [],
      reinstated: ["f"],
    });
    expect(result.names).toEqual(["b", "a", "f"]);
  });

  it("§3 no reinstatement when the stage keeps the forced tool", () => {
    const result = runSelection(pipelineOf(stub("f", force("a")), stub("s", keep("a"))), [
      "a",
      "b",
    ]);
    expect(result.trace[1]).toMatchObject({ kept: ["a"], dropped: ["b"], reinstated: [] });
  });

  it("§3 no reinstatement when f was not in the stage's input (then the run fails)", () => {
    const error = failure(() =>
      runSelection(pipelineOf(stub("f", force("ghost")), stub("s", keep("a"))), ["a", "b"]),
    );
    expect(error.partial.trace[1]).toMatchObject({ reinstated: [], dropped: ["b"] });
  });

  it("§3 no reinstatement for a stage with protects_forced false: the drop stands and the run fails", () => {
    const hard = stub("hard", keep("a"), false);
    const error = failure(() => runSelection(pipelineOf(stub("f", force("b")), hard), ["a", "b"]));
    expect(error.partial.trace[1]).toMatchObject({ kept: ["a"], dropped: ["b"], reinstated: [] });
    expect(error.partial.names).toEqual(["a"]);
  });

  it("§3 no reinstatement when no force is in effect (f null), including after a release", () => {
    const result = runSelection(
      pipelineOf(stub("f", force("b")), stub("r", force(null)), stub("s", keep("a"))),
      ["a", "b"],
    );
    expect(result.trace[2]).toMatchObject({ dropped: ["b"], reinstated: [] });
    expect(result.names).toEqual(["a"]);
  });

  it("§3 a stage that sets the force and selects sees its own force protected (force applied before reinstatement)", () => {
    const both = stub("both", (tools) => ({
      ...StageOutcome.select(tools.filter((t) => t !== "b")),
      forcedChoice: "b",
      setsForcedChoice: true,
    }));
    const result = runSelection(pipelineOf(both), ["a", "b"]);
    expect(result.trace[0]).toMatchObject({
      action: "select",
      reinstated: ["b"],
      forcedChoice: "b",
    });
    expect(result.names).toEqual(["a", "b"]);
  });

  it("§3 when the output already holds f (added from elsewhere), nothing is reinstated", () => {
    const result = runSelection(
      pipelineOf(
        stub("f", force("b")),
        stub("s", () => StageOutcome.select(["b"])),
      ),
      ["a", "b"],
    );
    expect(result.trace[1]).toMatchObject({ kept: ["b"], dropped: ["a"], reinstated: [] });
  });
});

describe("§3 ForcedToolUnavailable", () => {
  it("§3 ForcedToolUnavailable is a ContractViolationError naming the tool", () => {
    const error = failure(() => runSelection(pipelineOf(stub("f", force("ghost"))), ["a"]));
    expect(error).toBeInstanceOf(ContractViolationError);
    expect(error.name).toBe("ForcedToolUnavailable");
    expect(error.tool).toBe("ghost");
    expect(error.message).toContain("ghost");
  });

  it("§3 ForcedToolUnavailable carries the partial trace (every stage's record) and the final set", () => {
    const error = failure(() =>
      runSelection(
        pipelineOf(
          stub("f", force("b")),
          stub("hard", keep("a"), false),
          stub("after", () => StageOutcome.abstain("a")),
        ),
        ["a", "b"],
      ),
    );
    expect(error.partial.trace.map((r) => [r.stage, r.action])).toEqual([
      ["f", "force"],
      ["hard", "select"],
      ["after", "abstain"],
    ]);
    expect(error.partial.forcedChoice).toBe("b");
    expect(error.partial.names).toEqual(["a"]);
  });

  it("§3 the check runs after the last stage only: a force dropped and then re-added succeeds", () => {
    const result = runSelection(
      pipelineOf(
        stub("f", force("b")),
        stub("hard", keep("a"), false),
        stub("readd", (tools) => StageOutcome.select([...tools, "b"])),
      ),
      ["a", "b"],
    );
    expect(result.names).toEqual(["a", "b"]);
    expect(result.forcedChoice).toBe("b");
  });

  it("§3 a force of a tool never offered fails even with no narrowing stage", () => {
    expect(() => runSelection(pipelineOf(stub("f", force("x"))), ["a"])).toThrow(
      ForcedToolUnavailable,
    );
  });

  it("§3 a released force (null) never fails", () => {
    expect(runSelection(pipelineOf(stub("f", force(null))), []).forcedChoice).toBeNull();
  });
});

describe("§3 run_selection", () => {
  it("§3 run_selection builds the context from state, messages, query and role (state by identity)", () => {
    const state = { k: 1 };
    const messages = [{ type: "human" }];
    let seen: SelectionContext | undefined;
    runSelection(
      new ToolSelectionPipeline([
        stub("spy", (_t, c) => {
          seen = c;
          return StageOutcome.abstain();
        }),
      ]),
      ["a"],
      {
        state,
        messages,
        query: "q",
        role: "r",
      },
    );
    expect(seen!.state).toBe(state);
    expect(seen!.messages).toBe(messages);
    expect(seen!.query).toBe("q");
    expect(seen!.role).toBe("r");
  });
});

describe("§3 the records of built-in stages", () => {
  const lazy = (...allowedNames: string[]) => new LazyRoutingStage({ allowedNames });

  it("§3 a built-in filter that drops the forced tool offered twice: the first one is reinstated, the stage's reason for it stays", () => {
    const b1 = { name: "b", v: 1 };
    const b2 = { name: "b", v: 2 };
    const result = runSelection(pipelineOf(stub("f", force("b")), lazy("a")), ["a", b1, "c", b2]);
    expect(result.tools).toEqual(["a", b1]);
    expect(result.tools[1]).toBe(b1);
    expect(result.trace[1]).toEqual({
      stage: "lazy",
      action: "select",
      kept: ["a"],
      dropped: ["c"],
      added: [],
      reinstated: ["b"],
      forcedChoice: "b",
      detail: "routed to 1 name",
      degraded: false,
      reasons: { b: "not routed by procedural routing", c: "not routed by procedural routing" },
    });
  });

  it("§3 a select that reorders the set and keeps the forced tool reinstates nothing", () => {
    const reversed = stub("reverse", (tools) => StageOutcome.select([...tools].reverse()));
    const result = runSelection(pipelineOf(stub("f", force("a")), reversed), ["a", "b"]);
    expect(result.names).toEqual(["b", "a"]);
    expect(result.trace[1]).toMatchObject({ kept: ["a", "b"], reinstated: [] });
  });

  it("§3 a built-in filter that keeps the forced tool reinstates nothing", () => {
    const result = runSelection(pipelineOf(stub("f", force("a")), lazy("a")), ["a", "b"]);
    expect(result.names).toEqual(["a"]);
    expect(result.trace[1]).toMatchObject({ kept: ["a"], dropped: ["b"], reinstated: [] });
  });

  it("§3 a built-in filter over tool objects names them by their `name`", () => {
    const a = { name: "a" };
    const result = runSelection(pipelineOf(lazy("a")), [a, { name: "b" }]);
    expect(result.tools).toEqual([a]);
    expect(result.names).toEqual(["a"]);
    expect(result.trace[0]).toMatchObject({ kept: ["a"], dropped: ["b"] });
  });

  it("§3 a name repeated in a built-in filter's output stays repeated for the next stage's record", () => {
    const result = runSelection(
      pipelineOf(
        lazy("a"),
        stub("first", (tools) => StageOutcome.select(tools.slice(0, 1))),
      ),
      ["a", "b", "a"],
    );
    expect(result.trace[0]).toMatchObject({ kept: ["a", "a"], dropped: ["b"] });
    expect(result.trace[1]).toMatchObject({ kept: ["a", "a"], dropped: [], added: [] });
  });

  it("§3 a name known to repeat before a built-in filter stays repeated for the next stage's record", () => {
    const result = runSelection(
      pipelineOf(
        stub("all", (tools) => StageOutcome.select(tools)),
        lazy("a"),
        stub("first", (tools) => StageOutcome.select(tools.slice(0, 1))),
      ),
      ["a", "a", "b"],
    );
    expect(result.trace[1]).toMatchObject({ kept: ["a", "a"], dropped: ["b"] });
    expect(result.trace[2]).toMatchObject({ kept: ["a", "a"], dropped: [] });
  });

  it("§3 a name repeated before an allowlist stays repeated for the next stage's record", () => {
    const result = runSelection(
      pipelineOf(
        stub("a only", (tools) => StageOutcome.select(tools.filter((tool) => tool === "a"))),
        new AllowlistStage({ alwaysInclude: ["x"] }),
        stub("first", (tools) => StageOutcome.select(tools.slice(0, 1))),
      ),
      ["a", "a", "x"],
    );
    expect(result.trace[1]).toMatchObject({ kept: ["a", "a"], added: ["x"] });
    expect(result.trace[2]).toMatchObject({ kept: ["a", "a"], dropped: ["x"] });
  });

  it("§1 a record's reasons are one table however often read, and travel as data (spread, JSON)", () => {
    const catalog = catalogOf([{ name: "dear", costUsd: 2 }, { name: "cheap" }]);
    const result = runSelection(pipelineOf(new PolicyStage({ catalog, budgetUsd: 1 })), [
      "dear",
      "cheap",
    ]);
    const record = result.trace[0]!;
    expect(record.reasons).toBe(record.reasons);
    expect(Object.keys(record)).toContain("reasons");
    const reasons = { dear: "cost $2 > budget $1" };
    expect({ ...record }.reasons).toEqual(reasons);
    expect(JSON.parse(JSON.stringify(record)).reasons).toEqual(reasons);
  });

  it("§3 a stage's input is its predecessor's output, named tools and unnamed alike", () => {
    const unnamed = { description: "no name" };
    const seen: (readonly Tool[])[] = [];
    const spy = stub("spy", (tools) => {
      seen.push(tools);
      return StageOutcome.abstain();
    });
    const result = runSelection(pipelineOf(lazy("a", "b"), spy), ["a", unnamed, "b", "c"]);
    expect(seen).toEqual([["a", unnamed, "b"]]);
    expect(result.names).toEqual(["a", "b"]);
    expect(result.trace[1]!.kept).toEqual(["a", "b"]);
  });
});
