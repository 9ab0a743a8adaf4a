import { describe, expect, it } from "vitest";
import type { FixtureJson, StageJson } from "../../src/core/fixture/schema.js";
import { explainUnavailable } from "../../src/core/forced-unavailable.js";
import { sentenceText } from "../../src/core/lineage.js";
import { recordOf, reportOf, run } from "./spec/helpers.js";

async function explain(json: FixtureJson) {
  const found = explainUnavailable(await run(json));
  if (found === null) throw new Error("the run did not fail");
  return { cause: found.cause, droppedBy: found.droppedBy, text: sentenceText(found.parts) };
}

const forceSql: StageJson = { kind: "forced", resolver: { kind: "fixed", tool: "sql" } };
const onlySearch = { kind: "lazy", allowed_names: ["search"] } satisfies StageJson;

describe("explainUnavailable", () => {
  it("a tool dropped by a protecting stage before the force was set: nothing reinstated it", async () => {
    expect(
      await explain({
        offered: ["search", "sql"],
        pipeline: [onlySearch, forceSql],
      }),
    ).toEqual({
      cause: "before-force",
      droppedBy: "lazy",
      text: "`sql` is the forced choice but not in the final palette: it was dropped by `lazy` before `forced` set the force, so nothing reinstated it.",
    });
  });

  it("a tool dropped while forced by a stage that does not protect the forced choice: a hard filter", async () => {
    expect(
      await explain({
        offered: ["search", "sql"],
        pipeline: [forceSql, { ...onlySearch, protects_forced: false }],
      }),
    ).toEqual({
      cause: "hard-filter",
      droppedBy: "lazy",
      text: "`sql` is the forced choice but not in the final palette: it was dropped by `lazy`, a hard filter (a stage that does not protect the forced choice).",
    });
  });

  it("a tool dropped after its force was released, and forced again later", async () => {
    expect(
      await explain({
        offered: ["search", "sql"],
        pipeline: [
          forceSql,
          { kind: "scripted", name: "release", outcome: { force: null } },
          onlySearch,
          { kind: "scripted", name: "again", outcome: { force: "sql" } },
        ],
      }),
    ).toEqual({
      cause: "after-release",
      droppedBy: "lazy",
      text: "`sql` is the forced choice but not in the final palette: it was dropped by `lazy` after `release` released the force, so nothing reinstated it, and `again` set the force again later.",
    });
  });

  it("a tool dropped after the force moved to another tool", async () => {
    expect(
      await explain({
        offered: ["search", "sql"],
        pipeline: [
          forceSql,
          { kind: "scripted", name: "other", outcome: { force: "search" } },
          onlySearch,
          { kind: "scripted", name: "again", outcome: { force: "sql" } },
        ],
      }),
    ).toMatchObject({
      cause: "after-release",
      text: "`sql` is the forced choice but not in the final palette: it was dropped by `lazy` after `other` moved the force to `search`, so nothing reinstated it, and `again` set the force again later.",
    });
  });

  it("the last drop decides: a hard filter after an earlier drop that a later stage undid", async () => {
    expect(
      await explain({
        offered: ["search", "sql"],
        pipeline: [
          onlySearch,
          { kind: "allowlist", always_include: ["sql"] },
          forceSql,
          {
            kind: "scripted",
            name: "cut",
            outcome: { select: ["search"] },
            protects_forced: false,
          },
        ],
      }),
    ).toMatchObject({ cause: "hard-filter", droppedBy: "cut" });
  });

  it("a tool never offered to the pipeline", async () => {
    expect(
      await explain({
        offered: ["search"],
        pipeline: [forceSql],
      }),
    ).toEqual({
      cause: "never-offered",
      droppedBy: null,
      text: "`sql` is the forced choice but not in the final palette: it was never offered to the pipeline.",
    });
  });

  it("a tool the router did not route in capability mode", async () => {
    expect(
      await explain({
        routing: { registered: ["search", "sql"], entries: [{ content: "search" }] },
        pipeline: [forceSql],
      }),
    ).toMatchObject({
      cause: "never-offered",
      text: "`sql` is the forced choice but not in the final palette: the router did not route it, so it was never offered to the pipeline.",
    });
  });

  it("a logged trace that records no stage dropping an offered tool, or no force being set", () => {
    const error = {
      kind: "ForcedToolUnavailable",
      message: "",
      tool: "sql",
      droppedBy: null,
    } as const;
    const unrecorded = explainUnavailable(
      reportOf({ offered: ["sql"], trace: [recordOf("a", [])], error }),
    );
    expect(unrecorded && sentenceText(unrecorded.parts)).toBe(
      "`sql` is the forced choice but not in the final palette: no stage is recorded dropping it.",
    );
    const unset = explainUnavailable(
      reportOf({ offered: ["sql"], trace: [recordOf("a", [], { dropped: ["sql"] })], error }),
    );
    expect(unset && sentenceText(unset.parts)).toBe(
      "`sql` is the forced choice but not in the final palette: it was dropped by `a` while it was not the forced choice, so nothing reinstated it.",
    );
  });

  it("is null for a run that did not fail", async () => {
    expect(explainUnavailable(await run({ offered: ["sql"], pipeline: [forceSql] }))).toBeNull();
  });
});
