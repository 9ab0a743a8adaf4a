/** Chunks decoded natively as ASCII (ScanOptions.ascii) give exactly what UTF-8 decoding gives. */
import { readdirSync, readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { nodeAscii } from "../../../src/node/ascii.js";
import { scanCut, type CutOptions } from "./scan-cut.js";

const encoder = new TextEncoder();
const scan = (bytes: Uint8Array, cuts: readonly number[], fast: boolean, maxLineBytes?: number) =>
  scanCut(bytes, cuts, { fast, maxLineBytes } satisfies CutOptions);
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

  it("finds the first byte that is not ASCII wherever it is", () => {
    for (const size of [0, 1, 63, 64, 65, 4095, 4096, 4097, 100_000]) {
      const bytes = new Uint8Array(size).fill(0x61);
      expect(nodeAscii.asciiPrefix(bytes)).toBe(size);
      for (const at of [0, size >> 1, size - 1].filter((i) => i >= 0 && i < size)) {
        const copy = bytes.slice();
        copy[at] = 0xc3;
        if (at + 1 < size) copy[at + 1] = 0xa9;
        expect(nodeAscii.asciiPrefix(copy), `${size} at ${at}`).toBe(at);
      }
    }
  });

  it.each([
    ["densely", 13, 310],
    ["sparsely", 2000, 310],
  ])(
    "reads big chunks %s holding lines that are not ASCII as UTF-8 decoding does",
    (_, every, count) => {
      const lines: string[] = [];
      for (let i = 0; i < 30_000; i++)
        lines.push(
          i % 97 === 0
            ? `INFO ${i} (StageRecord(stage='s${i}', action='abstain', detail='${i % 3 ? "ok" : "café"}'),)`
            : i % every === 0
              ? `INFO user asked «météo à Lyon» ${i}`
              : `INFO request ${i} served`,
        );
      const bytes = encoder.encode(lines.join("\r\n"));
      const fast = scan(bytes, Array<number>(40).fill(65_536), true);
      expect(fast).toEqual(scan(bytes, [], false));
      expect(fast.traces).toHaveLength(count);
    },
  );
});
