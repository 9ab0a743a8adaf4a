import { describe, expect, it } from "vitest";
import { csvCell, statsCsv, statsMarkdown } from "../../../src/core/stats/export.js";
import { PaletteStats } from "../../../src/core/stats/fold.js";
import {
  byMissing,
  formatCount,
  percent,
  removedByText,
  statsRows,
  type ToolRow,
} from "../../../src/core/stats/rows.js";
import { formatStatsText } from "../../../src/core/stats/text.js";
import { logged } from "./helpers.js";

function rec(stage: string, action: string, lists: Record<string, unknown> = {}) {
  return { stage, action, kept: [], dropped: [], added: [], reinstated: [], ...lists };
}

/** Two traces: `sql` dropped by policy in both, `search` left by both but final only in the one that did not fail, `mail` dropped once by intent. */
function twoTraces(): PaletteStats {
  const stats = new PaletteStats();
  stats.add(
    logged({
      trace: [
        rec("intent", "select", { kept: ["search", "sql"], dropped: ["mail"] }),
        rec("policy", "select", { kept: ["search"], dropped: ["sql"] }),
      ],
      tools: ["search"],
      forced_choice: "search",
      error: { kind: "Other", message: "" },
    }),
  );
  stats.add(
    logged({
      trace: [
        rec("intent", "abstain", { kept: ["search", "sql"] }),
        rec("policy", "error", { kept: ["search"], dropped: ["sql"] }),
      ],
      tools: ["search"],
    }),
  );
  stats.addProblems(1);
  return stats;
}

function toolRow(name: string, seen: number, removed: [string, number][]): ToolRow {
  const removedBy = removed.map(([stage, n]) => ({ stage, n, failed: false }));
  const missing = removed.reduce((sum, [, n]) => sum + n, 0);
  return {
    name,
    seen,
    final: seen - missing,
    forced: 0,
    missing,
    removedBy,
    offered: 0,
    called: 0,
    calledNotOffered: 0,
    sentForced: 0,
  };
}

describe("statistics rows", () => {
  it("lists errors by kind, stages in order of appearance and each tool's stages most often first", () => {
    const stats = new PaletteStats();
    const drop = (stage: string, error: string) =>
      logged({
        trace: [rec(stage, "select", { kept: ["x"], dropped: ["t"] })],
        tools: ["x"],
        error: { kind: error, message: "" },
      });
    for (const [stage, error] of [
      ["role", "B"],
      ["policy", "A"],
      ["role", "B"],
      ["intent", "A"],
    ] as const)
      stats.add(drop(stage, error));
    const rows = statsRows(stats);
    expect(rows.errors).toEqual([
      { kind: "A", n: 2 },
      { kind: "B", n: 2 },
    ]);
    expect(rows.stages.map((s) => s.stage)).toEqual(["role", "policy", "intent"]);
    const t = rows.tools.find((row) => row.name === "t")!;
    expect(t).toEqual({
      name: "t",
      seen: 4,
      final: 0,
      forced: 0,
      missing: 4,
      removedBy: [
        { stage: "role", n: 2, failed: false },
        { stage: "intent", n: 1, failed: false },
        { stage: "policy", n: 1, failed: false },
      ],
      offered: 0,
      called: 0,
      calledNotOffered: 0,
      sentForced: 0,
    });
    // What the failed pipelines left never reached a model: missing under each error's kind.
    const x = rows.tools.find((row) => row.name === "x")!;
    expect([x.seen, x.final, x.missing]).toEqual([4, 0, 4]);
    expect(x.removedBy).toEqual([
      { stage: "A", n: 2, failed: true },
      { stage: "B", n: 2, failed: true },
    ]);
    expect(rows.tools.map((row) => row.name)).toEqual(["t", "x"]);
  });

  it("every action column counts the traces whose record took it", () => {
    const rows = statsRows(twoTraces());
    expect(rows.stages).toEqual([
      { stage: "intent", records: 2, select: 1, abstain: 1, force: 0, error: 0, degraded: 0 },
      { stage: "policy", records: 2, select: 1, abstain: 0, force: 0, error: 1, degraded: 1 },
    ]);
    expect([rows.traces, rows.problems]).toEqual([2, 1]);
  });

  it("orders tools most often missing first, ties by name", () => {
    const rows = [
      toolRow("b", 5, [["p", 1]]),
      toolRow("c", 5, [["p", 3]]),
      toolRow("a", 5, [["p", 1]]),
    ];
    expect([...rows].sort(byMissing).map((row) => row.name)).toEqual(["c", "a", "b"]);
  });

  it("percentages round to whole numbers and are 0 of nothing; counts group thousands", () => {
    expect([percent(1, 3), percent(2, 3), percent(0, 0), percent(3, 0)]).toEqual([33, 67, 0, 0]);
    expect([formatCount(1200), formatCount(7), formatCount(1234567)]).toEqual([
      "1,200",
      "7",
      "1,234,567",
    ]);
  });

  it("names at most three stages by default and says how many more there are", () => {
    const row = toolRow("t", 10, [
      ["a", 4],
      ["b", 3],
      ["c", 2],
      ["d", 1],
    ]);
    expect(removedByText(row)).toBe("a 40%, b 30%, c 20%, +1 more");
    expect(removedByText(row, (stage) => stage.toUpperCase(), 1)).toBe("A 40%, +3 more");
    expect(removedByText(row, undefined, 4)).toBe("a 40%, b 30%, c 20%, d 10%");
    expect(removedByText(toolRow("t", 2, []))).toBe("");
  });
});

describe("the terminal table", () => {
  it("aligns text columns to the left and counts to the right", () => {
    expect(formatStatsText(statsRows(twoTraces()), { color: false }).split("\n")).toEqual([
      "2 traces, 1 problem · errors: Other 1",
      "",
      "stages",
      "stage   records  select  abstain  force  error  degraded",
      "intent        2       1        1      0      0         0",
      "policy        2       1        0      0      1         1",
      "",
      "tools, most often missing first",
      "tool    missing          removed by   final  forced",
      "sql     100% of 2 turns  policy 100%      0       0",
      "mail    100% of 1 turn   intent 100%      0       0",
      "search  50% of 2 turns   Other 100%       1       1",
      "",
    ]);
  });

  it("the summary names every error kind with its count", () => {
    const stats = twoTraces();
    for (const kind of ["Zed", "Alpha", "Alpha"])
      stats.add(logged({ trace: [], tools: [], error: { kind, message: "" } }));
    expect(formatStatsText(statsRows(stats), { color: false }).split("\n")[0]).toBe(
      "5 traces, 1 problem · errors: Alpha 2, Other 1, Zed 1",
    );
  });

  it("in colour, the headings are bold", () => {
    const text = formatStatsText(statsRows(twoTraces()), { color: true });
    expect(text.split("\n").filter((line) => line.includes("\x1b"))).toEqual([
      "\x1b[1m2 traces, 1 problem · errors: Other 1\x1b[0m",
      "\x1b[1mstages\x1b[0m",
      "\x1b[1mtools, most often missing first\x1b[0m",
    ]);
  });

  it("with no traces, only the summary line (without errors)", () => {
    const stats = new PaletteStats();
    expect(formatStatsText(statsRows(stats), { color: false })).toBe("0 traces, 0 problems\n");
    stats.addProblems(1200);
    expect(formatStatsText(statsRows(stats), { color: false })).toBe("0 traces, 1,200 problems\n");
  });
});

describe("the Markdown and CSV exports", () => {
  it("Markdown: a heading, both tables with numbers aligned right, every stage named", () => {
    expect(statsMarkdown(statsRows(twoTraces())).split("\n")).toEqual([
      "### Palette statistics: 2 traces, 1 problem",
      "",
      "| tool | seen | final | final % | forced | missing | removed by |",
      "| --- | ---: | ---: | ---: | ---: | ---: | --- |",
      "| mail | 1 | 0 | 0% | 0 | 1 | intent 100% |",
      "| search | 2 | 1 | 50% | 1 | 1 | Other 100% |",
      "| sql | 2 | 0 | 0% | 0 | 2 | policy 100% |",
      "",
      "| stage | records | select | abstain | force | error | degraded |",
      "| --- | ---: | ---: | ---: | ---: | ---: | ---: |",
      "| intent | 2 | 1 | 1 | 0 | 0 | 0 |",
      "| policy | 2 | 1 | 0 | 0 | 1 | 1 |",
      "",
    ]);
  });

  it("both exports list the tools in the order given (the view's), and all of a tool's stages", () => {
    const rows = statsRows(twoTraces());
    const sql = {
      ...rows.tools[2]!,
      removedBy: ["a", "b", "c", "d"].map((stage) => ({ stage, n: 1, failed: false })),
      missing: 4,
    };
    const md = statsMarkdown(rows, [sql, rows.tools[0]!]).split("\n");
    expect(md.slice(4, 6)).toEqual([
      "| sql | 2 | 0 | 0% | 0 | 4 | a 25%, b 25%, c 25%, d 25% |",
      "| mail | 1 | 0 | 0% | 0 | 1 | intent 100% |",
    ]);
    const csv = statsCsv(rows, [sql]).split("\r\n");
    expect(csv.slice(0, 3)).toEqual([
      '"tool","seen","final","final %","forced","missing","removed by"',
      '"sql","2","0","0%","0","4","a 25%, b 25%, c 25%, d 25%"',
      "",
    ]);
  });

  it("CSV: each table with its header, rows in CRLF, a blank line between", () => {
    expect(statsCsv(statsRows(twoTraces()))).toBe(
      [
        '"tool","seen","final","final %","forced","missing","removed by"',
        '"mail","1","0","0%","0","1","intent 100%"',
        '"search","2","1","50%","1","1","Other 100%"',
        '"sql","2","0","0%","0","2","policy 100%"',
        "",
        '"stage","records","select","abstain","force","error","degraded"',
        '"intent","2","1","1","0","0","0"',
        '"policy","2","1","0","0","1","1"',
        "",
      ].join("\r\n"),
    );
  });

  it("CSV: a line break in a cell is quoted, a carriage return first also guarded", () => {
    expect(["a\nb", "a\rb", "\rx", "x=1", "a-b", 'say "hi"'].map(csvCell)).toEqual([
      '"a\nb"',
      '"a\rb"',
      `"'\rx"`,
      '"x=1"',
      '"a-b"',
      '"say ""hi"""',
    ]);
  });
});
