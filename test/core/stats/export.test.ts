import { describe, expect, it } from "vitest";
import { csvCell, statsCsv, statsMarkdown } from "../../../src/core/stats/export.js";
import { PaletteStats } from "../../../src/core/stats/fold.js";
import { statsRows } from "../../../src/core/stats/rows.js";
import { logged } from "./helpers.js";

function rows() {
  const stats = new PaletteStats();
  stats.add(
    logged({
      trace: [
        {
          stage: "=cmd|' /C calc'!A0",
          action: "select",
          kept: ["ok"],
          dropped: ["@SUM(1)", "a|b"],
        },
      ],
      tools: ["ok"],
    }),
  );
  return statsRows(stats);
}

describe("statistics exports", () => {
  it("CSV cells a spreadsheet would read as a formula start with a quote; every cell is quoted", () => {
    expect(["=1+1", "+1", "-1", "@A1", "\tx", "plain", 'a,"b"'].map(csvCell)).toEqual([
      `"'=1+1"`,
      `"'+1"`,
      `"'-1"`,
      `"'@A1"`,
      `"'\tx"`,
      '"plain"',
      '"a,""b"""',
    ]);
    const csv = statsCsv(rows());
    expect(csv.split("\r\n")).toEqual([
      '"tool","seen","final","final %","forced","missing","removed by"',
      `"'@SUM(1)","1","0","0%","0","1","'=cmd|' /C calc'!A0 100%"`,
      `"a|b","1","0","0%","0","1","'=cmd|' /C calc'!A0 100%"`,
      '"ok","1","1","100%","0","0",""',
      "",
      '"stage","records","select","abstain","force","error","degraded"',
      `"'=cmd|' /C calc'!A0","1","1","0","0","0","0"`,
      "",
    ]);
  });

  it("a formula after a semicolon stays inside its quoted cell, for a spreadsheet that splits on ;", () => {
    expect(csvCell("x;=HYPERLINK(A1;B1);")).toBe('"x;=HYPERLINK(A1;B1);"');
  });

  it("Markdown cells escape the pipe and Markdown syntax of names", () => {
    const md = statsMarkdown(rows());
    expect(md).toContain("| a\\|b | 1 | 0 | 0% | 0 | 1 | =cmd\\|' /C calc'!A0 100% |");
    expect(md.startsWith("### Palette statistics: 1 trace, 0 problems\n")).toBe(true);
  });
});
