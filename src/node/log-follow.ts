/**
 * Follows a growing log (docs/formats.md, "traces --follow"): each trace appended is handed on as
 * its line is complete, from the end of the file or from its start. A rotation (the log renamed
 * and a new one created) is followed by reading the old file to its end and then the new one from
 * its start; a truncation (copytruncate) by reading the file again from its start. No line is
 * read twice. A link re-pointed at another file is no rotation: the file first opened is
 * followed still, and the change is said once.
 */
import { realpath, stat, type FileHandle } from "node:fs/promises";
import { TraceScanner, type FoundTrace, type ScanProblem } from "../core/traces/scan.js";
import { nodeAscii } from "./ascii.js";
import { readReason } from "./log-source.js";
import { openRegular } from "./safe-file.js";

/** How often the file is looked at. */
export const FOLLOW_POLL_MS = 200;
const READ_BYTES = 1024 * 1024;

export interface FollowOptions {
  readonly fromStart?: boolean;
  readonly pollMs?: number;
  /** `found.index` counts the traces followed, across rotations. */
  readonly onTrace: (found: FoundTrace) => void;
  readonly onProblem: (problem: ScanProblem) => void;
  /** Called after each read; the follower waits for what it returns (a worker's room to send). */
  readonly between?: () => Promise<void> | undefined;
  /** Called when a look at the file has read it to its end. */
  readonly onCaughtUp?: () => void;
}

export class LogFollower {
  private handle: FileHandle | null = null;
  private ino = -1;
  /** Where the path led when the file was opened, and where it leads now if a link changed. */
  private leadsTo = "";
  private saidLeadsTo: string | null = null;
  private lastProblem: string | null = null;
  private position = 0;
  private scanner: TraceScanner | null = null;
  private count = 0;
  private timer: NodeJS.Timeout | null = null;
  private polling: Promise<void> = Promise.resolve();
  private stopped = false;

  constructor(
    readonly path: string,
    private readonly options: FollowOptions,
  ) {}

  /** Opens the log (rejects when it cannot be read, a FIFO or not a regular file) and starts following it. */
  async start(): Promise<void> {
    this.leadsTo = await realpath(this.path).catch(() => this.path);
    const handle = await openRegular(this.path);
    const { ino, size } = await handle.stat();
    let line = 1;
    let at = 0;
    if (!this.options.fromStart) ({ line, at } = await lastLineStart(handle, size));
    this.attach(handle, ino, at, line);
    // Held as the poll in progress, so that a stop meanwhile waits for it before closing the file.
    this.polling = this.drain();
    await this.polling;
    this.schedule();
  }

  /** Stops following; what was read is handed on, a last line without its break is not. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.polling;
    await this.handle?.close();
    this.handle = null;
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.polling = this.poll().then(
        () => {
          this.lastProblem = null;
          this.schedule();
        },
        (error: unknown) => {
          const message = `cannot read ${this.path}: ${readReason(error)}`;
          // Said once while it lasts: a FIFO put in the log's place fails every look.
          if (message !== this.lastProblem) this.options.onProblem({ line: 0, message });
          this.lastProblem = message;
          this.schedule();
        },
      );
    }, this.options.pollMs ?? FOLLOW_POLL_MS);
  }

  private async poll(): Promise<void> {
    if (this.stopped || !this.handle) return;
    const leadsTo = await realpath(this.path).catch(() => this.leadsTo);
    if (leadsTo !== this.leadsTo) return this.linkChanged(leadsTo);
    const now = await stat(this.path).catch(() => null);
    if (now !== null && now.ino !== this.ino) {
      // Rotated: the new file is opened (and checked) first, then what the writer added to the old one is read.
      const handle = await openRegular(this.path);
      await this.drain();
      this.scanner!.end();
      await this.handle.close();
      this.attach(handle, (await handle.stat()).ino, 0, 1);
    } else if (now !== null && now.size < this.position) {
      // Truncated in place (copytruncate): what was read is gone; the new text starts at 0.
      this.attach(this.handle, this.ino, 0, 1);
    }
    await this.drain();
  }

  /** A link now leading elsewhere: what it led to is followed still, and the change said once. */
  private async linkChanged(leadsTo: string): Promise<void> {
    if (this.saidLeadsTo !== leadsTo)
      this.options.onProblem({
        line: 0,
        message: `${this.path} now leads to ${leadsTo}, not to ${this.leadsTo}; still following ${this.leadsTo}`,
      });
    this.saidLeadsTo = leadsTo;
    await this.drain();
  }

  private attach(handle: FileHandle, ino: number, at: number, line: number): void {
    this.handle = handle;
    this.ino = ino;
    this.position = at;
    this.scanner = new TraceScanner({
      firstLine: line,
      firstOffset: at,
      ascii: nodeAscii,
      onTrace: (found) => this.options.onTrace({ ...found, index: this.count++ }),
      onProblem: (problem) => this.options.onProblem(problem),
    });
  }

  /** Reads from the position to the file's end as it is now. */
  private async drain(): Promise<void> {
    const buffer = Buffer.alloc(READ_BYTES);
    // Stop ends a long read (a big log followed from its start) at the next chunk.
    while (!this.stopped) {
      const { bytesRead } = await this.handle!.read(buffer, 0, READ_BYTES, this.position);
      if (bytesRead === 0) return this.options.onCaughtUp?.();
      this.position += bytesRead;
      // A copy: the scanner keeps a half-written line until its break comes, and the buffer is reused.
      this.scanner!.push(new Uint8Array(buffer.subarray(0, bytesRead)));
      const wait = this.options.between?.();
      if (wait) await wait;
    }
  }
}

/** Where the last complete line ends, and its line number: following from the end starts there. */
async function lastLineStart(
  handle: FileHandle,
  size: number,
): Promise<{ line: number; at: number }> {
  const buffer = Buffer.alloc(READ_BYTES);
  let line = 1;
  let at = 0;
  for (let position = 0; position < size;) {
    const { bytesRead } = await handle.read(
      buffer,
      0,
      Math.min(READ_BYTES, size - position),
      position,
    );
    if (bytesRead === 0) break;
    for (
      let lf = buffer.indexOf(10);
      lf !== -1 && lf < bytesRead;
      lf = buffer.indexOf(10, lf + 1)
    ) {
      line++;
      at = position + lf + 1;
    }
    position += bytesRead;
  }
  return { line, at };
}
