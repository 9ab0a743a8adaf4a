import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { allDistinct, concatBytes, hashOf, pushAll } from "../../src/core/arrays.js";

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

  it("still answers right when the names are crafted to collide in its table", () => {
    // 100 names fill a table of 256 slots; all in one slot make a run longer than its probe limit.
    const colliding: string[] = [];
    for (let i = 0; colliding.length < 100; i++)
      if ((hashOf(`k${i}`) & 255) === 0) colliding.push(`k${i}`);
    expect(allDistinct(colliding)).toBe(true);
    expect(allDistinct([...colliding, colliding[0]!])).toBe(false);
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

describe("pushAll", () => {
  it("appends in place, past the length at which a spread call overflows the stack", () => {
    const target = [0];
    const items = Array.from({ length: 300_000 }, (_, i) => i + 1);
    pushAll(target, items);
    expect(target).toHaveLength(300_001);
    expect(target[300_000]).toBe(300_000);
  });
});

describe("concatBytes", () => {
  it("joins the parts in order into one buffer of the given length", () => {
    const joined = concatBytes([Uint8Array.of(1, 2), Uint8Array.of(), Uint8Array.of(3)], 3);
    expect([...joined]).toEqual([1, 2, 3]);
    expect(concatBytes([], 0)).toHaveLength(0);
  });

  it("returns a single part as it is, not a copy", () => {
    const part = Uint8Array.of(7, 8);
    expect(concatBytes([part], 2)).toBe(part);
  });
});
