/**
 * A keyed hash of a trace's bytes, taken while a gzip is scanned: a trace opened later from a
 * checkpoint is checked against it, since a checkpoint walk can be misled by a crafted file
 * (a block start that is not one, a member CRC-32 forged to match) into offsets that name other
 * bytes. A CRC-32 would not do: its author can make the wrong bytes' CRC-32 equal the right
 * ones'. Only the last RECENT_BYTES inflated are held; a trace longer than that gets no hash.
 */
import { createHmac, randomBytes, type Hmac } from "node:crypto";
import { isMainThread, workerData } from "node:worker_threads";

const RECENT_BYTES = 8 * 1024 * 1024;
/**
 * Drawn once per process and never written anywhere: a file's author cannot know it. A scan
 * worker hashes with its process's key, handed to it when it starts (scan-pool.ts).
 */
export const KEY: Uint8Array =
  !isMainThread && (workerData as { rangeHashKey?: Uint8Array } | null)?.rangeHashKey
    ? (workerData as { rangeHashKey: Uint8Array }).rangeHashKey
    : randomBytes(32);
/** Bytes of the HMAC-SHA-256 kept: 64 bits, far past what a file can try against an unknown key. */
const HASH_BYTES = 8;

/** The hash as hex (16 digits; asked of the digest as hex, which is quicker than as bytes). */
const digest = (hmac: Hmac) => hmac.digest("hex").slice(0, 2 * HASH_BYTES);

/** The keyed hash of `bytes`, as RecentBytes.hash takes it. */
export function rangeHash(bytes: Uint8Array): string {
  return digest(createHmac("sha256", KEY).update(bytes));
}

export class RecentBytes {
  private readonly chunks: { start: number; bytes: Uint8Array }[] = [];
  private held = 0;
  private end = 0;

  /** The next chunk of the inflated text (kept as it is: it must not be reused). */
  add(bytes: Uint8Array): void {
    this.chunks.push({ start: this.end, bytes });
    this.end += bytes.length;
    this.held += bytes.length;
    while (this.chunks.length > 1 && this.held - this.chunks[0]!.bytes.length >= RECENT_BYTES)
      this.held -= this.chunks.shift()!.bytes.length;
  }

  /** The keyed hash of bytes [offset, offset + length), or undefined when they are no longer held. */
  hash(offset: number, length: number): string | undefined {
    if (this.chunks.length === 0 || offset < this.chunks[0]!.start || offset + length > this.end)
      return undefined;
    // A trace was just found: its bytes are in the last chunks.
    let i = this.chunks.length - 1;
    while (this.chunks[i]!.start > offset) i--;
    const hmac = createHmac("sha256", KEY);
    for (; i < this.chunks.length; i++) {
      const { start, bytes } = this.chunks[i]!;
      const to = Math.min(offset + length, start + bytes.length);
      const from = Math.max(offset, start);
      if (from < to) hmac.update(bytes.subarray(from - start, to - start));
    }
    return digest(hmac);
  }
}
