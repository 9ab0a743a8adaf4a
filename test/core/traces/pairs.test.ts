/** key=value lines (structlog, logfmt): quoted values, pair keys, a trace's sibling pairs. */
import { describe, expect, it } from "vitest";
import { quotedEnd, unescapeLogfmt } from "../../../src/core/traces/logfmt.js";
import { PairCutError, pairKey, traceFromPairs } from "../../../src/core/traces/pairs.js";

describe("a logfmt quoted value", () => {
  it("ends at the first quote no backslash escapes, within the range given", () => {
    const line = 'msg="say \\"hi\\" \\\\" next="x"';
    expect(quotedEnd(line, 4)).toBe(line.indexOf(" next") - 1);
    expect(quotedEnd('k="abc"', 2)).toBe(6);
    expect(quotedEnd('k="abc"', 2, 6)).toBe(-1);
    expect(quotedEnd('k="abc', 2)).toBe(-1);
    expect(quotedEnd('k="ab\\"', 2)).toBe(-1);
  });

  it("is unescaped as the logger escaped it; an unknown or cut escape stays as written", () => {
    expect(unescapeLogfmt("plain 'text'")).toBe("plain 'text'");
    expect(unescapeLogfmt('a\\nb\\tc\\rd\\"e\\\\f')).toBe('a\nb\tc\rd"e\\f');
    expect(unescapeLogfmt("\\\\n")).toBe("\\n");
    expect(unescapeLogfmt("a\\xb")).toBe("a\\xb");
    expect(unescapeLogfmt("end\\")).toBe("end\\");
  });
});

describe("the key of a pair", () => {
  const at = (line: string) => pairKey(line, line.indexOf("=") + 1);

  it("is the word before `=`, at the line's start or after a blank", () => {
    expect(at("trace=[1]")).toBe("trace");
    expect(pairKey("a=1 trace=[1]", 10)).toBe("trace");
    expect(pairKey("a=1\taz.AZ-09_x=[1]", 15)).toBe("az.AZ-09_x");
  });

  it("takes a key after the `:` that ends a prefix such as logging's INFO:root:", () => {
    expect(at("INFO:root:trace=[1]")).toBe("trace");
  });

  it("is null without a `=` right before the value, an empty key, or a key glued to other text", () => {
    expect(pairKey("trace [1]", 6)).toBeNull();
    expect(pairKey("trace=[1]", 5)).toBeNull();
    expect(at("=[1]")).toBeNull();
    expect(at("a =[1]")).toBeNull();
    expect(at("x,trace=[1]")).toBeNull();
    expect(at("(trace=[1]")).toBeNull();
  });
});

describe("a trace= pair with its siblings", () => {
  const records = "[{'stage': 's', 'action': 'abstain'}]";
  const trace = (line: string) => {
    const start = line.indexOf("trace=") + 6;
    return traceFromPairs(line, line, start, start + records.length);
  };

  it("takes tools, forced_choice, offered and error from the line's own pairs", () => {
    const line = `offered=('a', 'b') error={'kind': 'K', 'message': 'm'} trace=${records} tools=['a'] forced_choice='a'`;
    expect(trace(line)).toEqual({
      trace: [{ stage: "s", action: "abstain" }],
      tools: ["a"],
      forced_choice: "a",
      offered: ["a", "b"],
      error: { kind: "K", message: "m" },
    });
  });

  it("reads a quoted value as a repr or JSON, or else as its text; a bare word as a string", () => {
    expect(trace(`trace=${records} tools="('a',)" forced_choice="not a repr ["`)).toEqual({
      trace: [{ stage: "s", action: "abstain" }],
      tools: ["a"],
      forced_choice: "not a repr [",
    });
    expect(trace(`trace=${records} tools="[\\"a\\"]" forced_choice=search`)).toMatchObject({
      tools: ["a"],
      forced_choice: "search",
    });
    expect(trace(`trace=${records} forced_choice=search\tx=1`)).toMatchObject({
      forced_choice: "search",
    });
    // A repr that runs into more text is read as the word it starts; punctuation glued after it ends it.
    expect(trace(`trace=${records} forced_choice='a'b tools=x`)).toMatchObject({
      forced_choice: "'a'b",
    });
    for (const glued of ["'ask_human')", "'ask_human'),", "'ask_human'];", "'ask_human'}"])
      expect(trace(`trace=${records} forced_choice=${glued} tools=x`)).toMatchObject({
        forced_choice: "ask_human",
      });
  });

  it("reads an empty value as None; a quoted value that does not close cuts the trace", () => {
    expect(trace(`trace=${records} forced_choice= tools=`)).toEqual({
      trace: [{ stage: "s", action: "abstain" }],
      tools: null,
      forced_choice: null,
    });
    for (const cut of [`tools="('a',)`, `tools='["a", `])
      expect(() => trace(`trace=${records} ${cut}`)).toThrow(PairCutError);
    expect(() => trace(`trace=${records} tools="('a',)`)).toThrow(
      `the quoted value of 'tools=' opened at column ${records.length + 14} is not closed`,
    );
  });

  it("reads a Python string holding a list or dict as that value, and any other as a string", () => {
    expect(trace(`tools='["a"]' forced_choice='None' trace=${records}`)).toMatchObject({
      tools: ["a"],
      forced_choice: "None",
    });
  });

  it("takes the first pair at the top level of the line, not one inside a value or a string", () => {
    const line = `a=('tools=[1]', {"x": " tools=[2]"}) b="( tools=[3]" tools=["four"] tools=["five"] trace=${records}`;
    expect(trace(line)).toMatchObject({ tools: ["four"] });
    // A stray closing bracket or an apostrophe in the text between pairs opens nothing.
    expect(trace(`a) it's tools=["four"] trace=${records}`)).toMatchObject({ tools: ["four"] });
    const nested = `x={1, tools=["two"]} y=[1, tools=["three"]] z=(tools=["three"]) tools=["four"]`;
    expect(trace(`${nested} trace=${records}`)).toMatchObject({ tools: ["four"] });
    const quoted = `b='( tools=["two"]' c="\\"( tools=['three']" tools=["four"]`;
    expect(trace(`${quoted} trace=${records}`)).toMatchObject({ tools: ["four"] });
    for (const line of [`note=(1, tools=[2]) trace=${records}`, `xtools=[1] trace=${records}`])
      expect(Object.keys(trace(line) as object)).toEqual(["trace"]);
  });
});
