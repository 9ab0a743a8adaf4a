import { describe, expect, it } from "vitest";
import { compareStats } from "../../../src/core/stats/comparison.js";
import { comparisonCsv, comparisonMarkdown } from "../../../src/core/stats/export.js";
import { PaletteStats } from "../../../src/core/stats/fold.js";
import type { LoggedTrace } from "../../../src/core/traces/trace.js";
import { loggedRecord as rec } from "../../builders/logged.js";
import { logged } from "./helpers.js";

function fold(traces: readonly LoggedTrace[]): PaletteStats {
  const stats = new PaletteStats();
  for (const trace of traces) stats.add(trace);
  return stats;
}

/** `n` traces in which `role` keeps `kept` and drops `dropped`. */
function turns(n: number, kept: string[], dropped: string[]): LoggedTrace[] {
  return Array.from({ length: n }, () =>
    logged({ trace: [rec("role", "select", { kept, dropped })], tools: kept }),
  );
}

/** ask_human dropped by role in 8 of 10 NEW turns; `old|tool` only in OLD, `=cmd` only in NEW. */
const comparison = () =>
  compareStats(
    fold(turns(10, ["search", "ask_human", "old|tool"], [])),
    fold([
      ...turns(8, ["search", "=cmd"], ["ask_human"]),
      ...turns(2, ["search", "ask_human"], []),
    ]),
  );

describe("the comparison as Markdown and CSV", () => {
  it("writes the changes table biggest change first with both rates, the stage and p, then the one-side tools", () => {
    const md = comparisonMarkdown(comparison(), "logs/before.jsonl");
    expect(md.split("\n")).toEqual([
      "### What changed: this set (NEW, 10 traces) against logs/before.jsonl (OLD, 10 traces)",
      "",
      "| tool | final OLD | final NEW | change | p | moved most (missing OLD → NEW) |",
      "| --- | ---: | ---: | ---: | ---: | --- |",
      "| ask\\_human | 100% of 10 turns | 20% of 10 turns | −80.0 pts | <0.001 | role 0% → 80% |",
      "| search | 100% of 10 turns | 100% of 10 turns | 0.0 pts | 1.0 | — |",
      "",
      "**Only in NEW:** =cmd (100% of 8 turns)",
      "",
      "**Only in OLD:** old\\|tool (100% of 10 turns)",
      "",
      "",
    ]);
  });

  it("writes one CSV row per tool with both sides' counts, the change as a number, and text cells guarded", () => {
    const lines = comparisonCsv(comparison()).split("\r\n");
    expect(lines[0]).toBe(
      '"tool","seen OLD","final OLD","final % OLD","forced OLD","seen NEW","final NEW","final % NEW","forced NEW","change (points)","p","moved most","missing % OLD","missing % NEW"',
    );
    expect(lines[1]).toMatch(
      /^"ask_human","10","10","100%","0","10","2","20%","0","-80.0","[0-9.e-]+","role","0%","80%"$/,
    );
    expect(lines.slice(3)).toEqual([
      "",
      '"tool","only in","seen","final","final %","forced"',
      `"'=cmd","NEW","8","8","100%","0"`,
      '"old|tool","OLD","10","10","100%","0"',
      "",
      "",
    ]);
  });

  it("says an empty side plainly in Markdown and writes no comparison rows in CSV", () => {
    const c = compareStats(new PaletteStats(), fold(turns(3, ["search"], [])));
    expect(comparisonMarkdown(c, "2 logs")).toContain(
      "\n\nOLD has no traces: nothing to compare.\n",
    );
    expect(comparisonMarkdown(c, "2 logs")).not.toContain("| tool |");
    expect(comparisonCsv(c)).toBe("");
  });
});
