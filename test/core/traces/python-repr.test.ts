/** Python reprs in logs: the grammar, and what the scanner makes of them. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  MAX_REPR_DEPTH,
  parsePython,
  parsePythonAt,
  PyReprError,
} from "../../../src/core/traces/python/parse.js";
import { readString } from "../../../src/core/traces/python/strings.js";
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

  it("keeps __proto__ and Object.prototype's names as own keys of a call's keywords and a dict", () => {
    const call = read("Tool(__proto__={'polluted': True}, toString=1)") as object;
    expect(Object.keys(call)).toEqual(["__proto__", "toString"]);
    expect(Object.getPrototypeOf(call)).toBe(Object.prototype);
    const dict = read("{'constructor': 1, 'hasOwnProperty': 2, '__proto__': 3}") as object;
    expect(Object.entries(dict)).toEqual([
      ["constructor", 1],
      ["hasOwnProperty", 2],
      ["__proto__", 3],
    ]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.prototype.hasOwnProperty).toBeTypeOf("function");
  });

  it("reads the same text again as it was read, and another text at the same place anew", () => {
    expect(parsePython("[1]")).toEqual({ kind: "seq", items: [1] });
    expect(parsePython("[1]")).toEqual({ kind: "seq", items: [1] });
    expect(parsePython("[2]")).toEqual({ kind: "seq", items: [2] });
    expect(parsePythonAt("[2] x", 0)).toEqual({ value: { kind: "seq", items: [2] }, end: 3 });
    expect(() => parsePython("[2] x")).toThrow("unexpected 'x' at column 5");
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
});

describe("Python repr grammar, case by case", () => {
  /** The sentence and index of the error a text raises. */
  const failure = (text: string, start?: number, end?: number) => {
    try {
      parsePython(text, start, end);
    } catch (error) {
      if (error instanceof PyReprError) return [error.message, error.at];
    }
    throw new Error(`${JSON.stringify(text)} parsed`);
  };

  it("reads every escape, string prefix, raw string and line continuation", () => {
    expect(read(`'\\a\\b\\f\\n\\r\\t\\v\\\\\\'\\"'`)).toBe("\x07\b\f\n\r\t\v\\'\"");
    expect(read("'\\x41\\u00e9\\U0001F600'")).toBe("Aé😀");
    expect(read("'\\0|\\1234|\\8|\\77'")).toBe("\0|S4|\\8|?");
    expect(read("'a\\\nb'")).toBe("ab");
    expect(read("r'a\\'b\\n'")).toBe("a\\'b\\n");
    expect(read("br'\\d' Rb'\\d' u'x' B'y' U'z'")).toBe("\\d\\dxyz");
    expect(read("'a' r'\\n'")).toBe("a\\n");
    expect(read("'a' \n 'b'")).toBe("ab");
    expect(read("['a' 'b', 'c']")).toEqual(["ab", "c"]);
  });

  it("refuses a broken string literal, naming where it opened or the escape", () => {
    expect(failure("'a\nb'")).toEqual(["the string opened at column 1 is not closed", 0]);
    expect(failure("'a\rb'")).toEqual(["the string opened at column 1 is not closed", 0]);
    expect(failure("'abc\\")).toEqual(["the string opened at column 1 is not closed", 0]);
    expect(failure("'a' 'b")).toEqual(["the string opened at column 5 is not closed", 4]);
    expect(failure("['xZ', '\\xZZ']")).toEqual(["invalid \\x escape at column 9", 7]);
    expect(failure("'\\u12'")).toEqual(["invalid \\u escape at column 2", 0]);
    expect(failure("'\\U00110000'")).toEqual(["invalid \\U escape at column 2", 0]);
    expect(failure("bru'x'")).toEqual(["unexpected name 'bru' (not a Python literal)", 0]);
    expect(failure("'a' rx")).toEqual(["unexpected 'r' at column 5", 4]);
  });

  it("reads a string only up to the end it is given", () => {
    expect(readString("'ab'", 0, 4, false)).toEqual({ value: "ab", end: 4 });
    expect(readString("x'a\\'b'", 1, 7, false)).toEqual({ value: "a'b", end: 7 });
    expect(readString("'ab'", 0, 3, false)).toBe("the string opened at column 1 is not closed");
    expect(readString("'a\\'", 0, 3, false)).toBe("the string opened at column 1 is not closed");
    expect(readString("'\\101'", 0, 4, false)).toBe("the string opened at column 1 is not closed");
    expect(readString("'\\1012'", 0, 7, false)).toEqual({ value: "A2", end: 7 });
  });

  it("reads numbers as Python writes them, and refuses malformed ones", () => {
    expect(
      read("[-5, +5, 1e-3, 1E+3, .5, 1_000.5, 0x1F, -0x10, +0o17, 0b101, -0B11, -inf, +inf]"),
    ).toEqual([-5, 5, 0.001, 1000, 0.5, 1000.5, 31, -16, 15, 5, -3, "-inf", "+inf"]);
    expect(read("[3j, 1.5J, nan, Ellipsis, NotImplemented]")).toEqual([
      "3j",
      "1.5J",
      "nan",
      "Ellipsis",
      "NotImplemented",
    ]);
    expect(failure("1.2.3")).toEqual(["invalid number '1.2.3'", 0]);
    expect(failure("[1, 0x]")).toEqual(["invalid number '0x'", 4]);
    expect(failure("0b102")).toEqual(["invalid number '0b102'", 0]);
    expect(failure("0o8")).toEqual(["invalid number '0o8'", 0]);
    expect(failure("0x1.5")).toEqual(["invalid number '0x1.5'", 0]);
    // A base prefix counts only at the start, and every digit after it must be of the base.
    expect(failure("10b1")).toEqual(["invalid number '10b1'", 0]);
    expect(failure("0o78")).toEqual(["invalid number '0o78'", 0]);
    expect(failure("1-2")).toEqual(["unexpected '-' at column 2", 1]);
    expect(failure("[-os]")).toEqual(["unexpected name 'os' (not a Python literal)", 2]);
  });

  it("reads names: Python's and JSON's constants, dotted calls, keywords with blanks", () => {
    expect(read("[None, True, False, null, true, false]")).toEqual([
      null,
      true,
      false,
      null,
      true,
      false,
    ]);
    expect(read("symfonic.selection.StageRecord(stage = 'a', detail='x==y')")).toEqual({
      trace: [{ stage: "a", detail: "x==y" }],
    });
    expect(failure("a.b")).toEqual(["unexpected name 'a.b' (not a Python literal)", 0]);
    expect(failure("[a.]")).toEqual(["unexpected name 'a' (not a Python literal)", 1]);
    expect(failure("f(a == b)")).toEqual(["unexpected name 'a' (not a Python literal)", 2]);
    expect(failure("f(k=)")).toEqual(["unexpected ')' at column 5", 4]);
  });

  it("reads brackets with blanks and trailing commas, and names where each breaks", () => {
    expect(read(" ( 1 , 2 , ) ")).toEqual([1, 2]);
    expect(read("( 'a' )")).toBe("a");
    expect(read("{1, 2}")).toEqual([1, 2]);
    expect(read("{ 1 }")).toEqual([1]);
    expect(read("{1,}")).toEqual([1]);
    expect(read("{ 'a' : 1 , 'b':2, }")).toEqual({ a: 1, b: 2 });
    expect(read("{ }")).toEqual({});
    expect(read("[ ]")).toEqual([]);
    expect(failure("")).toEqual(["the repr ends where a value was expected", 0]);
    expect(failure("  ")).toEqual(["the repr ends where a value was expected", 2]);
    expect(failure("1 2")).toEqual(["unexpected '2' at column 3", 2]);
    expect(failure("(1 2)")).toEqual(["expected ',', found '2' at column 4", 3]);
    expect(failure("(1, 2")).toEqual(["the '(' opened at column 1 is not closed", 0]);
    expect(failure("{1 2}")).toEqual(["expected ',', found '2' at column 4", 3]);
    expect(failure("{1, 2")).toEqual(["the '{' opened at column 1 is not closed", 0]);
    expect(failure("{'a': 1 'b': 2}")).toEqual(["expected ',', found ''' at column 9", 8]);
    expect(failure("{'a': 1, 'b' 2}")).toEqual(["expected ':', found '2' at column 14", 13]);
    expect(failure("{'a': 1")).toEqual(["the '{' opened at column 1 is not closed", 0]);
    expect(failure("[1, }")).toEqual(["unexpected '}' at column 5", 4]);
    expect(failure("f(1 2)")).toEqual(["expected ',', found '2' at column 5", 4]);
    expect(failure("?")).toEqual(["unexpected '?' at column 1", 0]);
  });

  it("takes names and numbers at every edge of their character ranges, and every blank", () => {
    expect(read("[a(), z(), A(), Z(), _(), t09(x9=0), 0, 9]")).toEqual([
      {},
      {},
      {},
      {},
      {},
      { x9: 0 },
      0,
      9,
    ]);
    expect(read("[1,\t2,\r\n3 ]")).toEqual([1, 2, 3]);
    expect(failure("f(=1)")).toEqual(["unexpected '=' at column 3", 2]);
    expect(read("'\\U0010ffff\\18'")).toBe("\u{10ffff}\u00018");
    expect(readString("'\\x4", 0, 4, false)).toBe("invalid \\x escape at column 2");
    expect(readString("'\\x41'", 0, 4, false)).toBe("invalid \\x escape at column 2");
    // A backslash right before the end escapes nothing past it.
    expect(readString("'\\x41'", 0, 2, false)).toBe("the string opened at column 1 is not closed");
    expect(failure("'\\xZ1'")).toEqual(["invalid \\x escape at column 2", 0]);
  });

  it("stops at its depth limit in every kind of bracket", () => {
    const kinds = [
      ["[", "]"],
      ["(1, ", ")"],
      ["{", "}"],
      ["{1: ", "}"],
      ["{0: 0, 1: ", "}"],
      ["{0: 0, ", ": 1}"],
      ["{1, ", "}"],
      ["f(", ")"],
      ["f(k=", ")"],
    ];
    for (const [open, close] of kinds)
      expect(() => parsePython(open!.repeat(200) + "1" + close!.repeat(200))).toThrow(
        `nested deeper than ${MAX_REPR_DEPTH} levels`,
      );
  });

  it("counts the depth limit from the outermost value", () => {
    const nested = (levels: number) => "(".repeat(levels) + ")".repeat(levels);
    // The innermost () is a value too: MAX_REPR_DEPTH + 1 brackets reach depth MAX_REPR_DEPTH.
    expect(read(nested(MAX_REPR_DEPTH + 1))).toEqual([]);
    expect(failure(nested(MAX_REPR_DEPTH + 2))).toEqual([
      `the repr is nested deeper than ${MAX_REPR_DEPTH} levels`,
      MAX_REPR_DEPTH + 1,
    ]);
  });

  it("reads an angle-bracket repr whole, whatever its __repr__ printed inside", () => {
    expect(read("[<a <b> c>, <Tool name='>'>]")).toEqual(["<a <b> c>", "<Tool name='>'>"]);
    expect(failure("[<a]")).toEqual(["the '<' opened at column 2 is not closed", 1]);
    expect(read("<a 'b>")).toBe("<a 'b>");
    expect(read("[<T f(x>, <T ]>]")).toEqual(["<T f(x>", "<T ]>"]);
    expect(read("(<T a>), 1>,)")).toEqual(["<T a>), 1>"]);
  });

  it("reads only between start and end, and says where a value ends", () => {
    expect(parsePython("xx[1]yy", 2, 5)).toEqual({ kind: "seq", items: [1] });
    expect(failure("[1]]", 0, 2)).toEqual(["the '[' opened at column 1 is not closed", 0]);
    expect(failure("(1, 2)", 0, 5)).toEqual(["the '(' opened at column 1 is not closed", 0]);
    expect(failure("{1: 2}", 0, 5)).toEqual(["the '{' opened at column 1 is not closed", 0]);
    expect(failure("f(k=1)", 0, 5)).toEqual(["the '(' opened at column 2 is not closed", 1]);
    expect(failure("'ab'", 0, 3)).toEqual(["the string opened at column 1 is not closed", 0]);
    expect(failure("<a>", 0, 2)).toEqual(["the '<' opened at column 1 is not closed", 0]);
    expect(failure("[1]  ", 0, 0)).toEqual(["the repr ends where a value was expected", 0]);
    expect(failure("1 2", 2, 2)).toEqual(["the repr ends where a value was expected", 2]);
    // A closing bracket just past the end does not close what opened before it.
    const cut = (text: string) => failure(text, 0, text.length - 1);
    expect(cut("(1)")).toEqual(["the '(' opened at column 1 is not closed", 0]);
    expect(cut("{1}")).toEqual(["the '{' opened at column 1 is not closed", 0]);
    expect(cut("()")).toEqual(["the repr ends where a value was expected", 1]);
    expect(cut("{}")).toEqual(["the repr ends where a value was expected", 1]);
    expect(cut("[]")).toEqual(["the repr ends where a value was expected", 1]);
    expect(cut("f()")).toEqual(["the repr ends where a value was expected", 2]);
    expect(cut("f(k=1)")).toEqual(["the '(' opened at column 2 is not closed", 1]);
    expect(failure("{1: 2}", 0, 2)).toEqual(["the '{' opened at column 1 is not closed", 0]);
    expect(parsePython("1 2", 0, 2)).toBe(1);
    expect(parsePython("None) ", 0, 4)).toBeNull();
    expect(parsePython("'a' 'b'", 0, 4)).toBe("a");
    expect(failure("'a' 'b'", 0, 5)).toEqual(["the string opened at column 5 is not closed", 4]);
    expect(parsePythonAt("  [1] rest", 0)).toEqual({ value: { kind: "seq", items: [1] }, end: 5 });
    expect(parsePythonAt("x 'a' 'b' y", 1)).toEqual({ value: "ab", end: 9 });
    expect(parsePythonAt("x 'a' 'b' y", 1, 6)).toEqual({ value: "a", end: 5 });
  });
});

describe("Python reprs as JSON", () => {
  it("reads positional fields of a record and a result in declaration order", () => {
    expect(
      read("StageRecord('intent', 'select', ('a',), ('b',), (), (), None, 'd', 'extra')"),
    ).toEqual({
      trace: [
        {
          stage: "intent",
          action: "select",
          kept: ["a"],
          dropped: ["b"],
          added: [],
          reinstated: [],
          forced_choice: null,
          detail: "d",
        },
      ],
    });
    expect(read("SelectionResult((<Tool a>,), 'a', (StageRecord(stage='x'),))")).toEqual({
      tools: ["a"],
      forced_choice: "a",
      trace: [{ stage: "x" }],
    });
  });

  it("reads an exception as its kind and message, any other call by its keywords", () => {
    expect(read("ForcedToolUnavailable('sql is not offered')")).toEqual({
      kind: "ForcedToolUnavailable",
      message: "sql is not offered",
    });
    expect(read("[mod.ValueError(3), RuntimeException()]")).toEqual([
      { kind: "ValueError", message: "" },
      { kind: "RuntimeException", message: "" },
    ]);
    expect(read("KeyError('x', k=1)")).toEqual({ k: 1 });
    expect(read("ErrorLog('x')")).toEqual({});
  });

  it("reads a record at the top level as a trace, and one inside a list as an object", () => {
    expect(read("[StageRecord(stage='a'), 1]")).toEqual([{ trace: [{ stage: "a" }] }, 1]);
    expect(read("{'r': StageRecord(stage='a'), 's': [StageRecord(stage='b'), 2]}")).toEqual({
      r: { stage: "a" },
      s: [{ stage: "b" }, 2],
    });
    expect(read("{'trace': [StageRecord(stage='a')], 'other': (StageRecord(stage='b'),)}")).toEqual(
      {
        trace: [{ stage: "a" }],
        other: { trace: [{ stage: "b" }] },
      },
    );
    expect(read("{'trace': (1,), 'x': []}")).toEqual({ trace: [1], x: [] });
  });

  it("makes each key an own, writable data property, as JSON.parse does", () => {
    const value = read("{'a': 1, 'b': Tool(x=2)}") as Record<string, Record<string, unknown>>;
    for (const [object, key, field] of [
      [value, "a", 1],
      [value.b!, "x", 2],
    ] as const)
      expect(Object.getOwnPropertyDescriptor(object, key)).toEqual({
        value: field,
        enumerable: true,
        writable: true,
        configurable: true,
      });
  });

  it("writes a dict's keys as Python shows them", () => {
    expect(
      read("{None: 1, True: 2, False: 3, 1.5: 4, inf: 5, (1, 'a'): 6, 'k': 7, 1e999: 8}"),
    ).toEqual({
      None: 1,
      True: 2,
      False: 3,
      "1.5": 4,
      inf: 5,
      '[1,"a"]': 6,
      k: 7,
      Infinity: 8,
    });
  });

  it("reads each tool of 'tools' and 'offered' by the name its repr shows, raw text between '<Head ' and '>' included", () => {
    const tools = [
      "'a'",
      "<Tool b>",
      "Tool(1)",
      "Tool(name='c', x=1)",
      "Tool('d', name='e')",
      "{'name': 'f'}",
      '<Tool "g">',
      "< Tool h >",
      '<Tool name="ivy" id=3>',
      "<Tool  dbl>",
      "<Tool 'a''b'>",
      "<Tool a0x1f>",
      "<Tool 0x1fz>",
      "<mod.Tool j:k-l.m>",
      "1",
      "None",
      "True",
      "(1, 'x')",
      "<Tool 0x7F3a>",
      "<a b c>",
      "<Tool se$a>",
      "<Tool>",
      "<Tool it's>",
      "<Tool a->b>",
      "<Tool café>",
      "<Tool 検索>",
      String.raw`<Tool name='a\nb'>`,
      `<Tool name="it's" x=1>`,
    ].join(", ");
    const expected = [
      "a",
      "b",
      {},
      { name: "c", x: 1 },
      { name: "e" },
      { name: "f" },
      "g",
      { repr: "< Tool h >" },
      "ivy",
      " dbl",
      "'a''b'",
      "a0x1f",
      "0x1fz",
      "j:k-l.m",
      { repr: "1" },
      { repr: "None" },
      { repr: "True" },
      { repr: '[1,"x"]' },
      "0x7F3a",
      "b c",
      "se$a",
      { repr: "<Tool>" },
      "it's",
      "a->b",
      "café",
      "検索",
      "a\nb",
      "it's",
    ];
    expect(read(`{'tools': [${tools}], 'offered': (${tools})}`)).toEqual({
      tools: expected,
      offered: expected,
    });
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

  it("reads a trace passed positionally to any other call, broken ones included", () => {
    const json = `{"turn_id": "t-1", "trace": [{"stage": "a", "action": "select", "kept": ["x"]}]}`;
    const text = [
      `log wrap({'turn_id': 't-1', 'trace': (${FORCED},)})`,
      `log wrap(1, None, ${RESULT}, key='v')`,
      `log wrap(${json})`,
      `log wrap(x={'trace': (${FORCED},)})`,
      `log wrap({'trace': (1,)})`,
      // The marker is inside a string: no value of the call holds a trace, nothing to report.
      `log wrap('trace=[1]')`,
    ].join("\n");
    const { traces, problems } = scanText(text);
    expect(problems).toEqual([
      { line: 5, message: "trace record 0 must be an object, found a number" },
    ]);
    expect(ids(text)).toEqual([
      [1, 0, ["forced"]],
      [2, 0, ["intent", "forced"]],
      [3, 0, ["a"]],
      [4, 0, ["forced"]],
    ]);
    expect(traces.map((t) => t.trace.id)).toEqual(["t-1", null, "t-1", null]);
  });

  it("reads a tool's name from any repr that shows one, and keeps an address unnamed", () => {
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
      "#3",
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

// Last, so that a mutant the exact cases above catch is not first fuzzed 2,000 times.
describe("Python repr grammar, fuzzed", () => {
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
