/**
 * Reads an OTLP/JSON file fed in chunks: one ExportTraceServiceRequest or ExportLogsServiceRequest
 * per line, in any mix (as the OpenTelemetry Collector's file exporter writes them), or one whole
 * document. The selections are
 * handed on in file order once their model call is known: at the end of the input, or when more
 * than MAX_PENDING wait (then the oldest goes with what the spans seen so far say).
 */
import { concatBytes } from "../arrays.js";
import type { FoundTrace, ScanProblem } from "../traces/found.js";
import { OtelJoin, joinedTrace } from "./join.js";
import { isOtlpRequest, readRequest, type OtlpRecord, type OtlpSelection } from "./request.js";
import { OwnRecords } from "./own-records.js";
import { SetRecords, type OtlpSet } from "./set-records.js";

/** Selections held back for their model call before the oldest is handed on as it is. */
export const MAX_PENDING = 10_000;

const [SPANS_OPENING, LOGS_OPENING] = ['"resourceSpans"', '"resourceLogs"'].map((key) =>
  new TextEncoder().encode(key),
) as [Uint8Array, Uint8Array];
const OPENINGS = [SPANS_OPENING, LOGS_OPENING];

/** Whether bytes at a file's start open an OTLP/JSON request: `{`, then the key `"resourceSpans"` or `"resourceLogs"` (of `openings`). */
export function looksOtlp(bytes: Uint8Array, openings = OPENINGS): boolean {
  let at = skipBlanks(bytes, bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0);
  if (bytes[at] !== 0x7b) return false;
  at = skipBlanks(bytes, at + 1);
  return openings.some((opening) => opening.every((byte, i) => bytes[at + i] === byte));
}

function skipBlanks(bytes: Uint8Array, at: number): number {
  while (
    at < bytes.length &&
    (bytes[at] === 0x20 || bytes[at] === 0x0a || bytes[at] === 0x0d || bytes[at] === 0x09)
  )
    at++;
  return at;
}

/** How a file of a set is read: its spans join the log records of the set's other files too. */
export interface OtlpSetScan {
  /** The set the file is read in: its spans join the log records of the set's other files too. */
  readonly otlpSet?: OtlpSet;
  /** With `otlpSet`: each of the set's records that names an inference span of this file, once. */
  readonly onSetJoined?: (index: number) => void;
}

export interface OtlpScanOptions extends OtlpSetScan {
  readonly onTrace: (found: FoundTrace) => void;
  readonly onProblem: (problem: ScanProblem) => void;
  readonly maxLineBytes: number;
  /**
   * Only the log records of each `resourceLogs` line are read, and given here (a set's first
   * pass): other lines are passed over undecoded, a whole document is not read, nothing is joined.
   */
  readonly onRecords?: (records: readonly OtlpRecord[], line: number) => void;
}

export class OtlpScanner {
  private pending: { selection: OtlpSelection; line: number }[] = [];
  /** How many pending selections each OTel trace has: the join forgets none of those traces. */
  private readonly pendingTraces = new Map<string, number>();
  /** The set's log records, when the file is read in a set. */
  private readonly set: SetRecords | null;
  /** Its records that join only its own spans: those whose span it does not hold are said at its end. */
  private readonly own: OwnRecords;
  private readonly join: OtelJoin;
  private readonly decoder = new TextDecoder();
  private held: Uint8Array[] = [];
  private heldLength = 0;
  private lineNo = 1;
  private bytes = 0;
  private index = 0;
  /** The first request spans lines: the file is one document, read whole at its end. */
  private whole = false;
  private first = true;
  private tooLong = false;

  constructor(private readonly options: OtlpScanOptions) {
    const { otlpSet, onSetJoined } = options;
    const set = otlpSet ? new SetRecords(otlpSet, onSetJoined ?? (() => undefined)) : null;
    this.set = set;
    this.own = new OwnRecords(otlpSet);
    this.join = new OtelJoin(
      (traceId) => this.pendingTraces.has(traceId),
      undefined,
      set ? (traceId, spanId) => set.calls(traceId, spanId) : undefined,
    );
  }

  get currentLine(): number {
    return this.lineNo;
  }

  push(chunk: Uint8Array): void {
    let from = 0;
    for (let lf = chunk.indexOf(10); lf !== -1; lf = chunk.indexOf(10, from)) {
      // A line read within this chunk is read before it returns; a document's lines are kept.
      this.hold(chunk.subarray(from, lf + 1), this.whole);
      from = lf + 1;
      if (!this.whole) this.line();
    }
    this.hold(chunk.subarray(from), true);
  }

  end(): void {
    // A last line or a document over the limit holds nothing, but is still a problem.
    if (this.heldLength > 0 || this.tooLong) this.line(true);
    this.flush(0);
    for (const problem of this.own.problems()) this.options.onProblem(problem);
  }

  /**
   * Holds part of a line; `kept` for one held past this push, copied: the caller may reuse the
   * chunk's memory (a plain file's reads fill two buffers in turn, the next while this one is read).
   */
  private hold(part: Uint8Array, kept: boolean): void {
    this.bytes += part.length;
    if (this.tooLong || part.length === 0) return;
    if (this.heldLength + part.length > this.options.maxLineBytes) {
      this.tooLong = true;
      this.held = [];
      this.heldLength = 0;
      return;
    }
    this.held.push(kept ? Uint8Array.prototype.slice.call(part) : part);
    this.heldLength += part.length;
  }

  /** Reads what is held: a line, or at the end of a document the whole of it. */
  private line(atEnd = false): void {
    const line = this.lineNo;
    if (this.options.onRecords && !this.tooLong && !this.holdsLogs()) {
      const last = this.held.at(-1);
      this.held = [];
      this.heldLength = 0;
      if (last?.[last.length - 1] === 10) this.lineNo++;
      return;
    }
    const text = this.take();
    const lines = this.whole ? 1 : countLines(text, atEnd);
    if (this.tooLong) {
      this.tooLong = false;
      this.options.onProblem({
        line,
        message: `${this.whole ? "the document" : "the line"} is longer than ${this.options.maxLineBytes} bytes; it was not read`,
      });
    } else if (text.trim() !== "") this.request(text, line, atEnd);
    if (!this.whole) this.lineNo += lines;
  }

  /** Whether the line held opens an ExportLogsServiceRequest. */
  private holdsLogs(): boolean {
    const head = this.held.length > 1 ? concatBytes(this.held, this.heldLength) : this.held[0];
    return head !== undefined && looksOtlp(head, [LOGS_OPENING]);
  }

  private take(): string {
    const text = this.decoder.decode(concatBytes(this.held, this.heldLength));
    this.held = [];
    this.heldLength = 0;
    return text;
  }

  private request(text: string, line: number, atEnd: boolean): void {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      if (this.options.onRecords) return;
      if (this.first && !atEnd) {
        // The first request goes on past its line: the file is one document, read at its end.
        this.whole = true;
        const bytes = new TextEncoder().encode(text);
        this.held.push(bytes);
        this.heldLength += bytes.length;
        return;
      }
      this.first = false;
      this.options.onProblem({
        line,
        message: `invalid JSON: ${error instanceof Error ? error.message : String(error)}`,
      });
      return;
    }
    this.first = false;
    if (!isOtlpRequest(value)) {
      this.options.onProblem({
        line,
        message:
          "not an OTLP ExportTraceServiceRequest or ExportLogsServiceRequest (an object with a 'resourceSpans' or 'resourceLogs' array)",
      });
      return;
    }
    const read = readRequest(value);
    if (this.options.onRecords) return this.options.onRecords(read.records, line);
    for (const problem of read.problems)
      this.options.onProblem({ line, message: `${problem.path}: ${problem.message}` });
    for (const { traceId } of read.selections)
      this.pendingTraces.set(traceId, (this.pendingTraces.get(traceId) ?? 0) + 1);
    for (const { traceId, spanId } of read.inferences) {
      this.set?.see(traceId, spanId);
      this.own.see(traceId, spanId);
    }
    this.own.add(read.records, line);
    this.join.add(read);
    for (const selection of read.selections) this.pending.push({ selection, line });
    this.flush(MAX_PENDING);
  }

  private flush(keep: number): void {
    const out = this.pending.length - keep;
    if (out <= 0) return;
    for (const { selection, line } of this.pending.slice(0, out)) {
      const waiting = this.pendingTraces.get(selection.traceId)! - 1;
      if (waiting === 0) this.pendingTraces.delete(selection.traceId);
      else this.pendingTraces.set(selection.traceId, waiting);
      const index = this.index++;
      this.options.onTrace({
        index,
        line,
        // Re-read from the file's start: the join needs every request before the trace was handed on.
        offset: 0,
        length: this.bytes,
        ordinal: index,
        trace: joinedTrace(selection, this.join.model(selection)),
      });
    }
    this.pending = this.pending.slice(out);
  }
}

function countLines(text: string, atEnd: boolean): number {
  return atEnd && !text.endsWith("\n") ? 0 : 1;
}
