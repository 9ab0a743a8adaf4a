/**
 * Finds selection traces in a log fed in chunks of any size: JSON lines, text lines with the JSON
 * after a prefix, whole JSON files (pretty-printed or not). Lines are decoded and split in bulk
 * and only those holding a `"trace": [` key are parsed, so most of a log is never looked at twice.
 * The result does not depend on where the chunks are cut.
 */
import { JsonBlock, opensBlock, type BlockValue } from "./block.js";
import { tracesInValue, type Found } from "./find.js";
import { traceKeyIn, tracesInLine } from "./line.js";
import type { LoggedTrace } from "./trace.js";

export const DEFAULT_MAX_LINE_BYTES = 64 * 1024 * 1024;

export interface FoundTrace {
  /** 0-based, in file order. */
  readonly index: number;
  /** 1-based line where the trace's JSON starts. */
  readonly line: number;
  /** Byte range of what was parsed to find it (its line, or a multi-line value): re-read it with `scanText`. */
  readonly offset: number;
  readonly length: number;
  /** Its position among the traces found in that range. */
  readonly ordinal: number;
  readonly trace: LoggedTrace;
}

export interface ScanProblem {
  /** 1-based. */
  readonly line: number;
  readonly message: string;
}

/** An AbortSignal, or anything shaped like VS Code's CancellationToken. */
export type Cancellation =
  { readonly aborted: boolean } | { readonly isCancellationRequested: boolean };

export class ScanCancelled extends Error {
  override readonly name = "ScanCancelled";
  constructor() {
    super("the scan was cancelled");
  }
}

export interface ScanOptions {
  readonly onTrace: (found: FoundTrace) => void;
  readonly onProblem: (problem: ScanProblem) => void;
  /** A longer line is reported and skipped, never held in memory. */
  readonly maxLineBytes?: number;
  readonly signal?: Cancellation;
  /** Where the input starts in its file, when re-reading one range of it. */
  readonly firstLine?: number;
  readonly firstOffset?: number;
}

const KEY = '"trace"';
const REPLACEMENT = "\uFFFD";
/** Lines between two cancellation checks inside one chunk. */
const CHECK_EVERY = 4096;
/** Longer lines cannot be a lone `{` or `[` (with some indentation). */
const OPENER_MAX = 16;

export class TraceScanner {
  private readonly maxLineBytes: number;
  private readonly decoder = new TextDecoder("utf-8", { ignoreBOM: true });
  private readonly strictDecoder = new TextDecoder("utf-8", { ignoreBOM: true, fatal: true });
  private readonly encoder = new TextEncoder();
  private lineNo: number;
  /** Byte offset of the line being read. */
  private offset: number;
  private readonly atFileStart: boolean;
  private pending: Uint8Array[] = [];
  private pendingLength = 0;
  private skipping = false;
  private surrogate = "";
  private block: JsonBlock | null = null;
  private index = 0;
  private ended = false;

  constructor(private readonly options: ScanOptions) {
    this.maxLineBytes = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
    this.lineNo = options.firstLine ?? 1;
    this.offset = options.firstOffset ?? 0;
    this.atFileStart = this.offset === 0;
  }

  /** Reads the next chunk; throws ScanCancelled when cancellation was requested. */
  push(chunk: Uint8Array | string): void {
    if (this.ended) throw new Error("the scanner has ended");
    this.checkCancelled();
    const bytes = typeof chunk === "string" ? this.encode(chunk) : chunk;
    let pos = 0;
    if (this.skipping) {
      const nl = bytes.indexOf(10);
      if (nl === -1) {
        this.offset += bytes.length;
        return;
      }
      this.offset += nl + 1;
      this.lineNo++;
      this.skipping = false;
      pos = nl + 1;
    }
    if (this.pendingLength > 0) {
      const nl = bytes.indexOf(10, pos);
      if (nl === -1) {
        this.hold(bytes.subarray(pos));
        return;
      }
      const tail = bytes.subarray(pos, nl + 1);
      const line = concat([...this.pending, tail], this.pendingLength + tail.length);
      this.pending = [];
      this.pendingLength = 0;
      this.lines(line);
      pos = nl + 1;
    }
    const last = bytes.lastIndexOf(10);
    if (last >= pos) {
      this.lines(bytes.subarray(pos, last + 1));
      pos = last + 1;
    }
    if (pos < bytes.length) this.hold(bytes.subarray(pos));
  }

  /** Reads what is left: a last line without a line break, a value still open. */
  end(): void {
    if (this.ended) return;
    this.checkCancelled();
    if (this.surrogate) {
      const carried = this.surrogate;
      this.surrogate = "";
      this.push(this.encoder.encode(carried));
    }
    this.ended = true;
    if (this.pendingLength > 0) {
      const line = concat([...this.pending, Uint8Array.of(10)], this.pendingLength + 1);
      this.pending = [];
      this.pendingLength = 0;
      this.lines(line);
    }
    const block = this.block;
    if (block?.openLine != null && traceKeyIn(block.openText, 0, Infinity) !== -1) {
      this.options.onProblem({
        line: block.openLine,
        message:
          "truncated JSON: the value opened on this line is not closed at the end of the input",
      });
    }
    this.block = null;
  }

  private checkCancelled(): void {
    const signal = this.options.signal;
    if (!signal) return;
    if ("aborted" in signal ? signal.aborted : signal.isCancellationRequested)
      throw new ScanCancelled();
  }

  /** UTF-8 of a string chunk; a high surrogate at its end waits for its pair in the next chunk. */
  private encode(chunk: string): Uint8Array {
    let text = this.surrogate + chunk;
    this.surrogate = "";
    const last = text.charCodeAt(text.length - 1);
    if (last >= 0xd800 && last <= 0xdbff) {
      this.surrogate = text.slice(-1);
      text = text.slice(0, -1);
    }
    return this.encoder.encode(text);
  }

  /** Keeps the start of a line until its end arrives, or gives up on it past the cap. */
  private hold(part: Uint8Array): void {
    if (this.pendingLength + part.length > this.maxLineBytes) {
      this.tooLong(this.lineNo);
      this.offset += this.pendingLength + part.length;
      this.pending = [];
      this.pendingLength = 0;
      this.skipping = true;
      return;
    }
    this.pending.push(part.slice());
    this.pendingLength += part.length;
  }

  private tooLong(line: number): void {
    this.options.onProblem({
      line,
      message: `the line is longer than ${this.maxLineBytes} bytes; it was not read`,
    });
  }

  /** Complete lines, each ending with "\n". */
  private lines(bytes: Uint8Array): void {
    const text = this.decoder.decode(bytes);
    // One character per byte and no replacement: byte offsets are string offsets.
    const ascii = text.length === bytes.length && text.indexOf(REPLACEMENT) === -1;
    let nextKey = text.indexOf(KEY);
    let nextBad = ascii ? -1 : text.indexOf(REPLACEMENT);
    let bytePos = 0;
    let count = 0;
    for (let s = 0; s < text.length;) {
      const e = text.indexOf("\n", s);
      const byteStart = ascii ? s : bytePos;
      const byteEnd = ascii ? e : bytes.indexOf(10, bytePos);
      bytePos = byteEnd + 1;
      const lineBytes = byteEnd - byteStart;

      if (lineBytes > this.maxLineBytes) this.tooLong(this.lineNo);
      else {
        let from = s;
        let to = e;
        let offset = this.offset;
        let length = lineBytes;
        if (to > from && text.charCodeAt(to - 1) === 0x0d) {
          to--;
          length--;
        }
        if (this.atFileStart && offset === 0 && text.charCodeAt(from) === 0xfeff) {
          from++;
          offset += 3;
          length -= 3;
        }
        if (nextBad !== -1 && nextBad < e) {
          if (!this.validUtf8(bytes.subarray(byteStart, byteEnd)))
            this.options.onProblem({
              line: this.lineNo,
              message: "invalid UTF-8: the bad bytes were replaced by U+FFFD",
            });
          nextBad = text.indexOf(REPLACEMENT, e);
        }
        if (nextKey !== -1 && nextKey < from) nextKey = text.indexOf(KEY, from);
        this.line(text, from, to, offset, length, ascii, nextKey !== -1 && nextKey < to);
      }

      this.offset += lineBytes + 1;
      this.lineNo++;
      s = e + 1;
      if (++count % CHECK_EVERY === 0) this.checkCancelled();
    }
  }

  private line(
    text: string,
    from: number,
    to: number,
    offset: number,
    length: number,
    ascii: boolean,
    mayHoldKey: boolean,
  ): void {
    if (this.block) {
      const slice = text.slice(from, to);
      const bytesBefore = ascii ? (i: number) => i : (i: number) => utf8Length(slice, 0, i);
      const result = this.block.feed(slice, this.lineNo, offset, length, bytesBefore);
      if (result === "open") return;
      const broken = this.block;
      this.block = null;
      if (result === "closed") return;
      if (broken.openLine !== null && traceKeyIn(broken.openText, 0, Infinity) !== -1) {
        this.options.onProblem({
          line: broken.openLine,
          message: `truncated JSON: the value opened on this line breaks off at line ${this.lineNo}`,
        });
      }
    }
    if (to - from <= OPENER_MAX && opensBlock(text, from, to)) {
      this.block = new JsonBlock(this.maxLineBytes, (value) => this.blockValue(value));
      const slice = text.slice(from, to);
      this.block.feed(
        slice,
        this.lineNo,
        offset,
        length,
        ascii ? (i) => i : (i) => utf8Length(slice, 0, i),
      );
      return;
    }
    if (!mayHoldKey) return;
    const hit = traceKeyIn(text, from, to);
    if (hit === -1) return;
    this.emit(tracesInLine(text.slice(from, to), hit - from), this.lineNo, offset, length);
  }

  private blockValue(value: BlockValue): void {
    if (value.tooLong) {
      this.options.onProblem({
        line: value.line,
        message: `the JSON value is longer than ${this.maxLineBytes} bytes; it was not read`,
      });
      return;
    }
    if (traceKeyIn(value.text, 0, value.text.length) === -1) return;
    let found: Found[];
    try {
      found = tracesInValue(JSON.parse(value.text), { time: null, id: null });
    } catch (error) {
      found = [
        { problem: `invalid JSON: ${error instanceof Error ? error.message : String(error)}` },
      ];
    }
    this.emit(found, value.line, value.offset, value.length);
  }

  private emit(found: readonly Found[], line: number, offset: number, length: number): void {
    let ordinal = 0;
    for (const item of found) {
      // Every trace is work (ordering its names, summarising it): a cancel stops before the next one.
      this.checkCancelled();
      if ("trace" in item)
        this.options.onTrace({
          index: this.index++,
          line,
          offset,
          length,
          ordinal: ordinal++,
          trace: item.trace,
        });
      else this.options.onProblem({ line, message: item.problem });
    }
  }

  private validUtf8(bytes: Uint8Array): boolean {
    try {
      this.strictDecoder.decode(bytes);
      return true;
    } catch {
      return false;
    }
  }
}

/** Scans a whole input held in memory: for tests, small files and re-reading one trace's range. */
export function scanText(
  input: string | Uint8Array,
  options: Omit<ScanOptions, "onTrace" | "onProblem"> = {},
): { traces: FoundTrace[]; problems: ScanProblem[] } {
  const traces: FoundTrace[] = [];
  const problems: ScanProblem[] = [];
  const scanner = new TraceScanner({
    ...options,
    onTrace: (found) => traces.push(found),
    onProblem: (problem) => problems.push(problem),
  });
  scanner.push(input);
  scanner.end();
  return { traces, problems };
}

/** UTF-8 byte length of text[from, to); a lone surrogate counts as the 3 bytes of U+FFFD. */
export function utf8Length(text: string, from: number, to: number): number {
  let bytes = 0;
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (
      c >= 0xd800 &&
      c <= 0xdbff &&
      i + 1 < to &&
      (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00
    ) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}

function concat(parts: readonly Uint8Array[], length: number): Uint8Array {
  if (parts.length === 1) return parts[0]!;
  const out = new Uint8Array(length);
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}
