import { describe, expect, it } from "vitest";
import { compareReports } from "../../src/core/compare.js";
import type { FixtureJson } from "../../src/core/fixture/schema.js";
import { type RunReport } from "../../src/core/report.js";
import { runFixture } from "../../src/core/run-fixture.js";
import { loadValid } from "./spec/helpers.js";
import type { StageRecord } from "../../src/core/contract.js";
import { applyWhatIf } from "../../src/core/whatif.js";

const base: FixtureJson = {
  catalog: [{ name: "a", safety_level: "low" }, { name: "b", safety_level: "high" }, { name: "c" }],
  pipeline: [
    { kind: "forced", resolver: { kind: "fixed", tool: "a" } },
    { kind: "policy", max_safety_level: "medium" },
    { kind: "allowlist", always_include: ["c"] },
  ],
};

const load = (json: FixtureJson) => loadValid(json);

describe("compareReports", () => {
  it("finds nothing changed between a run and itself", async () => {
    const report = runFixture(await load(base));
    const comparison = compareReports(report, report);
    expect(comparison.changed).toBe(false);
    expect(comparison.stages.every((stage) => !stage.changed)).toBe(true);
  });

  it("reports changed actions, names per stage, the final set and the forced choice", async () => {
    const fixture = await load(base);
    const variant = runFixture(
      fixture,
      applyWhatIf(fixture.json, { forcedTools: { forced: null }, enabled: { allowlist: false } }),
    );
    const comparison = compareReports(runFixture(fixture), variant);
    const [forced, policy, allowlist] = comparison.stages;
    expect(forced).toMatchObject({
      stage: "forced",
      base: "force",
      variant: "force",
      actionChanged: false,
      forced: { base: "a", variant: null },
      changed: true,
    });
    expect(policy).toMatchObject({
      base: "select",
      variant: "select",
      actionChanged: false,
      dropped: { onlyBase: [], onlyVariant: [] },
      forced: { base: "a", variant: null },
      changed: true,
    });
    expect(allowlist).toMatchObject({ base: "abstain", variant: "disabled", actionChanged: true });
    expect(comparison.final).toEqual({ onlyBase: [], onlyVariant: [], orderChanged: false });
    expect(comparison.forced).toEqual({ base: "a", variant: null, changed: true });
    expect(comparison.changed).toBe(true);
  });

  it("lists the names a stage dropped and handed on in one run only", async () => {
    const fixture = await load(base);
    const variant = runFixture(
      fixture,
      applyWhatIf(fixture.json, { policies: { policy: { maxSafetyLevel: "critical" } } }),
    );
    const policy = compareReports(runFixture(fixture), variant).stages[1]!;
    expect(policy.dropped).toEqual({ onlyBase: ["b"], onlyVariant: [] });
    expect(policy.output).toEqual({ onlyBase: [], onlyVariant: ["b"] });
    expect(compareReports(runFixture(fixture), variant).final).toEqual({
      onlyBase: [],
      onlyVariant: ["b"],
      orderChanged: true,
    });
  });

  it("lines up two logged traces by stage name and occurrence, and stages one side lacks", () => {
    const record = (stage: string, kept: string[], dropped: string[] = []): StageRecord => ({
      stage,
      action: "select",
      kept,
      dropped,
      added: [],
      reinstated: [],
      forcedChoice: null,
      detail: "",
      degraded: false,
      reasons: {},
    });
    const logged = (trace: StageRecord[]): RunReport => ({
      origin: { kind: "log", line: 1, index: 0 },
      file: "x.log",
      description: "",
      offered: ["a", "b"],
      tools: [],
      names: trace.at(-1)!.kept,
      forcedChoice: null,
      trace,
      stages: [],
      error: null,
      manifest: [],
      capability: null,
      durationMs: 0,
    });
    const comparison = compareReports(
      logged([record("s", ["a", "b"]), record("s", ["a"], ["b"])]),
      logged([record("s", ["a", "b"]), record("s", ["a", "b"]), record("t", ["a"], ["b"])]),
    );
    expect(
      comparison.stages.map((stage) => [stage.stage, stage.base, stage.variant, stage.changed]),
    ).toEqual([
      ["s", "select", "select", false],
      ["s", "select", "select", true],
      ["t", "absent", "select", true],
    ]);
  });
});
