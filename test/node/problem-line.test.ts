import { describe, expect, it } from "vitest";
import { problemLine } from "../../src/node/problem-list.js";

describe("problemLine", () => {
  it("names the file and line before the message, and only the file when there is no line", () => {
    expect(problemLine({ file: "a.log", line: 12, message: "bad trace" })).toBe(
      "a.log:12: bad trace",
    );
    expect(problemLine({ file: "b.log.gz", line: null, message: "not gzip" })).toBe(
      "b.log.gz: not gzip",
    );
  });

  it("escapes control characters in the file name and the message", () => {
    expect(problemLine({ file: "x\x1b[2J.log", line: 1, message: "m\u202e" })).toBe(
      "x\\u001b[2J.log:1: m\\u202e",
    );
  });
});
