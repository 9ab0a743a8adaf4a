import { writeFileSync } from "node:fs";
import { open } from "node:fs/promises";
import { join } from "node:path";
import { crc32, gunzipSync, gzipSync } from "node:zlib";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { gzipBlocks, MAX_BLOCK_INPUT_BYTES, shifted } from "../../src/node/gzip-blocks.js";
import { tempDir } from "../helpers/temp.js";

/** Deflate's bit order: values from their lowest bit, Huffman codes from their highest. */
class Bits {
  private bytes: Buffer;
  private at = 0;
  constructor(capacity: number) {
    this.bytes = Buffer.alloc(capacity);
  }
  put(value: number, n: number): void {
    for (let k = 0; k < n; k++, this.at++)
      this.bytes[this.at >> 3]! |= ((value >> k) & 1) << (this.at & 7);
  }
  code(value: number, n: number): void {
    for (let k = n - 1; k >= 0; k--, this.at++)
      this.bytes[this.at >> 3]! |= ((value >> k) & 1) << (this.at & 7);
  }
  done(): Buffer {
    return this.bytes.subarray(0, Math.ceil(this.at / 8));
  }
}

/** A gzip member around raw deflate data that inflates to `text`. */
function member(deflated: Buffer, text: Buffer): Buffer {
  const trailer = Buffer.alloc(8);
  trailer.writeUInt32LE(crc32(text), 0);
  trailer.writeUInt32LE(text.length, 4);
  return Buffer.concat([Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3]), deflated, trailer]);
}

describe("shifted", () => {
  it("reads bytes from any bit of the first, as the byte-by-byte formula does", () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 1, maxLength: 70 }),
        fc.integer({ min: 0, max: 7 }),
        (bytes, shift) => {
          const expected = Buffer.alloc(shift === 0 ? bytes.length : bytes.length - 1);
          for (let i = 0; i < expected.length; i++)
            expected[i] =
              shift === 0
                ? bytes[i]!
                : ((bytes[i]! >> shift) | (bytes[i + 1]! << (8 - shift))) & 0xff;
          expect(shifted(bytes, shift)).toEqual(expected);
        },
      ),
    );
  });
});

describe("a crafted deflate block", () => {
  it("longer than any encoder writes (6 MiB of literal codes) stops the walk by blocks", async () => {
    const literals = 6 * 1024 * 1024;
    const bits = new Bits(literals + 64);
    bits.put(1, 1);
    bits.put(1, 2);
    for (let i = 0; i < literals; i++) bits.code(0x30 + 0x62, 8);
    bits.code(0, 7);
    const text = Buffer.alloc(literals, "b");
    const gz = member(bits.done(), text);
    expect(gunzipSync(gz).equals(text)).toBe(true);
    expect(gz.length).toBeGreaterThan(MAX_BLOCK_INPUT_BYTES);
    const { sizes, error } = await walkBlocks(gz);
    expect(error).toContain("a deflate block is too long");
    expect(sizes).toEqual([]);
  });

  it("a true block that inflates to megabytes from its first kilobytes is still a block start", async () => {
    // Text that repeats: each of zlib's blocks is 16 Ki copies of 258 bytes, 4 MiB from 2 KiB.
    const text = Buffer.alloc(12 * 1024 * 1024, "the same line again\n");
    const path = join(tempDir("pi-blocks-"), "same.log.gz");
    writeFileSync(path, gzipSync(text));
    const handle = await open(path);
    let inflated = 0;
    try {
      for await (const block of gzipBlocks(handle, (await handle.stat()).size, null))
        inflated += block.data.length;
    } finally {
      await handle.close();
    }
    expect(inflated).toBe(text.length);
  });

  it("a stored block forged inside a block of fixed codes is refused, not taken for the next block", async () => {
    // Block A (fixed codes) ends at a bit E with E % 8 === 5: its end-of-block code is 7 zero
    // bits, so E - 3 reads as a stored header (BFINAL 0, BTYPE 00) whose LEN and NLEN are the
    // next byte on, where the true block B's first codes are chosen to spell them.
    const literalCode = (v: number) =>
      v < 144 ? { code: 0x30 + v, n: 8 } : { code: 0x190 + v - 144, n: 9 };
    const bitsOf = ({ code, n }: { code: number; n: number }) =>
      Array.from({ length: n }, (_, k) => (code >> (n - 1 - k)) & 1);
    // Literals whose codes, back to back, start with the 32 bits of LEN and NLEN (LSB first).
    const spell = (target: number[]): number[] | null => {
      const search = (at: number): number[] | null => {
        if (at >= target.length) return [];
        for (let v = 0; v < 256; v++) {
          const bits = bitsOf(literalCode(v));
          if (bits.every((bit, k) => at + k >= target.length || bit === target[at + k])) {
            const rest = search(at + bits.length);
            if (rest) return [v, ...rest];
          }
        }
        return null;
      };
      return search(0);
    };
    // The first LEN from 300 on that literal codes can spell (B must then hold LEN bytes more).
    const spellLength = (len: number) =>
      spell(Array.from({ length: 32 }, (_, k) => ((len | ((~len & 0xffff) << 16)) >>> k) & 1));
    let len = 300;
    while (!spellLength(len)) len++;
    const spelled = spellLength(len)!;
    const a = [...Buffer.from("INFO a "), 0xe2, 0x9c, 0x93];
    const b = [...spelled, ...Buffer.from(" the true second block ".repeat(Math.ceil(len / 10)))];
    const bits = new Bits(4 * (a.length + b.length) + 64);
    bits.put(0, 1);
    bits.put(1, 2);
    for (const v of a) bits.code(literalCode(v).code, literalCode(v).n);
    bits.code(0, 7);
    bits.put(1, 1);
    bits.put(1, 2);
    for (const v of b) bits.code(literalCode(v).code, literalCode(v).n);
    bits.code(0, 7);
    const text = Buffer.from([...a, ...b]);
    const gz = member(bits.done(), text);
    expect(gunzipSync(gz).equals(text)).toBe(true);
    const { sizes, error } = await walkBlocks(gz);
    expect(error).toContain("the end of a deflate block cannot be told apart from the data");
    expect(sizes).toEqual([a.length]);
  });
});

/** The sizes of the blocks a walk of the gzip hands on, and the message it stopped with (null: none). */
async function walkBlocks(gz: Buffer): Promise<{ sizes: number[]; error: string | null }> {
  const dir = tempDir("pi-blocks-");
  const path = join(dir, "walked.log.gz");
  writeFileSync(path, gz);
  const handle = await open(path);
  const sizes: number[] = [];
  try {
    for await (const block of gzipBlocks(handle, gz.length, null)) sizes.push(block.data.length);
    return { sizes, error: null };
  } catch (error) {
    return { sizes, error: (error as Error).message };
  } finally {
    await handle.close();
  }
}
