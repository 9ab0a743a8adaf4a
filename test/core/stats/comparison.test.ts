import { describe, expect, it } from "vitest";
import { compareStats } from "../../../src/core/stats/comparison.js";
import {
  comparisonDocument,
  formatComparisonJson,
} from "../../../src/core/stats/comparison-json.js";
import {
  formatComparisonText,
  pointsText,
  pText,
} from "../../../src/core/stats/comparison-text.js";
import { PaletteStats } from "../../../src/core/stats/fold.js";
import { formatStatsJson } from "../../../src/core/stats/json.js";
import { erfc, twoProportionTest } from "../../../src/core/stats/two-proportions.js";
import type { ModelCall } from "../../../src/core/traces/model-call.js";
import type { LoggedTrace } from "../../../src/core/traces/trace.js";
import { loggedRecord as rec } from "../../builders/logged.js";
import fc from "fast-check";
import { logged, traceJson } from "./helpers.js";

function fold(traces: readonly LoggedTrace[]): PaletteStats {
  const stats = new PaletteStats();
  for (const trace of traces) stats.add(trace);
  return stats;
}

/** `n` traces in which `role` keeps `kept` and drops `dropped` from search, sql, ask_human. */
function turns(n: number, kept: string[], dropped: string[], stage = "role"): LoggedTrace[] {
  return Array.from({ length: n }, () =>
    logged({ trace: [rec(stage, "select", { kept, dropped })], tools: kept }),
  );
}

const json = (old: PaletteStats, now: PaletteStats) =>
  JSON.parse(formatComparisonJson(old, now)) as Record<string, unknown>;

describe("the two-proportion test", () => {
  it("gives the textbook p-values: z = 1.96 is p = 0.05, and 3 of 4 against 2 of 4 is far from significant", () => {
    expect(erfc(1.96 / Math.SQRT2)).toBeCloseTo(0.0499958, 6);
    expect(erfc(0)).toBeCloseTo(1, 6);
    const small = twoProportionTest(3, 4, 2, 4);
    expect(small.z).toBeCloseTo(-0.7303, 4);
    expect(small.p).toBeCloseTo(0.4652, 3);
    const big = twoProportionTest(300, 400, 200, 400);
    expect(big.p).toBeLessThan(1e-10);
  });

  it("has nothing to test when both rates are 0 or both 1", () => {
    expect(twoProportionTest(0, 5, 0, 9)).toEqual({ z: 0, p: 1 });
    expect(twoProportionTest(5, 5, 9, 9)).toEqual({ z: 0, p: 1 });
  });
});

describe("comparing two sets", () => {
  // OLD: ask_human final in all 10. NEW: the role stage drops it in 8 of 10; search unchanged.
  const old = () => fold(turns(10, ["search", "ask_human"], ["sql"]));
  const now = () =>
    fold([
      ...turns(8, ["search"], ["ask_human", "sql"]),
      ...turns(2, ["search", "ask_human"], ["sql"]),
    ]);

  it("per tool: both sides' counts and rates, the change in points, the stage that moved most, the p-value; biggest change first", () => {
    const c = compareStats(old(), now());
    expect(c.empty).toEqual([]);
    expect(c.tools.map((t) => t.name)).toEqual(["ask_human", "search", "sql"]);
    const ask = c.tools[0]!;
    expect(ask.old).toEqual({ seen: 10, final: 10, forced: 0, rate: 1 });
    expect(ask.new).toEqual({ seen: 10, final: 2, forced: 0, rate: 0.2 });
    expect(ask.points).toBeCloseTo(-80, 10);
    expect(ask.stage).toEqual({ stage: "role", failed: false, old: 0, new: 0.8 });
    expect(ask.p).toBeLessThan(0.001);
    // sql is missing at role in every trace of both: no stage moved.
    expect(c.tools[2]!.stage).toBeNull();
    expect(c.tools[2]!.p).toBe(1);
  });

  it("lists tools seen in one set only apart, most seen first", () => {
    const c = compareStats(
      fold([...turns(3, ["a"], ["gone"]), ...turns(1, ["a"], ["rare"])]),
      fold(turns(2, ["a", "fresh"], [])),
    );
    expect(c.tools.map((t) => t.name)).toEqual(["a"]);
    expect(c.onlyOld).toEqual([
      { name: "gone", seen: 3, final: 0, forced: 0, rate: 0 },
      { name: "rare", seen: 1, final: 0, forced: 0, rate: 0 },
    ]);
    expect(c.onlyNew).toEqual([{ name: "fresh", seen: 2, final: 2, forced: 0, rate: 1 }]);
  });

  it("an empty side is said plainly: nothing compared, no 100% change", () => {
    const c = compareStats(new PaletteStats(), now());
    expect(c.empty).toEqual(["old"]);
    expect([c.tools, c.onlyOld, c.onlyNew]).toEqual([[], [], []]);
    const text = formatComparisonText(c, { color: false });
    expect(text).toBe(
      "NEW: 10 traces, 0 problems\nOLD: 0 traces, 0 problems\nOLD has no traces: nothing to compare.\n",
    );
    expect(
      formatComparisonText(compareStats(new PaletteStats(), new PaletteStats()), { color: false }),
    ).toContain("OLD and NEW have no traces: nothing to compare.");
  });

  it("per stage: records, actions and degraded of each side and the change; a stage of one side only is null on the other", () => {
    const c = compareStats(
      fold(turns(2, ["a"], [], "intent")),
      fold([
        ...turns(1, ["a"], [], "intent"),
        logged({ trace: [rec("policy", "error", { kept: ["a"] })], tools: ["a"] }),
      ]),
    );
    expect(c.stages).toEqual([
      {
        stage: "intent",
        old: { records: 2, select: 2, abstain: 0, force: 0, error: 0, degraded: 0 },
        new: { records: 1, select: 1, abstain: 0, force: 0, error: 0, degraded: 0 },
        change: { records: -1, select: -1, abstain: 0, force: 0, error: 0, degraded: 0 },
      },
      {
        stage: "policy",
        old: null,
        new: { records: 1, select: 0, abstain: 0, force: 0, error: 1, degraded: 1 },
        change: { records: 1, select: 0, abstain: 0, force: 0, error: 1, degraded: 1 },
      },
    ]);
  });

  it("errors by kind on each side; a failed turn's move is keyed by its error kind", () => {
    const failed = (kind: string) =>
      logged({
        trace: [rec("role", "select", { kept: ["a"] })],
        tools: ["a"],
        error: { kind, message: "" },
      });
    const c = compareStats(
      fold([...turns(3, ["a"], []), failed("Zed")]),
      fold([
        ...turns(2, ["a"], []),
        failed("ForcedToolUnavailable"),
        failed("ForcedToolUnavailable"),
      ]),
    );
    expect(c.errors).toEqual([
      { kind: "ForcedToolUnavailable", old: 0, new: 2, change: 2 },
      { kind: "Zed", old: 1, new: 0, change: -1 },
    ]);
    expect(c.tools[0]!.stage).toEqual({
      stage: "ForcedToolUnavailable",
      failed: true,
      old: 0,
      new: 0.5,
    });
  });

  it("the JSON keeps each side as stats --json prints it, then the changes", () => {
    const [o, n] = [old(), now()];
    const doc = json(o, n);
    expect(Object.keys(doc)).toEqual([
      "old",
      "new",
      "empty",
      "changes",
      "only_old",
      "only_new",
      "stage_changes",
      "error_changes",
    ]);
    expect([doc.old, doc.new]).toEqual([
      JSON.parse(formatStatsJson(o)),
      JSON.parse(formatStatsJson(n)),
    ]);
    expect((doc.changes as unknown[])[0]).toEqual({
      name: "ask_human",
      old: { seen: 10, final: 10, forced: 0, rate: 1 },
      new: { seen: 10, final: 2, forced: 0, rate: 0.2 },
      points: 100 * (0.2 - 1),
      stage: { stage: "role", old: 0, new: 0.8 },
      z: expect.any(Number),
      p: expect.any(Number),
    });
    expect(comparisonDocument(o, n)).toBeInstanceOf(Map);
  });

  it("OpenTelemetry sets: offered, called and called-not-offered per tool, counted only where the call recorded them", () => {
    const call = (offered: string[] | null, called: string[]): ModelCall => ({
      span_id: "00000000000000a1",
      model: null,
      offered,
      called,
      tool_choice: null,
      convention: "gen_ai",
      final_not_offered: offered === null ? null : [],
      offered_not_final: offered === null ? null : [],
      called_not_offered: offered === null ? null : called.filter((n) => !offered.includes(n)),
    });
    const otel = (model: ModelCall): LoggedTrace => ({
      ...logged({ trace: [rec("role", "select", { kept: ["a"] })], tools: ["a"] }),
      otel: { trace_id: "0".repeat(32), span_id: "0".repeat(16), service: null },
      model,
    });
    const c = compareStats(
      fold([otel(call(["a"], ["a"])), otel(call(null, ["a"]))]),
      fold([otel(call(["a"], ["b"]))]),
    );
    const recorded = (rows: typeof c.old, unknown: number) => rows.modelCalls.joined - unknown;
    expect([
      recorded(c.old, c.old.modelCalls.offeredUnknown),
      recorded(c.old, c.old.modelCalls.calledUnknown),
      recorded(c.new, c.new.modelCalls.offeredUnknown),
    ]).toEqual([1, 2, 1]);
    expect(c.model).toEqual([
      {
        name: "a",
        old: { offered: 1, called: 2, calledNotOffered: 0 },
        new: { offered: 1, called: 0, calledNotOffered: 0 },
      },
      {
        name: "b",
        old: { offered: 0, called: 0, calledNotOffered: 0 },
        new: { offered: 0, called: 1, calledNotOffered: 1 },
      },
    ]);
    const doc = JSON.parse(formatComparisonJson(fold([otel(call(["a"], ["a"]))]), fold([])));
    expect(doc.model_recorded).toEqual({
      old: { traces: 1, offered: 1, called: 1 },
      new: { traces: 0, offered: 0, called: 0 },
    });
    expect(compareStats(old(), now()).model).toBeNull();
  });
});

describe("comparison: properties", () => {
  it("a set against itself changes nothing; swapping the sides negates every change", () => {
    fc.assert(
      fc.property(
        fc.array(traceJson, { minLength: 1, maxLength: 8 }),
        fc.array(traceJson, { minLength: 1, maxLength: 8 }),
        (a, b) => {
          const same = compareStats(fold(a.map(logged)), fold(a.map(logged)));
          for (const t of same.tools) expect([t.points, t.p, t.stage]).toEqual([0, 1, null]);
          expect([same.onlyOld, same.onlyNew]).toEqual([[], []]);
          const ab = compareStats(fold(a.map(logged)), fold(b.map(logged)));
          const ba = compareStats(fold(b.map(logged)), fold(a.map(logged)));
          const byName = new Map(ba.tools.map((t) => [t.name, t]));
          for (const t of ab.tools) {
            const back = byName.get(t.name)!;
            expect(back.points).toBeCloseTo(-t.points, 9);
            expect(back.p).toBeCloseTo(t.p, 9);
            expect(back.stage?.stage ?? null).toBe(t.stage?.stage ?? null);
          }
          expect(ab.onlyOld.map((t) => t.name)).toEqual(ba.onlyNew.map((t) => t.name));
        },
      ),
    );
  });
});

describe("the comparison as text", () => {
  it("a table of tools biggest change first, the tools of one side apart, stages and errors as OLD → NEW", () => {
    const old = fold([...turns(4, ["a", "b"], []), ...turns(1, ["gone"], [])]);
    const now = fold([
      ...turns(3, ["a"], ["b"]),
      ...turns(1, ["a", "b"], []),
      logged({ trace: [], tools: [], error: { kind: "ForcedToolUnavailable", message: "" } }),
    ]);
    expect(formatComparisonText(compareStats(old, now), { color: false }).split("\n")).toEqual([
      "NEW: 5 traces, 0 problems · errors: ForcedToolUnavailable 1",
      "OLD: 5 traces, 0 problems",
      "",
      "tools, biggest change in final rate first",
      "tool        final OLD        final NEW     change      p  moved most (missing OLD → NEW)",
      "b     100% of 4 turns   25% of 4 turns  −75.0 pts  0.028  role 0% → 75%",
      "a     100% of 4 turns  100% of 4 turns    0.0 pts    1.0  —",
      "",
      "only in OLD: gone (100% of 1 turn)",
      "",
      "stages, OLD → NEW",
      "stage     records      select  abstain  force  error  degraded",
      "role   5 → 4 (−1)  5 → 4 (−1)    0 → 0  0 → 0  0 → 0     0 → 0",
      "",
      "errors, OLD → NEW: ForcedToolUnavailable 0 → 1 (+1)",
      "",
    ]);
  });

  it("points with one decimal and a sign, p below 0.001 said so", () => {
    expect([pointsText(-80), pointsText(2.54), pointsText(0.01), pointsText(-0.01)]).toEqual([
      "−80.0 pts",
      "+2.5 pts",
      "0.0 pts",
      "0.0 pts",
    ]);
    expect([pText(0.0004), pText(0.0283), pText(1)]).toEqual(["<0.001", "0.028", "1.0"]);
  });
});
