import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { scanText } from "../../../src/core/traces/scan.js";
import { traceToFixture } from "../../../src/core/traces/to-fixture.js";
import type { LoggedTrace } from "../../../src/core/traces/trace.js";
import { engineFixture, logged, loggedRecord, runJson } from "./engine.js";

/** Property runs on a busy 2-core machine can take seconds. */
const PROPERTY_TIMEOUT = 60_000;

function onlyTrace(text: string): LoggedTrace {
  const { traces, problems } = scanText(text);
  expect(problems).toEqual([]);
  expect(traces).toHaveLength(1);
  return traces[0]!.trace;
}

describe("traceToFixture", () => {
  it(
    "replays a logged trace exactly: every record, the final names, the forced choice, the error",
    async () => {
      await fc.assert(
        fc.asyncProperty(engineFixture, fc.boolean(), async (json, lists) => {
          const original = await runJson(json);
          const trace = onlyTrace(
            JSON.stringify(logged(original, json.turn, { lists, extras: true })),
          );
          const { fixture, caveats } = traceToFixture(trace, { file: "app.log", line: 1 });
          expect(caveats).toEqual([]);
          const replay = await runJson(fixture);
          expect(replay.trace).toEqual(original.trace);
          expect(replay.forcedChoice).toBe(original.forcedChoice);
          expect(replay.error?.kind ?? null).toBe(original.error?.kind ?? null);
          if (lists) {
            expect(replay.names).toEqual(original.names);
            expect(replay.offered).toEqual(original.offered);
          }
          expect(fixture.expect?.names).toEqual(replay.names);
        }),
        { numRuns: 300 },
      );
    },
    PROPERTY_TIMEOUT,
  );

  it(
    "the generated pipelines reach the cases the reinstatement rule is about (a fixed sample, so the count is stable)",
    async () => {
      const seen = { reinstated: 0, hardFilter: 0, error: 0 };
      for (const json of fc.sample(engineFixture, { numRuns: 300, seed: 20261130 })) {
        const original = await runJson(json);
        if (original.trace.some((r) => r.reinstated.length > 0)) seen.reinstated++;
        if (
          original.trace.some((r) => r.forcedChoice !== null && r.dropped.includes(r.forcedChoice))
        )
          seen.hardFilter++;
        if (original.error) seen.error++;
      }
      for (const [what, count] of Object.entries(seen)) expect(count, what).toBeGreaterThan(5);
    },
    PROPERTY_TIMEOUT,
  );

  it(
    "replays a Python record (no degraded, no reasons) action for action and name for name",
    async () => {
      await fc.assert(
        fc.asyncProperty(engineFixture, async (json) => {
          const original = await runJson(json);
          const trace = onlyTrace(
            JSON.stringify(logged(original, json.turn, { lists: false, extras: false })),
          );
          const replay = await runJson(traceToFixture(trace, { file: "app.log", line: 1 }).fixture);
          const strip = (r: (typeof original.trace)[number]) => ({
            ...r,
            degraded: r.action === "error",
            reasons: {},
          });
          expect(replay.trace.map(strip)).toEqual(original.trace.map(strip));
        }),
        { numRuns: 150 },
      );
    },
    PROPERTY_TIMEOUT,
  );

  it("writes a stage's extras only where the record shows them, and the force from the last record", () => {
    const records = [
      loggedRecord("force", "force", { kept: ["a", "b", "c"], forced_choice: "a" }),
      loggedRecord("hard", "select", {
        kept: ["b", "c"],
        dropped: ["a"],
        forced_choice: "a",
        reasons: { a: "not for you" },
      }),
      loggedRecord("soft", "select", {
        kept: ["b"],
        dropped: ["c"],
        forced_choice: "a",
        reasons: {},
      }),
      loggedRecord("odd", "abstain", { kept: ["b"], forced_choice: "a", degraded: true }),
      loggedRecord("boom", "error", {
        kept: ["b"],
        forced_choice: "a",
        degraded: true,
        detail: "x",
      }),
    ];
    const trace = onlyTrace(JSON.stringify({ trace: records }));
    const { fixture } = traceToFixture(trace, { file: "app.log", line: 3 });
    expect(fixture.pipeline).toEqual([
      { kind: "scripted", name: "force", outcome: { force: "a" } },
      {
        kind: "scripted",
        name: "hard",
        outcome: { select: ["b", "c"] },
        // It dropped the tool in force and nothing put it back: a hard filter.
        protects_forced: false,
        reasons: { a: "not for you" },
      },
      { kind: "scripted", name: "soft", outcome: { select: ["b"] } },
      { kind: "scripted", name: "odd", outcome: { abstain: true }, degraded: true },
      // An error is degraded by definition; its detail is what it raises.
      { kind: "scripted", name: "boom", outcome: { raise: "x" } },
    ]);
    expect(fixture.expect).toEqual({ names: ["b"], forced_choice: "a" });
    // A logged result's own forced choice wins over its last record's.
    const result = onlyTrace(JSON.stringify({ names: ["b"], forced_choice: null, trace: records }));
    expect(traceToFixture(result, { file: "app.log", line: 3 }).fixture.expect).toEqual({
      names: ["b"],
      forced_choice: null,
    });
  });

  it("plays a reinstated tool back from a protecting stage whose own answer lacked it", () => {
    const trace = onlyTrace(
      JSON.stringify({
        trace: [
          {
            stage: "forced",
            action: "force",
            kept: ["search", "sql"],
            forced_choice: "sql",
            detail: "",
          },
          {
            stage: "role",
            action: "select",
            kept: ["search"],
            dropped: [],
            added: [],
            reinstated: ["sql"],
            forced_choice: "sql",
            detail: "analyst",
          },
          {
            stage: "hard",
            action: "select",
            kept: [],
            dropped: ["search", "sql"],
            added: ["final_answer"],
            reinstated: [],
            forced_choice: "sql",
            detail: "",
          },
        ],
      }),
    );
    const { fixture } = traceToFixture(trace, { file: "app.log", line: 7 });
    expect(fixture.offered).toEqual(["search", "sql"]);
    expect(fixture.catalog).toEqual([{ name: "final_answer" }]);
    expect(fixture.pipeline).toEqual([
      { kind: "scripted", name: "forced", outcome: { force: "sql" } },
      { kind: "scripted", name: "role", outcome: { select: ["search"] }, detail: "analyst" },
      {
        kind: "scripted",
        name: "hard",
        outcome: { select: ["final_answer"] },
        protects_forced: false,
      },
    ]);
    expect(fixture.expect).toEqual({ names: ["final_answer"], forced_choice: "sql" });
  });

  it("carries the logged turn and names what a scripted stage cannot replay", () => {
    const trace = onlyTrace(
      JSON.stringify({
        turn: {
          query: "weather in Lyon?",
          role: "analyst",
          state: { tenant: "acme" },
          messages: [],
        },
        trace: [
          {
            stage: "custom",
            action: "select",
            kept: ["search"],
            dropped: [],
            added: [],
            reinstated: [],
            forced_choice: "search",
            detail: "",
          },
          { stage: "custom", action: "abstain", kept: ["search"], forced_choice: "search" },
        ],
      }),
    );
    const { fixture, caveats } = traceToFixture(trace, { file: "app.log", line: 3 });
    expect(fixture.turn).toEqual({
      query: "weather in Lyon?",
      role: "analyst",
      state: { tenant: "acme" },
      messages: [],
    });
    expect(fixture.pipeline!.map((stage) => stage.name)).toEqual(["custom", "custom (2)"]);
    expect(caveats).toEqual([
      "stage 'custom' (select) changed the forced choice to 'search'; a scripted stage changes it only with a force, so the replay does not",
      "stage 2 is renamed 'custom (2)': a fixture needs unique, non-empty stage names",
    ]);
  });

  it("names every other case the replay cannot reproduce, and keeps the logged id and error", () => {
    const long = `<function ${"x".repeat(90)}>`;
    const trace = onlyTrace(
      JSON.stringify({
        turn_id: "t-9",
        offered: ["a", "b", { repr: long }, { description: "no name" }],
        tools: ["a"],
        error: "forced tool 'z' is not among the final tools",
        forced_choice: "z",
        trace: [
          { stage: "", action: "abstain", kept: ["a", "b"], dropped: ["x"], forced_choice: null },
          { stage: "e", action: "error", kept: ["a", "b"], degraded: false, detail: "boom" },
          { stage: "e", action: "force", kept: ["a", "b"], forced_choice: "z", detail: "" },
          { stage: "e", action: "abstain", kept: ["a", "b"], forced_choice: "z", detail: "" },
          { stage: "g", action: "abstain", kept: ["a", "b"], added: ["q"], forced_choice: "z" },
          { stage: "h", action: "abstain", kept: ["a"], reinstated: ["b"], forced_choice: "z" },
          { stage: "i", action: "error", kept: ["a", "b"], forced_choice: "z", detail: "x" },
        ],
      }),
    );
    const { fixture, caveats } = traceToFixture(trace, { file: "app.log", line: 4 });
    expect(fixture.description).toBe("replay of the selection trace logged at app.log:4 (id t-9)");
    expect(fixture.catalog).toBeUndefined();
    expect(fixture.pipeline).toEqual([
      { kind: "scripted", name: "stage 1", outcome: { abstain: true } },
      { kind: "scripted", name: "e", outcome: { raise: "boom" } },
      { kind: "scripted", name: "e (2)", outcome: { force: "z" } },
      { kind: "scripted", name: "e (3)", outcome: { abstain: true } },
      { kind: "scripted", name: "g", outcome: { abstain: true } },
      { kind: "scripted", name: "h", outcome: { abstain: true } },
      { kind: "scripted", name: "i", outcome: { raise: "x" } },
    ]);
    expect(fixture.expect).toEqual({
      names: ["a"],
      forced_choice: "z",
      error: "ForcedToolUnavailable",
    });
    expect(caveats).toEqual([
      "stage 1 is renamed 'stage 1': a fixture needs unique, non-empty stage names",
      "stage '' (abstain) dropped, added or reinstated tools; the replay leaves the tools alone as the engine does",
      "stage 'e' raised but is not marked degraded; the replay marks it degraded as the engine does",
      "stage 3 is renamed 'e (2)': a fixture needs unique, non-empty stage names",
      "stage 4 is renamed 'e (3)': a fixture needs unique, non-empty stage names",
      "stage 'g' (abstain) dropped, added or reinstated tools; the replay leaves the tools alone as the engine does",
      "stage 'h' (abstain) dropped, added or reinstated tools; the replay leaves the tools alone as the engine does",
      `the log does not say which stage dropped the unnamed tool ${long.slice(0, 79)}…, {"description":"no name"}; no stage of the replay selects, so the replay keeps it`,
    ]);
  });

  it("keeps every unnamed tool when the final tools show some kept, naming the others in full", () => {
    const kept = { repr: "<function kept>" };
    const lost = { repr: `<${"y".repeat(78)}>` };
    const trace = onlyTrace(
      JSON.stringify({
        offered: ["a", kept, lost],
        tools: ["a", kept],
        trace: [{ stage: "s", action: "select", kept: ["a"], dropped: [], forced_choice: null }],
      }),
    );
    const { fixture, caveats } = traceToFixture(trace, { file: "f", line: 1 });
    expect(fixture.pipeline).toEqual([
      { kind: "scripted", name: "s", outcome: { select: ["a"] }, keeps_unnamed: true },
    ]);
    expect(caveats).toEqual([
      `the log does not say which stage dropped the unnamed tool ${lost.repr}; the replay keeps every unnamed tool through each stage, as the final tools show some kept`,
    ]);
  });

  it("warns that the order may differ when the log's lists contradict each other", () => {
    const select = (stage: string, kept: string[]) => ({
      stage,
      action: "select",
      kept,
      dropped: [],
      added: [],
      reinstated: [],
      forced_choice: null,
      detail: "",
    });
    const trace = onlyTrace(
      JSON.stringify({
        offered: ["a", "b"],
        tools: ["b", "a"],
        trace: [select("s", ["b", "a"]), { ...select("t", ["a", "b"]), degraded: true }],
      }),
    );
    const { fixture, caveats } = traceToFixture(trace, { file: "f", line: 1 });
    expect(fixture.description).toBe("replay of the selection trace logged at f:1");
    expect(fixture.pipeline?.[1]).toEqual({
      kind: "scripted",
      name: "t",
      outcome: { select: ["b", "a"] },
      degraded: true,
    });
    expect(caveats).toEqual([
      "the trace's lists of kept, dropped and added tools contradict each other; the order of tools may differ",
    ]);
  });

  describe("a tool whose repr shows no name", () => {
    const record = (stage: string, kept: string, dropped: string) =>
      `StageRecord(stage='${stage}', action='select', kept=('${kept}',), dropped=(${dropped}), added=(), reinstated=(), forced_choice=None, detail='')`;
    const lookup = { repr: "<function lookup at 0x7f3a>" };

    it("is offered and kept by every selecting stage when the final tools hold it", async () => {
      const trace = onlyTrace(
        `x SelectionResult(tools=('search', <function lookup at 0x7f3a>), forced_choice=None, trace=(${record("intent", "search", "'sql',")},))`,
      );
      const { fixture, caveats } = traceToFixture(trace, { file: "app.log", line: 1 });
      expect(caveats).toEqual([]);
      expect(fixture.offered).toEqual(["search", "sql", lookup]);
      expect(fixture.pipeline).toEqual([
        { kind: "scripted", name: "intent", outcome: { select: ["search"] }, keeps_unnamed: true },
      ]);
      const replay = await runJson(fixture);
      expect(replay.tools).toEqual(["search", lookup]);
      expect(replay.names).toEqual(fixture.expect?.names);
      expect(replay.trace.map((r) => [r.kept, r.dropped])).toEqual([[["search"], ["sql"]]]);
    });

    it("is dropped at the first selecting stage when the final tools lack it, and the caveat names it", async () => {
      const trace = onlyTrace(
        `y {'offered': ['search', 'sql', <function lookup at 0x7f3a>], 'trace': [${record("role", "search", "'sql',")}, ${record("policy", "search", "")}], 'tools': ['search']}`,
      );
      const { fixture, caveats } = traceToFixture(trace, { file: "app.log", line: 1 });
      expect(fixture.pipeline!.some((stage) => "keeps_unnamed" in stage)).toBe(false);
      expect(caveats).toEqual([
        "the log does not say which stage dropped the unnamed tool <function lookup at 0x7f3a>; the replay drops it at the first stage that selects, 'role'",
      ]);
      const replay = await runJson(fixture);
      expect(replay.tools).toEqual(["search"]);
      expect(replay.names).toEqual(["search"]);
    });

    it("a scripted stage without keeps_unnamed selects only the names it lists", async () => {
      const fixture = {
        offered: ["search", lookup],
        pipeline: [{ kind: "scripted" as const, name: "s", outcome: { select: ["search"] } }],
      };
      expect((await runJson(fixture)).tools).toEqual(["search"]);
      fixture.pipeline[0] = { ...fixture.pipeline[0]!, keeps_unnamed: true } as never;
      expect((await runJson(fixture)).tools).toEqual(["search", lookup]);
    });
  });
});
