import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { nodeAscii } from "../../../src/node/ascii.js";
import {
  scanText,
  ScanCancelled,
  TraceScanner,
  utf8Length,
  type AsciiCodec,
  type FoundTrace,
  type ScanProblem,
} from "../../../src/core/traces/scan.js";
import { writtenRecord } from "../../builders/logged.js";

/** Property runs on a busy 2-core machine can take seconds. */
const PROPERTY_TIMEOUT = 60_000;

const record = (stage: string, action = "abstain") =>
  writtenRecord(stage, action, { kept: ["search", "sql"] });
const trace = (id: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ turn_id: id, trace: [record("intent")], ...extra });

function ids(result: { traces: FoundTrace[] }) {
  return result.traces.map((t) => ({ index: t.index, line: t.line, id: t.trace.id }));
}

/** Each found trace as [line, byte offset, byte length, id]: where the scan says it is. */
const placed = (traces: readonly FoundTrace[]) =>
  traces.map((f) => [f.line, f.offset, f.length, f.trace.id]);

/** Everything the scanner can meet, on purpose in one input so that chunk cuts fall everywhere. */
const CORPUS = [
  "\uFEFF2025-03-14 09:26:53,589 INFO agent.tools " + trace("a"),
  '{"level": "trace", "msg": "not a selection trace"}',
  "[2025-03-14T09:26:54Z] WARNING [worker-2] selection: " + trace("b", { note: "café ☕ 𝄞" }),
  'ERROR agent.tools {"turn_id": "c", "trace": [{"stage": "intent", "act',
  "{",
  '  "turn_id": "d",',
  '  "trace": [',
  '    { "stage": "intent", "action": "select", "kept": ["search"], "dropped": ["sql"] }',
  "  ]",
  "}",
  "[",
  "  " + trace("e") + ",",
  '  {"turn_id": "f", "trace": [{"stage": 7}]}',
  "]",
  '{"event": "tool_selection", "ts": 1710408414, "request_id": "g", "selection": {"trace": []}}',
  "plain text with \xff invalid utf8 marker",
  "x".repeat(300) + trace("too-long"),
  trace("h"),
].join("\r\n");

function bytesOf(text: string): Uint8Array {
  // \xff in CORPUS stands for one invalid byte.
  const parts = text.split("\xff").map((part) => new TextEncoder().encode(part));
  const out: number[] = [];
  parts.forEach((part, i) => {
    if (i > 0) out.push(0xff);
    out.push(...part);
  });
  return Uint8Array.from(out);
}

function scanChunks(bytes: Uint8Array, cuts: number[], maxLineBytes?: number) {
  const pieces: Uint8Array[] = [];
  let at = 0;
  for (const cut of cuts) {
    if (at >= bytes.length) break;
    pieces.push(bytes.subarray(at, Math.min(bytes.length, at + cut)));
    at += cut;
  }
  if (at < bytes.length) pieces.push(bytes.subarray(at));
  return scanPieces(pieces, maxLineBytes);
}

/** Pushes each piece (bytes or text) to one scanner, then ends it. */
function scanPieces(pieces: readonly (Uint8Array | string)[], maxLineBytes?: number) {
  const traces: FoundTrace[] = [];
  const problems: ScanProblem[] = [];
  const scanner = new TraceScanner({
    maxLineBytes,
    onTrace: (t) => traces.push(t),
    onProblem: (p) => problems.push(p),
  });
  for (const piece of pieces) scanner.push(piece);
  scanner.end();
  return { traces, problems };
}

/** `count` lines holding no trace, the pre-filter's usual diet. */
const plainLines = (count: number) =>
  Array.from({ length: count }, (_, i) => `plain line number ${i} of the log`);

/**
 * A log for the native ASCII path of a chunk that is not valid UTF-8: `trace a`, plain lines and
 * `trace b` making a run of exactly 16 KiB of ASCII up to the é of line `c` (ended by `eol`), then
 * `trace d`, a line with a bad byte and `trace e`. `at` is a line's byte offset; `n` the line count.
 */
function asciiRunLog(eol: string) {
  const c = trace("c", { note: "café" });
  const [a, b, d, e] = [trace("a"), trace("b"), trace("d"), trace("e")];
  const plain = plainLines(400);
  // The pad line and its LF fill what the other lines leave of the 16 KiB before the é.
  const pad = "p".repeat(16 * 1024 - [a, ...plain, b, ""].join("\n").length - 1 - c.indexOf("é"));
  const all = [a, ...plain, pad, b];
  const text = `${all.join("\n")}\n${c}${eol}${d}\nbad \xff byte\n${e}\n`;
  const at = (line: string) => bytesOf(text.slice(0, text.indexOf(line))).length;
  return { text, at, lines: { a, b, c, d, e, n: all.length + 5 } };
}

describe("TraceScanner", () => {
  const bytes = bytesOf(CORPUS);
  const whole = scanChunks(bytes, [], 400);

  it("finds traces in text lines after any prefix, JSON lines, pretty values and nested events", () => {
    expect(ids(whole)).toEqual([
      { index: 0, line: 1, id: "a" },
      { index: 1, line: 3, id: "b" },
      { index: 2, line: 5, id: "d" },
      { index: 3, line: 12, id: "e" },
      { index: 4, line: 15, id: "g" },
      { index: 5, line: 18, id: "h" },
    ]);
    expect(whole.traces[0]!.trace.time).toBe("2025-03-14 09:26:53,589");
    expect(whole.traces[1]!.trace.time).toBe("2025-03-14T09:26:54Z");
    expect(whole.traces[4]!.trace.time).toBe(1710408414);
    expect(whole.traces[2]!.trace.records[0]).toEqual(
      writtenRecord("intent", "select", { kept: ["search"], dropped: ["sql"] }),
    );
  });

  it("reports broken lines with their line numbers and goes on", () => {
    expect(whole.problems).toEqual([
      { line: 4, message: "truncated JSON: the object opened at column 19 is not closed" },
      { line: 13, message: "trace record 0: 'stage' must be a string, found a number" },
      { line: 16, message: "invalid UTF-8: the bad bytes were replaced by U+FFFD" },
      { line: 17, message: "the line is longer than 400 bytes; it was not read" },
    ]);
  });

  it("gives each trace the byte range that re-reads it", () => {
    for (const found of whole.traces) {
      const again = scanText(bytes.subarray(found.offset, found.offset + found.length), {
        firstLine: found.line,
        firstOffset: found.offset,
      });
      expect(again.traces[found.ordinal]).toEqual({ ...found, index: found.ordinal });
    }
  });

  it(
    "gives the same result whatever the chunk boundaries, from 1 byte up",
    () => {
      fc.assert(
        fc.property(fc.array(fc.integer({ min: 1, max: 64 }), { maxLength: 200 }), (cuts) => {
          expect(scanChunks(bytes, cuts, 400)).toEqual(whole);
        }),
        { numRuns: 300 },
      );
      expect(scanChunks(bytes, Array<number>(bytes.length).fill(1), 400)).toEqual(whole);
    },
    PROPERTY_TIMEOUT,
  );

  it(
    "gives the same result for string chunks, even cut inside a surrogate pair",
    () => {
      const text = CORPUS.replace("\xff", "");
      const reference = scanText(text, { maxLineBytes: 400 });
      fc.assert(
        fc.property(fc.array(fc.integer({ min: 1, max: 40 }), { maxLength: 100 }), (cuts) => {
          const traces: FoundTrace[] = [];
          const problems: ScanProblem[] = [];
          const scanner = new TraceScanner({
            maxLineBytes: 400,
            onTrace: (t) => traces.push(t),
            onProblem: (p) => problems.push(p),
          });
          let at = 0;
          for (const cut of cuts) {
            scanner.push(text.slice(at, at + cut));
            at += cut;
          }
          scanner.push(text.slice(at));
          scanner.end();
          expect({ traces, problems }).toEqual(reference);
        }),
      );
    },
    PROPERTY_TIMEOUT,
  );

  it("is deterministic", () => {
    expect(scanChunks(bytes, [], 400)).toEqual(whole);
  });

  it("skips lines without a trace silently, including a log level named trace", () => {
    expect(scanText('{"level":"trace","msg":"x"}\nhello\n{"trace": "4bf92f3577b34da6"}\n')).toEqual(
      { traces: [], problems: [] },
    );
  });

  it("reads a trace after a prefix holding braces, and before a suffix", () => {
    const { traces } = scanText(`{worker-3} INFO ${trace("x")} (took 3 ms)`);
    expect(ids({ traces })).toEqual([{ index: 0, line: 1, id: "x" }]);
  });

  it("reads a whole JSON file: an array on one line, concatenated pretty values", () => {
    const oneLine = scanText(`[${trace("a")}, ${trace("b")}]`);
    expect(oneLine.traces.map((t) => [t.line, t.ordinal, t.trace.id])).toEqual([
      [1, 0, "a"],
      [1, 1, "b"],
    ]);
    const jq = scanText(
      `${JSON.stringify(JSON.parse(trace("a")), null, 2)}\n${JSON.stringify(JSON.parse(trace("b")), null, 2)}\n`,
    );
    expect(jq.traces.map((t) => [t.line, t.trace.id])).toEqual([
      [1, "a"],
      [19, "b"],
    ]);
  });

  it("looks one and two levels into an event, and says a trace three levels down was not read; takes time and id from the event when the trace has none", () => {
    const inner = { trace: [] };
    const text = [
      JSON.stringify({ ts: "t1", request_id: "r1", a: inner }),
      JSON.stringify({ ts: "t2", a: { trace_id: "r2", b: inner } }),
      JSON.stringify({ a: { b: { c: inner } } }),
    ].join("\n");
    const { traces, problems } = scanText(text);
    expect(traces.map((t) => [t.line, t.trace.time, t.trace.id])).toEqual([
      [1, "t1", "r1"],
      [2, "t2", "r2"],
    ]);
    expect(problems).toEqual([
      {
        line: 3,
        message:
          "a trace nested 3 levels deep in a log event was not read; traces are read at most 2 levels deep",
      },
    ]);
  });

  it("reports a pretty value the file ends inside of, or that breaks off", () => {
    expect(scanText('{\n  "trace": [\n').problems).toEqual([
      {
        line: 1,
        message:
          "truncated JSON: the value opened on this line is not closed at the end of the input",
      },
    ]);
    const broken = scanText(`[\n  {"trace": [\nINFO next line\n${trace("z")}\n`);
    expect(broken.problems).toEqual([
      { line: 2, message: "truncated JSON: the value opened on this line breaks off at line 3" },
    ]);
    expect(broken.traces.map((t) => [t.line, t.trace.id])).toEqual([[4, "z"]]);
  });

  it("reports invalid JSON on a trace line", () => {
    const { problems } = scanText(`{"trace": [], "x": NaN}`);
    expect(problems).toHaveLength(1);
    expect(problems[0]!.message).toMatch(/^invalid JSON: /);
  });

  it("does not let __proto__ or constructor keys reach a prototype", () => {
    const text = [
      '{"__proto__": {"polluted": true}, "constructor": {"prototype": {"polluted": true}}, "trace": [{"stage": "s", "action": "select", "kept": [], "added": ["__proto__"], "reasons": {"__proto__": "added", "constructor": "why"}}]}',
      '{"constructor": "x", "trace": [{"stage": "constructor", "action": "abstain", "__proto__": {"stage": 1}}]}',
    ].join("\n");
    const { traces, problems } = scanText(text);
    expect(problems).toEqual([]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    const reasons = traces[0]!.trace.records[0]!.reasons!;
    expect(Object.getPrototypeOf(reasons)).toBe(Object.prototype);
    expect(Object.keys(reasons)).toEqual(["__proto__", "constructor"]);
    expect(traces[1]!.trace.records[0]!.stage).toBe("constructor");
  });

  it("reports deep nesting without crashing", () => {
    const deep = "[".repeat(100_000) + "]".repeat(100_000);
    const text = `{"trace": [], "turn": {"state": {"x": ${deep}}}}\n{"trace": ${deep.replace("[", "[{},")}}\n${trace("after")}`;
    const { traces, problems } = scanText(text);
    expect(problems.map((p) => p.line)).toEqual([1, 2]);
    expect(problems[0]!.message).toBe("'turn' is nested deeper than 64 levels");
    expect(traces.map((t) => t.trace.id)).toEqual(["after"]);
  });

  it("reports a line over the cap without holding it, and reads the next line", () => {
    const long = `${trace("long")}${" ".repeat(5000)}`;
    const text = new TextEncoder().encode(`${long}\n${trace("next")}\n`);
    const result = scanChunks(text, Array<number>(100).fill(97), 1000);
    expect(result.problems).toEqual([
      { line: 1, message: "the line is longer than 1000 bytes; it was not read" },
    ]);
    expect(result.traces.map((t) => [t.line, t.trace.id, t.offset])).toEqual([
      [2, "next", long.length + 1],
    ]);
  });

  it("keeps a legitimate U+FFFD without a problem, and counts its bytes", () => {
    const text = `\uFFFD ${trace("r")}\n${trace("s")}`;
    const { traces, problems } = scanText(text);
    expect(problems).toEqual([]);
    expect(traces[1]!.offset).toBe(utf8Length(text, 0, text.indexOf("\n") + 1));
  });

  it("stops when cancelled", () => {
    const controller = new AbortController();
    const scanner = new TraceScanner({
      signal: controller.signal,
      onTrace: () => {},
      onProblem: () => {},
    });
    scanner.push(trace("a") + "\n");
    controller.abort();
    expect(() => scanner.push(trace("b"))).toThrow(ScanCancelled);
    const token = { isCancellationRequested: true };
    expect(() =>
      new TraceScanner({ signal: token, onTrace: () => {}, onProblem: () => {} }).push("x"),
    ).toThrow(ScanCancelled);
  });

  it("sees a cancel requested while a chunk is read, before the chunk ends", () => {
    // The signal flips in a callback (the only way during a synchronous push): each way of reading
    // lines (passed over, read one by one, the byte pre-filter) must look at it again.
    const plain = plainLines(10_000);
    const inputs: [string, string, AsciiCodec | undefined][] = [
      ["passed over", plain.join("\n"), undefined],
      ["read one by one", plain.join("\r\n"), undefined],
      ["byte pre-filter", plain.join("\n"), nodeAscii],
    ];
    for (const [, lines, ascii] of inputs) {
      const signal = { aborted: false };
      const scanner = new TraceScanner({
        signal,
        ascii,
        onTrace: () => {},
        onProblem: () => (signal.aborted = true),
      });
      expect(() => scanner.push(`x\n{"trace": [oops]}\n${lines}\n`)).toThrow(ScanCancelled);
    }
  });

  it("counts lines and bytes right at the edges: a leading LF, an empty chunk inside a CRLF, a line of exactly the limit", () => {
    const t = trace("a");
    expect(scanText(`\n${t}\n`).traces.map((f) => [f.line, f.offset])).toEqual([[2, 1]]);
    const { traces } = scanPieces(["x\r", "", `\n${t}\n`]);
    expect(traces.map((f) => [f.line, f.offset])).toEqual([[2, 3]]);
    const exact = scanText(`x\n${t}\n`, { maxLineBytes: t.length });
    expect(exact).toEqual({
      traces: [expect.objectContaining({ line: 2, offset: 2 })],
      problems: [],
    });
  });

  it("counts the lines the byte pre-filter passes over past its cancellation checkpoint", () => {
    const plain = plainLines(5000);
    const head = `${plain.join("\n")}\n`;
    const { traces } = scanText(new TextEncoder().encode(`${head}${trace("late")}\n`), {
      ascii: nodeAscii,
    });
    expect(traces.map((f) => [f.line, f.offset])).toEqual([[5001, head.length]]);
  });

  it("skips a long line ended by LF or CRLF across chunks and counts its bytes", () => {
    const long = `${trace("long")}${" ".repeat(3000)}`;
    // [line end, empty lines after it]: an LF after an LF is a line of its own, not half a CRLF.
    for (const [eol, empty] of [
      ["\n", ""],
      ["\r\n", ""],
      ["\n", "\n"],
    ] as const) {
      const text = new TextEncoder().encode(`${long}${eol}${empty}${trace("next")}\n`);
      const result = scanChunks(text, Array<number>(20).fill(101), 1000);
      expect(result.problems.map((p) => p.line)).toEqual([1]);
      expect(result.traces.map((f) => [f.line, f.offset, f.trace.id])).toEqual([
        [2 + empty.length, long.length + eol.length + empty.length, "next"],
      ]);
    }
  });

  it("reads a value opened at a line's end after a plain line as it does on the first line", () => {
    // The text pre-filter passes plain lines over from the second line on: a line that may open
    // a value spread over lines (no marker on it) must not be among them.
    const spread = `  {'turn_id': 't',\n   'trace': [{'stage': 'intent', 'action': 'abstain'}]}`;
    const repr = `{'turn_id': 't', 'trace': [{'stage': 'intent', 'action': 'abstain', 'kept': ['search'], 'dropped': [], 'added': [], 'reinstated': [], 'forced_choice': None, 'detail': ''}]}`;
    const rests = [
      `INFO tool selection [\n${spread}\n]`,
      `INFO tool selection (\n${spread},\n)`,
      `INFO tool selection [ \n${spread}\n]`,
      `INFO tool selection [\t\n${spread}\n]`,
      `INFO selection ('a fairly long '\n 'detail', ${repr})`,
      `INFO selection ("a fairly long "\n "detail", ${repr})`,
    ];
    const plain = "a plain first line of the log";
    for (const rest of rests) {
      const alone = scanText(`${rest}\n`);
      const after = scanText(`${plain}\n${rest}\n`);
      expect(alone.traces.length + alone.problems.length).toBeGreaterThan(0);
      expect(after).toEqual({
        traces: alone.traces.map((f) => ({
          ...f,
          line: f.line + 1,
          offset: f.offset + plain.length + 1,
        })),
        problems: alone.problems.map((p) => ({ ...p, line: p.line + 1 })),
      });
    }
  });

  it("leaves a BOM at the file's start out of the first trace's byte range, with or without native ASCII help", () => {
    const t = trace("a");
    const bytes = new TextEncoder().encode(`\uFEFF${t}\n`);
    for (const ascii of [undefined, nodeAscii]) {
      const { traces, problems } = scanText(bytes, { ascii });
      expect(problems).toEqual([]);
      expect(traces.map((f) => [f.line, f.offset, f.length])).toEqual([[1, 3, t.length]]);
    }
  });

  it("names its cancellation, and refuses a chunk after the end", () => {
    const error = new ScanCancelled();
    expect([error.name, error.message]).toEqual(["ScanCancelled", "the scan was cancelled"]);
    const scanner = new TraceScanner({ onTrace: () => {}, onProblem: () => {} });
    scanner.push("a\nb");
    expect(scanner.currentLine).toBe(2);
    scanner.end();
    expect(() => scanner.push("c")).toThrow("the scanner has ended");
  });

  it("reports a line over the cap inside one chunk, where the pre-filter passes plain lines over", () => {
    const long = "x".repeat(260);
    const { traces, problems } = scanText(`first line of the log\n${long}\n${trace("next")}\n`, {
      maxLineBytes: 200,
    });
    expect(problems).toEqual([
      { line: 2, message: "the line is longer than 200 bytes; it was not read" },
    ]);
    expect(traces.map((t) => [t.line, t.trace.id])).toEqual([[3, "next"]]);
  });

  it("reports a pretty JSON value longer than the cap", () => {
    const pads = Array.from({ length: 20 }, (_, i) => `  "pad${i}": "${"p".repeat(20)}",\n`);
    const pretty = `{\n  "turn_id": "big",\n${pads.join("")}  "trace": []\n}\n`;
    const { traces, problems } = scanText(`${pretty}${trace("after")}\n`, { maxLineBytes: 300 });
    expect(problems).toEqual([
      {
        line: 1,
        message:
          "the value opened on this line is longer than 300 bytes or 20000 lines; it was not read",
      },
    ]);
    expect(traces.map((t) => [t.line, t.trace.id])).toEqual([[25, "after"]]);
  });

  it("keeps a surrogate pair cut between two string chunks whole", () => {
    const text = `${trace("a", { note: "𝄞" })}\n${trace("b")}\n`;
    const cut = text.indexOf("𝄞") + 1;
    const { traces, problems } = scanPieces([text.slice(0, cut), text.slice(cut)]);
    expect(problems).toEqual([]);
    expect(placed(traces)).toEqual([
      [1, 0, utf8Length(text, 0, text.indexOf("\n")), "a"],
      [2, utf8Length(text, 0, text.indexOf("\n") + 1), trace("b").length, "b"],
    ]);
  });

  it("reads a 16 KiB run of ASCII lines natively inside a chunk that is not valid UTF-8, and counts lines and bytes across it", () => {
    // The native ASCII path of a chunk with bad bytes: the run, then the lines around it as UTF-8, with nothing lost or read twice.
    const { text, at, lines } = asciiRunLog("\n");
    const { a, b, c, d, e, n } = lines;
    const decoded: number[] = [];
    const ascii: AsciiCodec = {
      ...nodeAscii,
      decode: (bytes) => (decoded.push(bytes.length), nodeAscii.decode(bytes)),
    };
    const { traces, problems } = scanText(bytesOf(text), { ascii });
    // Line c's é is 2 bytes for 1 character.
    expect(placed(traces)).toEqual([
      [1, 0, a.length, "a"],
      [n - 5, at(b), b.length, "b"],
      [n - 4, at(c), c.length + 1, "c"],
      [n - 3, at(d), d.length, "d"],
      [n - 1, at(e), e.length, "e"],
    ]);
    expect(problems).toEqual([
      { line: n - 2, message: "invalid UTF-8: the bad bytes were replaced by U+FFFD" },
    ]);
    // Exactly the run's complete lines were decoded natively: a run of MIN_ASCII_RUN counts.
    expect(at(c) + c.indexOf("é")).toBe(16 * 1024);
    expect(decoded).toEqual([at(c)]);
  });

  it("counts the line after a non-ASCII line ending a UTF-8 block once, whether it ends in CRLF, CR or LF", () => {
    // A CRLF split between that block and the next would count an empty line; a CR must not take the next line's first byte.
    for (const eol of ["\r\n", "\r", "\n"]) {
      const { text, at, lines } = asciiRunLog(eol);
      const { traces, problems } = scanText(bytesOf(text), { ascii: nodeAscii });
      expect(placed(traces.slice(2, 4)), JSON.stringify(eol)).toEqual([
        [lines.n - 4, at(lines.c), lines.c.length + 1, "c"],
        [lines.n - 3, at(lines.d), lines.d.length, "d"],
      ]);
      expect(problems.map((p) => p.line)).toEqual([lines.n - 2]);
    }
  });

  it("reports a pretty value the input ends inside of only when what it holds so far has a marker", () => {
    // Any JSON file opens such a value; cut short, it is a problem only if it was a trace (the open element's text decides).
    expect(scanText('{\n  "level": "trace",\n  "a": [\n')).toEqual({ traces: [], problems: [] });
    const array = scanText('[\n  {"trace": []},\n  {\n    "a": 1,\n');
    expect(array.traces.map((f) => f.line)).toEqual([2]);
    expect(array.problems).toEqual([]);
    expect(scanText('[\n  {"a": 1},\n  {\n    "trace": [\n').problems).toEqual([
      {
        line: 3,
        message:
          "truncated JSON: the value opened on this line is not closed at the end of the input",
      },
    ]);
  });

  it("replaces a lone high surrogate ending a string chunk by U+FFFD and counts its 3 UTF-8 bytes", () => {
    // A string chunk may end in half a pair: when the next chunk (here a 2-byte é) or the end does not complete it, it is U+FFFD.
    const line = trace("a").replace('"detail":""', '"detail":"x@é"');
    const [head, tail] = line.split("@") as [string, string];
    const { traces, problems } = scanPieces([`${head}\ud834`, `${tail}\n${trace("b")}\n`]);
    expect(problems).toEqual([]);
    // "@" (1 byte) stands for U+FFFD (3 bytes); é is 2 bytes for 1 character.
    expect(placed(traces)).toEqual([
      [1, 0, line.length + 3, "a"],
      [2, line.length + 4, trace("b").length, "b"],
    ]);
    expect(traces[0]!.trace.records[0]!.detail).toBe("x\ufffdé");
    // At the end of the input: a blank and U+FFFD after the value, 4 bytes.
    const last = scanPieces([`${trace("z")} \ud834`]);
    expect(last.traces.map((t) => [t.line, t.length])).toEqual([[1, trace("z").length + 4]]);
  });
});

describe("utf8Length", () => {
  it("counts 1, 2, 3 and 4 bytes at each boundary, and a lone surrogate as U+FFFD", () => {
    const cases: [string, number][] = [
      ["\u007f", 1],
      ["\u0080", 2],
      ["\u07ff", 2],
      ["\u0800", 3],
      ["\ud7ff", 3],
      ["𝄞", 4],
      ["\ud834", 3],
      ["\udd1e", 3],
      ["\ud834a", 4],
      ["\udbff\udfff", 4],
      ["\udc00\udc00", 6],
      ["a𝄞b", 6],
    ];
    expect(cases.map(([text]) => utf8Length(text, 0, text.length))).toEqual(
      cases.map(([, bytes]) => bytes),
    );
    // A pair cut by the end of the range: its high half alone.
    expect(utf8Length("a𝄞", 0, 2)).toBe(4);
    expect(utf8Length("xa𝄞", 1, 3)).toBe(4);
  });
});
