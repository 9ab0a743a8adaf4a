/**
 * Tool names a custom `__repr__` prints raw (`<Tool NAME>`): read back exactly where the structure
 * around them decides, from the records where it does not, and otherwise said to be ambiguous.
 */
import { describe, expect, it } from "vitest";
import { scanText } from "../../../src/core/traces/scan.js";
import { summarizeTrace } from "../../../src/core/traces/summary.js";

/** The final names of each trace on the text, and its problems. */
function read(text: string) {
  const { traces, problems } = scanText(text);
  return {
    names: traces.map((t) => summarizeTrace(t).names),
    problems: problems.map((p) => p.message),
  };
}

const result = (tools: string, kept: string) =>
  `INFO selected SelectionResult(tools=${tools}, forced_choice=None, trace=(StageRecord(stage='s', action='select', kept=${kept}),))`;

describe("tool names printed raw by a custom __repr__", () => {
  it("reads a name holding brackets, quotes, blanks and marker text, where the list's structure decides", () => {
    const names = ["f(x", "it's", 'say "hi"', " sp ace ", "a]>b", "trace=(", "StageRecord(", "{0}"];
    const tools = `(${names.map((name) => `<Tool ${name}>`).join(", ")})`;
    expect(read(result(tools, "('z',)"))).toEqual({ names: [names], problems: [] });
  });

  it("takes the reading of an ambiguous repr whose names the records hold", () => {
    // `[<T a>,<T b>]` is two tools, or one named `a>,<T b`: no blank after the comma marks the next item.
    expect(read(result("[<T a>,<T b>]", "('a', 'b')"))).toEqual({
      names: [["a", "b"]],
      problems: [],
    });
    expect(read(result("[<T a>,<T b>]", "('a>,<T b',)"))).toEqual({
      names: [["a>,<T b"]],
      problems: [],
    });
  });

  it("lists a trace whose records do not decide, its final tools from its records, and names the repr and its column", () => {
    expect(read(result("[<T a>,<T b>]", "('c',)"))).toEqual({
      names: [["c"]],
      problems: [
        `ambiguous Python repr: the repr "<T a>" at column 38 may end at more than one '>'; its trace's final tools are read from its records`,
      ],
    });
  });

  it("reads a pprint-split value whose names hold brackets and marker text", () => {
    const text = [
      "INFO selection:",
      "SelectionResult(tools=(<Tool sq'trace': [l>,",
      "                       <Tool ~&}x>),",
      "                forced_choice=None,",
      "                trace=())",
    ].join("\n");
    expect(read(text)).toEqual({ names: [["sq'trace': [l", "~&}x"]], problems: [] });
  });

  it("keeps an object's address and another quoted field unnamed", () => {
    const { traces } = scanText(
      result("(<Foo object at 0x7f3a>, <Remote endpoint='https://x'>, <Tool>)", "()"),
    );
    expect(traces[0]!.trace.tools).toEqual([
      { repr: "<Foo object at 0x7f3a>" },
      { repr: "<Remote endpoint='https://x'>" },
      { repr: "<Tool>" },
    ]);
  });

  it("reads a forced choice logfmt wrote bare as the name, its brackets and literals included", () => {
    const line = (forced: string) =>
      `event=selection forced_choice=${forced} trace="({'stage': 's', 'action': 'select'},)" tools="('a', 'b')"`;
    for (const forced of ["f(x", "x[", "False", "0x1f", "null", "'quote", "geSelectionResult(t"]) {
      const { traces, problems } = scanText(line(forced));
      expect(problems).toEqual([]);
      expect(traces.map((t) => summarizeTrace(t).forcedChoice)).toEqual([forced]);
      expect(traces.map((t) => summarizeTrace(t).names)).toEqual([["a", "b"]]);
    }
  });
});
