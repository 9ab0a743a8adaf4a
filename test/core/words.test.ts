import { describe, expect, it } from "vitest";
import { baseName, closestName, counted } from "../../src/core/words.js";

describe("counted", () => {
  it("puts the noun in the singular for exactly one, in the plural otherwise", () => {
    expect(counted(1, "tool")).toBe("1 tool");
    expect(counted(0, "tool")).toBe("0 tools");
    expect(counted(2, "tool")).toBe("2 tools");
  });

  it("takes an irregular plural and a number format", () => {
    expect(counted(3, "entry", "entries")).toBe("3 entries");
    expect(counted(1, "entry", "entries")).toBe("1 entry");
    expect(counted(1200, "line", "lines", (n) => n.toLocaleString("en-US"))).toBe("1,200 lines");
  });
});

describe("closestName: the known name a typo most likely meant", () => {
  it("answers the known name one edit away, and nothing when none is known", () => {
    expect(closestName("ofered", ["query", "offered"])).toBe("offered");
    expect(closestName("ofered", [])).toBeUndefined();
  });

  it("compares without regard to case, answering the known name as spelt", () => {
    expect(closestName("OFFERED", ["offered"])).toBe("offered");
    expect(closestName("offered", ["OFFERED"])).toBe("OFFERED");
  });

  it("allows two edits to a short key, counting deletions, insertions and substitutions as one each", () => {
    // A six-letter key allows two edits, not three.
    expect(closestName("abcdef", ["abcd"])).toBe("abcd");
    expect(closestName("abcdef", ["abc"])).toBeUndefined();
    expect(closestName("abcdef", ["abcdefgh"])).toBe("abcdefgh");
    expect(closestName("abcdef", ["abcdefghi"])).toBeUndefined();
    expect(closestName("abcdef", ["abxyef"])).toBe("abxyef");
    expect(closestName("abcdef", ["axyzef"])).toBeUndefined();
    expect(closestName("kitten", ["sittin"])).toBe("sittin");
    expect(closestName("kitten", ["sitting"])).toBeUndefined();
  });

  it("allows a third of a long key's length in edits, rounded down", () => {
    // Thirteen letters: four edits, not five.
    const key = "abcdefghijklm";
    expect(closestName(key, ["abcdefghiWXYZ"])).toBe("abcdefghiWXYZ");
    expect(closestName(key, ["abcdefghVWXYZ"])).toBeUndefined();
  });

  it("prefers the closest candidate, and the first of equally close ones", () => {
    expect(closestName("abcdef", ["abxyef", "abcdeX"])).toBe("abcdeX");
    expect(closestName("abcdef", ["abcdeX", "abxyef"])).toBe("abcdeX");
    expect(closestName("abcdef", ["abcdeX", "abcdeY"])).toBe("abcdeX");
  });
});

describe("baseName", () => {
  it("is a path's last segment, after either separator", () => {
    expect(baseName("/ws/logs/app.log")).toBe("app.log");
    expect(baseName("C:\\logs\\app.log.gz")).toBe("app.log.gz");
    expect(baseName("plain.turn.json")).toBe("plain.turn.json");
    // A path ending in a separator keeps its whole text rather than naming nothing.
    expect(baseName("/ws/")).toBe("/ws/");
  });
});
