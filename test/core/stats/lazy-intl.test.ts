import { afterEach, describe, expect, it, vi } from "vitest";

const original = Intl.NumberFormat;

describe("formats made on first use", () => {
  afterEach(() => {
    Intl.NumberFormat = original;
    vi.resetModules();
  });

  it("loading the statistics rows makes no number format; the first count with a fraction makes one, then reuses it", async () => {
    let made = 0;
    Intl.NumberFormat = class extends original {
      constructor(...args: ConstructorParameters<typeof original>) {
        super(...args);
        made++;
      }
    } as typeof original;
    vi.resetModules();
    const { formatCount } = await import("../../../src/core/stats/rows.js");
    expect(made).toBe(0);
    expect(formatCount(1200)).toBe("1,200");
    expect(made).toBe(0);
    expect(formatCount(1234567.5)).toBe("1,234,567.5");
    expect(formatCount(0.5)).toBe("0.5");
    expect(made).toBe(1);
  });

  it("writes a whole count as en-US does, without a number format", async () => {
    const { formatCount } = await import("../../../src/core/stats/rows.js");
    const en = new original("en-US");
    const counts = [0, 7, 999, 1000, 1200, 65536, 999999, 1234567, -1234, Number.MAX_SAFE_INTEGER];
    expect(counts.map(formatCount)).toEqual(counts.map((n) => en.format(n)));
    expect(formatCount(2 ** 60)).toBe(en.format(2 ** 60));
  });
});
