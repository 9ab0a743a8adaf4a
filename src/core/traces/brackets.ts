/**
 * The brackets a line's walk has open (line.ts): where each opened, the call name before it, and
 * the values holding a marker that closed inside it.
 */
import type { PyReading } from "./python/parse.js";
import { pushAll } from "../arrays.js";

/** A bracketed value (or a logfmt quoted value) that holds a marker. */
export interface Segment {
  readonly start: number;
  /** Index of its closing bracket or quote. */
  readonly end: number;
  readonly children: Segment[];
  /** A key="value" (logfmt, unescaped first) or key='value' (a Python string) holding the value. */
  readonly quoted: "" | "logfmt" | "python";
  /** A value holding a `<…>` repr, read already to find where it ends. */
  readonly readings?: { readonly readings: PyReading[]; readonly exhausted: boolean };
}

export interface Frame {
  readonly open: number;
  readonly start: number;
  readonly closer: number;
  readonly children: Segment[];
}

/** Open brackets remembered at once, at most: each costs memory while the line is walked. */
const MAX_BRACKET_DEPTH = 1000;
/** How far down the open brackets a closing one looks for its partner; past that it is stray text. */
const MAX_MISMATCH = 64;

/**
 * The open brackets of a walk, in typed arrays: a line of a million brackets allocates nothing
 * per bracket. It holds MAX_BRACKET_DEPTH at most: past that, the lower half above the bottom one
 * is forgotten; what closed inside them stays with the bottom one, and a closing bracket that
 * would have closed one of them closes what lies below instead. One serves every walk (a walk
 * never starts another before it ends): its arrays are not made again for each line.
 */
export class BracketStack {
  length = 0;
  private readonly open = new Int32Array(MAX_BRACKET_DEPTH);
  private readonly start = new Int32Array(MAX_BRACKET_DEPTH);
  private readonly closer = new Uint8Array(MAX_BRACKET_DEPTH);
  /** The values holding a marker that closed inside each bracket, once one has; none above `length`. */
  private readonly children: (Segment[] | undefined)[] = [];
  /** How many brackets hold children: while none do, forgetting and closing move none. */
  private holding = 0;

  /** Empty, for a new walk; what a walk took from it (its frames, their children) is its own. */
  reset(): this {
    this.children.length = 0;
    this.holding = 0;
    this.length = 0;
    return this;
  }

  push(open: number, start: number, closer: number): void {
    if (this.length === MAX_BRACKET_DEPTH) this.forgetMiddle();
    const k = this.length++;
    this.open[k] = open;
    this.start[k] = start;
    this.closer[k] = closer;
  }

  /** The open bracket that `closer` closes, looked for MAX_MISMATCH deep; -1 if none (then it is stray text). */
  partner(closer: number): number {
    const lowest = Math.max(0, this.length - MAX_MISMATCH);
    for (let k = this.length - 1; k >= lowest; k--) if (this.closer[k] === closer) return k;
    return -1;
  }

  startAt(k: number): number {
    return this.start[k]!;
  }

  /** Closes the bracket at `k` and those left open inside it; returns what closed inside them all. */
  closeAt(k: number): Segment[] {
    const children = this.children[k] ?? [];
    for (let j = k; this.holding > 0 && j < this.length; j++) {
      const inner = this.take(j);
      if (inner !== undefined && j > k) pushAll(children, inner);
    }
    this.length = k;
    return children;
  }

  /** A value that closed: a child of the innermost open bracket, else one of the line's. */
  add(segment: Segment, top: Segment[]): void {
    if (this.length === 0) {
      top.push(segment);
      return;
    }
    this.childrenOf(this.length - 1).push(segment);
  }

  private childrenOf(k: number): Segment[] {
    let children = this.children[k];
    if (children === undefined) {
      children = this.children[k] = [];
      this.holding++;
    }
    return children;
  }

  /** The children of the bracket at `k`, taken from it. */
  private take(k: number): Segment[] | undefined {
    const children = this.children[k];
    if (children !== undefined) {
      this.children[k] = undefined;
      this.holding--;
    }
    return children;
  }

  private forgetMiddle(): void {
    const gone = this.length >> 1;
    if (this.holding > 0) {
      for (let j = 1; j <= gone; j++) {
        const inner = this.take(j);
        if (inner !== undefined) pushAll(this.childrenOf(0), inner);
      }
      // By hand: an array's copyWithin is many times slower than a typed array's.
      for (let j = gone + 1; j < this.length; j++) {
        this.children[j - gone] = this.children[j];
        this.children[j] = undefined;
      }
    }
    this.open.copyWithin(1, gone + 1, this.length);
    this.start.copyWithin(1, gone + 1, this.length);
    this.closer.copyWithin(1, gone + 1, this.length);
    this.length -= gone;
  }

  frames(): Frame[] {
    const frames: Frame[] = [];
    for (let k = 0; k < this.length; k++)
      frames.push({
        open: this.open[k]!,
        start: this.start[k]!,
        closer: this.closer[k]!,
        children: this.children[k] ?? [],
      });
    return frames;
  }
}

/** The stack every walk uses (a walk never starts another before it ends). */
export const BRACKETS = new BracketStack();
