/**
 * Text gathered into large writes: `traces` writing each trace's entry on its own cost more than
 * finding the trace (a system call per entry when standard output is a file or a pipe). Entries
 * are encoded into one reused buffer as they come: a string of thousands of entries joined would
 * live through collections and be copied again when written.
 */
export class ChunkedOutput {
  private readonly buffer: Buffer;
  private used = 0;

  /**
   * `escape` makes an entry safe when it holds anything but ASCII below DEL; most entries do not,
   * and are not searched again.
   */
  constructor(
    private readonly write: (text: string) => void,
    private readonly escape: ((text: string) => string) | null = null,
    chunkBytes = 1 << 20,
  ) {
    this.buffer = Buffer.allocUnsafe(chunkBytes);
  }

  add(text: string): void {
    // At the most three bytes per UTF-16 unit, six escaped (`\u009b`): a text that may not fit
    // after the others goes in the next chunk, one that may not fit in any is written on its own.
    const most = text.length * (this.escape ? 6 : 3);
    if (this.used + most > this.buffer.length) {
      this.flush();
      if (most > this.buffer.length) {
        this.write(this.escape ? this.escape(text) : text);
        return;
      }
    }
    let bytes = this.buffer.write(text, this.used);
    if (this.escape && (bytes !== text.length || text.includes("\x7f")))
      bytes = this.buffer.write(this.escape(text), this.used);
    this.used += bytes;
  }

  /** Writes what is held; the owner calls it once its last entry is added. */
  flush(): void {
    if (this.used === 0) return;
    const text = this.buffer.toString("utf8", 0, this.used);
    this.used = 0;
    this.write(text);
  }
}
