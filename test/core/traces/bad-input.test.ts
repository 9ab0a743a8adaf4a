/** Bad input in a log: each a problem with its line; nothing crashes or hangs. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { scanCut } from "./scan-cut.js";
import { DEFAULT_MAX_LINE_BYTES, scanText } from "../../../src/core/traces/scan.js";

const good = "INFO (StageRecord(stage='ok', action='abstain'),)";

describe("bad input in a log", () => {
  it("refuses a trace whose time is no time (past the year 9999), naming it, and reads the next", () => {
    const text =
      '{"ts": 1e19, "trace": []}\n{"ts": 1710408414, "trace": []}\n{"trace": [], "ts": -1}\n';
    const { traces, problems } = scanText(new TextEncoder().encode(text));
    expect(traces.map((t) => [t.line, t.trace.time])).toEqual([[2, 1710408414]]);
    expect(problems.map((p) => p.line)).toEqual([1, 3]);
    expect(problems[0]!.message).toContain("the time 10000000000000000000 is not one");
  });

  it("reads a binary file to its end, reporting bad bytes by line", () => {
    const random = fc.sample(fc.uint8Array({ minLength: 50_000, maxLength: 50_000 }), {
      numRuns: 1,
      seed: 14,
    })[0]!;
    const bytes = new Uint8Array([...random, ...new TextEncoder().encode(`\n${good}\n`)]);
    const { traces, problems } = scanText(bytes, { maxLineBytes: 4096 });
    expect(traces.map((t) => t.trace.records[0]!.stage)).toEqual(["ok"]);
    const lastLine = traces[0]!.line;
    expect(problems.length).toBeGreaterThan(0);
    for (const problem of problems) {
      expect(problem.line).toBeGreaterThanOrEqual(1);
      expect(problem.line).toBeLessThan(lastLine);
    }
    expect(problems.some((p) => p.message.startsWith("invalid UTF-8"))).toBe(true);
  });

  it("skips a line over the cap (a 2 GB line, scaled down) of any format, and reads the next", () => {
    const long = `INFO ${"SelectionResult(".repeat(200)}${" ".repeat(3000)}`;
    const bytes = new TextEncoder().encode(`${long}\n${good}\n`);
    const result = scanCut(bytes, Array<number>(40).fill(101), { maxLineBytes: 1000 });
    expect(result.problems).toEqual([
      { line: 1, message: "the line is longer than 1000 bytes; it was not read" },
    ]);
    expect(result.traces.map((t) => [t.line, t.offset])).toEqual([[2, long.length + 1]]);
  });

  it("reports deep nesting in a repr, on one line or over many, without exhausting the stack", () => {
    const deep = "(".repeat(100_000);
    const text = [
      `INFO (StageRecord(stage='x', action='abstain', detail=${deep}'a'${")".repeat(100_000)}),)`,
      `INFO {'trace': [${"[".repeat(50_000)}`,
      ...Array.from({ length: 200 }, () => "  " + "[".repeat(100)),
      "WARN next",
      good,
    ].join("\n");
    const { traces, problems } = scanText(text);
    expect(traces.map((t) => t.line)).toEqual([204]);
    expect(problems).toEqual([
      {
        line: 1,
        message: "invalid Python repr: the repr is nested deeper than 100 levels",
      },
      {
        line: 2,
        message: "truncated value: the value opened on this line breaks off at line 203",
      },
    ]);
  });

  it("never throws, and gives the same result however cut, on any mix of markers and brackets", () => {
    const piece = fc.constantFrom(
      "trace",
      "'trace': [",
      '"trace": [',
      "trace=(",
      "StageRecord(",
      "SelectionResult(",
      "stage='a', action='abstain'",
      '"stage": "a", "action": "abstain"',
      "(",
      ")",
      "[",
      "]",
      "{",
      "}",
      ",",
      "'",
      '"',
      "\\",
      "=",
      '="',
      "\n",
      "\r",
      "\r\n",
      "  ",
      "x",
      "é",
    );
    fc.assert(
      fc.property(
        fc.array(piece, { maxLength: 80 }),
        fc.array(fc.integer({ min: 1, max: 30 }), { maxLength: 30 }),
        (pieces, cuts) => {
          const bytes = new TextEncoder().encode(pieces.join(""));
          expect(scanCut(bytes, cuts)).toEqual(scanCut(bytes, []));
        },
      ),
      { numRuns: 1000 },
    );
  }, 60_000);
});

describe("a line crowded with markers", () => {
  it("reads the first 64 values, then says once that it stopped", () => {
    const record = "StageRecord(stage='s', action='abstain')";
    const { traces, problems } = scanText(`INFO ${Array(5000).fill(record).join(" ")}\n${good}\n`);
    expect(traces.map((t) => t.line)).toEqual([...Array<number>(64).fill(1), 2]);
    expect(problems).toEqual([
      {
        line: 1,
        message: "more than 64 values on this line hold a trace marker; the rest were not read",
      },
    ]);
  });
});

describe("the default line limit", () => {
  const encoder = new TextEncoder();
  /** A JSON trace line padded to exactly `bytes` bytes, then a line break and a short trace. */
  function padded(bytes: number): Uint8Array {
    const head = encoder.encode('{"turn_id": "big", "trace": [], "pad": "');
    const tail = encoder.encode(`"}\n{"turn_id": "next", "trace": []}\n`);
    const out = new Uint8Array(bytes + tail.length);
    out.set(head);
    out.fill(0x78, head.length, bytes - 2);
    out.set(tail, bytes - 2);
    return out;
  }

  it(`reads a line of ${DEFAULT_MAX_LINE_BYTES} bytes, and one byte more is a problem while the next line is read`, () => {
    const atLimit = scanText(padded(DEFAULT_MAX_LINE_BYTES));
    expect(atLimit.problems).toEqual([]);
    expect(atLimit.traces.map((t) => [t.line, t.trace.id])).toEqual([
      [1, "big"],
      [2, "next"],
    ]);
    const over = scanText(padded(DEFAULT_MAX_LINE_BYTES + 1));
    expect(over.problems).toEqual([
      {
        line: 1,
        message: `the line is longer than ${DEFAULT_MAX_LINE_BYTES} bytes; it was not read`,
      },
    ]);
    expect(over.traces.map((t) => [t.line, t.trace.id])).toEqual([[2, "next"]]);
  }, 60_000);
});
