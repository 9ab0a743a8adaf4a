import { describe, expect, it } from "vitest";
import { catalogEntry, DEFAULT_SAFETY_LEVELS, ToolCatalog } from "../../../src/core/catalog.js";
import { compareCodePoints, filterByNames, toolName, toolNames } from "../../../src/core/tools.js";
import { resolvedMessages, selectionContext, StageOutcome } from "../../../src/core/contract.js";
import { catalogOf } from "./helpers.js";

describe("§1 Tool and tool_name", () => {
  it.each([
    ["a string is its own name", "search", "search"],
    ["an object's name is its `name` field", { name: "sql", schema: {} }, "sql"],
    ["an object without `name` is unnamed", { description: "anonymous" }, null],
    ["an object whose `name` is not a string is unnamed", { name: 42 }, null],
    ["an object whose `name` is null is unnamed", { name: null }, null],
    ["the empty string is a name, not unnamed", "", ""],
  ])("§1 tool_name: %s", (_rule, tool, name) => {
    expect(toolName(tool)).toBe(name);
  });

  it("§1 names(tools) lists named tools in order and skips unnamed ones", () => {
    expect(toolNames(["b", { x: 1 }, { name: "a" }, "b"])).toEqual(["b", "a", "b"]);
  });
});

describe("§1 filter_by_names", () => {
  it("§1 filter_by_names keeps, in input order, the tools whose name is in `names`", () => {
    expect(filterByNames(["c", "a", "b"], ["b", "c"])).toEqual(["c", "b"]);
  });

  it("§1 filter_by_names keeps every unnamed tool, even with an empty name list", () => {
    const unnamed = { description: "no name" };
    const nullName = { name: null };
    expect(filterByNames(["a", unnamed, "b", nullName], [])).toEqual([unnamed, nullName]);
  });

  it("§1 filter_by_names keeps every duplicate of an allowed name and accepts a Set", () => {
    const first = { name: "a", v: 1 };
    const second = { name: "a", v: 2 };
    expect(filterByNames([first, "b", second], new Set(["a"]))).toEqual([first, second]);
  });

  it("§1 filter_by_names returns the same tool objects (identity), never copies", () => {
    const tool = { name: "a" };
    expect(filterByNames([tool], ["a"])[0]).toBe(tool);
  });
});

describe("§1 StageOutcome constructors", () => {
  it("§1 abstain: tools null (leave the set alone), no force, degraded defaults to false", () => {
    const outcome = StageOutcome.abstain("why");
    expect(outcome).toMatchObject({
      tools: null,
      setsForcedChoice: false,
      degraded: false,
      detail: "why",
    });
    expect(StageOutcome.abstain("w", true).degraded).toBe(true);
  });

  it("§1 abstain ≠ empty select: select([]) is an empty list, not null", () => {
    const empty = StageOutcome.select([], "nothing survived");
    expect(empty.tools).toEqual([]);
    expect(empty.tools).not.toBeNull();
    expect(empty.setsForcedChoice).toBe(false);
  });

  it("§1 force: sets the forced choice without touching the set; degraded defaults to false", () => {
    expect(StageOutcome.force("x", "d")).toMatchObject({
      tools: null,
      forcedChoice: "x",
      setsForcedChoice: true,
      degraded: false,
      detail: "d",
    });
    expect(StageOutcome.force("x", "d", true).degraded).toBe(true);
  });

  it("§1 detail defaults to the empty string in every constructor, as in symfonic", () => {
    expect(StageOutcome.abstain().detail).toBe("");
    expect(StageOutcome.select([]).detail).toBe("");
    expect(StageOutcome.force("x").detail).toBe("");
  });

  it("§1 force with a null choice is a release: sets_forced_choice is still true", () => {
    expect(StageOutcome.force(null, "release")).toMatchObject({
      tools: null,
      forcedChoice: null,
      setsForcedChoice: true,
    });
  });
});

describe("§1 SelectionContext", () => {
  it("§1 SelectionContext defaults: state {}, messages [], role '', query '', forced_choice null, nothing offered until a run", () => {
    expect(selectionContext({})).toStrictEqual({
      state: {},
      messages: [],
      role: "",
      query: "",
      forcedChoice: null,
      offered: [],
    });
  });

  it("§1 SelectionContext: state is kept by identity, never copied", () => {
    const state = { tenant: "acme" };
    expect(selectionContext({ state }).state).toBe(state);
  });

  it("§1 resolved messages: `messages` when non-empty", () => {
    const messages = [{ type: "human" }];
    expect(
      resolvedMessages(selectionContext({ messages, state: { messages: [{ type: "tool" }] } })),
    ).toBe(messages);
  });

  it("§1 resolved messages: state.messages when `messages` is empty", () => {
    const onState = [{ type: "tool", name: "x" }];
    expect(resolvedMessages(selectionContext({ messages: [], state: { messages: onState } }))).toBe(
      onState,
    );
  });

  it("§1 resolved messages: nothing when both are absent or state.messages is not a list", () => {
    expect(resolvedMessages(selectionContext({}))).toEqual([]);
    expect(resolvedMessages(selectionContext({ state: { messages: "oops" } }))).toEqual([]);
  });
});

describe("compareCodePoints: Python's sorted() order for str", () => {
  it("orders by code point, so an astral character sorts after U+FFFF (UTF-16 order would not)", () => {
    // "\u{1F600}" is the surrogate pair D83D DE00; "\uFF5E" is one unit FF5E. UTF-16 puts the pair first.
    const astral = "\u{1F600}";
    const bmp = "\uFF5E";
    expect([astral, bmp].sort()).toEqual([astral, bmp]);
    expect([astral, bmp].sort(compareCodePoints)).toEqual([bmp, astral]);
  });

  it.each([
    ["a", "b", -1],
    ["b", "a", 1],
    ["a", "a", 0],
    ["a", "ab", -1],
    ["ab", "a", 1],
    ["", "a", -1],
    ["", "", 0],
    ["B", "a", -1],
    ["z", "é", -1],
  ])("compares %j with %j as Python would (sign %i)", (a, b, sign) => {
    expect(Math.sign(compareCodePoints(a, b))).toBe(sign);
  });
});

describe("§2 the catalogue", () => {
  it("§2 catalogue entry defaults: summary '', visibility agent, cost unknown, no level/capability/category, no keywords", () => {
    expect(catalogEntry({ name: "a" })).toEqual({
      name: "a",
      summary: "",
      visibility: "agent",
      costUsd: null,
      safetyLevel: null,
      requiresCapability: null,
      category: null,
      triggerKeywords: [],
    });
  });

  it("§2 the default safety scale, lowest first, is none < low < medium < high < critical", () => {
    expect(DEFAULT_SAFETY_LEVELS).toEqual(["none", "low", "medium", "high", "critical"]);
    const catalog = new ToolCatalog([]);
    expect(DEFAULT_SAFETY_LEVELS.map((level) => catalog.rank(level))).toEqual([0, 1, 2, 3, 4]);
  });

  it("§2 a catalogue may declare its own scale; a level not on it has no rank", () => {
    const catalog = catalogOf([{ name: "a", safetyLevel: "amber" }], ["green", "amber", "red"]);
    expect(catalog.rank("amber")).toBe(1);
    expect(catalog.rank("high")).toBeUndefined();
  });

  it("§2 a level name not on the scale is rejected, and names are unique", () => {
    expect(() => catalogOf([{ name: "a", safetyLevel: "extreme" }])).toThrow(/not on the scale/);
    expect(() => catalogOf([{ name: "a" }, { name: "a" }])).toThrow(/duplicate/);
  });

  it("§2 agent-facing manifest: {name, summary} of each named tool held with visibility agent, in set order", () => {
    const catalog = catalogOf([
      { name: "a", summary: "A" },
      { name: "hidden", summary: "H", visibility: "internal" },
      { name: "b", summary: "B" },
    ]);
    expect(catalog.manifest(["b", "hidden", "unknown", "a"])).toEqual([
      { name: "b", summary: "B" },
      { name: "a", summary: "A" },
    ]);
  });
});
