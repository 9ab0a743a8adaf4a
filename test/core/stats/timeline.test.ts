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

  it("joins two timelines into the buckets one timeline of all their traces has, and the first and last time of both", () => {
    const point = fc.tuple(fc.integer({ min: 0, max: 10 ** 9 }), fc.nat(20), fc.boolean());
    fc.assert(
      fc.property(
        fc.array(point, { maxLength: 100 }),
        fc.array(point, { maxLength: 100 }),
        (a, b) => {
          const [left, right, all] = [new Timeline(), new Timeline(), new Timeline()];
          for (const [s, size, failed] of a) left.add(1.7e9 + s, size, failed);
          for (const [s, size, failed] of b) right.add(1.7e9 + s, size, failed);
          for (const [s, size, failed] of [...a, ...b]) all.add(1.7e9 + s, size, failed);
          left.add("soon", 1, false);
          const joined = Timeline.joined(left, right);
          expect(joined.list()).toEqual(all.list());
          expect(joined.period()).toEqual(all.period());
          expect(joined.unreadable).toBe(1);
          const seconds = [...a, ...b].map(([s]) => (1.7e9 + s) * 1000);
          expect(all.period()).toEqual(
            seconds.length === 0 ? null : { from: Math.min(...seconds), to: Math.max(...seconds) },
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

describe("timeMs, edge by edge", () => {
  const at = Date.UTC(2025, 2, 14, 9, 26, 50, 123);

  it("takes T or space, any case, surrounding blanks, a blank before the zone and 1 to 9 digits of fraction", () => {
    expect(timeMs("  2025-03-14t09:26:50.123z ")).toBe(at);
    expect(timeMs("2025-03-14 09:26:50.123456789")).toBe(at);
    expect(timeMs("2025-03-14 09:26:50.1")).toBe(at - 23);
    expect(timeMs("2025-03-14 09:26")).toBe(Date.UTC(2025, 2, 14, 9, 26));
    expect(timeMs("2025-03-14 10:56:50.123 +0130")).toBe(at);
    expect(timeMs("2025-03-14T04:26:50.123-05:00")).toBe(at);
  });

  it("accepts each field's largest value and refuses one more", () => {
    expect(timeMs("2025-12-31 23:59:60")).toBe(Date.UTC(2026, 0, 1));
    expect(timeMs("2025-01-01 00:00")).toBe(Date.UTC(2025, 0, 1));
    for (const text of [
      "2025-00-01 00:00",
      "2025-13-01 00:00",
      "2025-03-00 00:00",
      "2025-03-32 00:00",
      "2025-03-14 24:00",
      "2025-03-14 09:60",
      "2025-03-14 09:26:61",
      "2025-03-14 09:26:50.1234567890",
      "2025-03-14",
      "x2025-03-14 09:26",
    ])
      expect(timeMs(text), text).toBeNull();
  });

  it("reads a number up to 1e11 as seconds and a larger one as milliseconds; refuses NaN and infinities", () => {
    expect([timeMs(0), timeMs(1e11), timeMs(1e11 + 1), timeMs(1.5)]).toEqual([
      0,
      1e14,
      1e11 + 1,
      1500,
    ]);
    for (const n of [NaN, Infinity, -Infinity, -0.5]) expect(timeMs(n)).toBeNull();
  });

  it("refuses a time after the year 9999, as a number or with a zone that carries it past", () => {
    const end = Date.UTC(10000, 0, 1);
    expect([timeMs(end - 1), timeMs(end), timeMs(1e19)]).toEqual([end - 1, null, null]);
    expect(timeMs("9999-12-31 23:59:59.999Z")).toBe(end - 1);
    expect(timeMs("9999-12-31 23:59 -05:00")).toBeNull();
  });

  it("reads the years 0 to 99 as written, not as 1900 to 1999", () => {
    const year50 = new Date(0);
    year50.setUTCFullYear(50, 2, 14);
    year50.setUTCHours(9, 26);
    expect(timeMs("0050-03-14 09:26")).toBe(year50.getTime());
    expect(timeMs("0000-01-01 00:00")).toBe(-62_167_219_200_000);
    expect(timeMs("0000-01-01 00:00 +00:01")).toBeNull();
  });
});

describe("Timeline widths", () => {
  const seconds = (n: number) => {
    const timeline = new Timeline();
    for (let s = 0; s < n; s++) timeline.add(1.7e9 + s, 1, false);
    return timeline.list();
  };

  it("64 one-second buckets fit; a 65th second merges them into two-second buckets", () => {
    expect(seconds(MAX_BUCKETS).map((b) => b.width)).toEqual(Array(MAX_BUCKETS).fill(1000));
    const merged = seconds(MAX_BUCKETS + 1);
    expect(merged).toHaveLength(33);
    expect(
      merged.every((b) => b.width === 2000 && b.traces === 2 - (b === merged[32] ? 1 : 0)),
    ).toBe(true);
    expect(merged[0]!.start).toBe(1.7e12);
  });

  it("merged buckets add their traces, palette sizes and failures", () => {
    const timeline = new Timeline();
    timeline.add(1.7e9, 2, true);
    timeline.add(1.7e9 + 1, 4, true);
    timeline.add(1.7e9 + 64, 9, false);
    expect(timeline.list()[0]).toEqual({
      start: 1.7e12,
      width: 2000,
      traces: 2,
      meanPalette: 3,
      forcedFailures: 2,
    });
  });

  it("past a week the width doubles, and empty buckets between traces are listed", () => {
    const week = 604_800;
    const timeline = new Timeline();
    timeline.add(0, 3, false);
    timeline.add(65 * week, 5, true);
    const buckets = timeline.list();
    expect(buckets).toHaveLength(33);
    expect(buckets[1]).toEqual({
      start: 2 * week * 1000,
      width: 2 * week * 1000,
      traces: 0,
      meanPalette: 0,
      forcedFailures: 0,
    });
    expect(buckets.at(-1)).toMatchObject({ start: 64 * week * 1000, traces: 1, meanPalette: 5 });
    timeline.add(200 * week, 1, false);
    expect(timeline.list()[0]!.width).toBe(4 * week * 1000);
  });

  it("a time of 1e19 is unreadable, and the timeline of the other traces still ends", () => {
    const timeline = new Timeline();
    timeline.add(1.7e9, 1, false);
    timeline.add(1e19, 1, false);
    expect(timeline.unreadable).toBe(1);
    expect(timeline.list()).toHaveLength(1);
  });

  it("an empty timeline lists nothing", () => {
    const timeline = new Timeline();
    timeline.add("never", 1, false);
    expect(timeline.list()).toEqual([]);
  });
});
