/**
 * A value a logger spread over several lines after a prefix: `json.dumps(indent=2)` or `pprint`
 * output such as `selection: {` or `SelectionResult(tools=('search',` continued by indented lines.
 * It is followed bracket by bracket until it closes, within MAX_BLOCK_BYTES and MAX_BLOCK_LINES.
 */
import { utf8Length } from "../fixture/source.js";
import { mayHoldMarker } from "./markers.js";
import { lastAngleEnd, opensAngle } from "./python/angle.js";
import { opensString } from "./python/strings.js";

export const MAX_BLOCK_BYTES = 1024 * 1024;
export const MAX_BLOCK_LINES = 20_000;

export type BlockStep =
  | { readonly state: "open" }
  | { readonly state: "broken" }
  /** `text` is empty when the value was over the caps; `rest` is where the line goes on after it. */
  | {
      readonly state: "closed";
      readonly text: string;
      readonly tooLong: boolean;
      readonly rest: number;
    };

export class LineBlock {
  private parts: string[] = [];
  private depth = 0;
  private bytes = 0;
  private lines = 0;

  /** Lines read, the opening one included. */
  get lineCount(): number {
    return this.lines;
  }
  private tooLong = false;
  /** Some line of it may hold a trace marker. */
  marked = false;

  constructor(
    /** 1-based line and byte offset of the line that opens it. */
    readonly line: number,
    readonly offset: number,
    /** Traces already found earlier on the opening line (the block's come after them). */
    readonly ordinalBase: number,
    /** The text before the value on the opening line, for its time and id. */
    readonly prefix: string,
    first: string,
    /** The opening line's own problem, reported if no line continues the value. */
    readonly unclosed: string | null,
  ) {
    this.take(first, 0);
  }

  /** Reads the next line (without its line break). */
  feed(text: string): BlockStep {
    const c = text.charCodeAt(0);
    // Continuation lines are indented, or close the value at the margin (an empty line's NaN is neither).
    if (!(c === 0x20 || c === 0x09 || c === 0x7d || c === 0x5d || c === 0x29))
      return { state: "broken" };
    const closed = this.take(text, 0);
    if (closed === -2) return { state: "broken" };
    if (closed === -1) return { state: "open" };
    return {
      state: "closed",
      text: this.tooLong ? "" : this.parts.join("\n"),
      tooLong: this.tooLong,
      rest: closed,
    };
  }

  /** Follows text's brackets; the index after the one closing the value, -1 if still open, -2 if a string does not close. */
  private take(text: string, from: number): number {
    let i = from;
    let closedAt = -1;
    for (; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if ((c === 0x22 || c === 0x27) && opensString(text, i)) {
        const close = stringEnd(text, i);
        if (close === -1) return -2;
        i = close;
      } else if (c === 0x3c && opensAngle(text, i)) {
        // A `<…>` repr's text is whatever its __repr__ printed: its brackets are not the value's.
        const after = lastAngleEnd(text, i, text.length);
        if (after !== -1) i = after - 1;
      } else if (c === 0x7b || c === 0x5b || c === 0x28) this.depth++;
      else if (c === 0x7d || c === 0x5d || c === 0x29) {
        if (--this.depth === 0) {
          closedAt = i + 1;
          break;
        }
      }
    }
    const part = closedAt === -1 ? text : text.slice(0, closedAt);
    this.lines++;
    this.bytes += utf8Length(part) + 1;
    if (!this.marked && mayHoldMarker(part, 0, part.length)) this.marked = true;
    if (this.bytes > MAX_BLOCK_BYTES || this.lines > MAX_BLOCK_LINES) {
      this.tooLong = true;
      this.parts = [];
    }
    if (!this.tooLong) this.parts.push(part);
    return closedAt;
  }
}

/** The index of the quote closing the one at `open` (backslash escapes skipped); -1 if the line ends first. */
function stringEnd(text: string, open: number): number {
  const quote = text.charCodeAt(open);
  for (let i = open + 1; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x5c) i++;
    else if (c === quote) return i;
  }
  return -1;
}
