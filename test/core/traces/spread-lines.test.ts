/** Traces spread over several lines (pprint, json.dumps(indent=2)) and key=value lines. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { scanCut } from "./scan-cut.js";
import { MAX_BLOCK_BYTES, MAX_BLOCK_LINES } from "../../../src/core/traces/multiline.js";
import { scanText } from "../../../src/core/traces/scan.js";

/** pprint.pformat(SelectionResult(...), width=60), as python3 printed it. */
const PPRINT = `SelectionResult(tools=('search',),
                forced_choice=None,
                trace=(StageRecord(stage='intent',
                                   action='select',
                                   kept=('search',),
                                   dropped=('sql',),
                                   added=(),
                                   reinstated=(),
                                   forced_choice=None,
                                   detail='a fairly long '
                                          'detail string '
                                          'that pprint '
                                          'will split over '
                                          'two lines'),))`;
const INDENTED = JSON.stringify(
  { turn_id: "t-j", trace: [{ stage: "intent", action: "abstain" }] },
  null,
  2,
);
const oneLine = (id: string) =>
  JSON.stringify({ turn_id: id, trace: [{ stage: "intent", action: "abstain" }] });

const LOG = [
  "2025-03-14 09:26:50,011 INFO selection " + PPRINT,
  "2025-03-14 09:26:50,012 INFO json " + INDENTED,
  `2025-03-14 09:26:50,013 INFO one-line ${oneLine("x")}`,
  "2025-03-14 09:26:50,014 INFO call failed (retrying,",
  "Traceback (most recent call last):",
  `event='tool selection' turn_id='t-kv' selection={'trace': [{'stage': 'a', 'action': 'abstain', 'detail': "it's"}]}`,
  `ts=2025-03-14T09:26:51Z level=info turn_id=t-lf selection="{\\"trace\\": [{\\"stage\\": \\"a\\", \\"action\\": \\"abstain\\", \\"detail\\": \\"a \\\\\\\\ b\\"}]}"`,
  `event=sel selection='{"trace": [{"stage": "py", "action": "abstain", "detail": "it\\'s"}]}' after=1`,
  "WARN truncated {'trace': [StageRecord(stage='a',",
  "                                 action='select',",
  "ERROR next line at the margin",
].join("\n");

describe("traces spread over lines, and key=value lines", () => {
  const whole = scanText(LOG);

  it("reads pprint and json.dumps(indent=2) output at its first line, and logfmt values", () => {
    expect(
      whole.traces.map((t) => [t.line, t.trace.id, t.trace.time, t.trace.records[0]!.detail]),
    ).toEqual([
      [
        1,
        null,
        "2025-03-14 09:26:50,011",
        "a fairly long detail string that pprint will split over two lines",
      ],
      [15, "t-j", "2025-03-14 09:26:50,012", ""],
      [24, "x", "2025-03-14 09:26:50,013", ""],
      [27, "t-kv", null, "it's"],
      [28, "t-lf", "2025-03-14T09:26:51Z", "a \\ b"],
      [29, null, null, "it's"],
    ]);
    expect(whole.problems).toEqual([
      {
        line: 30,
        message: "truncated value: the value opened on this line breaks off at line 32",
      },
    ]);
  });

  it("gives a spread trace the byte range of its whole block, which re-reads it", () => {
    const bytes = new TextEncoder().encode(LOG);
    for (const t of whole.traces) {
      const again = scanText(bytes.subarray(t.offset, t.offset + t.length), {
        firstLine: t.line,
        firstOffset: t.offset,
      });
      expect(again.traces[t.ordinal]).toEqual({ ...t, index: t.ordinal });
    }
    const first = new TextDecoder().decode(
      bytes.subarray(whole.traces[0]!.offset, whole.traces[0]!.offset + whole.traces[0]!.length),
    );
    expect(first.split("\n")).toHaveLength(14);
  });

  it("gives the same result whatever the chunk boundaries, down to 1 byte", () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 64 }), { maxLength: 120 }), (cuts) => {
        expect(scanCut(LOG, cuts)).toEqual(whole);
      }),
      { numRuns: 150 },
    );
    expect(scanCut(LOG, Array<number>(LOG.length).fill(1))).toEqual(whole);
  }, 60_000);

  it("reports a block the input ends inside of", () => {
    expect(scanText("INFO {'trace': [StageRecord(stage='a',\n    action='x',").problems).toEqual([
      {
        line: 1,
        message:
          "truncated value: the value opened on this line is not closed at the end of the input",
      },
    ]);
  });

  it("gives up on a block past its line cap, without reading its lines as traces", () => {
    const lines = ["INFO selection {'trace': ["];
    for (let i = 0; i <= MAX_BLOCK_LINES; i++) lines.push(`  {"trace": [], "n": ${i}},`);
    lines.push("]}", oneLine("after"));
    const result = scanText(lines.join("\n"));
    expect(result.problems).toEqual([
      {
        line: 1,
        message: `the value opened on this line is longer than 1048576 bytes or ${MAX_BLOCK_LINES} lines; it was not read`,
      },
    ]);
    expect(result.traces.map((t) => [t.line, t.trace.id])).toEqual([[lines.length, "after"]]);
  });

  it("ignores a line ending with an open bracket that holds no trace", () => {
    expect(scanText("INFO retrying (attempt 2,\n   backoff 1s)\nINFO done\n")).toEqual({
      traces: [],
      problems: [],
    });
  });

  it("reads pprint output whose first line ends inside a string pprint split over lines", () => {
    // pprint.pformat({'query': ..., 'result': SelectionResult(...)}, width=60), as python3 printed it.
    const split = [
      "2025-03-14 09:26:52,001 INFO turn_id=t-s selection {'query': 'what is the weather in lyon '",
      "          'today',",
      " 'result': SelectionResult(tools=('search',),",
      "                           forced_choice=None,",
      "                           trace=(StageRecord(stage='intent', action='select', kept=('search',), dropped=('sql',)),))}",
      "2025-03-14 09:26:52,002 INFO said 'it is \\n'",
      "  'not a value'",
      'INFO quoted "a line that ends in a blank "',
    ].join("\n");
    const { traces, problems } = scanText(split);
    expect(problems).toEqual([]);
    expect(traces.map((t) => [t.line, t.trace.id, t.trace.time, t.length])).toEqual([
      [1, "t-s", "2025-03-14 09:26:52,001", split.indexOf("\n2025-03-14 09:26:52,002")],
    ]);
    expect(scanCut(split, [1, 7, 90])).toEqual(scanText(split));
  });

  it("reads a first line ending in a split string (a blank, \\n, \\t or \\r before its quote) as the start of a value", () => {
    const ends = { " ": " ", "\\n": "\n", "\\t": "\t", "\\r": "\r" };
    for (const [written, read] of Object.entries(ends))
      for (const quote of ["'", '"']) {
        const text = `INFO {'trace': [{'stage': 'x', 'action': 'abstain', 'detail': ${quote}a${written}${quote}\n   'b'}]}`;
        expect(scanText(text).traces.map((t) => [t.line, t.trace.records[0]!.detail])).toEqual([
          [1, `a${read}b`],
        ]);
      }
  });
});

describe("a SelectionResult's fields logged as separate key=value pairs", () => {
  const record = (stage: string, action: string, forced: string) =>
    `StageRecord(stage='${stage}', action='${action}', kept=('search',), dropped=('sql',), added=(), reinstated=(), forced_choice=${forced}, detail='')`;
  const records = `(${record("role", "select", "None")}, ${record("forced", "force", "'search'")})`;
  const read = (line: string) => {
    const { traces, problems } = scanText(line);
    expect(problems).toEqual([]);
    return traces.map((t) => ({
      id: t.trace.id,
      tools: t.trace.tools,
      forced: t.trace.forcedChoice,
      stages: t.trace.records.map((r) => r.stage),
    }));
  };

  it("reads structlog's KeyValueRenderer: trace=, tools=, forced_choice= and the id after them", () => {
    expect(
      read(
        `event='selection' forced_choice='search' tools=('search', <function f at 0x1>) trace=${records} turn_id='t1'`,
      ),
    ).toEqual([
      {
        id: "t1",
        tools: ["search", { repr: "<function f at 0x1>" }],
        forced: "search",
        stages: ["role", "forced"],
      },
    ]);
  });

  it("reads logfmt: a quoted repr or JSON, a bare word, and an empty value as None", () => {
    const escaped = (text: string) => `"${text.replaceAll("\\", "\\\\").replaceAll('"', '\\"')}"`;
    expect(
      read(
        `event=selection turn_id=t2 tools=${escaped("('search', 'sql')")} forced_choice=search trace=${escaped(records)}`,
      ),
    ).toEqual([
      { id: "t2", tools: ["search", "sql"], forced: "search", stages: ["role", "forced"] },
    ]);
    const json = JSON.stringify([{ stage: "intent", action: "abstain" }]);
    expect(
      read(`turn_id=t3 tools=${escaped('["search"]')} forced_choice= trace=${escaped(json)}`),
    ).toEqual([{ id: "t3", tools: ["search"], forced: null, stages: ["intent"] }]);
  });

  it("takes only pairs of the line itself, not ones inside another value, and leaves absent fields unknown", () => {
    expect(
      read(`extra={'note': " tools=('wrong',)"} trace=[${record("role", "select", "None")}]`),
    ).toEqual([{ id: null, tools: null, forced: undefined, stages: ["role"] }]);
  });
});

describe("a line that closes one spread value and opens another", () => {
  const value = (id: string) =>
    `{'turn_id': '${id}',\n 'trace': [StageRecord(stage='s', action='abstain')]}`;
  const log = `é before=${value("a")} after=${value("b")} and ${oneLine("c")}\nnext\n`;

  it("reads the second value from that line, and what follows it", () => {
    const { traces, problems } = scanText(log);
    expect(problems).toEqual([]);
    expect(traces.map((t) => [t.line, t.ordinal, t.trace.id])).toEqual([
      [1, 0, "a"],
      [2, 0, "b"],
      [3, 0, "c"],
    ]);
  });

  it("gives each a byte range it is read again from, the second starting inside the line", () => {
    const bytes = new TextEncoder().encode(log);
    const { traces } = scanText(bytes);
    for (const found of traces) {
      const again = scanText(bytes.subarray(found.offset, found.offset + found.length), {
        firstLine: found.line,
        firstOffset: found.offset,
      }).traces[found.ordinal];
      expect(again?.trace.id, String(found.trace.id)).toBe(found.trace.id);
      expect(again?.line).toBe(found.line);
    }
    expect(new TextDecoder().decode(bytes.subarray(traces[1]!.offset)).startsWith(" after=")).toBe(
      true,
    );
  });
});

describe("a pretty JSON value opened by a line holding only { or [", () => {
  const pretty = (lines: number) =>
    [
      "{",
      '  "trace": [],',
      '  "pad": [',
      ...Array<string>(lines - 6).fill("    0,"),
      "    0",
      "  ]",
      "}",
    ].join("\n");

  it(`is read up to ${MAX_BLOCK_LINES} lines, and past that one problem, the next line still read`, () => {
    const atCap = scanText(`${pretty(MAX_BLOCK_LINES)}\n${oneLine("n")}\n`);
    expect(atCap.problems).toEqual([]);
    expect(atCap.traces.map((t) => [t.line, t.trace.id])).toEqual([
      [1, null],
      [MAX_BLOCK_LINES + 1, "n"],
    ]);
    const over = scanText(`${pretty(MAX_BLOCK_LINES + 1)}\n${oneLine("n")}\n`);
    expect(over.problems).toEqual([
      {
        line: 1,
        message: `the value opened on this line is longer than ${MAX_BLOCK_BYTES} bytes or ${MAX_BLOCK_LINES} lines; it was not read`,
      },
    ]);
    expect(over.traces.map((t) => [t.line, t.trace.id])).toEqual([[MAX_BLOCK_LINES + 2, "n"]]);
  });

  it(`is read up to ${MAX_BLOCK_BYTES} bytes of UTF-8, each line counted with its break`, () => {
    // "{\n" + '  "trace": [],\n' + '  "p": "' + é × n (2 bytes each) + '"\n' + "}" (its value ends there)
    const sized = (n: number) => `{\n  "trace": [],\n  "p": "${"é".repeat(n)}"\n}`;
    const fixed = 2 + 15 + 8 + 2 + 1;
    const fits = Math.floor((MAX_BLOCK_BYTES - fixed) / 2);
    expect(scanText(sized(fits)).problems).toEqual([]);
    expect(scanText(sized(fits + 1)).problems).toHaveLength(1);
  });
});

describe("a value cut on its first line", () => {
  it("is that line's problem whether a line follows or the input ends there", () => {
    const cut = "selection SelectionResult(tools=(), forced_choice=None,";
    const message =
      "truncated Python repr: the call SelectionResult(…) opened at column 11 is not closed";
    expect(scanText(`${cut}\nnext\n`).problems).toEqual([{ line: 1, message }]);
    expect(scanText(`first\n${cut}`).problems).toEqual([{ line: 2, message }]);
  });
});
