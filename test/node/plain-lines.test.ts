/**
 * The WebAssembly pass over plain lines passes over exactly the lines the scanner would only
 * count, and the scanner finds with it exactly what it finds without it.
 */
import { readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { MAY_OPEN_AT_END } from "../../src/core/traces/scan-text.js";
import { scanText, type AsciiCodec } from "../../src/core/traces/scan.js";
import { nodeAscii } from "../../src/node/ascii.js";
import { wasmPlainLines } from "../../src/node/plain-lines.js";
import { PLAIN_LINES_WASM } from "../../src/node/plain-lines-wasm.js";
// @ts-expect-error: a plain .mjs script, without types
import { plainLinesModule } from "../../scripts/build-wasm.mjs";

const MARKED = /trace["'\\=]|StageRecord\(|SelectionResult\(/;

/** A line ending with a quote that cannot end a piece of a string pprint split. */
function plainQuote(line: string): boolean {
  const last = line.charCodeAt(line.length - 1);
  if (last !== 0x22 && last !== 0x27) return false;
  return !line.endsWith(" " + line.at(-1)) && !line.slice(-8, -1).includes("\\");
}

/** The rule as written in PlainLines' contract, a line at a time. */
function referenceSkip(bytes: Uint8Array, from: number, max: number) {
  let s = from;
  let lines = 0;
  for (;;) {
    const lf = bytes.indexOf(10, s);
    if (lf === -1) return { to: s, lines };
    const end = lf > s && bytes[lf - 1] === 13 ? lf - 1 : lf;
    const body = Buffer.from(bytes.subarray(s, end)).toString("latin1");
    if (
      body.includes("\r") ||
      end - s > max ||
      (end > s && MAY_OPEN_AT_END[bytes[end - 1]!] === 1 && !plainQuote(body)) ||
      // The byte after the line (its LF or CR) ends a `trace` word there, as in the module.
      MARKED.test(Buffer.from(bytes.subarray(s, end + 1)).toString("latin1"))
    )
      return { to: s, lines };
    s = lf + 1;
    lines++;
  }
}

const piece = fc.constantFrom(
  "\n",
  "\r",
  "\r\n",
  "trace",
  'trace"',
  "trace'",
  "trace\\",
  "trace=",
  "trace_id=7",
  "tr",
  "ace",
  "StageRecord(",
  "StageRecord",
  "SelectionResult(",
  "SelectionResult",
  "Selection",
  "Result(",
  "S",
  "(",
  "{",
  "[",
  ",",
  " ",
  "\t",
  "'",
  '"',
  "é",
  "☕",
  "x",
  "GET /api/v1/items/42 200 -",
  "y".repeat(17),
  "\\",
  "\\n'",
  "x\\u3000'",
  " '",
  "='Z'",
);

describe("the WebAssembly pass over plain lines", () => {
  it("is built from plain-lines.wat as it is now (npm run wasm)", async () => {
    const wat = readFileSync("src/node/plain-lines.wat", "utf8");
    expect(await plainLinesModule(wat)).toBe(readFileSync("src/node/plain-lines-wasm.ts", "utf8"));
    expect(PLAIN_LINES_WASM.length).toBeGreaterThan(0);
  });

  it("passes over the lines the rule passes over, from any place, with any limit", () => {
    const plain = wasmPlainLines();
    fc.assert(
      fc.property(
        fc.array(piece, { maxLength: 60 }),
        fc.nat(),
        fc.constantFrom(0, 1, 5, 16, 40, 1 << 30),
        (pieces, start, max) => {
          const bytes = new TextEncoder().encode(pieces.join(""));
          const from = bytes.length === 0 ? 0 : start % bytes.length;
          plain.load(bytes);
          expect(plain.skip(from, max)).toEqual(referenceSkip(bytes, from, max));
        },
      ),
      { numRuns: 3000 },
    );
  });

  it("reads what it loaded last, whatever was loaded before (a longer text leaves nothing behind)", () => {
    const plain = wasmPlainLines();
    plain.load(new TextEncoder().encode(`${"x".repeat(100)} trace=(\n`));
    const short = new TextEncoder().encode("abc\ndef\n");
    plain.load(short);
    expect(plain.skip(0, 1000)).toEqual({ to: short.length, lines: 2 });
    const long = new Uint8Array(300_000).fill(0x61);
    for (let i = 99; i < long.length; i += 100) long[i] = 10;
    plain.load(long);
    expect(plain.skip(0, 1000)).toEqual({ to: long.length, lines: 3000 });
  });
});

describe("the scanner with and without the WebAssembly pass", () => {
  const jsOnly: AsciiCodec = { ...nodeAscii, plainLines: undefined };
  const json = (id: string) =>
    JSON.stringify({ turn_id: id, trace: [{ stage: "intent", action: "abstain" }] });
  const lines = fc.constantFrom(
    json("a"),
    `INFO ${json("b")}`,
    "selection: SelectionResult(tools=(), trace=(StageRecord(stage='s', action='abstain'),))",
    "trace=(StageRecord(stage='s', action='abstain'),)",
    "records: [StageRecord(stage='s', action='abstain')]",
    "INFO {'trace': [",
    "  {'stage': 'x', 'action': 'abstain'}]}",
    "INFO trace_id=4bf92f3577b34da6 GET /",
    "{",
    "}",
    "INFO GET /api/v1/items/1 200 -",
    'werkzeug 127.0.0.1 - - [07/Dec/2026] "GET / HTTP/1.1" 200 -',
    "INFO café ☕",
    "INFO {'trace': [{'stage': 's', 'action': 'abstain', 'detail': 'two '",
    "INFO {'trace': [{'stage': 's', 'action': 'abstain', 'detail': 'tab\\t'",
    "  'words'}]}",
    "event='request' status=200 timestamp='2026-12-07T10:00:00Z'",
    'msg="done"',
    "",
  );

  it("finds the same traces, lines, byte ranges and problems on any mix of lines and line ends", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(lines, fc.constantFrom("\n", "\r\n", "\r")), { maxLength: 60 }),
        fc.constantFrom(undefined, 30),
        (parts, maxLineBytes) => {
          const bytes = new TextEncoder().encode(parts.map(([l, e]) => l + e).join(""));
          const slow = scanText(bytes, { maxLineBytes });
          expect(scanText(bytes, { ascii: nodeAscii, maxLineBytes })).toEqual(slow);
          expect(scanText(bytes, { ascii: jsOnly, maxLineBytes })).toEqual(slow);
        },
      ),
      { numRuns: 1500 },
    );
  });

  it("finds the traces around and across the edges of the megabyte it is given at a time", () => {
    const filler = "INFO GET /api/v1/items/1 200 -\n";
    const mib = 1024 * 1024;
    let text = "";
    // Traces that start, end and straddle the first and second MiB of the chunk.
    for (const edge of [mib, 2 * mib]) {
      while (text.length < edge - 40) text += filler;
      text += `${"z".repeat(edge - 20 - text.length)}\n${json(`at-${edge}`)}\n`;
    }
    text += `${filler}${json("last")}\n`;
    const bytes = new TextEncoder().encode(text);
    const fast = scanText(bytes, { ascii: nodeAscii });
    expect(fast.traces.map((t) => t.trace.id)).toEqual([`at-${mib}`, `at-${2 * mib}`, "last"]);
    expect(fast).toEqual(scanText(bytes));
  });
});
