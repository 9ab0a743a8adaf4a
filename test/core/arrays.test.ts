import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { allDistinct } from "../../src/core/arrays.js";

describe("allDistinct", () => {
  it("is true of an empty list and of names that differ only in one unit", () => {
    expect(allDistinct([])).toBe(true);
    expect(allDistinct(["tool_1", "tool_2", "tool_10", "Tool_1", "tool_1 "])).toBe(true);
  });

  it("finds a repeat wherever it is, among many names", () => {
    const names = Array.from({ length: 50_000 }, (_, i) => `tool_${i}`);
    expect(allDistinct(names)).toBe(true);
    expect(allDistinct([...names, "tool_0"])).toBe(false);
    expect(allDistinct(["tool_49999", ...names])).toBe(false);
  });

  it("agrees with a Set on random lists, astral and empty names included", () => {
    const name = fc.oneof(fc.string({ maxLength: 3 }), fc.constantFrom("", "😀", "\ud83d"));
    fc.assert(
      fc.property(fc.array(name, { maxLength: 40 }), (names) => {
        expect(allDistinct(names)).toBe(new Set(names).size === names.length);
      }),
      { numRuns: 500 },
    );
  });
});
