import { describe, expect, it } from "vitest";
import { compareReports } from "../../src/core/compare.js";
import {
  comparisonSummary,
  decidingDifferently,
  stageDifferences,
} from "../../src/core/compare-text.js";
import type { FixtureJson } from "../../src/core/fixture/schema.js";
import { sentenceText } from "../../src/core/lineage.js";
import { runFixture } from "../../src/core/run-fixture.js";
import { applyWhatIf } from "../../src/core/whatif.js";
import { loadValid } from "./spec/helpers.js";

const json: FixtureJson = {
  catalog: [{ name: "a", safety_level: "low" }, { name: "b", safety_level: "high" }, { name: "c" }],
  pipeline: [
    { kind: "forced", resolver: { kind: "fixed", tool: "a" } },
    { kind: "policy", max_safety_level: "medium" },
    { kind: "allowlist", always_include: ["c"] },
  ],
};
const plain = (parts: Parameters<typeof sentenceText>[0]) => sentenceText(parts, (n) => n);

describe("comparison text", () => {
  it("says what each side's final palette has that the other lacks in one sentence", async () => {
    const fixture = await loadValid(json);
    const base = runFixture(fixture);
    const variant = runFixture(fixture, applyWhatIf(fixture.json, { enabled: { policy: false } }));
    const summary = plain(comparisonSummary(compareReports(base, variant), ["one #1", "two #3"]));
    expect(summary).toBe("2 stages differ. Final palette: b only in two #3.");
  });

  it("joins both sides' final differences with a semicolon, and says a changed forced choice", () => {
    const comparison = {
      stages: [],
      final: { onlyBase: ["x"], onlyVariant: ["y", "z"], orderChanged: true },
      forced: { base: "x", variant: null, changed: true },
      error: { base: null, variant: null },
      changed: true,
    };
    expect(plain(comparisonSummary(comparison, ["A", "B"]))).toBe(
      "Every stage decides the same. Final palette: y, z only in B; x only in A. Forced choice: x → none.",
    );
  });

  it("says a tool one side hands on at a stage is in the other's final palette all the same", async () => {
    const fixture = await loadValid(json);
    const base = runFixture(fixture);
    // With the allowlist off nothing is handed on there, though the what-if ends with a and c.
    const variant = runFixture(
      fixture,
      applyWhatIf(fixture.json, { enabled: { allowlist: false } }),
    );
    const comparison = compareReports(base, variant);
    const allowlist = [...decidingDifferently(comparison)].find((s) => s.stage === "allowlist")!;
    const lines = stageDifferences(allowlist, ["A", "B"], true, [base.names, variant.names]).map(
      plain,
    );
    expect(lines).toContain(
      `handed on here only in A: ${base.names.join(", ")}; B ends with ${variant.names.length === base.names.length ? "them" : variant.names.join(", ")} too`,
    );
  });

  it("lists twenty names in a clause, then how many more", () => {
    const comparison = {
      stages: [],
      final: {
        onlyBase: [],
        onlyVariant: Array.from({ length: 23 }, (_, i) => `t${i}`),
        orderChanged: true,
      },
      forced: { base: null, variant: null, changed: false },
      error: { base: null, variant: null },
      changed: true,
    };
    expect(plain(comparisonSummary(comparison, ["A", "B"]))).toMatch(
      /t19 … and 3 more only in B\.$/,
    );
  });
});
