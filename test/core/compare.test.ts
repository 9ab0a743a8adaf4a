import { describe, expect, it } from "vitest";
import { compareReports } from "../../src/core/compare.js";
import type { FixtureJson } from "../../src/core/fixture/schema.js";
import { type RunReport } from "../../src/core/report.js";
import { runFixture } from "../../src/core/run-fixture.js";
import { loadValid, recordOf, reportOf } from "./spec/helpers.js";
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

/** A logged stage record: a select by default, with the tools it dropped. */
const record = (
  stage: string,
  kept: string[],
  dropped: string[] = [],
  more: Partial<StageRecord> = {},
): StageRecord => recordOf(stage, kept, { dropped, ...more });
/** A report read from a log, its names those the last stage handed on unless given. */
const logged = (trace: StageRecord[], more: Partial<RunReport> = {}): RunReport =>
  reportOf({
    origin: { kind: "log", line: 1, index: 0 },
    file: "x.log",
    offered: ["a", "b"],
    names: trace.at(-1)!.kept,
    trace,
    ...more,
  });

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
    // The other way round: a stage disabled in the base run.
    expect(compareReports(variant, runFixture(fixture)).stages[2]).toMatchObject({
      base: "disabled",
      variant: "abstain",
      forced: { base: null, variant: "a" },
    });
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

  it("a final set in another order is changed, with no name on one side only", () => {
    const trace = [record("s", ["a", "b"])];
    const comparison = compareReports(
      logged(trace, { names: ["a", "b"] }),
      logged(trace, { names: ["b", "a"] }),
    );
    expect(comparison.final).toEqual({ onlyBase: [], onlyVariant: [], orderChanged: true });
    expect(comparison.stages.map((stage) => stage.changed)).toEqual([false]);
    expect(comparison.changed).toBe(true);
  });

  it("final names are compared as a list, not as one joined string", () => {
    const trace = [record("s", ["ab", "c"])];
    const comparison = compareReports(
      logged(trace, { names: ["ab", "c"] }),
      logged(trace, { names: ["a", "bc"] }),
    );
    expect(comparison.final).toEqual({
      onlyBase: ["ab", "c"],
      onlyVariant: ["a", "bc"],
      orderChanged: true,
    });
  });

  it("a run that fails on one side only is changed, and both errors are reported", () => {
    const trace = [record("s", ["a"])];
    const error = {
      kind: "ForcedToolUnavailable" as const,
      message: "forced tool 'x' is not available",
      tool: "x",
      droppedBy: null,
    };
    const comparison = compareReports(logged(trace), logged(trace, { error }));
    expect(comparison.error).toEqual({ base: null, variant: "forced tool 'x' is not available" });
    expect(comparison.forced.changed).toBe(false);
    expect(comparison.changed).toBe(true);
    expect(compareReports(logged(trace, { error }), logged(trace, { error })).changed).toBe(false);
  });

  it("a stage differs by what it added, what it reinstated, or the choice it forced", () => {
    const base = logged([record("s", ["a"], ["b"], { added: ["c"] })]);
    const added = compareReports(base, logged([record("s", ["a"], ["b"], { added: ["d"] })]));
    expect(added.stages[0]).toMatchObject({
      added: { onlyBase: ["c"], onlyVariant: ["d"] },
      output: { onlyBase: ["c"], onlyVariant: ["d"] },
      changed: true,
    });
    const reinstated = compareReports(
      logged([record("s", ["a"], [], { forcedChoice: "b", reinstated: ["b"] })]),
      logged([record("s", ["a"], ["b"], { forcedChoice: "b" })]),
    );
    expect(reinstated.stages[0]).toMatchObject({
      reinstated: { onlyBase: ["b"], onlyVariant: [] },
      dropped: { onlyBase: [], onlyVariant: ["b"] },
      output: { onlyBase: ["b"], onlyVariant: [] },
      actionChanged: false,
      changed: true,
    });
    const forced = compareReports(
      logged([record("s", ["a"], [], { action: "force", forcedChoice: "a" })]),
      logged([record("s", ["a"], [], { action: "force", forcedChoice: null })]),
    );
    expect(forced.stages[0]).toMatchObject({
      forced: { base: "a", variant: null },
      dropped: { onlyBase: [], onlyVariant: [] },
      output: { onlyBase: [], onlyVariant: [] },
      actionChanged: false,
      changed: true,
    });
  });

  it("a stage only the base run has is absent from the variant, and hands on nothing there", () => {
    const comparison = compareReports(
      logged([record("s", ["a"]), record("t", ["a"], [], { forcedChoice: "a" })]),
      logged([record("s", ["a"])]),
    );
    expect(comparison.stages[1]).toEqual({
      stage: "t",
      base: "select",
      variant: "absent",
      actionChanged: true,
      dropped: { onlyBase: [], onlyVariant: [] },
      added: { onlyBase: [], onlyVariant: [] },
      reinstated: { onlyBase: [], onlyVariant: [] },
      output: { onlyBase: ["a"], onlyVariant: [] },
      forced: { base: "a", variant: null },
      changed: true,
    });
  });

  it("a repeated stage's second occurrence is kept apart from a stage whose name ends in 1", () => {
    const comparison = compareReports(
      logged([record("s", ["a"]), record("s", ["a"]), record("s1", ["a"])]),
      logged([
        record("s", ["a"]),
        record("s", ["a"]),
        record("s1", ["a"], [], { action: "abstain" }),
      ]),
    );
    expect(comparison.stages.map((stage) => [stage.stage, stage.base, stage.variant])).toEqual([
      ["s", "select", "select"],
      ["s", "select", "select"],
      ["s1", "select", "abstain"],
    ]);
  });

  it("a run is changed when one stage differs, even with the same final set and choice", () => {
    const comparison = compareReports(
      logged([record("s", ["a"], ["b"]), record("t", ["a"]), record("u", ["a"])]),
      logged([record("s", ["a", "b"]), record("t", ["a"], ["b"]), record("u", ["a"])]),
    );
    expect(comparison.final).toEqual({ onlyBase: [], onlyVariant: [], orderChanged: false });
    expect(comparison.forced.changed).toBe(false);
    expect(comparison.stages.map((stage) => stage.changed)).toEqual([true, true, false]);
    expect(comparison.changed).toBe(true);
  });

  it("a stage name logged three times lines up occurrence by occurrence", () => {
    const thrice = (third: StageRecord["action"]) =>
      logged([record("s", ["a"]), record("s", ["a"]), record("s", ["a"], [], { action: third })]);
    const comparison = compareReports(thrice("select"), thrice("abstain"));
    expect(comparison.stages.map((stage) => [stage.base, stage.variant])).toEqual([
      ["select", "select"],
      ["select", "select"],
      ["select", "abstain"],
    ]);
  });
});
