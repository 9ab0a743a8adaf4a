/**
 * With Node's native help (ScanOptions.ascii) valid UTF-8 is pre-filtered as
 * bytes, and only lines that may matter are decoded. It must find exactly what reading every line
 * finds: same traces, lines, byte ranges and problems, wherever the chunks are cut.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { scanText, TraceScanner, type FoundTrace } from "../../../src/core/traces/scan.js";
import { nodeAscii } from "../../../src/node/ascii.js";
import { scanCut, type CutOptions } from "./scan-cut.js";

const encoder = new TextEncoder();
const scan = (bytes: Uint8Array, cuts: readonly number[], fast: boolean, maxLineBytes?: number) =>
  scanCut(bytes, cuts, { fast, maxLineBytes } satisfies CutOptions);

const json = (id: string) =>
  JSON.stringify({ turn_id: id, trace: [{ stage: "intent", action: "abstain" }] });

/** Where each trace was found, and the text of its byte range. */
function located(bytes: Uint8Array, traces: readonly FoundTrace[]) {
  const decoder = new TextDecoder();
  return traces.map((t) => ({
    line: t.line,
    id: t.trace.id,
    text: decoder.decode(bytes.subarray(t.offset, t.offset + t.length)),
  }));
}

// Valid UTF-8 only (bad bytes send a chunk down the line-by-line path, which other tests cover).
const piece = fc.constantFrom(
  json("a"),
  `INFO café ☕ 𝄞 ${json("b")}`,
  "(StageRecord(stage='é', action='abstain'),)",
  "INFO 2025-03-14 worker {'trace': [",
  "  {'stage': 'x', 'action': 'abstain'}]}",
  'msg="{\\"trace\\": [{\\"stage\\": \\"s\\", \\"action\\": \\"abstain\\"}]}"',
  "{",
  "[",
  "}",
  "]",
  ",",
  "  ",
  "\t",
  "'",
  '"',
  "\n",
  "\r",
  "\r\n",
  "INFO user asked «météo à Lyon»",
  "x".repeat(40),
  "y".repeat(700),
);

describe("the byte-level pre-filter", () => {
  it("finds what reading every line finds, on any valid UTF-8 mix, however cut", () => {
    fc.assert(
      fc.property(
        fc.array(piece, { maxLength: 80 }),
        fc.array(fc.integer({ min: 1, max: 64 }), { maxLength: 40 }),
        fc.constantFrom(undefined, 600),
        (pieces, cuts, maxLineBytes) => {
          const bytes = encoder.encode(pieces.join(""));
          const whole = scan(bytes, [], false, maxLineBytes);
          expect(scan(bytes, cuts, true, maxLineBytes)).toEqual(whole);
          // A line over the limit is reported however the line-by-line reading is cut, too.
          expect(scan(bytes, cuts, false, maxLineBytes)).toEqual(whole);
        },
      ),
      { numRuns: 1500 },
    );
  }, 60_000);

  it("finds a marker split across two chunks at every cut", () => {
    const text = `INFO start\nINFO worker ${json("a")}\nINFO end\n`;
    const bytes = encoder.encode(text);
    const at = text.indexOf('"trace"');
    for (let cut = at - 2; cut <= at + 10; cut++) {
      const { traces, problems } = scan(bytes, [cut], true);
      expect(problems, `cut at ${cut}`).toEqual([]);
      expect(located(bytes, traces), `cut at ${cut}`).toEqual([
        { line: 2, id: "a", text: `INFO worker ${json("a")}` },
      ]);
    }
  });

  it("lets the caller reuse a chunk's memory once it is pushed (a Buffer's slice is a view)", () => {
    const text = `INFO start\nINFO worker ${json("a")}\n`;
    const cut = text.indexOf('"trace"');
    const chunk = Buffer.from(text.slice(0, cut));
    const traces: FoundTrace[] = [];
    const scanner = new TraceScanner({
      ascii: nodeAscii,
      onTrace: (t) => traces.push(t),
      onProblem: () => {},
    });
    scanner.push(chunk);
    chunk.fill(0x20);
    scanner.push(Buffer.from(text.slice(cut)));
    scanner.end();
    expect(traces.map((t) => [t.line, t.trace.id])).toEqual([[2, "a"]]);
  });

  it("reads a trace line at the very start and the very end of a chunk", () => {
    const lines = [json("first"), "INFO plain 1", "INFO plain 2", json("last")];
    const text = lines.join("\n") + "\n";
    const bytes = encoder.encode(text);
    const firstEnd = lines[0]!.length + 1;
    const lastStart = text.length - lines[3]!.length - 1;
    // Chunks that end right after the first trace's LF, and start right at the last trace.
    for (const cuts of [[firstEnd], [firstEnd, lastStart - firstEnd], [lastStart], [1]]) {
      const { traces } = scan(bytes, cuts, true);
      expect(located(bytes, traces), `cuts ${cuts.join(",")}`).toEqual([
        { line: 1, id: "first", text: json("first") },
        { line: 4, id: "last", text: json("last") },
      ]);
    }
  });

  it("gives the byte range of a trace after non-ASCII text on the same line", () => {
    const line = `2025-03-14 INFO «météo à Lyon» ☕ 𝄞 ${json("a")}`;
    const bytes = encoder.encode(`INFO café\n${line}\n`);
    const { traces, problems } = scan(bytes, [], true);
    expect(problems).toEqual([]);
    expect(located(bytes, traces)).toEqual([{ line: 2, id: "a", text: line }]);
    expect(traces[0]!.offset).toBe(encoder.encode("INFO café\n").length);
    // Re-reading that range finds the same trace.
    const again = scanText(
      bytes.subarray(traces[0]!.offset, traces[0]!.offset + traces[0]!.length),
      {
        firstLine: 2,
        firstOffset: traces[0]!.offset,
        ascii: nodeAscii,
      },
    );
    expect(again.traces.map((t) => [t.line, t.trace.id])).toEqual([[2, "a"]]);
  });

  it("reads a value spread over CRLF lines from a first line ending with a comma or a bracket", () => {
    for (const [first, rest] of [
      [
        "INFO selection {'turn_id': 't-1',",
        " 'trace': [{'stage': 'intent', 'action': 'abstain'}]}",
      ],
      [
        "INFO selection {",
        " 'turn_id': 't-1', 'trace': [{'stage': 'intent', 'action': 'abstain'}]}",
      ],
    ]) {
      const bytes = encoder.encode(["INFO before", first, rest, "INFO after", ""].join("\r\n"));
      const fast = scan(bytes, [], true);
      expect(fast).toEqual(scan(bytes, [], false));
      expect(fast.problems).toEqual([]);
      expect(
        fast.traces.map((t) => [t.line, t.trace.id]),
        first,
      ).toEqual([[2, "t-1"]]);
    }
  });

  it("counts a lone CR as a line end between lines it passes over", () => {
    const bytes = encoder.encode(`INFO start\nINFO one\rINFO two\rINFO three\n${json("a")}\n`);
    const { traces } = scan(bytes, [], true);
    expect(traces.map((t) => [t.line, t.offset])).toEqual([[5, 40]]);
  });

  it("reports a trace line over the limit, and reads the lines after it", () => {
    const bytes = encoder.encode(`INFO ok\n${"z".repeat(500)} ${json("a")}\n${json("b")}\n`);
    const { traces, problems } = scan(bytes, [], true, 100);
    expect(problems).toEqual([
      { line: 2, message: "the line is longer than 100 bytes; it was not read" },
    ]);
    expect(traces.map((t) => [t.line, t.trace.id])).toEqual([[3, "b"]]);
  });
});
