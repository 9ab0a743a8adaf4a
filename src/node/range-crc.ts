/**
 * The CRC-32 of a trace's bytes, taken while a gzip is scanned: a trace opened later from a
 * checkpoint is checked against it, since a checkpoint walk can be misled by a crafted file
 * (a block start that is not one, a member CRC-32 forged to match) into offsets that name other
 * bytes. Only the last RECENT_BYTES inflated are held; a trace longer than that gets no CRC.
 */
import { crc32 } from "node:zlib";

const RECENT_BYTES = 8 * 1024 * 1024;

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

  /** The CRC-32 of bytes [offset, offset + length), or undefined when they are no longer held. */
  crc(offset: number, length: number): number | undefined {
    if (this.chunks.length === 0 || offset < this.chunks[0]!.start || offset + length > this.end)
      return undefined;
    // A trace was just found: its bytes are in the last chunks.
    let i = this.chunks.length - 1;
    while (this.chunks[i]!.start > offset) i--;
    let crc = 0;
    for (; i < this.chunks.length; i++) {
      const { start, bytes } = this.chunks[i]!;
      const to = Math.min(offset + length, start + bytes.length);
      const from = Math.max(offset, start);
      if (from < to) crc = crc32(bytes.subarray(from - start, to - start), crc);
    }
    return crc;
  }
}
