/** What a fuzzer found in generated logs, each under its own name. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { scanCut } from "./scan-cut.js";
import { scanText, type FoundTrace, type ScanProblem } from "../../../src/core/traces/scan.js";

const trace = (id: string) =>
  JSON.stringify({ turn_id: id, trace: [{ stage: "intent", action: "abstain" }] });

const found = (result: { traces: FoundTrace[] }) =>
  result.traces.map((t) => [t.line, t.ordinal, t.trace.id]);

describe("log lines a fuzzer found", () => {
  it("a long { prefix does not hide the trace after it", () => {
    for (const braces of [1, 15, 16, 17, 100, 10_000]) {
      const { traces, problems } = scanText(`${"{".repeat(braces)} worker ${trace("a")}\n`);
      expect(problems, `${braces} braces`).toEqual([]);
      expect(found({ traces }), `${braces} braces`).toEqual([[1, 0, "a"]]);
    }
    const closed = scanText(`${"{x} ".repeat(40)}${trace("b")} ${"{".repeat(20)}\n`);
    expect(found(closed)).toEqual([[1, 0, "b"]]);
    expect(closed.problems).toEqual([]);
  });

  it("reads every trace on a line, in order", () => {
    const line = `INFO first ${trace("a")} then ${trace("b")} and [${trace("c")}, ${trace("d")}] end`;
    const result = scanText(`${line}\n${trace("e")}\n`);
    expect(found(result)).toEqual([
      [1, 0, "a"],
      [1, 1, "b"],
      [1, 2, "c"],
      [1, 3, "d"],
      [2, 0, "e"],
    ]);
    expect(result.problems).toEqual([]);
    // Each re-reads from the line's byte range by its ordinal.
    const bytes = new TextEncoder().encode(`${line}\n${trace("e")}\n`);
    for (const t of result.traces) {
      const again = scanText(bytes.subarray(t.offset, t.offset + t.length), {
        firstLine: t.line,
        firstOffset: t.offset,
      });
      expect(again.traces[t.ordinal]!.trace).toEqual(t.trace);
    }
  });

  it("a broken trace between two good ones on a line is a problem; the others are read", () => {
    const result = scanText(`A ${trace("a")} B {"trace": [1, } C ${trace("c")}\n`);
    expect(found(result)).toEqual([
      [1, 0, "a"],
      [1, 1, "c"],
    ]);
    expect(result.problems).toHaveLength(1);
    expect(result.problems[0]!.line).toBe(1);
  });

  it("treats CR, LF and CRLF as line ends, with offsets that re-read each trace", () => {
    const text = `x\r${trace("a")}\r\n\r\ny\n${trace("b")}\r${trace("c")}\n\r${trace("d")}`;
    const result = scanText(text);
    expect(found(result)).toEqual([
      [2, 0, "a"],
      [5, 0, "b"],
      [6, 0, "c"],
      [8, 0, "d"],
    ]);
    const bytes = new TextEncoder().encode(text);
    for (const t of result.traces) {
      expect(new TextDecoder().decode(bytes.subarray(t.offset, t.offset + t.length))).toBe(
        trace(t.trace.id as string),
      );
    }
  });

  it("gives the same result for CR, LF and CRLF whatever the chunk cuts, a CRLF split included", () => {
    const text = `x\r${trace("a")}\r\n\r\ny\n${trace("b")}\r${trace("c")}\n\r${trace("d")}\r`;
    const whole = scanText(text);
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 40 }), { maxLength: 60 }), (cuts) => {
        expect(scanCut(text, cuts)).toEqual(whole);
      }),
      { numRuns: 200 },
    );
    expect(scanCut(text, Array<number>(text.length).fill(1))).toEqual(whole);
  });
});

describe("the pre-filter", () => {
  /** Lines of every kind the pre-filter must pass over or stop at. */
  const POOL = [
    "2025-03-14 INFO request served in 12 ms",
    '{"level": "info", "msg": "a JSON line without one"}',
    `INFO selected ${trace("p")}`,
    "INFO retrying (attempt 2,",
    "    backoff 1s)",
    "{",
    '  "turn_id": "q",',
    '  "trace": []',
    "}",
    "INFO selection {'trace': [",
    "  {'stage': 'a', 'action': 'abstain'}]}",
    "INFO (StageRecord(stage='r', action='abstain'),)",
    "x",
    "",
    "trailing blank ",
  ];
  const lineKinds = fc.array(fc.integer({ min: 0, max: POOL.length - 1 }), { maxLength: 40 });
  const view = (r: { traces: FoundTrace[]; problems: ScanProblem[] }) => ({
    traces: r.traces.map((t) => [t.line, t.ordinal, t.trace]),
    problems: r.problems,
  });

  it("skips exactly what the line-by-line reading skips (CRLF input is read line by line)", () => {
    fc.assert(
      fc.property(
        lineKinds,
        fc.array(fc.integer({ min: 1, max: 50 }), { maxLength: 40 }),
        (kinds, cuts) => {
          const lines = kinds.map((k) => POOL[k]!);
          const lf = scanCut(["warm-up", ...lines].join("\n"), cuts);
          const crlf = scanText(["warm-up", ...lines].join("\r\n"));
          expect(view(lf)).toEqual(view(crlf));
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe("a prefix whose quotes do not pair up", () => {
  it("a trace cut inside a string is a problem at its line, and does not swallow the next line", () => {
    for (const [cut, grammar] of [
      ['x {"trace": [{"stage": "a,', "JSON"],
      ["x {'trace': [StageRecord(stage='a,", "Python repr"],
    ]) {
      const result = scanText(`${cut}\n${trace("b")}\n`);
      expect(found(result), cut).toEqual([[2, 0, "b"]]);
      expect(result.problems, cut).toEqual([
        { line: 1, message: `truncated ${grammar}: the object opened at column 3 is not closed` },
      ]);
    }
  });

  it("reads the trace after an apostrophe inside a bracket once", () => {
    const result = scanText(`[worker {"trace": []} it's] ${trace("b")}\n`);
    expect(result.traces.map((t) => [t.ordinal, t.trace.id])).toEqual([
      [0, null],
      [1, "b"],
    ]);
    expect(result.problems).toEqual([]);
  });
});
