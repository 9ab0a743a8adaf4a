import { afterEach, describe, expect, it, vi } from "vitest";

const original = Intl.NumberFormat;

describe("formats made on first use", () => {
  afterEach(() => {
    Intl.NumberFormat = original;
    vi.resetModules();
  });

  it("loading the statistics rows makes no number format; the first count makes one, then reuses it", async () => {
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
    expect(formatCount(1234567.5)).toBe("1,234,567.5");
    expect(made).toBe(1);
  });
});
