/** Chunks decoded natively as ASCII (ScanOptions.ascii) give exactly what UTF-8 decoding gives. */
import { readdirSync, readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { TraceScanner, type FoundTrace, type ScanProblem } from "../../../src/core/traces/scan.js";
import { asciiText } from "../../../src/node/ascii.js";

function scan(bytes: Uint8Array, cuts: readonly number[], fast: boolean, maxLineBytes?: number) {
  const traces: FoundTrace[] = [];
  const problems: ScanProblem[] = [];
  const scanner = new TraceScanner({
    maxLineBytes,
    ascii: fast ? asciiText : undefined,
    onTrace: (t) => traces.push(t),
    onProblem: (p) => problems.push(p),
  });
  let at = 0;
  for (const cut of cuts) {
    if (at >= bytes.length) break;
    scanner.push(bytes.subarray(at, at + cut));
    at += cut;
  }
  scanner.push(bytes.subarray(at));
  scanner.end();
  return { traces, problems };
}

const encoder = new TextEncoder();
const piece = fc.oneof(
  fc.constantFrom(
    '{"turn_id": "a", "trace": [{"stage": "s", "action": "abstain"}]}',
    "(StageRecord(stage='é', action='abstain'),)",
    "{'trace': [",
    "  {'stage': 'x', 'action': 'abstain'}]}",
    'sel="{\\"trace\\": []}"',
    "{",
    "[",
    "}",
    "]",
    ",",
    "'",
    "\n",
    "\r",
    "\r\n",
    "  ",
    "café ☕ 𝄞",
    "x".repeat(40),
  ),
  fc.constant("\xff"),
  fc.constant("\ufeff"),
);

/** \xff in a piece stands for one invalid byte. */
function bytesOf(pieces: readonly string[]): Uint8Array {
  const out: number[] = [];
  for (const p of pieces) {
    if (p === "\xff") out.push(0xff);
    else out.push(...encoder.encode(p));
  }
  return Uint8Array.from(out);
}

describe("ASCII chunks decoded natively", () => {
  it("gives what UTF-8 decoding gives, on any mix of formats, bad bytes and line ends, however cut", () => {
    fc.assert(
      fc.property(
        fc.array(piece, { maxLength: 60 }),
        fc.array(fc.integer({ min: 1, max: 40 }), { maxLength: 40 }),
        (pieces, cuts) => {
          const bytes = bytesOf(pieces);
          expect(scan(bytes, cuts, true, 300)).toEqual(scan(bytes, [], false, 300));
        },
      ),
      { numRuns: 1500 },
    );
  }, 60_000);

  it.each(readdirSync("examples/logs"))(
    "gives what UTF-8 decoding gives on examples/logs/%s",
    (file) => {
      const bytes = readFileSync(`examples/logs/${file}`);
      expect(scan(bytes, [4096, 333, 1], true)).toEqual(scan(bytes, [], false));
    },
  );
});
