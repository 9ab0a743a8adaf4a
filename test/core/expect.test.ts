import { describe, expect, it } from "vitest";
import {
  checkExpectations,
  expectationFailures,
  updatedExpectation,
} from "../../src/core/expect.js";
import type { ExpectJson } from "../../src/core/fixture/schema.js";
import { run } from "./spec/helpers.js";

// Offered a b c d: lazy drops c and d, a scripted stage then puts d back (added) and drops b.
const narrowing = {
  offered: ["a", "b", "c", "d"],
  catalog: [{ name: "a" }, { name: "b" }, { name: "c" }, { name: "d" }],
  pipeline: [
    { kind: "lazy", allowed_names: ["a", "b"] },
    { kind: "forced", resolver: { kind: "fixed", tool: "a" } },
    { kind: "scripted", name: "pick", outcome: { select: ["a", "d"] } },
  ],
};

// The forced tool c is dropped by a hard-filter lazy stage: the run fails.
const failing = {
  offered: ["a", "b", "c"],
  pipeline: [
    { kind: "forced", resolver: { kind: "fixed", tool: "c" } },
    { kind: "lazy", allowed_names: ["a"], protects_forced: false },
  ],
};

const check = async (fixture: object, block: ExpectJson | undefined) =>
  checkExpectations(block, await run(fixture));

describe("checkExpectations", () => {
  it("a successful run with no expect block meets it; a failed one does not, at `expect`", async () => {
    expect(await check(narrowing, undefined)).toEqual([]);
    const report = await run(failing);
    expect(checkExpectations(undefined, report)).toEqual([
      {
        key: "error",
        path: ["expect"],
        expected: null,
        actual: "ForcedToolUnavailable",
        message: `the run failed: ${report.error!.message}`,
      },
    ]);
  });

  it("an expected failure is met by the failure and missed by a success, at `expect.error`", async () => {
    expect(await check(failing, { error: "ForcedToolUnavailable" })).toEqual([]);
    expect(await check(narrowing, { error: "ForcedToolUnavailable" })).toEqual([
      {
        key: "error",
        path: ["expect", "error"],
        expected: "ForcedToolUnavailable",
        actual: null,
        message: "expected the run to fail with ForcedToolUnavailable, but it succeeded",
      },
    ]);
    expect((await check(failing, { error: null }))[0]).toMatchObject({
      path: ["expect", "error"],
      expected: null,
      actual: "ForcedToolUnavailable",
    });
  });

  it("names must match exactly, in order", async () => {
    expect(await check(narrowing, { names: ["a", "d"] })).toEqual([]);
    expect(await check(narrowing, { names: ["d", "a"] })).toEqual([
      {
        key: "names",
        path: ["expect", "names"],
        expected: ["d", "a"],
        actual: ["a", "d"],
        message: "final names differ",
      },
    ]);
  });

  it("the forced choice must match, null included", async () => {
    expect(await check(narrowing, { forced_choice: "a" })).toEqual([]);
    expect(await check(narrowing, { forced_choice: null })).toEqual([
      {
        key: "forced_choice",
        path: ["expect", "forced_choice"],
        expected: null,
        actual: "a",
        message: "forced choice differs",
      },
    ]);
  });

  it("each stage's action is checked; a stage that did not run did 'not run'", async () => {
    expect(await check(narrowing, { actions: { lazy: "select", forced: "force" } })).toEqual([]);
    expect(
      await check(narrowing, { actions: { lazy: "abstain", forced: "force", ghost: "select" } }),
    ).toEqual([
      {
        key: "actions",
        path: ["expect", "actions", "lazy"],
        expected: "abstain",
        actual: "select",
        message: "stage 'lazy' did select, not abstain",
      },
      {
        key: "actions",
        path: ["expect", "actions", "ghost"],
        expected: "select",
        actual: "not run",
        message: "stage 'ghost' did not run, not select",
      },
    ]);
  });

  it("dropped_by names the stage that dropped a tool last, or null for a kept tool", async () => {
    expect(await check(narrowing, { dropped_by: { b: "pick", c: "lazy", a: null } })).toEqual([]);
    const mismatches = await check(narrowing, { dropped_by: { b: "lazy", a: "lazy", c: null } });
    expect(mismatches).toEqual([
      {
        key: "dropped_by",
        path: ["expect", "dropped_by", "b"],
        expected: "lazy",
        actual: "pick",
        message: "'b' was dropped last by 'pick', not by 'lazy'",
      },
      {
        key: "dropped_by",
        path: ["expect", "dropped_by", "a"],
        expected: "lazy",
        actual: null,
        message: "'a' was never dropped, not by 'lazy'",
      },
      {
        key: "dropped_by",
        path: ["expect", "dropped_by", "c"],
        expected: null,
        actual: "lazy",
        message: "'c' was dropped last by 'lazy', not kept",
      },
    ]);
  });
});

describe("updatedExpectation", () => {
  it("with no block, expects the names and the forced choice the run decided", async () => {
    expect(updatedExpectation(undefined, await run(narrowing))).toEqual({
      expect: { names: ["a", "d"], forced_choice: "a" },
      changes: [
        { key: "names", before: undefined, after: ["a", "d"] },
        { key: "forced_choice", before: undefined, after: "a" },
      ],
    });
  });

  it("a failed run gains `error` even when the block did not name it", async () => {
    const report = await run(failing);
    expect(updatedExpectation({ names: ["a"] }, report)).toEqual({
      expect: { names: ["a"], error: "ForcedToolUnavailable" },
      changes: [{ key: "error", before: undefined, after: "ForcedToolUnavailable" }],
    });
  });

  it("keeps only the user's keys, stages and tools; a stage that did not run leaves `actions`", async () => {
    const updated = updatedExpectation(
      {
        error: null,
        actions: { lazy: "abstain", forced: "force", ghost: "select" },
        dropped_by: { b: "lazy", c: "lazy" },
      },
      await run(narrowing),
    );
    expect(updated.expect).toEqual({
      error: null,
      actions: { lazy: "select", forced: "force" },
      dropped_by: { b: "pick", c: "lazy" },
    });
    // The stage that did not run leaves no key behind, not even one holding undefined.
    expect(Object.keys(updated.expect.actions!)).toEqual(["lazy", "forced"]);
    expect(updated.changes).toEqual([
      { key: "actions.lazy", before: "abstain", after: "select" },
      { key: "actions.ghost", before: "select", after: undefined },
      { key: "dropped_by.b", before: "lazy", after: "pick" },
    ]);
  });

  it("an expectation the run already meets changes nothing", async () => {
    const block = { names: ["a", "d"], forced_choice: "a", error: null };
    expect(updatedExpectation(block, await run(narrowing))).toEqual({
      expect: block,
      changes: [],
    });
  });

  it("a failed run whose block names `error` updates it once", async () => {
    expect(updatedExpectation({ error: null }, await run(failing))).toEqual({
      expect: { error: "ForcedToolUnavailable" },
      changes: [{ key: "error", before: null, after: "ForcedToolUnavailable" }],
    });
  });

  it("a successful run sets a stale `error` back to null", async () => {
    expect(updatedExpectation({ error: "ForcedToolUnavailable" }, await run(narrowing))).toEqual({
      expect: { error: null },
      changes: [{ key: "error", before: "ForcedToolUnavailable", after: null }],
    });
  });
});

describe("expectationFailures", () => {
  it("a names failure shows both lists and the stages that dropped a missing name or added an extra one", async () => {
    const report = await run(narrowing);
    expect(expectationFailures({ names: ["a", "b", "c"] }, report)).toEqual([
      {
        key: "names",
        text: "final names: expected [a, b, c], got [a, d]",
        stages: ["pick", "lazy"],
      },
    ]);
    // A name missing because it was never offered has no stage to blame.
    expect(expectationFailures({ names: ["a", "d", "zz"] }, report)).toEqual([
      { key: "names", text: "final names: expected [a, d, zz], got [a, d]", stages: [] },
    ]);
  });

  it("a forced-choice failure points at the stage that last changed the choice", async () => {
    const report = await run({
      offered: ["a", "b"],
      pipeline: [
        { kind: "lazy", allowed_names: ["a", "b"] },
        { kind: "forced", resolver: { kind: "fixed", tool: "a" } },
        { kind: "scripted", name: "again", outcome: { force: "b" } },
        { kind: "lazy", name: "after", allowed_names: ["a", "b"] },
      ],
    });
    expect(expectationFailures({ forced_choice: null }, report)).toEqual([
      { key: "forced_choice", text: "forced choice: expected none, got b", stages: ["again"] },
    ]);
    const unforced = await run({
      offered: ["a"],
      pipeline: [{ kind: "lazy", allowed_names: ["a"] }],
    });
    expect(expectationFailures({ forced_choice: "a" }, unforced)).toEqual([
      { key: "forced_choice", text: "forced choice: expected a, got none", stages: [] },
    ]);
  });

  it("an action failure points at its stage; a dropped_by failure at both stages named", async () => {
    const report = await run(narrowing);
    expect(
      expectationFailures(
        { actions: { forced: "abstain" }, dropped_by: { b: "lazy", a: null } },
        report,
      ),
    ).toEqual([
      { key: "actions", text: "stage 'forced' did force, not abstain", stages: ["forced"] },
      {
        key: "dropped_by",
        text: "'b' was dropped last by 'pick', not by 'lazy'",
        stages: ["lazy", "pick"],
      },
    ]);
  });

  it("an unexpected failure points at the stage that dropped the forced tool", async () => {
    const report = await run(failing);
    expect(expectationFailures({}, report)).toEqual([
      { key: "error", text: `the run failed: ${report.error!.message}`, stages: ["lazy"] },
    ]);
    expect(expectationFailures({}, await run(narrowing))).toEqual([]);
  });

  it("an extra name points at the stage that added it last, and at none when it was offered all along", async () => {
    const report = await run({
      offered: ["a", "b"],
      catalog: [{ name: "a" }, { name: "b" }, { name: "d" }],
      pipeline: [
        { kind: "scripted", name: "first", outcome: { select: ["a", "b", "d"] } },
        { kind: "lazy", allowed_names: ["a", "b"] },
        { kind: "scripted", name: "again", outcome: { select: ["a", "b", "d"] } },
      ],
    });
    expect(report.names).toEqual(["a", "b", "d"]);
    expect(expectationFailures({ names: ["a", "b"] }, report)).toEqual([
      { key: "names", text: "final names: expected [a, b], got [a, b, d]", stages: ["again"] },
    ]);
    expect(expectationFailures({ names: ["a", "d"] }, report)).toEqual([
      { key: "names", text: "final names: expected [a, d], got [a, b, d]", stages: [] },
    ]);
  });

  it("an expected failure that did not happen, or a force of a tool never offered, has no stage to blame", async () => {
    expect(expectationFailures({ error: "ForcedToolUnavailable" }, await run(narrowing))).toEqual([
      {
        key: "error",
        text: "expected the run to fail with ForcedToolUnavailable, but it succeeded",
        stages: [],
      },
    ]);
    const never = await run({
      offered: ["a"],
      pipeline: [{ kind: "forced", resolver: { kind: "fixed", tool: "ghost" } }],
    });
    expect(never.error).toMatchObject({ tool: "ghost", droppedBy: null });
    expect(expectationFailures({}, never).map((failure) => failure.stages)).toEqual([[]]);
  });

  it("a tool expected dropped but never dropped points at the expected stage only", async () => {
    expect(expectationFailures({ dropped_by: { a: "lazy" } }, await run(narrowing))).toEqual([
      { key: "dropped_by", text: "'a' was never dropped, not by 'lazy'", stages: ["lazy"] },
    ]);
  });
});
