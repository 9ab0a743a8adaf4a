/**
 * The traces of a set of logs as the extension keeps them: a few typed arrays, about 100 bytes
 * per trace instead of a summary object per trace (~1.2 KB), so a million traces fit in 200 MB.
 * A row's label is computed when it is shown; the full trace is re-read from its byte range.
 */
import type { StageAction } from "../core/contract.js";
import { summarizeTrace, type TraceFilter as SummaryFilter } from "../core/traces/summary.js";
import { timeMs } from "../core/stats/timeline.js";
import {
  MAX_PROBLEMS,
  type LogProblem,
  type ScannedTrace,
  type TraceLocation,
} from "./log-file.js";

/** What the Selection Traces view narrows its list to: the filters the assistant tools share, and two of its own. */
export type TraceFilter =
  | SummaryFilter
  /** The text (any case) in the turn id, the time, a stage's name or a tool it dropped or forced. */
  | { readonly kind: "text"; readonly text: string }
  /** A time from `from` to `to` (milliseconds since the epoch, each end included; null: open). */
  | { readonly kind: "time"; readonly from: number | null; readonly to: number | null };

/** One row as shown: built on demand from the columns. */
export interface TraceRow extends TraceLocation {
  /** Position of its file in the set. */
  readonly file: number;
  readonly id: string | null;
  readonly time: string | null;
  /** Size of the final palette. */
  readonly finalCount: number;
  readonly forcedChoice: string | null;
  readonly error: boolean;
  readonly degraded: boolean;
  readonly stageCount: number;
}

const ERROR = 1;
const DEGRADED = 2;
const HAS_HASH = 4;
/** Longer ids and times are cut: they are labels, and a log may hold anything there. */
const TEXT_CHARS = 80;

type Typed = Uint8Array | Uint32Array | Int32Array | Float64Array;

/** A typed array that grows as values are appended and is cut to size at the end. */
class Column<A extends Typed> {
  length = 0;
  data: A;

  constructor(private readonly make: (size: number) => A) {
    this.data = make(1024);
  }

  push(value: number): void {
    if (this.length === this.data.length) {
      // A column cut to size may be empty: it grows from a fresh block again.
      const next = this.make(Math.max(1024, this.data.length * 2));
      (next as Float64Array).set(this.data as Float64Array);
      this.data = next;
    }
    this.data[this.length++] = value;
  }

  at(i: number): number {
    return this.data[i]!;
  }

  trim(): void {
    if (this.data.length !== this.length) this.data = this.data.slice(0, this.length) as A;
  }
}

/** Strings that repeat across traces (tool names), stored once. */
class Interned {
  private readonly ids = new Map<string, number>();
  readonly values: string[] = [];

  id(value: string): number {
    let id = this.ids.get(value);
    if (id === undefined) {
      id = this.values.length;
      this.ids.set(value, id);
      this.values.push(value);
    }
    return id;
  }

  find(value: string): number | undefined {
    return this.ids.get(value);
  }
}

/** Stage/action pairs, stored once; looked up without joining the two strings for every record. */
class InternedPairs {
  private readonly ids = new Map<string, Map<string, number>>();
  readonly values: { readonly stage: string; readonly action: StageAction }[] = [];

  id(stage: string, action: StageAction): number {
    let actions = this.ids.get(stage);
    if (actions === undefined) this.ids.set(stage, (actions = new Map()));
    let id = actions.get(action);
    if (id === undefined) {
      id = this.values.length;
      actions.set(action, id);
      this.values.push({ stage, action });
    }
    return id;
  }

  find(stage: string, action: StageAction): number | undefined {
    return this.ids.get(stage)?.get(action);
  }
}

const u8 = (n: number) => new Uint8Array(n);
const u32 = (n: number) => new Uint32Array(n);
const i32 = (n: number) => new Int32Array(n);
const f64 = (n: number) => new Float64Array(n);
const hex8 = (half: number) => half.toString(16).padStart(8, "0");

export class TraceIndex {
  private readonly offset = new Column(f64);
  private readonly length = new Column(u32);
  private readonly line = new Column(u32);
  private readonly ordinal = new Column(u32);
  /**
   * The keyed hash of the trace's bytes when the scan took one (flag HAS_HASH): a gzip's, in
   * halves; made at the first such trace, so a set of plain logs spends nothing on them.
   */
  private hashes: { readonly high: Column<Uint32Array>; readonly low: Column<Uint32Array> } | null =
    null;
  private readonly file = new Column(u32);
  private readonly flags = new Column(u8);
  private readonly finalCount = new Column(u32);
  private readonly forced = new Column(i32);
  /** Each trace's stages as stage/action pair ids, from stageStart[i] to stageStart[i + 1]. */
  private readonly stageStart = new Column(u32);
  private readonly stages = new Column(u32);
  /** Each trace's dropped tools (once each), from droppedStart[i] to droppedStart[i + 1]. */
  private readonly droppedStart = new Column(u32);
  private readonly dropped = new Column(u32);
  /** Id then time as UTF-8, from textStart[i]; 255 in a length means null. */
  private readonly textStart = new Column(u32);
  private readonly idLength = new Column(u8);
  private readonly timeLength = new Column(u8);
  private readonly text = new Column(u8);
  private readonly tools = new Interned();
  private readonly pairs = new InternedPairs();
  private readonly encoder = new TextEncoder();
  private readonly decoder = new TextDecoder();
  /** The first MAX_PROBLEMS problems; all are counted. */
  readonly problems: LogProblem[] = [];
  problemCount = 0;

  constructor() {
    this.stageStart.push(0);
    this.droppedStart.push(0);
  }

  get count(): number {
    return this.offset.length;
  }

  add(found: ScannedTrace, file: number): void {
    const summary = summarizeTrace(found);
    this.offset.push(found.offset);
    this.length.push(found.length);
    this.line.push(found.line);
    this.ordinal.push(found.ordinal);
    if (found.hash !== undefined || this.hashes) this.pushHash(found.hash);
    this.file.push(file);
    this.flags.push(
      (summary.error ? ERROR : 0) |
        (summary.degraded ? DEGRADED : 0) |
        (found.hash === undefined ? 0 : HAS_HASH),
    );
    this.finalCount.push(summary.names.length);
    this.forced.push(summary.forcedChoice === null ? -1 : this.tools.id(summary.forcedChoice));
    const firstDropped = this.dropped.length;
    for (const stage of summary.stages) {
      this.stages.push(this.pairs.id(stage.stage, stage.action));
      for (const tool of stage.dropped) {
        const id = this.tools.id(tool);
        // A trace drops a few tools: a look back over its own is cheaper than a set per trace.
        if (this.dropped.data.subarray(firstDropped, this.dropped.length).indexOf(id) === -1)
          this.dropped.push(id);
      }
    }
    this.stageStart.push(this.stages.length);
    this.droppedStart.push(this.dropped.length);
    this.textStart.push(this.text.length);
    this.idLength.push(this.pushText(summary.id));
    this.timeLength.push(this.pushText(summary.time));
  }

  /** The hash of the trace being added (zeros without one), and zeros for the traces before the first. */
  private pushHash(hash: string | undefined): void {
    if (!this.hashes) {
      this.hashes = { high: new Column(u32), low: new Column(u32) };
      for (const column of [this.hashes.high, this.hashes.low])
        for (let i = 0; i < this.count - 1; i++) column.push(0);
    }
    this.hashes.high.push(hash === undefined ? 0 : parseInt(hash.slice(0, 8), 16));
    this.hashes.low.push(hash === undefined ? 0 : parseInt(hash.slice(8), 16));
  }

  addProblem(problem: LogProblem): void {
    if (this.problemCount++ < MAX_PROBLEMS) this.problems.push(problem);
  }

  /** Cuts every column to its size once the scan is over. */
  finish(): void {
    for (const column of this.columns()) column.trim();
  }

  /** Bytes held by the columns (the interned strings aside). */
  get columnBytes(): number {
    return this.columns().reduce((sum, column) => sum + column.data.byteLength, 0);
  }

  location(i: number): TraceLocation {
    return {
      index: i,
      line: this.line.at(i),
      offset: this.offset.at(i),
      length: this.length.at(i),
      ordinal: this.ordinal.at(i),
      ...(this.flags.at(i) & HAS_HASH
        ? { hash: hex8(this.hashes!.high.at(i)) + hex8(this.hashes!.low.at(i)) }
        : {}),
    };
  }

  fileOf(i: number): number {
    return this.file.at(i);
  }

  row(i: number): TraceRow {
    const forced = this.forced.at(i);
    const flags = this.flags.at(i);
    const start = this.textStart.at(i);
    const idLength = this.idLength.at(i);
    const timeStart = start + (idLength === 255 ? 0 : idLength);
    return {
      ...this.location(i),
      file: this.file.at(i),
      id: this.readText(start, idLength),
      time: this.readText(timeStart, this.timeLength.at(i)),
      finalCount: this.finalCount.at(i),
      forcedChoice: forced === -1 ? null : this.tools.values[forced]!,
      error: (flags & ERROR) !== 0,
      degraded: (flags & DEGRADED) !== 0,
      stageCount: this.stageStart.at(i + 1) - this.stageStart.at(i),
    };
  }

  /** The stages of a trace and what each did. */
  stagesOf(i: number): { stage: string; action: StageAction }[] {
    const out: { stage: string; action: StageAction }[] = [];
    for (let k = this.stageStart.at(i); k < this.stageStart.at(i + 1); k++) {
      const { stage, action } = this.pairs.values[this.stages.at(k)]!;
      out.push({ stage, action });
    }
    return out;
  }

  /** Each dropped tool and each stage's actions, with how many traces show them: what the filters can pick. */
  filterChoices(): {
    dropped: Map<string, number>;
    stages: Map<string, Map<StageAction, number>>;
  } {
    const dropped = new Map<string, number>();
    // A trace lists each tool it dropped once, so entries count traces.
    for (let k = 0; k < this.dropped.length; k++) {
      const tool = this.tools.values[this.dropped.at(k)]!;
      dropped.set(tool, (dropped.get(tool) ?? 0) + 1);
    }
    const stages = new Map<string, Map<StageAction, number>>();
    for (let i = 0; i < this.count; i++)
      for (const pair of new Set(
        this.stages.data.subarray(this.stageStart.at(i), this.stageStart.at(i + 1)),
      )) {
        const { stage, action } = this.pairs.values[pair]!;
        const actions = stages.get(stage) ?? new Map<StageAction, number>();
        actions.set(action, (actions.get(action) ?? 0) + 1);
        stages.set(stage, actions);
      }
    return { dropped, stages };
  }

  /** The traces a filter lets through, in order (all of them for no filter). */
  matching(filter: TraceFilter | null): Uint32Array {
    const out = new Column(u32);
    const test = this.test(filter);
    for (let i = 0; i < this.count; i++) if (test(i)) out.push(i);
    out.trim();
    return out.data;
  }

  /** The trace of a file that starts at a line, if one does (the first, when several do). */
  find(file: number, line: number): number | undefined {
    for (let i = 0; i < this.count; i++)
      if (this.file.data[i] === file && this.line.data[i] === line) return i;
    return undefined;
  }

  private test(filter: TraceFilter | null): (i: number) => boolean {
    if (filter === null) return () => true;
    switch (filter.kind) {
      case "errors":
        return (i) => this.flags.at(i) !== 0;
      case "dropped": {
        const id = this.tools.find(filter.tool);
        if (id === undefined) return () => false;
        return (i) => this.holds(this.dropped, this.droppedStart, i, id);
      }
      case "stageAction": {
        const id = this.pairs.find(filter.stage, filter.action);
        if (id === undefined) return () => false;
        return (i) => this.holds(this.stages, this.stageStart, i, id);
      }
      case "text":
        return this.textTest(filter.text);
      case "time":
        return this.timeTest(filter.from, filter.to);
    }
  }

  private textTest(text: string): (i: number) => boolean {
    const wanted = text.toLowerCase();
    const has = (value: string | null) => value !== null && value.toLowerCase().includes(wanted);
    // Names are matched once each, then rows by the ids of the names that matched.
    const tools = new Set<number>();
    this.tools.values.forEach((name, id) => has(name) && tools.add(id));
    const pairs = new Set<number>();
    this.pairs.values.forEach(({ stage }, id) => has(stage) && pairs.add(id));
    const any = (
      pool: Column<Uint32Array>,
      start: Column<Uint32Array>,
      i: number,
      ids: Set<number>,
    ) => {
      for (let k = start.at(i); k < start.at(i + 1); k++) if (ids.has(pool.at(k))) return true;
      return false;
    };
    return (i) => {
      const row = this.row(i);
      return (
        has(row.id) ||
        has(row.time) ||
        tools.has(this.forced.at(i)) ||
        any(this.dropped, this.droppedStart, i, tools) ||
        any(this.stages, this.stageStart, i, pairs)
      );
    };
  }

  private timeTest(from: number | null, to: number | null): (i: number) => boolean {
    return (i) => {
      const time = this.row(i).time;
      // A number was kept as its text: epoch seconds or milliseconds, as the statistics read it.
      const ms = time === null ? null : timeMs(/^\d+(\.\d+)?$/.test(time) ? Number(time) : time);
      return ms !== null && (from === null || ms >= from) && (to === null || ms <= to);
    };
  }

  private holds(pool: Column<Uint32Array>, start: Column<Uint32Array>, i: number, id: number) {
    for (let k = start.at(i); k < start.at(i + 1); k++) if (pool.at(k) === id) return true;
    return false;
  }

  private pushText(value: string | number | null): number {
    if (value === null) return 255;
    const text = String(value).slice(0, TEXT_CHARS);
    let k = 0;
    // Ids and times are mostly ASCII: their bytes are their char codes, with no encoder call.
    while (k < text.length && text.charCodeAt(k) < 0x80) this.text.push(text.charCodeAt(k++));
    if (k === text.length) return k;
    const rest = this.encoder.encode(text.slice(k));
    const length = Math.min(k + rest.length, 254);
    for (let j = 0; k + j < length; j++) this.text.push(rest[j]!);
    return length;
  }

  private readText(start: number, length: number): string | null {
    if (length === 255) return null;
    return this.decoder.decode(this.text.data.subarray(start, start + length));
  }

  private columns(): Column<Typed>[] {
    return [
      this.offset,
      this.length,
      this.line,
      this.ordinal,
      ...(this.hashes ? [this.hashes.high, this.hashes.low] : []),
      this.file,
      this.flags,
      this.finalCount,
      this.forced,
      this.stageStart,
      this.stages,
      this.droppedStart,
      this.dropped,
      this.textStart,
      this.idLength,
      this.timeLength,
      this.text,
    ];
  }
}
