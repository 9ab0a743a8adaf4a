/**
 * The newest turns of a live source (an OTLP receiver, a followed log), kept as the logged-trace
 * index keeps a log's: a compact row per turn in memory, the full trace off the heap, as a JSON
 * line in a spool file it is read back from when opened. Two generations of at most `maxTurns`
 * each and half of `maxBytes` each: when the newer is full the older is dropped (its file deleted),
 * so memory and disk stay flat however many turns arrive, and the newest `maxTurns` are listed, or
 * fewer when their lines would take more than the bytes allowed.
 */
import { openSync, closeSync, unlinkSync, write, read } from "node:fs";
import { join } from "node:path";
import type { StageAction } from "../core/contract.js";
import type { FoundTrace } from "../core/traces/scan.js";
import type { LoggedTrace } from "../core/traces/trace.js";
import { TraceIndex, type TraceRow } from "./trace-index.js";

export const DEFAULT_MAX_TURNS = 10_000;
/** The spool files' bytes together, about (512 MiB): a generation is full at half of them. */
export const DEFAULT_MAX_SPOOL_BYTES = 512 * 1024 * 1024;

interface Generation {
  /** The number of its first turn among all the source's turns. */
  readonly first: number;
  readonly index: TraceIndex;
  readonly path: string;
  readonly fd: number;
  bytes: number;
  /** Every write issued so far, settled (a write's failure is kept for the read that needs it). */
  written: Promise<void>;
  failure: Error | null;
  /** Lines not yet written: they go in one write at the end of this turn of the event loop. */
  pending: Buffer[];
  /** A turn whose model call changed: where its newer line is. */
  readonly moved: Map<number, { offset: number; length: number }>;
}

export class TurnSpool {
  private generations: Generation[] = [];
  private total = 0;
  private made = 0;

  /** `folder`: where the spool files go (one per generation; deleted when dropped or closed). */
  constructor(
    private readonly folder: string,
    readonly maxTurns = DEFAULT_MAX_TURNS,
    readonly maxBytes = DEFAULT_MAX_SPOOL_BYTES,
  ) {}

  /** Turns received so far, kept or not. */
  get received(): number {
    return this.total;
  }

  /** The number of the oldest turn kept. */
  get first(): number {
    return Math.max(0, this.total - this.maxTurns, this.generations[0]?.first ?? 0);
  }

  /** Turns kept: the newest `maxTurns`. */
  get count(): number {
    return this.total - this.first;
  }

  /** Keeps a turn; `line` is where it is in its log (0 for one received over OTLP). Returns its number. */
  add(trace: LoggedTrace, line = 0): number {
    let current = this.generations.at(-1);
    if (!current || current.index.count >= this.maxTurns || current.bytes >= this.maxBytes / 2) {
      current = this.generation();
      // A failure to delete a dropped file leaves a temporary file behind, nothing worse.
      if (this.generations.length > 2) this.drop(this.generations.shift()!).catch(() => undefined);
    }
    const number = this.total++;
    const { offset, length } = this.append(current, trace);
    current.index.add(
      { index: number, line, offset, length, ordinal: 0, trace } satisfies FoundTrace,
      0,
    );
    return number;
  }

  /** A kept turn's newer version (its model call changed); a turn no longer kept is ignored. */
  replace(number: number, trace: LoggedTrace): void {
    const generation = this.holding(number);
    if (generation) generation.moved.set(number, this.append(generation, trace));
  }

  /** A kept turn's row, as the tree labels it; undefined when it is no longer kept. */
  row(number: number): TraceRow | undefined {
    const generation = this.holding(number);
    return generation?.index.row(number - generation.first);
  }

  /** A kept turn's stages and what each did; empty when it is no longer kept. */
  stagesOf(number: number): { stage: string; action: StageAction }[] {
    const generation = this.holding(number);
    return generation?.index.stagesOf(number - generation.first) ?? [];
  }

  /** A kept turn in full, read back from its spool file. */
  async read(number: number): Promise<FoundTrace> {
    const generation = this.holding(number);
    if (!generation)
      throw new Error(`turn ${number + 1} is no longer kept (only the newest ${this.count} are)`);
    await generation.written;
    if (generation.failure) throw generation.failure;
    const at = generation.index.location(number - generation.first);
    const { offset, length } = generation.moved.get(number) ?? at;
    const buffer = Buffer.alloc(length);
    const bytesRead = await new Promise<number>((resolve, reject) =>
      read(generation.fd, buffer, 0, length, offset, (error, n) =>
        error ? reject(error) : resolve(n),
      ),
    );
    // Written by this spool from a trace it was given: its own JSON, read back as it was.
    const trace = JSON.parse(buffer.subarray(0, bytesRead).toString("utf8")) as LoggedTrace;
    return {
      index: number,
      line: at.line,
      offset: at.offset,
      length: at.length,
      ordinal: 0,
      trace,
    };
  }

  /** Deletes the spool files (after the writes under way). */
  async close(): Promise<void> {
    const all = this.generations;
    this.generations = [];
    await Promise.all(all.map((generation) => this.drop(generation)));
  }

  private holding(number: number): Generation | undefined {
    if (number < this.first || number >= this.total) return undefined;
    for (const generation of this.generations)
      if (number >= generation.first && number < generation.first + generation.index.count)
        return generation;
    return undefined;
  }

  private generation(): Generation {
    const path = join(this.folder, `turns-${process.pid}-${this.made++}.jsonl`);
    const generation: Generation = {
      first: this.total,
      index: new TraceIndex(),
      path,
      fd: openSync(path, "w+", 0o600),
      bytes: 0,
      written: Promise.resolve(),
      failure: null,
      pending: [],
      moved: new Map(),
    };
    this.generations.push(generation);
    return generation;
  }

  /** Appends a line: the lines of one turn of the event loop go in one positioned write. */
  private append(generation: Generation, trace: LoggedTrace): { offset: number; length: number } {
    const bytes = Buffer.from(`${JSON.stringify(trace)}\n`, "utf8");
    const offset = generation.bytes;
    generation.bytes += bytes.length;
    generation.pending.push(bytes);
    if (generation.pending.length === 1) {
      const done = new Promise<void>((resolve) =>
        setImmediate(() => {
          const chunk = Buffer.concat(generation.pending);
          const at = generation.bytes - chunk.length;
          generation.pending = [];
          write(generation.fd, chunk, 0, chunk.length, at, (error) => {
            if (error) generation.failure ??= error;
            resolve();
          });
        }),
      );
      generation.written = Promise.all([generation.written, done]).then(() => undefined);
    }
    return { offset, length: bytes.length - 1 };
  }

  private async drop(generation: Generation): Promise<void> {
    await generation.written;
    closeSync(generation.fd);
    try {
      unlinkSync(generation.path);
    } catch {
      // Already gone (the temporary folder cleaned): nothing is left to delete.
    }
  }
}
