import { describe, expect, it } from "vitest";
import { PaletteStats } from "../../../src/core/stats/fold.js";
import { formatStatsJson } from "../../../src/core/stats/json.js";
import { statsRows } from "../../../src/core/stats/rows.js";
import { formatStatsText } from "../../../src/core/stats/text.js";
import { scanText } from "../../../src/core/traces/scan.js";
import {
  chatSpan,
  lines,
  request,
  selectionTrace,
  TRACE_A,
  TRACE_B,
  turnSpan,
} from "../otel/otlp.js";

function fold(text: string): PaletteStats {
  const stats = new PaletteStats();
  for (const found of scanText(text).traces) stats.add(found.trace);
  return stats;
}

const OTLP = lines(
  request([
    turnSpan(TRACE_A, 1, selectionTrace("t1", ["a", "b"])),
    chatSpan(TRACE_A, 2, { offered: ["a", "b"], calls: ["a", "a", "ghost"] }),
    turnSpan(TRACE_B, 1, selectionTrace("t2", ["a"])),
    chatSpan(TRACE_B, 2, { offered: ["a"], calls: ["b"] }),
  ]),
);

describe("statistics of the tools given to the model", () => {
  it("count per tool the traces whose model call offered it, called it, and called it without its being offered", () => {
    const document = JSON.parse(formatStatsJson(fold(OTLP))) as {
      tools: {
        name: string;
        seen: number;
        missing: object;
        offered: number;
        called: number;
        called_not_offered: number;
      }[];
    };
    expect(
      document.tools.map((t) => [t.name, t.seen, t.offered, t.called, t.called_not_offered]),
    ).toEqual([
      ["a", 2, 2, 1, 0],
      ["b", 1, 1, 1, 1],
      ["ghost", 0, 0, 1, 1],
    ]);
    // A tool only the model saw is not one the pipeline lost.
    expect(document.tools[2]!.missing).toEqual({});
  });

  it("are in the text only for a set read from OpenTelemetry, and absent from a log's document", () => {
    const text = formatStatsText(statsRows(fold(OTLP)), { color: false });
    expect(text.split("\n").slice(-7)).toEqual([
      "tools given to the model (traces from OpenTelemetry)",
      "tool   offered  called  called, not offered  request forced",
      "a            2       1                    0               0",
      "b            1       1                    1               0",
      "ghost        0       1                    1               0",
      "tool choice not recorded in 2 of 2 model calls",
      "",
    ]);
    const log = JSON.stringify(selectionTrace("t", ["a"])) + "\n";
    expect(formatStatsJson(fold(log))).not.toContain("offered");
    expect(formatStatsText(statsRows(fold(log)), { color: false })).not.toContain("model");
  });

  it("count a tool's offered and called only over the model calls that recorded them, and say how many did not", () => {
    const text = lines(
      request([
        turnSpan(TRACE_A, 1, selectionTrace("t1", ["a"])),
        chatSpan(TRACE_A, 2, { offered: ["a"] }),
        turnSpan(TRACE_B, 1, selectionTrace("t2", ["a"])),
        chatSpan(TRACE_B, 2, { calls: ["a"] }),
      ]),
    );
    const document = JSON.parse(formatStatsJson(fold(text))) as {
      tools: { name: string; offered: number; called: number; called_not_offered: number }[];
      model_calls: Record<string, number>;
    };
    expect(document.tools.map((t) => [t.name, t.offered, t.called, t.called_not_offered])).toEqual([
      ["a", 1, 1, 0],
    ]);
    expect(document.model_calls).toEqual({
      joined: 2,
      offered_not_recorded: 1,
      called_not_recorded: 1,
      tool_choice_not_recorded: 2,
      tool_choice_disagrees: 0,
    });
    const shown = formatStatsText(statsRows(fold(text)), { color: false });
    expect(shown).toContain("offered tools not recorded in 1 of 2 model calls\n");
    expect(shown).toContain("tool calls not recorded in 1 of 2 model calls\n");
  });
});
