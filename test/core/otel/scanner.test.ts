import { describe, expect, it } from "vitest";
import { looksOtlp, OtlpScanner } from "../../../src/core/otel/scanner.js";
import { scanText, type FoundTrace, type ScanProblem } from "../../../src/core/traces/scan.js";
import {
  attrs,
  chatSpan,
  lines,
  request,
  selectionTrace,
  TRACE_A,
  TRACE_B,
  turnSpan,
} from "./otlp.js";

const bytes = (text: string) => new TextEncoder().encode(text);

/** Feeds `chunks` to an OtlpScanner; what it found, and its line after each chunk. */
function scanChunks(chunks: string[], maxLineBytes = 1 << 20) {
  const traces: FoundTrace[] = [];
  const problems: ScanProblem[] = [];
  const scanner = new OtlpScanner({
    onTrace: (t) => traces.push(t),
    onProblem: (p) => problems.push(p),
    maxLineBytes,
  });
  const linesAfter = chunks.map((chunk) => {
    scanner.push(bytes(chunk));
    return scanner.currentLine;
  });
  scanner.end();
  return { traces, problems, linesAfter };
}

const turn = (id: string, ms: number, traceId = TRACE_A) =>
  JSON.stringify(request([turnSpan(traceId, ms, selectionTrace(id, ["a"]))]));

describe("an OTLP/JSON file", () => {
  it("is known by `{` and the key resourceSpans, after blanks and a byte-order mark", () => {
    for (const text of [
      '{"resourceSpans": []}',
      ' \t\r\n{ \n\t\r"resourceSpans":[]}',
      '\uFEFF{"resourceSpans"',
    ])
      expect(looksOtlp(bytes(text))).toBe(true);
    for (const text of [
      '{"trace": []}',
      '{"resource": {}}',
      '{"resourceSpan": []}',
      '["resourceSpans"]',
      '"resourceSpans"',
      '\uFEFF\uFEFF{"resourceSpans"',
      "x",
      "",
    ])
      expect(looksOtlp(bytes(text))).toBe(false);
    // A byte-order mark's first two bytes alone are not one.
    expect(looksOtlp(new Uint8Array([0xef, 0xbb, ...bytes('{"resourceSpans"')]))).toBe(false);
    expect(looksOtlp(new Uint8Array([0xef, 0x00, 0xbf, ...bytes('{"resourceSpans"')]))).toBe(false);
    expect(looksOtlp(new Uint8Array([0x20, 0xbb, 0xbf, ...bytes('{"resourceSpans"')]))).toBe(false);
    expect(looksOtlp(new Uint8Array([0xef, 0xbb, 0x20, ...bytes('{"resourceSpans"')]))).toBe(false);
  });

  it("is read line by line across chunks, a last line without its break too, blank lines skipped", () => {
    const text = `${turn("a", 1)}\n\n${turn("b", 2)}`;
    const { traces, problems, linesAfter } = scanChunks([text.slice(0, 30), text.slice(30)]);
    expect(problems).toEqual([]);
    expect(traces.map((t) => [t.line, t.trace.id])).toEqual([
      [1, "a"],
      [3, "b"],
    ]);
    expect(linesAfter).toEqual([1, 3]);
  });

  it("keeps what it holds of a line or document across chunks, whatever the caller then writes into a chunk's memory", () => {
    const lines = `${turn("a", 1)}\n${turn("b", 2)}\n`;
    const document = JSON.stringify(
      request([turnSpan(TRACE_A, 1, selectionTrace("d", ["a"]))]),
      null,
      2,
    );
    for (const text of [lines, document]) {
      const all = bytes(text);
      const traces: FoundTrace[] = [];
      const problems: ScanProblem[] = [];
      const scanner = new OtlpScanner({
        onTrace: (t) => traces.push(t),
        onProblem: (p) => problems.push(p),
        maxLineBytes: 1 << 20,
      });
      // One buffer for every chunk, as a plain file's reads reuse theirs.
      const buffer = new Uint8Array(64);
      for (let at = 0; at < all.length; at += buffer.length) {
        const chunk = all.subarray(at, at + buffer.length);
        buffer.set(chunk);
        scanner.push(buffer.subarray(0, chunk.length));
        buffer.fill(0x7d);
      }
      scanner.end();
      expect(problems).toEqual([]);
      expect(traces.map((t) => t.trace.id)).toEqual(text === lines ? ["a", "b"] : ["d"]);
    }
  });

  it("whose first request spans lines is one document, read at its end, its traces at line 1", () => {
    const document = JSON.stringify(
      request([
        turnSpan(TRACE_A, 1, selectionTrace("a", ["a"])),
        chatSpan(TRACE_A, 2, { offered: ["a"] }),
      ]),
      null,
      2,
    );
    const { traces, problems, linesAfter } = scanChunks([
      document.slice(0, 50),
      document.slice(50),
    ]);
    expect(problems).toEqual([]);
    expect(traces.map((t) => [t.line, t.trace.id, t.trace.model?.offered])).toEqual([
      [1, "a", ["a"]],
    ]);
    expect(linesAfter).toEqual([1, 1]);
  });

  it("a document cut short is invalid JSON at its first line", () => {
    const { traces, problems } = scanChunks(['{\n  "resourceSpans": [\n', "    {"]);
    expect(traces).toEqual([]);
    expect(problems.map((p) => [p.line, p.message.slice(0, 14)])).toEqual([[1, "invalid JSON: "]]);
  });

  it("after its first request, a line that is not JSON is a problem of its line, and the next lines are read", () => {
    const { traces, problems } = scanChunks([
      `${turn("a", 1)}\n{"resourceSpans": [\n${turn("b", 2, TRACE_B)}\n`,
    ]);
    expect(traces.map((t) => t.trace.id)).toEqual(["a", "b"]);
    expect(problems.map((p) => [p.line, p.message.slice(0, 14)])).toEqual([[2, "invalid JSON: "]]);
  });

  it("a line or document over the limit is a problem, and the next line is read", () => {
    const long = turn("long", 1);
    const limit = long.length + 1;
    const { traces, problems } = scanChunks(
      [`${long}\n`, `${long}x\n`, `${turn("b", 2)}\n`],
      limit,
    );
    expect(traces.map((t) => t.trace.id)).toEqual(["long", "b"]);
    expect(problems).toEqual([
      { line: 2, message: `the line is longer than ${limit} bytes; it was not read` },
    ]);
    const document = JSON.stringify(
      request([turnSpan(TRACE_A, 1, selectionTrace("d", ["a"]))]),
      null,
      2,
    );
    expect(scanChunks([document], 100).problems).toEqual([
      { line: 1, message: "the document is longer than 100 bytes; it was not read" },
    ]);
    // A last line without its break, over the limit, is a problem too.
    expect(scanChunks([`${turn("a", 1)}\n`, `${long}xx`], limit).problems).toEqual([
      { line: 2, message: `the line is longer than ${limit} bytes; it was not read` },
    ]);
  });
});

describe("a file of a set of OTLP files", () => {
  const CHAT = "00000000000000c1";
  const detailsLine = (spanId: string, names: string[]) =>
    JSON.stringify({
      resourceLogs: [
        {
          scopeLogs: [
            {
              logRecords: [
                {
                  traceId: TRACE_A,
                  spanId,
                  eventName: "gen_ai.client.inference.operation.details",
                  attributes: attrs({
                    "gen_ai.output.messages": JSON.stringify([
                      {
                        role: "assistant",
                        parts: names.map((name) => ({ type: "tool_call", name })),
                      },
                    ]),
                  }),
                },
              ],
            },
          ],
        },
      ],
    });
  const spans = lines(
    request([
      turnSpan(TRACE_A, 1, selectionTrace("t", ["x"])),
      chatSpan(TRACE_A, 2, { id: CHAT, offered: ["x"] }),
    ]),
  );

  it("gives, in its first pass, the log records of its resourceLogs lines only, with their lines", () => {
    const found: unknown[] = [];
    const scanner = new OtlpScanner({
      onTrace: () => undefined,
      onProblem: () => undefined,
      maxLineBytes: 1 << 20,
      onRecords: (records, line) => found.push({ records, line }),
    });
    scanner.push(
      bytes(`${spans}${detailsLine(CHAT, ["x"])}\nnot json\n${detailsLine(CHAT, ["w"])}`),
    );
    scanner.end();
    expect(found).toEqual([
      { records: [{ traceId: TRACE_A, spanId: CHAT, called: ["x"] }], line: 2 },
      { records: [{ traceId: TRACE_A, spanId: CHAT, called: ["w"] }], line: 4 },
    ]);
  });

  it("joins its spans to the log records of the set's other files, and says which records of any file it joined", () => {
    const record = (file: number, called: string[], spanId = CHAT) => ({
      traceId: TRACE_A,
      spanId,
      called,
      file,
      line: 1,
    });
    const joined: number[] = [];
    const { traces } = scanText(spans, {
      otlpSet: {
        records: [
          record(1, ["x"]),
          record(0, ["own"]),
          record(2, ["y"]),
          record(1, ["z"], "0000000000000001"),
        ],
        file: 0,
      },
      onSetJoined: (index) => joined.push(index),
    });
    // Its own file's records are read from its own lines, not twice.
    expect(traces[0]!.trace.model).toMatchObject({ called: ["x", "y"], convention: "gen_ai_logs" });
    expect(joined).toEqual([0, 1, 2]);
    expect(scanText(spans).traces[0]!.trace.model).toMatchObject({
      called: null,
      convention: "gen_ai",
    });
  });
});
