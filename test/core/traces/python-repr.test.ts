/** Python reprs in logs (issue 10, "Formats"): the grammar, and what the scanner makes of them. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { MAX_REPR_DEPTH, parsePython } from "../../../src/core/traces/python/parse.js";
import { pythonToJson } from "../../../src/core/traces/python/to-json.js";
import { scanText } from "../../../src/core/traces/scan.js";

/** Printed by python3 from test/python's StageRecord (the escapes are Python's own). */
const RECORD =
  "StageRecord(stage='intent', action='select', kept=('search',), dropped=('mail',), added=(), reinstated=(), forced_choice=None, detail='it\\'s \"x\" \\\\ \\n \\x07 \\u200b \\U000e0001 é')";
const FORCED =
  "StageRecord(stage='forced', action='force', kept=('search',), dropped=(), added=(), reinstated=(), forced_choice='search', detail=\"forces 'search'\")";
const RESULT = `SelectionResult(tools=(<Tool search>,), forced_choice='search', trace=(${RECORD}, ${FORCED}))`;

const read = (text: string) => pythonToJson(parsePython(text));

describe("Python repr grammar", () => {
  it("decodes every escape Python writes, and joins adjacent literals", () => {
    expect(read(`'it\\'s "x" \\\\ \\n \\x07 \\u200b \\U000e0001 é'`)).toBe(
      'it\'s "x" \\ \n \x07 \u200b \u{e0001} é',
    );
    expect(read(`"forces 'search'"`)).toBe("forces 'search'");
    expect(read(`('a long '\n   "string " 'split by pprint')`)).toBe(
      "a long string split by pprint",
    );
    expect(read(`b'\\x00a'`)).toBe("\u0000a");
    expect(read(`'\\101\\q'`)).toBe("A\\q");
  });

  it("reads literals, trailing commas, one-element tuples, sets and dicts", () => {
    expect(
      read("{'a': (1,), 'b': [None, True, False, -1500.0, 16,], 'c': {'x'}, 'd': ()}"),
    ).toEqual({ a: [1], b: [null, true, false, -1500, 16], c: ["x"], d: [] });
    expect(read("('a')")).toBe("a");
    expect(read("(0x10, 1_000, 1e3, inf)")).toEqual([16, 1000, 1000, "inf"]);
  });

  it("keeps __proto__ as an own key", () => {
    const value = read("{'__proto__': {'polluted': True}}") as object;
    expect(Object.keys(value)).toEqual(["__proto__"]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("refuses what is not a Python literal, naming the place", () => {
    expect(() => parsePython("[1, os]")).toThrow("unexpected name 'os' (not a Python literal)");
    // A call is data, whatever its name: nothing is ever called.
    expect(read("os.system('x')")).toEqual({});
    expect(() => parsePython("[1, 2")).toThrow("the '[' opened at column 1 is not closed");
    expect(() => parsePython("'abc")).toThrow("the string opened at column 1 is not closed");
    expect(() => parsePython("'\\x4'")).toThrow("invalid \\x escape at column 2");
    expect(() => parsePython("[1 2]")).toThrow("expected ',', found '2' at column 4");
  });

  it("stops at its depth limit instead of exhausting the stack", () => {
    const deep = "(".repeat(50_000) + ")".repeat(50_000);
    expect(() => parsePython(deep)).toThrow(`nested deeper than ${MAX_REPR_DEPTH} levels`);
    expect(read("(".repeat(MAX_REPR_DEPTH) + ")".repeat(MAX_REPR_DEPTH))).toEqual([]);
  });

  it("never throws anything but its own error, whatever the text", () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(..."()[]{}'\",:=\\ aN0x<>.-") }), (text) => {
        try {
          read(text);
        } catch (error) {
          expect((error as Error).constructor.name).toBe("PyReprError");
        }
      }),
      { numRuns: 2000 },
    );
  });
});

describe("Python reprs in a log", () => {
  const ids = (text: string) =>
    scanText(text).traces.map((t) => [t.line, t.ordinal, t.trace.records.map((r) => r.stage)]);

  it("reads a SelectionResult as the JSON trace it stands for", () => {
    const { traces, problems } = scanText(`2025-03-14 09:26:50,011 INFO selected %s ${RESULT}\n`);
    expect(problems).toEqual([]);
    expect(traces).toHaveLength(1);
    const t = traces[0]!.trace;
    expect(t.time).toBe("2025-03-14 09:26:50,011");
    expect(t.tools).toEqual(["search"]);
    expect(t.forcedChoice).toBe("search");
    expect(t.records).toEqual([
      {
        stage: "intent",
        action: "select",
        kept: ["search"],
        dropped: ["mail"],
        added: [],
        reinstated: [],
        forced_choice: null,
        detail: 'it\'s "x" \\ \n \x07 \u200b \u{e0001} é',
      },
      {
        stage: "forced",
        action: "force",
        kept: ["search"],
        dropped: [],
        added: [],
        reinstated: [],
        forced_choice: "search",
        detail: "forces 'search'",
      },
    ]);
  });

  it("reads a tuple or a list of records, a lone record, and dicts holding them", () => {
    const text = [
      `records (${RECORD}, ${FORCED})`,
      `records [${RECORD}]`,
      `one ${FORCED}`,
      `event {'turn_id': 't-1', 'result': ${RESULT}, 'ok': True}`,
      `event {'turn_id': 't-2', 'trace': (${FORCED},)}`,
    ].join("\n");
    expect(ids(text)).toEqual([
      [1, 0, ["intent", "forced"]],
      [2, 0, ["intent"]],
      [3, 0, ["forced"]],
      [4, 0, ["intent", "forced"]],
      [5, 0, ["forced"]],
    ]);
    expect(scanText(text).traces.map((t) => t.trace.id)).toEqual([null, null, null, "t-1", "t-2"]);
  });

  it("reads a tool's name from any repr that shows one, and keeps the others unnamed", () => {
    const tools = [
      "<Tool search>",
      "StructuredTool(name='sql', description=\"what's in the db\", func=None)",
      "{'name': 'mail', 'cost_usd': 0.01}",
      "'ask_human'",
      "Tool('calendar')",
      "<__main__.Opaque object at 0x7f3a2c1d9e50>",
      "<ToolHandle #3>",
    ];
    const text = `SelectionResult(tools=(${tools.join(", ")}), forced_choice=None, trace=(${FORCED},))`;
    const { traces, problems } = scanText(text);
    expect(problems).toEqual([]);
    expect(traces[0]!.trace.tools).toEqual([
      "search",
      { name: "sql", description: "what's in the db", func: null },
      { name: "mail", cost_usd: 0.01 },
      "ask_human",
      { name: "calendar" },
      { repr: "<__main__.Opaque object at 0x7f3a2c1d9e50>" },
      { repr: "<ToolHandle #3>" },
    ]);
  });

  it("reports a repr that never closes, or is not a literal, at its line and goes on", () => {
    const text = [
      `INFO ${RESULT.slice(0, 120)}`,
      `INFO (StageRecord(stage='x', action=select),)`,
      `INFO ${FORCED}`,
    ].join("\n");
    const { traces, problems } = scanText(text);
    expect(traces.map((t) => t.line)).toEqual([3]);
    expect(problems).toEqual([
      {
        line: 1,
        message:
          "truncated Python repr: the call SelectionResult(…) opened at column 6 is not closed",
      },
      {
        line: 2,
        message: "invalid Python repr: unexpected name 'select' (not a Python literal)",
      },
    ]);
  });

  it("does not take a word in a message for a trace", () => {
    expect(scanText("INFO traced the StageRecord type\nINFO trace=on tracer={'a': 1}\n")).toEqual({
      traces: [],
      problems: [],
    });
  });
});
