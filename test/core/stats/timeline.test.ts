import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { MAX_BUCKETS, Timeline, timeMs } from "../../../src/core/stats/timeline.js";

describe("timeMs", () => {
  it("reads Python logging and ISO 8601 times as UTC unless they carry a zone, and epoch numbers", () => {
    const at = Date.UTC(2025, 2, 14, 9, 26, 50, 11);
    expect(timeMs("2025-03-14 09:26:50,011")).toBe(at);
    expect(timeMs("2025-03-14T09:26:50.011Z")).toBe(at);
    expect(timeMs("2025-03-14T11:26:50.011+02:00")).toBe(at);
    expect(timeMs(at / 1000)).toBe(at);
    expect(timeMs(at)).toBe(at);
  });

  it("refuses what is not a date", () => {
    for (const text of ["yesterday", "2025-13-01 00:00:00", "2025-03-14 25:00", ""])
      expect(timeMs(text)).toBeNull();
    expect(timeMs(-1)).toBeNull();
  });
});

describe("Timeline", () => {
  it("keeps at most MAX_BUCKETS buckets, and the same buckets whatever order the traces come in", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: 0, max: 10 ** 9 }), fc.nat(20), fc.boolean()), {
          minLength: 1,
          maxLength: 200,
        }),
        (points) => {
          const forward = new Timeline();
          const backward = new Timeline();
          for (const [s, size, failed] of points) forward.add(1.7e9 + s, size, failed);
          for (const [s, size, failed] of [...points].reverse())
            backward.add(1.7e9 + s, size, failed);
          const buckets = forward.list();
          expect(buckets.length).toBeLessThanOrEqual(MAX_BUCKETS);
          expect(backward.list()).toEqual(buckets);
          expect(buckets.reduce((n, b) => n + b.traces, 0)).toBe(points.length);
          expect(buckets.reduce((n, b) => n + b.forcedFailures, 0)).toBe(
            points.filter(([, , failed]) => failed).length,
          );
        },
      ),
    );
  });

  it("buckets have round widths: two days of hourly traces are 48 one-hour buckets", () => {
    const timeline = new Timeline();
    for (let h = 0; h < 48; h++) timeline.add(Date.UTC(2025, 2, 14, h) / 1000, h % 5, false);
    const buckets = timeline.list();
    expect(buckets.map((b) => b.width)).toEqual(Array(48).fill(3_600_000));
    expect(buckets[0]!.start).toBe(Date.UTC(2025, 2, 14));
  });

  it("gives the mean final palette size per bucket and counts unreadable times apart", () => {
    const timeline = new Timeline();
    timeline.add("2025-03-14 09:00:00", 4, false);
    timeline.add("2025-03-14 09:00:00,500", 2, true);
    timeline.add("soon", 9, false);
    expect(timeline.list()).toEqual([
      {
        start: Date.UTC(2025, 2, 14, 9),
        width: 1000,
        traces: 2,
        meanPalette: 3,
        forcedFailures: 1,
      },
    ]);
    expect(timeline.unreadable).toBe(1);
  });
});
