import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { reportFromTrace } from "../../../src/core/traces/report.js";
import { scanText } from "../../../src/core/traces/scan.js";
import { engineFixture, logged, runJson } from "./engine.js";
import { writtenRecord } from "../../builders/logged.js";

/** Property runs on a busy 2-core machine can take seconds. */
const PROPERTY_TIMEOUT = 60_000;

describe("reportFromTrace", () => {
  it(
    "shows a logged trace as the run that logged it: records, names, offered, forced choice, error",
    async () => {
      await fc.assert(
        fc.asyncProperty(engineFixture, fc.boolean(), async (json, lists) => {
          const original = await runJson(json);
          const text = `2025-03-14 09:26:53 INFO agent ${JSON.stringify(logged(original, json.turn, { lists, extras: true }))}`;
          const found = scanText(`\n${text}`).traces[0]!;
          const report = reportFromTrace(found, "app.log");
          expect(report.origin).toEqual({ kind: "log", line: 2, index: 0 });
          expect(report.trace).toEqual(original.trace);
          expect(report.forcedChoice).toBe(original.forcedChoice);
          expect(report.error && { ...report.error }).toEqual(
            original.error && { ...original.error },
          );
          expect(report.stages).toEqual(
            original.trace.map((r) => ({
              name: r.stage,
              kind: "logged",
              enabled: true,
              protectsForced: true,
            })),
          );
          if (lists) {
            expect(report.names).toEqual(original.names);
            expect(report.offered).toEqual(original.offered);
          }
        }),
        { numRuns: 150 },
      );
    },
    PROPERTY_TIMEOUT,
  );

  it("fills what a Python record lacks and rebuilds the lists a log leaves out", () => {
    const found = scanText(
      JSON.stringify({
        turn_id: "t-7",
        ts: "2025-03-14T09:26:53Z",
        trace: [
          writtenRecord("intent", "select", {
            kept: ["search", "final_answer"],
            dropped: ["sql"],
            detail: "action",
          }),
          writtenRecord("scorer", "error", { kept: ["search", "final_answer"], detail: "timeout" }),
          writtenRecord("allowlist", "select", {
            kept: ["search", "final_answer"],
            added: ["send_email"],
          }),
        ],
      }),
    ).traces[0]!;
    const report = reportFromTrace(found, "app.log");
    expect(report.description).toBe("#1 · line 1 · id t-7 · 2025-03-14T09:26:53Z");
    expect(report.offered).toEqual(["search", "final_answer", "sql"]);
    expect(report.names).toEqual(["search", "final_answer", "send_email"]);
    expect(report.tools).toEqual(report.names);
    expect(report.trace.map((r) => [r.degraded, r.reasons])).toEqual([
      [false, {}],
      [true, {}],
      [false, {}],
    ]);
    expect([report.manifest, report.capability, report.durationMs, report.error]).toEqual([
      [],
      null,
      0,
      null,
    ]);
  });
});
