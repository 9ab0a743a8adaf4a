import { describe, expect, it } from "vitest";
import {
  capabilityCandidates,
  resolveRouter,
  routedName,
  routerReason,
  runCapability,
} from "../../../src/core/capability.js";
import { ForcedToolUnavailable } from "../../../src/core/errors.js";
import { LazyRoutingStage } from "../../../src/core/stages/lazy.js";
import { StageOutcome, selectionContext } from "../../../src/core/contract.js";
import { load, pipelineOf, run, stub } from "./helpers.js";

const row = (content: string, action?: unknown) =>
  action === undefined ? { content } : { content, metadata: { action_tool: action } };

describe("§5 the router", () => {
  it.each([
    [
      "metadata.action_tool when it is a non-empty string",
      row("content_name", "action_name"),
      "action_name",
    ],
    ["content when action_tool is empty", row("content_name", ""), "content_name"],
    ["content when action_tool is not a string", row("content_name", 3), "content_name"],
    ["content when action_tool is null", row("content_name", null), "content_name"],
    ["content when there is no metadata", row("content_name"), "content_name"],
  ])("§5 a row names %s", (_rule, entry, name) => {
    expect(routedName(entry)).toBe(name);
  });

  it("§5 routed: the rows' names that are registered (a set)", () => {
    const outcome = resolveRouter(
      [row("x", "b"), row("c"), row("ghost"), row("b")],
      ["a", "b", "c"],
    );
    expect(outcome.state).toBe("routed");
    expect(outcome.state === "routed" && [...outcome.names].sort()).toEqual(["b", "c"]);
  });

  it("§5 refused with a reason: no entries", () => {
    const outcome = resolveRouter([], ["a"]);
    expect(outcome.state).toBe("refused");
    expect(routerReason(outcome)).not.toBe("");
  });

  it("§5 refused with a reason: no routed name is registered", () => {
    const outcome = resolveRouter([row("ghost")], ["a"]);
    expect(outcome.state).toBe("refused");
    expect(routerReason(outcome)).not.toBe(routerReason(resolveRouter([], ["a"])));
  });

  it("§5 no router composed (entries null) is a third state with its own reason", () => {
    const outcome = resolveRouter(null, ["a"]);
    expect(outcome).toEqual({ state: "none" });
    expect(routerReason(outcome)).toBe("no router composed");
  });

  it("§5 the stages run over sorted(routed) by code point when routed, else over registered in order", () => {
    const registered = ["\u{1F600}", "b", "\uFF5E", "a"];
    expect(
      capabilityCandidates(
        resolveRouter([row("\u{1F600}"), row("b"), row("\uFF5E"), row("a")], registered),
        registered,
      ),
    ).toEqual(["a", "b", "\uFF5E", "\u{1F600}"]);
    expect(capabilityCandidates(resolveRouter([], registered), registered)).toEqual(registered);
    expect(capabilityCandidates(resolveRouter(null, registered), registered)).toEqual(registered);
  });
});

describe("§5 the capability's palette", () => {
  const registered = ["c", "a", "b"];
  const context = () => selectionContext({});

  it("§5 no stages, routed → applied with the routed names, no force, for the reason 'routed'", () => {
    const run = runCapability(
      resolveRouter([row("b"), row("a")], registered),
      registered,
      null,
      context(),
    );
    expect(run.palette).toMatchObject({ outcome: "applied", forced: null, reason: "routed" });
    expect([...run.palette.names!].sort()).toEqual(["a", "b"]);
    expect(run.selection).toBeNull();
  });

  it.each([
    ["refused", [] as { content: string }[], "refused"],
    ["no router", null, "none"],
  ])("§5 no stages, %s → no change, reported with the router's reason", (_name, entries, state) => {
    const router = resolveRouter(entries, registered);
    expect(router.state).toBe(state);
    const run = runCapability(router, registered, pipelineOf(), context());
    expect(run.palette).toEqual({
      outcome: "no_change",
      names: null,
      forced: null,
      reason: routerReason(router),
    });
  });

  it("§5 with stages, routed: names are the selection's names even when empty", () => {
    const drop = stub("drop", () => StageOutcome.select([]));
    const run = runCapability(
      resolveRouter([row("a")], registered),
      registered,
      pipelineOf(drop),
      context(),
    );
    expect(run.palette).toMatchObject({ outcome: "applied", names: [], forced: null });
  });

  it("§5 with stages, not routed, non-empty selection → applied with the selection's names", () => {
    const run = runCapability(
      resolveRouter(null, registered),
      registered,
      pipelineOf(new LazyRoutingStage({ allowedNames: ["a"] })),
      context(),
    );
    expect(run.palette).toMatchObject({ outcome: "applied", names: ["a"], forced: null });
    expect(run.candidates).toEqual(registered);
  });

  it("§5 with stages, not routed, empty selection, no force → no change with the router's reason", () => {
    const run = runCapability(
      resolveRouter([row("ghost")], registered),
      registered,
      pipelineOf(stub("drop", () => StageOutcome.select([]))),
      context(),
    );
    expect(run.palette).toEqual({
      outcome: "no_change",
      names: null,
      forced: null,
      reason: "no routed tool is registered",
    });
    expect(run.selection?.names).toEqual([]);
  });

  it("§5 the palette's forced is the selection's forced choice", () => {
    const run = runCapability(
      resolveRouter(null, registered),
      registered,
      pipelineOf(stub("f", () => StageOutcome.force("b"))),
      context(),
    );
    expect(run.palette).toMatchObject({ outcome: "applied", forced: "b" });
    expect([...run.palette.names!]).toEqual(["c", "a", "b"]);
  });

  it("§5 a ForcedToolUnavailable propagates from the capability", () => {
    expect(() =>
      runCapability(
        resolveRouter([row("a")], registered),
        registered,
        pipelineOf(stub("f", () => StageOutcome.force("b"))),
        context(),
      ),
    ).toThrow(ForcedToolUnavailable);
  });
});

describe("§5 capability mode in a fixture", () => {
  const registered = ["search", "get_weather", "sql"];

  it("§5 routing mode: the offered names are sorted(routed), the router reason and palette are reported", async () => {
    const report = await run({
      routing: {
        registered,
        entries: [{ content: "sql" }, { content: "x", metadata: { action_tool: "get_weather" } }],
      },
      pipeline: [{ kind: "lazy", allowed_names: ["sql"] }],
    });
    expect(report.offered).toEqual(["get_weather", "sql"]);
    expect(report.names).toEqual(["sql"]);
    expect(report.capability?.router.state).toBe("routed");
    expect(report.capability?.palette).toMatchObject({
      outcome: "applied",
      names: ["sql"],
      forced: null,
    });
  });

  it("§5 routing mode, entries absent: no router composed, stages run over registered", async () => {
    const report = await run({
      routing: { registered },
      pipeline: [{ kind: "lazy", allowed_names: null }],
    });
    expect(report.capability?.router).toEqual({ state: "none" });
    expect(report.offered).toEqual(registered);
    // The selection is non-empty, so the palette is applied with every registered name.
    expect(report.capability?.palette).toMatchObject({ outcome: "applied", names: registered });
  });

  it("§5 routing mode, entries null: no router composed, as when absent", async () => {
    const report = await run({ routing: { registered, entries: null } });
    expect(report.capability?.router).toEqual({ state: "none" });
    expect(report.capability?.palette).toEqual({
      outcome: "no_change",
      names: null,
      forced: null,
      reason: "no router composed",
    });
  });

  it("§5 routing mode, no stages and a routed router: applied with the routed names, sorted", async () => {
    const report = await run({
      routing: { registered, entries: [{ content: "sql" }, { content: "get_weather" }] },
    });
    expect(report.capability?.palette).toMatchObject({
      outcome: "applied",
      names: ["get_weather", "sql"],
      forced: null,
    });
    expect(report.names).toEqual(["get_weather", "sql"]);
  });

  it("§5 routing mode, no stages and a refused router: no change with the refusal's reason", async () => {
    const report = await run({ routing: { registered, entries: [] } });
    expect(report.capability?.palette).toMatchObject({
      outcome: "no_change",
      names: null,
      reason: report.capability?.routerReason,
    });
    expect(report.trace).toEqual([]);
  });

  it("§5 symfonic's capability runs the selection without a role: a role stage without its own role sees ''", async () => {
    // ToolsCapability.contribute calls run_selection(..., state=, messages=, query=cue) and passes no role.
    const report = await run({
      routing: { registered },
      turn: { role: "analyst" },
      pipeline: [{ kind: "role", role_tools: { analyst: ["sql"], "": ["search"] } }],
    });
    expect(report.names).toEqual(["search"]);
  });

  it("§5 in capability mode the query (the cue), state and messages still reach the stages", async () => {
    const report = await run({
      routing: { registered },
      turn: {
        query: "What is the WEATHER",
        state: { pin: "sql" },
        messages: [{ type: "tool", name: "search" }],
      },
      pipeline: [
        {
          kind: "forced",
          name: "by_query",
          resolver: { kind: "keyword", rules: [{ keywords: ["weather"], tool: "get_weather" }] },
        },
        { kind: "forced", name: "by_state", resolver: { kind: "state", key: "pin" } },
        { kind: "forced", name: "spent", resolver: { kind: "fixed", tool: "search" } },
      ],
    });
    expect(report.trace.map((r) => r.forcedChoice)).toEqual(["get_weather", "sql", null]);
  });

  it("§5 routing mode, a force the stages cannot honour: the error, the partial trace and a failed palette are reported", async () => {
    const report = await run({
      routing: { registered, entries: [{ content: "sql" }, { content: "search" }] },
      pipeline: [
        { kind: "forced", resolver: { kind: "fixed", tool: "get_weather" } },
        { kind: "lazy", allowed_names: ["sql"] },
      ],
    });
    expect(report.error).toEqual({
      kind: "ForcedToolUnavailable",
      message: "forced tool 'get_weather' is not among the final tools",
      tool: "get_weather",
      droppedBy: null,
    });
    expect(report.offered).toEqual(["search", "sql"]);
    expect(report.names).toEqual(["sql"]);
    expect(report.forcedChoice).toBe("get_weather");
    expect(report.trace.map((r) => r.action)).toEqual(["force", "select"]);
    expect(report.capability?.routerReason).toBe("no router composed");
    expect(report.capability?.palette).toEqual({
      outcome: "no_change",
      names: null,
      forced: null,
      reason: "the run failed: ForcedToolUnavailable",
    });
  });
});

describe("§5 capability mode: the turn's role is not passed (fixture warning)", () => {
  it("§5 a fixture in capability mode that sets turn.role gets a warning at $.turn.role, and still runs", async () => {
    const loaded = await load({ routing: { registered: ["a"] }, turn: { role: "analyst" } });
    expect(loaded.ok).toBe(true);
    const warnings = loaded.problems.filter((p) => p.severity === "warning");
    expect(warnings.map((p) => p.path)).toEqual([["turn", "role"]]);
    expect(warnings[0]!.message).toMatch(/without a role/);
  });
});
