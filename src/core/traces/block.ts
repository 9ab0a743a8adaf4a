/**
 * A JSON value pretty-printed over many lines (a `.json` file, `jq` output, `json.dumps(indent=2)`
 * after a log line). It starts on a line holding only `{` or `[`; a top-level array is split into
 * its elements so that each is read on its own and memory stays bounded by the largest element.
 */

/** One complete value: a top-level object, or one element of a top-level array. */
export interface BlockValue {
  readonly text: string;
  /** 1-based line where the value opens. */
  readonly line: number;
  /** Byte range of the value in the input. */
  readonly offset: number;
  readonly length: number;
  /** The value was longer than a cap (bytes or lines): `text` is empty and it must not be read. */
  readonly tooLong: boolean;
}

export type FeedResult = "open" | "closed" | "broken";

/** The first characters a line of pretty-printed JSON can start with. */
const JSON_LINE_START = new Set([...'{}[]",-0123456789tfn'].map((c) => c.charCodeAt(0)));

/** True for a line that opens a pretty-printed value: only `{` or `[`, maybe with blanks around. */
export function opensBlock(text: string, from: number, to: number): boolean {
  let opener = 0;
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x20 || c === 0x09) continue;
    if (opener !== 0 || (c !== 0x7b && c !== 0x5b)) return false;
    opener = c;
  }
  return opener !== 0;
}

export class JsonBlock {
  private depth = 0;
  private inString = false;
  private top = 0;
  private parts: string[] = [];
  private start: { line: number; offset: number } | null = null;
  private size = 0;
  private lines = 0;
  private tooLong = false;

  constructor(
    private readonly maxBytes: number,
    private readonly onValue: (value: BlockValue) => void,
    private readonly maxLines = Infinity,
  ) {}

  /** 1-based line where the value being read opened, if one is open. */
  get openLine(): number | null {
    return this.start?.line ?? null;
  }

  /** The text read so far of the value still open (for a problem when the input ends or breaks). */
  get openText(): string {
    return this.parts.join("");
  }

  /**
   * Reads one line (without its line break). `bytesBefore(i)` is the byte length of text[0, i).
   * "broken": the line cannot be part of pretty-printed JSON; the caller reads it as a plain line.
   */
  feed(
    text: string,
    line: number,
    lineOffset: number,
    lineBytes: number,
    bytesBefore: (i: number) => number,
  ): FeedResult {
    if (this.top !== 0 && !this.plausible(text)) return "broken";
    let from = this.start ? 0 : -1;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (this.inString) {
        if (c === 0x5c) i++;
        else if (c === 0x22) this.inString = false;
        continue;
      }
      if (c === 0x22) this.inString = true;
      else if (c === 0x7b || c === 0x5b) {
        if (this.top === 0) this.top = c;
        this.depth++;
        if (this.depth === this.valueDepth()) {
          this.start = { line, offset: lineOffset + bytesBefore(i) };
          from = i;
        }
      } else if (c === 0x7d || c === 0x5d) {
        if (this.depth === this.valueDepth() && this.start) {
          this.append(text.slice(from, i + 1), lineBytes);
          this.close(lineOffset + bytesBefore(i + 1));
          from = -1;
        }
        this.depth--;
        if (this.depth === 0) return "closed";
      }
    }
    if (this.inString) return "broken";
    if (from !== -1) this.append(text.slice(from) + "\n", lineBytes + 1);
    return "open";
  }

  /** A top-level object is the value; in a top-level array, each element one level down is. */
  private valueDepth(): number {
    return this.top === 0x5b ? 2 : 1;
  }

  private plausible(text: string): boolean {
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === 0x20 || c === 0x09) continue;
      return JSON_LINE_START.has(c);
    }
    return true;
  }

  private append(part: string, bytes: number): void {
    this.size += bytes;
    this.lines++;
    if (this.size > this.maxBytes || this.lines > this.maxLines) {
      this.tooLong = true;
      this.parts = [];
    }
    if (!this.tooLong) this.parts.push(part);
  }

  private close(endOffset: number): void {
    const start = this.start!;
    this.onValue({
      text: this.tooLong ? "" : this.parts.join(""),
      line: start.line,
      offset: start.offset,
      length: endOffset - start.offset,
      tooLong: this.tooLong,
    });
    this.parts = [];
    this.start = null;
    this.size = 0;
    this.lines = 0;
    this.tooLong = false;
  }
}
