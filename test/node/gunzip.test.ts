import { randomBytes } from "node:crypto";
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { gunzipChunks } from "../../src/node/gunzip.js";

const TEXT = Buffer.from(Array.from({ length: 4000 }, (_, i) => `line ${i * 7919}\n`).join(""));

async function gunzip(chunks: Uint8Array[]) {
  const notices: string[] = [];
  const out: Buffer[] = [];
  async function* input() {
    yield* chunks;
  }
  try {
    for await (const chunk of gunzipChunks(input(), 1024, (m) => notices.push(m)))
      out.push(Buffer.from(chunk));
    return { text: Buffer.concat(out), notices, error: null };
  } catch (error) {
    return { text: Buffer.concat(out), notices, error: error as Error & { code: string } };
  }
}

/** `bytes` cut into pieces of `n` bytes, as a stream may hand them on. */
const pieces = (bytes: Buffer, n: number) =>
  Array.from({ length: Math.ceil(bytes.length / n) }, (_, i) => bytes.subarray(i * n, i * n + n));

describe("gunzipChunks", () => {
  it("inflates concatenated members handed on in pieces of any size, a header with a name split among them", async () => {
    const named = gzipSync(TEXT);
    // FNAME: the flag, then a NUL-terminated name after the 10-byte header.
    const withName = Buffer.concat([
      named.subarray(0, 3),
      Buffer.from([named[3]! | 8]),
      named.subarray(4, 10),
      Buffer.from("a-long-file-name.log\0"),
      named.subarray(10),
    ]);
    const file = Buffer.concat([withName, gzipSync(TEXT)]);
    for (const n of [13, 1000, file.length]) {
      const result = await gunzip(pieces(file, n));
      expect(result.error).toBeNull();
      expect(result.text.equals(Buffer.concat([TEXT, TEXT]))).toBe(true);
    }
  });

  it("a member whose CRC-32 or length does not match is corrupt, after its data was handed on", async () => {
    for (const [at, message] of [
      [8, "incorrect data check"],
      [4, "incorrect length check"],
    ] as const) {
      const file = gzipSync(TEXT);
      file[file.length - at]! ^= 1;
      const result = await gunzip([file]);
      expect([result.error?.code, result.error?.message]).toEqual(["Z_DATA_ERROR", message]);
      expect(result.text.equals(TEXT)).toBe(true);
    }
  });

  it("deflate data zlib cannot read is corrupt in zlib's words, the members before it kept", async () => {
    const second = gzipSync(TEXT);
    // The first block's header: last block, of the reserved type 3.
    second[10] = 0b111;
    const result = await gunzip([Buffer.concat([gzipSync(TEXT), second])]);
    expect([result.error?.code, result.error?.message]).toEqual([
      "Z_DATA_ERROR",
      "invalid block type",
    ]);
    expect(result.text.equals(TEXT)).toBe(true);
  });

  it("a file cut in a trailer, a header or the data is truncated, what was inflated before kept", async () => {
    const one = gzipSync(TEXT).length;
    const file = Buffer.concat([gzipSync(TEXT), gzipSync(TEXT)]);
    for (const [end, kept] of [
      [one - 4, TEXT.length],
      [one + 5, TEXT.length],
      [one + 10, TEXT.length],
    ]) {
      const result = await gunzip([file.subarray(0, end)]);
      expect([result.error?.code, result.text.length]).toEqual(["Z_BUF_ERROR", kept]);
    }
    const cut = await gunzip([file.subarray(0, file.length - 100)]);
    expect(cut.error?.code).toBe("Z_BUF_ERROR");
    expect(cut.text.length).toBeGreaterThan(TEXT.length * 1.5);
  });

  it("hands on each chunk zlib inflates from a slice before it asks for more of the input", async () => {
    // Text that barely compresses: the first 32 KiB of the file inflate to about 40 chunks of 1 KiB.
    const text = Buffer.from(randomBytes(150_000).toString("base64"));
    const file = gzipSync(text);
    const first = 32 * 1024;
    let handedOnBefore = -1;
    const out: Buffer[] = [];
    async function* input() {
      yield file.subarray(0, first);
      handedOnBefore = out.length;
      yield file.subarray(first);
    }
    for await (const chunk of gunzipChunks(input(), 1024, () => {})) out.push(Buffer.from(chunk));
    expect(Buffer.concat(out).equals(text)).toBe(true);
    expect(handedOnBefore).toBeGreaterThan(30);
  });

  it("goes on inflating the next slices while the chunk handed on is read, a few chunks ahead", async () => {
    // Barely compressible text: each 64 KiB slice inflates to one chunk of about 85 KB.
    const text = Buffer.from(randomBytes(900_000).toString("base64"));
    async function* input() {
      yield gzipSync(text);
    }
    const chunks = gunzipChunks(input(), 1024 * 1024, () => {})[Symbol.asyncIterator]();
    const out = [Buffer.from((await chunks.next()).value as Uint8Array)];
    // The reader is busy with the first chunk: zlib's turns come, and more slices are inflated.
    await new Promise((resolve) => setTimeout(resolve, 200));
    let ready = 0;
    const later = Symbol("later");
    let pending = chunks.next();
    for (;;) {
      // A chunk already inflated comes before the next turn of the loop; one still in zlib does not.
      const next = await Promise.race([
        pending,
        new Promise<typeof later>((resolve) => setImmediate(() => resolve(later))),
      ]);
      if (next === later || next.done) break;
      out.push(Buffer.from(next.value));
      ready++;
      pending = chunks.next();
    }
    expect(ready).toBeGreaterThanOrEqual(3);
    for (let next = await pending; !next.done; next = await chunks.next())
      out.push(Buffer.from(next.value));
    expect(Buffer.concat(out).equals(text)).toBe(true);
  });

  it("a file that does not start with a gzip header is corrupt", async () => {
    const result = await gunzip([Buffer.from("plain text")]);
    expect([result.error?.code, result.error?.message]).toEqual([
      "Z_DATA_ERROR",
      "incorrect header check",
    ]);
  });
});
