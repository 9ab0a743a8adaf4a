/** A fixture's problems as data: built from a JSON path, worded, and a catalogue value checked. */
import { describe, expect, it } from "vitest";
import { catalogFromJson } from "../../src/core/fixture/catalog-json.js";
import { error, warning } from "../../src/core/fixture/issues.js";
import {
  formatProblem,
  hasErrors,
  problemMessage,
  type Problem,
} from "../../src/core/fixture/problems.js";

const at = { line: 2, character: 4 };
const problem = (over: Partial<Problem> = {}): Problem => ({
  severity: "error",
  file: "a.turn.json",
  range: { start: at, end: at },
  path: ["pipeline", 0, "kind"],
  message: "unknown stage kind",
  ...over,
});

describe("problems as every view words them", () => {
  it("a problem reads file:line:column: severity: message (at $.path), one-based", () => {
    expect(formatProblem(problem())).toBe(
      "a.turn.json:3:5: error: unknown stage kind (at $.pipeline[0].kind)",
    );
    expect(formatProblem(problem({ severity: "warning", path: [] }))).toBe(
      "a.turn.json:3:5: warning: unknown stage kind",
    );
    expect(problemMessage({ message: "m", path: ["role_tools", "data team"] })).toBe(
      'm (at $.role_tools["data team"])',
    );
    expect(problemMessage({ message: "m", path: [] })).toBe("m");
  });

  it("only an error stops a fixture from running; warnings do not", () => {
    expect(hasErrors([])).toBe(false);
    expect(hasErrors([{ severity: "warning" }, { severity: "warning" }])).toBe(false);
    expect(hasErrors([{ severity: "warning" }, { severity: "error" }])).toBe(true);
  });

  it("an issue marks the value unless told to mark the key, and carries a fix only when given one", () => {
    expect(error(["a"], "m")).toEqual({
      severity: "error",
      path: ["a"],
      message: "m",
      atKey: false,
    });
    expect(warning(["a", 1], "w", true, { kind: "remove" })).toEqual({
      severity: "warning",
      path: ["a", 1],
      message: "w",
      atKey: true,
      fix: { kind: "remove" },
    });
    expect(warning(["a"], "w")).toEqual({
      severity: "warning",
      path: ["a"],
      message: "w",
      atKey: false,
    });
    expect("fix" in error(["a"], "m", true, undefined)).toBe(false);
    expect(error(["a"], "m", false, { kind: "replace", with: "b" }).fix).toEqual({
      kind: "replace",
      with: "b",
    });
  });
});

describe("a catalogue value as a ToolCatalog", () => {
  it("a list of entries takes the default scale and the documented defaults; given values are kept", () => {
    const full = {
      name: "b",
      summary: "Full",
      visibility: "internal" as const,
      cost_usd: 0.5,
      safety_level: "critical",
      requires_capability: "net",
      category: "web",
      trigger_keywords: ["go"],
    };
    const built = catalogFromJson([{ name: "a" }, full]);
    expect("catalog" in built && built.catalog.entries[1]).toEqual({
      name: "b",
      summary: "Full",
      visibility: "internal",
      costUsd: 0.5,
      safetyLevel: "critical",
      requiresCapability: "net",
      category: "web",
      triggerKeywords: ["go"],
    });
    expect("catalog" in built && built.catalog.safetyLevels).toEqual([
      "none",
      "low",
      "medium",
      "high",
      "critical",
    ]);
    expect("catalog" in built && built.catalog.entries[0]).toEqual({
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

  it("an object gives its own scale, or the default one when it has none", () => {
    const own = catalogFromJson({ safety_levels: ["green", "red"], tools: [{ name: "a" }] });
    expect("catalog" in own && own.catalog.safetyLevels).toEqual(["green", "red"]);
    const none = catalogFromJson({ tools: [{ name: "a", safety_level: "low" }] });
    expect("catalog" in none && none.catalog.get("a")?.safetyLevel).toBe("low");
  });

  it("a repeated name and a level off the scale are errors at their place, every one of them", () => {
    expect(
      catalogFromJson(
        [
          { name: "a", safety_level: "ultra" },
          { name: "a" },
          { name: "b", safety_level: null },
          { name: "a", safety_level: "low" },
        ],
        ["catalog"],
      ),
    ).toEqual({
      issues: [
        error(
          ["catalog", 0, "safety_level"],
          "safety level 'ultra' is not on the scale (none, low, medium, high, critical)",
        ),
        error(["catalog", 1, "name"], "duplicate tool name 'a' in the catalogue"),
        error(["catalog", 3, "name"], "duplicate tool name 'a' in the catalogue"),
      ],
    });
    expect(
      catalogFromJson({ safety_levels: ["green"], tools: [{ name: "x", safety_level: "low" }] }),
    ).toEqual({
      issues: [
        error(["tools", 0, "safety_level"], "safety level 'low' is not on the scale (green)"),
      ],
    });
  });
});
