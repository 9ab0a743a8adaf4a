import { describe, expect, it } from "vitest";
import { PaletteStats, UNKNOWN_STAGE } from "../../../src/core/stats/fold.js";
import { formatStatsJson } from "../../../src/core/stats/json.js";
import { logged } from "./helpers.js";
import { loggedRecord as rec } from "../../builders/logged.js";

const dropsT = (stage: string) =>
  logged({ trace: [rec(stage, "select", { kept: ["x"], dropped: ["t"] })], tools: ["x"] });

describe("palette statistics: counting", () => {
  it("a record that errs is degraded unless it says it is not; one that says so is, whatever its action", () => {
    const stats = new PaletteStats();
    stats.add(logged({ trace: [rec("a", "error", { degraded: false })], tools: [] }));
    stats.add(logged({ trace: [rec("b", "error")], tools: [] }));
    stats.add(
      logged({ trace: [rec("c", "select", { degraded: true }), rec("d", "abstain")], tools: [] }),
    );
    expect([...stats.stages].map(([stage, counts]) => [stage, counts.degraded.n])).toEqual([
      ["a", 0],
      ["b", 1],
      ["c", 1],
      ["d", 0],
    ]);
  });

  it("a stage that runs twice in a trace, or a tool named twice, counts that trace once", () => {
    const stats = new PaletteStats();
    stats.add(
      logged({
        trace: [
          rec("p", "select", { kept: ["t"], dropped: ["u"] }),
          rec("p", "select", { kept: [], dropped: ["t"] }),
        ],
        tools: [],
      }),
    );
    const p = stats.stages.get("p")!;
    expect([p.records.n, p.actions.select.n]).toEqual([1, 1]);
    expect(stats.tools.get("t")!.seen.n).toBe(1);
    expect(stats.tools.get("t")!.droppedBy.get("p")!.n).toBe(1);
  });

  it("a tool missing without a record dropping it in that trace is missing at '?', not at an earlier trace's stage", () => {
    const stats = new PaletteStats();
    stats.add(dropsT("policy"));
    stats.add(logged({ trace: [rec("intent", "select", { kept: ["t", "x"] })], tools: ["x"] }));
    expect([...stats.tools.get("t")!.missing]).toEqual([
      ["policy", 1],
      [UNKNOWN_STAGE, 1],
    ]);
  });

  it("errors are counted by kind", () => {
    const stats = new PaletteStats();
    for (const kind of ["A", "B", "A"])
      stats.add(logged({ trace: [], tools: [], error: { kind, message: "" } }));
    stats.add(logged({ trace: [], tools: [] }));
    expect([...stats.errors]).toEqual([
      ["A", 2],
      ["B", 1],
    ]);
  });

  it("the timeline gets each trace's distinct final tools and whether a forced tool was unavailable", () => {
    const stats = new PaletteStats();
    const at = (ts: string, tools: string[], kind?: string) =>
      logged({ ts, trace: [], tools, ...(kind ? { error: { kind, message: "" } } : {}) });
    stats.add(at("2025-03-14 09:00:00", ["a", "b", "a"]));
    stats.add(at("2025-03-14 09:00:00", ["a", "b", "c", "d"], "ForcedToolUnavailable"));
    stats.add(at("2025-03-14 09:00:00", [], "Other"));
    stats.add(logged({ trace: [], tools: ["a"] }));
    expect(stats.timeline.list()).toEqual([
      {
        start: Date.UTC(2025, 2, 14, 9),
        width: 1000,
        traces: 3,
        // A failed turn offered the model nothing: its palette is empty, whatever its pipeline left.
        meanPalette: 2 / 3,
        forcedFailures: 1,
      },
    ]);
    expect(stats.timeline.unreadable).toBe(0);
  });
});

describe("palette statistics: sample traces", () => {
  it("keeps up to `samples` references per tool and stage where it went missing, in arrival order", () => {
    const stats = new PaletteStats<string>({ samples: 2 });
    stats.add(dropsT("policy"), "r1");
    stats.add(dropsT("intent"), "r2");
    stats.add(dropsT("policy"), "r3");
    stats.add(dropsT("policy"), "r4");
    stats.add(logged({ trace: [], tools: ["t"] }), "r5");
    const t = stats.tools.get("t")!;
    expect([...t.samples]).toEqual([
      ["policy", ["r1", "r3"]],
      ["intent", ["r2"]],
    ]);
    expect(t.missing.get("policy")).toBe(4 - 1);
    expect(stats.tools.get("x")!.samples.size).toBe(0);
  });

  it("keeps none by default, or when the trace comes without a reference", () => {
    const none = new PaletteStats<string>();
    none.add(dropsT("policy"), "r1");
    expect(none.tools.get("t")!.samples.size).toBe(0);
    const unnamed = new PaletteStats<string>({ samples: 3 });
    unnamed.add(dropsT("policy"));
    expect(unnamed.tools.get("t")!.samples.size).toBe(0);
    expect(unnamed.tools.get("t")!.missing.get("policy")).toBe(1);
  });
});

describe("palette statistics: the printed document", () => {
  it("prints every map's keys in code-point order, whatever order they were counted in", () => {
    const stats = new PaletteStats();
    for (const [stage, kind] of [
      ["b", "Zed"],
      ["a", "Alpha"],
      ["10", "Zed"],
      ["2", "Mid"],
    ])
      stats.add(
        logged({
          trace: [
            rec(stage!, "select", { kept: [], dropped: ["t"], added: ["u"], reinstated: ["v"] }),
          ],
          tools: ["v"],
          error: { kind, message: "" },
        }),
      );
    const text = formatStatsJson(stats);
    const keys = (section: string) => {
      const from = text.indexOf(`"${section}": {\n`);
      const block = text.slice(from, text.indexOf("}", from));
      return [...block.matchAll(/\n\s+"([^"]+)":/g)].map((m) => m[1]);
    };
    expect(keys("errors")).toEqual(["Alpha", "Mid", "Zed"]);
    for (const section of ["dropped_by", "added_by", "reinstated_by", "missing"])
      expect(keys(section), section).toEqual(["10", "2", "a", "b"]);
  });
});
