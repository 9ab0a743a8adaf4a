/**
 * Finds selection traces in a log fed in chunks of any size: JSON lines, text lines with JSON or
 * a Python repr after a prefix (every one on a line, in order), logfmt values, values spread over
 * several lines, whole JSON files. A line ends at LF, CR or CRLF. Lines are decoded and split in
 * bulk and only those holding a marker (`trace`, `StageRecord`) or ending with an open bracket
 * are looked at again, so most of a log is passed over at the speed of a string search. The
 * result does not depend on where the chunks are cut.
 */
import { concatBytes } from "../arrays.js";
import { JsonBlock, opensBlock, type BlockValue } from "./block.js";
import type { Found } from "./find.js";
import { prefixContext } from "./line-pairs.js";
import { mayOpen, scanLine } from "./line.js";
import {
  byteCursor,
  firstLineEnd,
  isBlank,
  isBlankFrom,
  lastLineEnd,
  MAY_OPEN_AT_END,
  OPENER_MAX,
  skipPlainLines,
  utf8Length,
} from "./scan-text.js";
import { MarkerCursor, markersIn, mayHoldMarker, type Marker } from "./markers.js";
import { LineBlock, MAX_BLOCK_BYTES, MAX_BLOCK_LINES } from "./multiline.js";
import type { FoundTrace, ScanProblem } from "./found.js";
import { foundIn, parseValue } from "./value.js";
import { looksOtlp, OtlpScanner, type OtlpSetScan } from "../otel/scanner.js";

export { utf8Length } from "./scan-text.js";
export type { FoundTrace, ScanProblem } from "./found.js";

export const DEFAULT_MAX_LINE_BYTES = 64 * 1024 * 1024;

/** An AbortSignal, or anything shaped like VS Code's CancellationToken. */
export type Cancellation =
  { readonly aborted: boolean } | { readonly isCancellationRequested: boolean };

export class ScanCancelled extends Error {
  override readonly name = "ScanCancelled";
  constructor() {
    super("the scan was cancelled");
  }
}

export interface ScanOptions extends OtlpSetScan {
  readonly onTrace: (found: FoundTrace) => void;
  readonly onProblem: (problem: ScanProblem) => void;
  /** A longer line is reported and skipped, never held in memory. */
  readonly maxLineBytes?: number;
  readonly signal?: Cancellation;
  /** Where the input starts in its file, when re-reading one range of it. */
  readonly firstLine?: number;
  readonly firstOffset?: number;
  /** Native help with ASCII, where the host has it: runs of ASCII lines then skip the UTF-8 decoder. */
  readonly ascii?: AsciiCodec;
}

/** What a host can do natively and much faster than UTF-8 decoding (Node: buffer.isAscii, Latin-1). */
export interface AsciiCodec {
  /** The length of the run of ASCII bytes that `bytes` starts with. */
  asciiPrefix(bytes: Uint8Array): number;
  /** Bytes that are all ASCII, as a string. */
  decode(bytes: Uint8Array): string;
  /** True when the bytes are valid UTF-8: then lines are found and tested as bytes, not decoded. */
  isUtf8(bytes: Uint8Array): boolean;
  /** A faster pass over the lines the byte pre-filter only counts, one per scanner. */
  plainLines?(): PlainLines;
}

/**
 * Passes over plain lines of loaded bytes: LF-ended (maybe CRLF), at most the limit long, with no
 * lone CR, no `trace` followed by a quote, backslash or `=`, `StageRecord(` or `SelectionResult(`
 * (the words every marker holds), and no last byte in MAY_OPEN_AT_END, but for a quote with
 * neither a space before it nor a backslash among the 7 bytes before it (it cannot end a piece
 * of a split string, see `endsSplitString`).
 */
export interface PlainLines {
  /** The bytes the next calls of `skip` read, copied. */
  load(bytes: Uint8Array): void;
  /** From `from`, the lines passed over: where the first other line starts (or the end), and how many. */
  skip(from: number, maxLineBytes: number): { readonly to: number; readonly lines: number };
}

/** A line, or the rest of one, as decoded: text[from, to), and the bytes of the input it came from. */
interface LineSpan {
  readonly text: string;
  readonly from: number;
  readonly to: number;
  readonly offset: number;
  readonly length: number;
  /** One character per byte: string offsets are byte offsets. */
  readonly ascii: boolean;
}

const REPLACEMENT = "\uFFFD";
/** Shorter runs of ASCII are decoded with the UTF-8 around them, in blocks of about UTF8_BLOCK bytes. */
const MIN_ASCII_RUN = 16 * 1024;
const UTF8_BLOCK = 64 * 1024;
/** Bytes the faster pass over plain lines is given at a time: its memory grows no larger. */
const PLAIN_WINDOW = 1024 * 1024;
/** Lines between two cancellation checks inside one chunk. */
const CHECK_EVERY = 4096;
export class TraceScanner {
  private readonly maxLineBytes: number;
  private readonly decoder = new TextDecoder("utf-8", { ignoreBOM: true });
  private readonly strictDecoder = new TextDecoder("utf-8", { ignoreBOM: true, fatal: true });
  private readonly encoder = new TextEncoder();
  private readonly plain: PlainLines | null;
  private lineNo: number;
  /** Byte offset of the line being read. */
  private offset: number;
  private readonly atFileStart: boolean;
  private pending: Uint8Array[] = [];
  private pendingLength = 0;
  private skipping = false;
  private surrogate = "";
  private block: JsonBlock | null = null;
  private spread: LineBlock | null = null;
  /** The last line read ended with a CR: an LF starting the next chunk belongs to it. */
  private afterCR = false;
  private index = 0;
  private ended = false;
  /** The input is OTLP/JSON (it starts as an ExportTraceServiceRequest): that reader reads it all. */
  private otlp: OtlpScanner | null = null;
  private sniffed = false;

  constructor(private readonly options: ScanOptions) {
    this.maxLineBytes = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
    this.plain = options.ascii?.plainLines?.() ?? null;
    this.lineNo = options.firstLine ?? 1;
    this.offset = options.firstOffset ?? 0;
    this.atFileStart = this.offset === 0;
  }

  /** 1-based line being read: where the input broke off, when it did. */
  get currentLine(): number {
    if (this.otlp) return this.otlp.currentLine;
    return this.lineNo;
  }

  /** Reads the next chunk; throws ScanCancelled when cancellation was requested. */
  push(chunk: Uint8Array | string): void {
    if (this.ended) throw new Error("the scanner has ended");
    this.checkCancelled();
    const bytes = typeof chunk === "string" ? this.encode(chunk) : chunk;
    if (bytes.length === 0) return;
    if (!this.sniffed && this.atFileStart && looksOtlp(bytes))
      this.otlp = new OtlpScanner({ ...this.options, maxLineBytes: this.maxLineBytes });
    this.sniffed = true;
    if (this.otlp) return this.otlp.push(bytes);
    let pos = 0;
    if (this.afterCR) {
      this.afterCR = false;
      if (bytes[0] === 10) {
        pos = 1;
        this.offset++;
      }
    }
    if (this.skipping) {
      const nl = firstLineEnd(bytes, pos);
      if (nl === -1) {
        this.offset += bytes.length - pos;
        return;
      }
      this.offset += nl + 1 - pos;
      this.lineNo++;
      this.skipping = false;
      pos = nl + 1;
      if (bytes[nl] === 13 && bytes[pos] === 10) {
        pos++;
        this.offset++;
      }
    }
    if (this.pendingLength > 0 && pos < bytes.length) {
      const nl = firstLineEnd(bytes, pos);
      if (nl === -1) {
        this.hold(bytes.subarray(pos));
        return;
      }
      // A CR is kept with its LF, so that CRLF split across chunks stays one line end.
      const stop = bytes[nl] === 13 && bytes[nl + 1] === 10 ? nl + 2 : nl + 1;
      const tail = bytes.subarray(pos, stop);
      const line = concatBytes([...this.pending, tail], this.pendingLength + tail.length);
      this.pending = [];
      this.pendingLength = 0;
      this.lines(line);
      pos = stop;
    }
    const last = lastLineEnd(bytes, pos);
    if (last >= pos) {
      this.lines(bytes.subarray(pos, last + 1));
      pos = last + 1;
    }
    if (pos < bytes.length) this.hold(bytes.subarray(pos));
    // A CR ending the chunk ended a line; an LF starting the next chunk is part of that line end.
    else this.afterCR = bytes[bytes.length - 1] === 13;
  }

  /** Reads what is left: a last line without a line break, a value still open. */
  end(): void {
    if (this.ended) return;
    this.checkCancelled();
    if (this.otlp) {
      this.ended = true;
      return this.otlp.end();
    }
    if (this.surrogate) {
      const carried = this.surrogate;
      this.surrogate = "";
      this.push(this.encoder.encode(carried));
    }
    this.ended = true;
    if (this.pendingLength > 0) {
      const line = concatBytes([...this.pending, Uint8Array.of(10)], this.pendingLength + 1);
      this.pending = [];
      this.pendingLength = 0;
      this.lines(line);
    }
    const spread = this.spread;
    // A value cut on its first line, at the end of the input, is that line's own problem.
    if (spread?.lineCount === 1 && spread.unclosed !== null)
      this.options.onProblem({ line: spread.line, message: spread.unclosed });
    else if (spread?.marked)
      this.options.onProblem({
        line: spread.line,
        message:
          "truncated value: the value opened on this line is not closed at the end of the input",
      });
    this.spread = null;
    const block = this.block;
    if (block?.openLine != null && markersIn(block.openText).length > 0) {
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
    // A copy: the caller may reuse the chunk's memory (and a Node Buffer's slice() is a view).
    this.pending.push(Uint8Array.prototype.slice.call(part));
    this.pendingLength += part.length;
  }

  /** A value spread over lines is held whole: it may be no longer than a line, nor than MAX_BLOCK_BYTES. */
  private maxBlockBytes(): number {
    return Math.min(this.maxLineBytes, MAX_BLOCK_BYTES);
  }

  private tooLong(line: number): void {
    this.options.onProblem({
      line,
      message: `the line is longer than ${this.maxLineBytes} bytes; it was not read`,
    });
  }

  /** Complete lines, each ending with LF, CR or CRLF; runs of ASCII lines are decoded natively. */
  private lines(bytes: Uint8Array): void {
    const ascii = this.options.ascii;
    if (ascii?.isUtf8(bytes)) {
      this.sparseLines(bytes);
      return;
    }
    if (!ascii) {
      this.decodedLines(bytes, this.decoder.decode(bytes));
      return;
    }
    for (let pos = 0; pos < bytes.length;) {
      const rest = bytes.subarray(pos);
      const run = ascii.asciiPrefix(rest);
      if (run === rest.length) {
        this.decodedLines(rest, ascii.decode(rest));
        return;
      }
      // A long run of ASCII lines is decoded natively; the lines after it as UTF-8, a block of
      // them when the run is short, so that text dense with other bytes is not cut line by line.
      const plain = run < MIN_ASCII_RUN ? 0 : lastLineEnd(rest.subarray(0, run), 0) + 1;
      if (plain > 0)
        this.decodedLines(rest.subarray(0, plain), ascii.decode(rest.subarray(0, plain)));
      const end = firstLineEnd(
        rest,
        plain > 0 ? run : Math.min(rest.length - 1, Math.max(run, UTF8_BLOCK)),
      );
      const stop = rest[end] === 13 && rest[end + 1] === 10 ? end + 2 : end + 1;
      const wide = rest.subarray(plain, stop);
      this.decodedLines(wide, this.decoder.decode(wide));
      pos += stop;
    }
  }

  /**
   * The pre-filter over complete lines of valid UTF-8: a line is decoded and read only when it may
   * matter (a marker, a last byte that may open a value, a lone CR, a value open above it, the
   * first of the file, over the length limit); every other line is only counted, at memchr speed,
   * or, where the host has the faster pass (`AsciiCodec.plainLines`), 16 bytes at a time.
   */
  private sparseLines(bytes: Uint8Array): void {
    const markers = MarkerCursor.ofBytes(bytes);
    let marker = markers.next(0);
    let nextCR = bytes.indexOf(13);
    let open = this.block !== null || this.spread !== null || this.offset === 0;
    // Lines passed over since the last one read, counted into lineNo and offset when one is read.
    let passedFrom = 0;
    let passed = 0;
    let count = 0;
    // The bytes loaded into the faster pass: bytes[windowFrom, windowTo).
    let windowFrom = 0;
    let windowTo = 0;
    for (let s = 0; s < bytes.length;) {
      if (!open && this.plain) {
        if (s >= windowTo) {
          windowFrom = s;
          windowTo = Math.min(bytes.length, s + PLAIN_WINDOW);
          this.plain.load(bytes.subarray(windowFrom, windowTo));
        }
        const skipped = this.plain.skip(s - windowFrom, this.maxLineBytes);
        passed += skipped.lines;
        count += skipped.lines;
        s = windowFrom + skipped.to;
        if (nextCR !== -1 && nextCR < s) nextCR = bytes.indexOf(13, s);
      }
      if (count >= CHECK_EVERY) {
        count = 0;
        this.passed(s - passedFrom, passed);
        passed = 0;
        passedFrom = s;
        this.checkCancelled();
      }
      // A window that ends inside a line stops before it: that line is read below.
      if (s >= bytes.length) break;
      const lf = bytes.indexOf(10, s);
      if (lf === -1) {
        // Lines ended by lone CRs close the input.
        this.passed(s - passedFrom, passed);
        this.decodedLines(bytes.subarray(s), this.decoder.decode(bytes.subarray(s)));
        return;
      }
      let end = lf;
      let loneCR = false;
      if (nextCR !== -1 && nextCR < lf) {
        // The first CR of the line: before its LF it is a CRLF, anywhere else a line end of its own.
        loneCR = nextCR < lf - 1;
        if (nextCR === lf - 1) end--;
        nextCR = bytes.indexOf(13, lf + 1);
      }
      if (marker !== -1 && marker < s) marker = markers.next(s);
      const marked = marker !== -1 && marker < end;
      if (open || loneCR || end - s > this.maxLineBytes) {
        this.passed(s - passedFrom, passed);
        passed = 0;
        const line = bytes.subarray(s, lf + 1);
        this.decodedLines(line, this.decoder.decode(line));
        open = this.block !== null || this.spread !== null;
        passedFrom = lf + 1;
      } else if (marked || MAY_OPEN_AT_END[bytes[end - 1]!] === 1) {
        // A line of its own, valid UTF-8: read at once, without the search for line ends again.
        this.passed(s - passedFrom, passed);
        passed = 0;
        const text = this.decoder.decode(bytes.subarray(s, end));
        const length = end - s;
        this.line(
          {
            text,
            from: 0,
            to: text.length,
            offset: this.offset,
            length,
            ascii: text.length === length,
          },
          marked,
        );
        this.passed(lf + 1 - s, 1);
        open = this.block !== null || this.spread !== null;
        passedFrom = lf + 1;
      } else passed++;
      s = lf + 1;
      count++;
    }
    this.passed(bytes.length - passedFrom, passed);
  }

  /** Counts lines passed over by the pre-filter. */
  private passed(bytes: number, lines: number): void {
    this.offset += bytes;
    this.lineNo += lines;
  }

  /** Complete lines and their text, decoded one way or the other. */
  private decodedLines(bytes: Uint8Array, text: string): void {
    // One character per byte and no replacement: byte offsets are string offsets.
    const ascii = text.length === bytes.length && text.indexOf(REPLACEMENT) === -1;
    let nextCR = text.indexOf("\r");
    const markers = MarkerCursor.ofText(text);
    let nextMarker = markers.next(0);
    let nextBad = ascii ? -1 : text.indexOf(REPLACEMENT);
    let bytePos = 0;
    let count = 0;
    for (let s = 0; s < text.length;) {
      if (ascii && nextCR === -1 && !this.block && !this.spread && this.offset > 0) {
        // The pre-filter: lines before the next marker that cannot open a block are only counted.
        if (nextMarker !== -1 && nextMarker < s) nextMarker = markers.next(s);
        const skipped = skipPlainLines(
          text,
          s,
          nextMarker === -1 ? text.length : nextMarker,
          this.maxLineBytes,
        );
        if (skipped.lines > 0) {
          this.offset += skipped.to - s;
          this.lineNo += skipped.lines;
          s = skipped.to;
          count += skipped.lines;
          if (count >= CHECK_EVERY) {
            count = 0;
            this.checkCancelled();
          }
          if (s >= text.length) break;
        }
      }
      let e = text.indexOf("\n", s);
      let ending = 1;
      if (nextCR !== -1) {
        if (nextCR < s) nextCR = text.indexOf("\r", s);
        if (nextCR !== -1 && (nextCR < e || e === -1)) {
          e = nextCR;
          if (text.charCodeAt(e + 1) === 10) ending = 2;
        }
      }
      const byteStart = ascii ? s : bytePos;
      const byteEnd = ascii ? e : bytes.indexOf(text.charCodeAt(e), bytePos);
      bytePos = byteEnd + ending;
      const lineBytes = byteEnd - byteStart;

      if (lineBytes > this.maxLineBytes) this.tooLong(this.lineNo);
      else {
        let from = s;
        let offset = this.offset;
        let length = lineBytes;
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
        if (nextMarker !== -1 && nextMarker < from) nextMarker = markers.next(from);
        const marked = nextMarker !== -1 && nextMarker < e;
        this.line({ text, from, to: e, offset, length, ascii }, marked);
      }

      this.offset += lineBytes + ending;
      this.lineNo++;
      s = e + ending;
      if (++count % CHECK_EVERY === 0) this.checkCancelled();
    }
  }

  private line(span: LineSpan, marked: boolean): void {
    const { text, from, to, offset, length, ascii } = span;
    if (this.block) {
      const slice = text.slice(from, to);
      const bytesBefore = ascii ? (i: number) => i : byteCursor(slice);
      const result = this.block.feed(slice, this.lineNo, offset, length, bytesBefore);
      if (result === "open") return;
      const broken = this.block;
      this.block = null;
      if (result === "closed") return;
      if (broken.openLine !== null && markersIn(broken.openText).length > 0) {
        this.options.onProblem({
          line: broken.openLine,
          message: `truncated JSON: the value opened on this line breaks off at line ${this.lineNo}`,
        });
      }
    }
    if (this.spread) {
      const spread = this.spread;
      const step = spread.feed(text.slice(from, to));
      if (step.state === "open") return;
      this.spread = null;
      if (step.state === "closed") {
        const rest = from + step.rest;
        const before = ascii ? step.rest : utf8Length(text, from, rest);
        this.spreadValue(spread, step.text, step.tooLong, offset + before);
        // Another value may open on the line that closes this one (`before=… after=…`).
        if (!isBlankFrom(text, rest, to))
          this.unread({
            text,
            from: rest,
            to,
            offset: offset + before,
            length: length - before,
            ascii,
          });
        return;
      }
      if (spread.lineCount === 1 && spread.unclosed !== null)
        this.options.onProblem({ line: spread.line, message: spread.unclosed });
      else if (spread.marked)
        this.options.onProblem({
          line: spread.line,
          message: `truncated value: the value opened on this line breaks off at line ${this.lineNo}`,
        });
    }
    this.unread(span, marked);
  }

  /** A line, or the rest of one after a spread value closed, with no value open above it. */
  private unread(span: LineSpan, marked = mayHoldMarker(span.text, span.from, span.to)): void {
    const { text, from, to, offset, length, ascii } = span;
    if (to - from <= OPENER_MAX && opensBlock(text, from, to)) {
      this.block = new JsonBlock(
        this.maxBlockBytes(),
        (value) => this.blockValue(value),
        MAX_BLOCK_LINES,
      );
      const slice = text.slice(from, to);
      this.block.feed(slice, this.lineNo, offset, length, ascii ? (i) => i : byteCursor(slice));
      return;
    }
    let end = to;
    while (end > from && isBlank(text.charCodeAt(end - 1))) end--;
    const opens = mayOpen(text, end);
    if (!marked && !opens) return;
    const slice = text.slice(from, to);
    const scan = scanLine(slice);
    const found = this.emit(scan.found, this.lineNo, offset, length);
    if (opens && scan.openAt !== -1) {
      this.spread = new LineBlock(
        this.lineNo,
        offset,
        found,
        slice.slice(0, scan.openAt),
        slice.slice(scan.openAt),
        scan.unclosed,
      );
      return;
    }
    if (scan.unclosed !== null)
      this.options.onProblem({ line: this.lineNo, message: scan.unclosed });
  }

  /** A value spread over lines has closed: its traces take the range from its first line to its last. */
  private spreadValue(spread: LineBlock, text: string, tooLong: boolean, endOffset: number): void {
    if (!spread.marked) return;
    const line = spread.line;
    if (tooLong) {
      this.options.onProblem({
        line,
        message: `the value opened on this line is longer than ${MAX_BLOCK_BYTES} bytes or ${MAX_BLOCK_LINES} lines; it was not read`,
      });
      return;
    }
    const markers = markersIn(text);
    if (markers.length === 0) return;
    const parsed = parseValue(text, 0, text.length, allJson(markers));
    const found = foundIn(parsed, prefixContext(spread.prefix, spread.prefix.length, null));
    this.emit(found, line, spread.offset, endOffset - spread.offset, spread.ordinalBase);
  }

  private blockValue(value: BlockValue): void {
    if (value.tooLong) {
      this.options.onProblem({
        line: value.line,
        message: `the value opened on this line is longer than ${this.maxBlockBytes()} bytes or ${MAX_BLOCK_LINES} lines; it was not read`,
      });
      return;
    }
    if (!mayHoldMarker(value.text, 0, value.text.length)) return;
    const markers = markersIn(value.text);
    if (markers.length === 0) return;
    const parsed = parseValue(value.text, 0, value.text.length, allJson(markers));
    const found = foundIn(parsed, { time: null, id: null });
    this.emit(found, value.line, value.offset, value.length);
  }

  /** Reports what was found in one byte range; returns how many traces. */
  private emit(
    found: readonly Found[],
    line: number,
    offset: number,
    length: number,
    firstOrdinal = 0,
  ): number {
    let ordinal = firstOrdinal;
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
    return ordinal - firstOrdinal;
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

function allJson(markers: readonly Marker[]): boolean {
  return markers.every((marker) => marker.kind === "json");
}
