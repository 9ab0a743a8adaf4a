/**
 * What the author of a crafted file can do to a CRC-32: give other bytes the CRC-32 of the true
 * ones. CRC-32 is affine, so flipping a chosen set of bits moves it by the XOR of what each flip
 * alone does; which set reaches a target is a linear system over GF(2), solved here.
 */
import { crc32 } from "node:zlib";

/**
 * `bytes` with bit 1 flipped in some of the `count` bytes from `at` (so 'a' stays a letter: 'a' or
 * 'c'), chosen so that its CRC-32 is `target`.
 */
export function withCrc32(bytes: Uint8Array, at: number, count: number, target: number): Buffer {
  const base = crc32(bytes);
  // Each pivot: a CRC-32 change with its top bit set, and the flips (a bit set of positions) that make it.
  const pivots = new Map<number, { change: number; flips: bigint }>();
  const reduce = (change: number, flips: bigint) => {
    for (let bit = 31; bit >= 0; bit--) {
      const pivot = pivots.get(bit);
      if ((change >>> bit) & 1 && pivot) {
        change = (change ^ pivot.change) >>> 0;
        flips ^= pivot.flips;
      }
    }
    return { change, flips };
  };
  for (let k = 0; k < count; k++) {
    const flipped = Buffer.from(bytes);
    flipped[at + k]! ^= 2;
    const { change, flips } = reduce((crc32(flipped) ^ base) >>> 0, 1n << BigInt(k));
    if (change !== 0) pivots.set(31 - Math.clz32(change), { change, flips });
  }
  const { change, flips } = reduce((base ^ target) >>> 0, 0n);
  if (change !== 0) throw new Error(`no flips of those ${count} bytes reach that CRC-32`);
  const out = Buffer.from(bytes);
  for (let k = 0; k < count; k++) if ((flips >> BigInt(k)) & 1n) out[at + k]! ^= 2;
  return out;
}
