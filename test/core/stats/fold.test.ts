import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { MAX_STAGES, MAX_TOOLS, PaletteStats } from "../../../src/core/stats/fold.js";
import { formatStatsJson, statsDocument } from "../../../src/core/stats/json.js";
import { statsRows } from "../../../src/core/stats/rows.js";
import { formatStatsText } from "../../../src/core/stats/text.js";
import { loggedFinalNames } from "../../../src/core/traces/final.js";
import type { LoggedTrace } from "../../../src/core/traces/trace.js";
import { logged, traceJson } from "./helpers.js";
import { loggedRecord as rec } from "../../builders/logged.js";

function fold(traces: readonly LoggedTrace[], problems = 0): PaletteStats {
  const stats = new PaletteStats();
  for (const trace of traces) stats.add(trace);
  stats.addProblems(problems);
  return stats;
}

const json = (stats: PaletteStats) => JSON.parse(formatStatsJson(stats));

describe("palette statistics: the exact document", () => {
  const forcedUnavailable = logged({
    trace: [
      rec("intent", "select", { kept: ["search", "sql"], dropped: ["delete_rows"] }),
      rec("forced", "force", { kept: ["search", "sql"], forced_choice: "delete_rows" }),
      rec("policy", "select", { kept: ["search"], dropped: ["sql"], degraded: true }),
    ],
    tools: ["search"],
    forced_choice: "delete_rows",
    error: { kind: "ForcedToolUnavailable", message: "delete_rows is not offered" },
  });
  const readdedAndReinstated = logged({
    trace: [
      rec("intent", "select", { kept: ["search"], dropped: ["sql", "final_answer"] }),
      rec("role", "error", { kept: ["search"], detail: "boom" }),
      rec("policy", "abstain", { kept: ["search"] }),
      rec("allowlist", "select", { kept: ["search"], added: ["final_answer"] }),
    ],
    tools: ["search", { name: "final_answer" }],
  });
  // No `tools`: the final names are what the last record leaves; `ghost` is forced but never offered.
  const withoutTools = logged({
    offered: ["search", "sql"],
    forced_choice: "ghost",
    trace: [
      rec("policy", "select", { kept: ["search"], dropped: ["sql"] }),
      rec("forced", "force", { kept: ["search"], forced_choice: "ghost" }),
      rec("policy", "select", { kept: [], dropped: ["search"], reinstated: ["sql"] }),
    ],
  });

  it("counts traces per tool and stage, orders stages by first appearance and tools and keys by code point", () => {
    const stats = fold([forcedUnavailable, readdedAndReinstated, withoutTools], 2);
    const text = formatStatsJson(stats);
    expect(text).toBe(JSON.stringify(JSON.parse(text), null, 2) + "\n");
    expect(JSON.parse(text)).toEqual({
      traces: 3,
      errors: { ForcedToolUnavailable: 1 },
      stages: [
        {
          stage: "intent",
          records: 2,
          actions: { select: 2, abstain: 0, force: 0, error: 0 },
          degraded: 0,
        },
        {
          stage: "forced",
          records: 2,
          actions: { select: 0, abstain: 0, force: 2, error: 0 },
          degraded: 0,
        },
        {
          stage: "policy",
          records: 3,
          actions: { select: 2, abstain: 1, force: 0, error: 0 },
          degraded: 1,
        },
        {
          stage: "role",
          records: 1,
          actions: { select: 0, abstain: 0, force: 0, error: 1 },
          degraded: 1,
        },
        {
          stage: "allowlist",
          records: 1,
          actions: { select: 1, abstain: 0, force: 0, error: 0 },
          degraded: 0,
        },
      ],
      tools: [
        {
          name: "delete_rows",
          seen: 1,
          final: 0,
          forced: 1,
          dropped_by: { intent: 1 },
          added_by: {},
          reinstated_by: {},
          missing: { intent: 1 },
        },
        {
          name: "final_answer",
          seen: 1,
          final: 1,
          forced: 0,
          dropped_by: { intent: 1 },
          added_by: { allowlist: 1 },
          reinstated_by: {},
          missing: {},
        },
        {
          name: "ghost",
          seen: 1,
          final: 0,
          forced: 1,
          dropped_by: {},
          added_by: {},
          reinstated_by: {},
          missing: { "?": 1 },
        },
        {
          // The failed turn's pipeline left it, but its model was never called: not final there.
          name: "search",
          seen: 3,
          final: 1,
          forced: 0,
          dropped_by: { policy: 1 },
          added_by: {},
          reinstated_by: {},
          missing: { ForcedToolUnavailable: 1, policy: 1 },
        },
        {
          name: "sql",
          seen: 3,
          final: 1,
          forced: 0,
          dropped_by: { intent: 1, policy: 2 },
          added_by: {},
          reinstated_by: { policy: 1 },
          missing: { intent: 1, policy: 1 },
        },
      ],
      problems: 2,
    });
  });

  it("keys are in code-point order even when they look like integers or prototype names", () => {
    const stats = fold([
      logged({
        trace: [
          rec("10", "select", { dropped: ["__proto__", "b"] }),
          rec("2", "select", { dropped: ["constructor"] }),
          rec("é", "select", { dropped: ["a"] }),
        ],
        tools: [],
      }),
    ]);
    const text = formatStatsJson(stats);
    expect(text.indexOf('"10": 1')).toBeLessThan(text.indexOf('"2": 1'));
    const tools = json(stats).tools as { name: string; missing: object }[];
    expect(tools.map((t) => t.name)).toEqual(["__proto__", "a", "b", "constructor"]);
    expect(Object.keys(tools[0]!.missing)).toEqual(["10"]);
    expect(json(stats).stages.map((s: { stage: string }) => s.stage)).toEqual(["10", "2", "é"]);
  });

  it("an empty set of logs prints zeros and empty maps", () => {
    expect(formatStatsJson(fold([], 3))).toBe(
      '{\n  "traces": 0,\n  "errors": {},\n  "stages": [],\n  "tools": [],\n  "problems": 3\n}\n',
    );
  });

  it("the text table puts the most often missing tool first with its stages' shares, escaping control characters", () => {
    const hostile = logged({
      trace: [rec("pol\u001b[31micy", "select", { kept: ["search"], dropped: ["sql"] })],
      tools: ["search"],
    });
    const text = formatStatsText(
      statsRows(fold([forcedUnavailable, readdedAndReinstated, withoutTools, hostile])),
      { color: false },
    );
    expect(text).not.toContain("\u001b");
    const tools = text.slice(text.indexOf("tools, most often missing first"));
    expect(tools.split("\n")[2]).toMatch(
      /^sql +75% of 4 turns +intent 33%, pol\\u001b\[31micy 33%, policy 33% +1 +0$/,
    );
    expect(text.split("\n")[0]).toBe("4 traces, 0 problems · errors: ForcedToolUnavailable 1");
  });
});

type Doc = {
  traces: number;
  errors: Record<string, number>;
  stages: { records: number; actions: Record<string, number>; degraded: number }[];
  tools: {
    name: string;
    seen: number;
    final: number;
    forced: number;
    dropped_by: Record<string, number>;
    added_by: Record<string, number>;
    reinstated_by: Record<string, number>;
    missing: Record<string, number>;
  }[];
};

const sum = (map: Record<string, number>) => Object.values(map).reduce((a, b) => a + b, 0);

describe("palette statistics: properties", () => {
  it("every count is at most the number of traces, and final + Σ missing == seen for every tool", () => {
    fc.assert(
      fc.property(fc.array(traceJson, { maxLength: 12 }), (traces) => {
        const doc = json(fold(traces.map(logged))) as Doc;
        const counts: number[] = [...Object.values(doc.errors)];
        for (const stage of doc.stages)
          counts.push(stage.records, stage.degraded, ...Object.values(stage.actions));
        for (const tool of doc.tools) {
          counts.push(tool.seen, tool.final, tool.forced);
          for (const map of [tool.dropped_by, tool.added_by, tool.reinstated_by, tool.missing])
            counts.push(...Object.values(map));
          expect(tool.final + sum(tool.missing)).toBe(tool.seen);
        }
        for (const n of counts) expect(n).toBeLessThanOrEqual(doc.traces);
        expect(sum(doc.errors)).toBeLessThanOrEqual(doc.traces);
      }),
    );
  });

  it("a failed trace's tools are never final: what its pipeline left is missing under the error's kind", () => {
    fc.assert(
      fc.property(
        fc.array(traceJson, { maxLength: 12 }),
        fc.constantFrom("ForcedToolUnavailable", "Other"),
        (traces, kind) => {
          const failed = traces.map((trace) => logged({ ...trace, error: { kind, message: "" } }));
          const doc = json(fold(failed)) as Doc;
          for (const tool of doc.tools) {
            expect(tool.final).toBe(0);
            const left = failed.filter((trace) => loggedFinalNames(trace).includes(tool.name));
            expect(tool.missing[kind] ?? 0).toBe(left.length);
          }
        },
      ),
    );
  });

  it("N copies of one trace give N × that trace's counts", () => {
    const times = (value: unknown, n: number): unknown =>
      typeof value === "number"
        ? value * n
        : Array.isArray(value)
          ? value.map((item) => times(item, n))
          : typeof value === "object" && value !== null
            ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, times(v, n)]))
            : value;
    fc.assert(
      fc.property(traceJson, fc.integer({ min: 1, max: 20 }), (trace, n) => {
        const one = json(fold([logged(trace)]));
        const many = json(fold(Array.from({ length: n }, () => logged(trace))));
        expect(many).toEqual(times(one, n));
      }),
    );
  });
});

describe("palette statistics: memory", () => {
  it("holds counters per tool and stage only: 100,000 traces over the same names keep the same maps", () => {
    const trace = logged({
      trace: [rec("intent", "select", { kept: ["a"], dropped: ["b"] })],
      tools: ["a"],
      ts: "2025-03-14 09:26:50,011",
    });
    const stats = fold([trace]);
    for (let i = 0; i < 100_000; i++) stats.add(trace);
    expect([stats.tools.size, stats.stages.size, stats.timeline.list().length]).toEqual([2, 1, 1]);
    expect(statsDocument(stats)).toBeInstanceOf(Map);
  });
});

describe("palette statistics: distinct names are bounded", () => {
  const names = (from: number, n: number) =>
    Array.from({ length: n }, (_, i) => `tool-${from + i}`);

  it(`counts at most ${MAX_TOOLS} distinct tools, says so once at the trace that went past, and keeps counting the known ones`, () => {
    const stats = new PaletteStats();
    const reached: (readonly string[])[] = [];
    for (let k = 0; k < 3; k++)
      reached.push(
        stats.add(logged({ trace: [rec("intent", "select", { kept: names(k * 4_000, 4_000) })] })),
      );
    reached.push(stats.add(logged({ trace: [rec("intent", "select", { kept: ["tool-0"] })] })));
    expect(reached).toEqual([
      [],
      [],
      [
        "more than 10,000 distinct tool names; tools first named from this trace on are not counted",
      ],
      [],
    ]);
    expect(stats.tools.size).toBe(MAX_TOOLS);
    expect(stats.tools.has("tool-11999")).toBe(false);
    expect(stats.tools.get("tool-0")!.seen.n).toBe(2);
  });

  it(`counts at most ${MAX_STAGES} distinct stages, and the records of the others not at all`, () => {
    const stats = new PaletteStats();
    const records = Array.from({ length: MAX_STAGES + 5 }, (_, i) =>
      rec(`stage-${i}`, "select", { kept: [`only-in-${i}`] }),
    );
    expect(stats.add(logged({ trace: records }))).toEqual([
      "more than 1,000 distinct stage names; stages first named from this trace on are not counted",
    ]);
    expect(stats.stages.size).toBe(MAX_STAGES);
    expect(stats.tools.has(`only-in-${MAX_STAGES}`)).toBe(false);
    expect(stats.tools.has(`only-in-${MAX_STAGES - 1}`)).toBe(true);
  });
});
