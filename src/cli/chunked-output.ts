/**
 * Text gathered into large writes: `traces` writing each trace's entry on its own cost more than
 * finding the trace (a system call per entry when standard output is a file or a pipe).
 */
export class ChunkedOutput {
  private text = "";

  /** `escape` is applied to each chunk as it is written: one pass over many entries, not one per entry. */
  constructor(
    private readonly write: (text: string) => void,
    private readonly escape: (text: string) => string = (text) => text,
    private readonly chunkChars = 1 << 20,
  ) {}

  add(text: string): void {
    this.text += text;
    if (this.text.length >= this.chunkChars) this.flush();
  }

  /** Writes what is held; the owner calls it once its last entry is added. */
  flush(): void {
    if (this.text === "") return;
    const text = this.text;
    this.text = "";
    this.write(this.escape(text));
  }
}
