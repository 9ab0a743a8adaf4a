/** list_traces filters summaries; the Selection Traces view filters its index: both must let the same traces through. */
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  matchesFilter,
  summarizeTrace,
  type TraceFilter,
  type TraceSummary,
} from "../../src/core/traces/summary.js";
import { scanLogs } from "../../src/node/log-file.js";
import { TraceIndex } from "../../src/node/trace-index.js";

describe("the trace filter of list_traces", () => {
  it("lets through the traces the Selection Traces view does, for every filter the examples offer", async () => {
    const files = readdirSync("examples/logs").filter(
      (name) => name.endsWith(".log") || name.endsWith(".jsonl"),
    );
    const inputs = files.map((name) => ({ name, path: join("examples/logs", name) }));
    const index = new TraceIndex();
    const summaries: TraceSummary[] = [];
    await scanLogs(inputs, {
      onTrace: (found, file) => {
        index.add(found, file);
        summaries.push(summarizeTrace(found));
      },
      onProblem: () => {},
    });
    index.finish();
    const { dropped, stages } = index.filterChoices();
    const filters: TraceFilter[] = [
      { kind: "errors" },
      { kind: "dropped", tool: "no such tool" },
      ...[...dropped.keys()].map((tool) => ({ kind: "dropped" as const, tool })),
      ...[...stages].flatMap(([stage, actions]) =>
        [...actions.keys()].map((action) => ({ kind: "stageAction" as const, stage, action })),
      ),
    ];
    expect(filters.length).toBeGreaterThan(10);
    for (const filter of filters)
      expect(summaries.filter((s) => matchesFilter(s, filter)).map((s) => s.index)).toEqual([
        ...index.matching(filter),
      ]);
  });
});
