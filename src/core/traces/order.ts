/**
 * The order of the names each stage of a logged trace ran over. A record lists `kept` and
 * `dropped` each in input order and `added` in output order, but not how they interleave, and a
 * `select` may reorder what it keeps; so the sequence between two selecting stages is rebuilt as
 * one order that satisfies every list the log does give (a topological merge). Any such order
 * reproduces the records exactly; among them, the one closest to "keep input order, append
 * additions" is chosen, which is what stages usually do.
 */
import type { LoggedRecord } from "./trace.js";

export interface NameOrder {
  /** The names stage k ran over, in order, for every record k. */
  readonly inputs: readonly (readonly string[])[];
  /** The names after the last stage. */
  readonly final: readonly string[];
  /** False when the log's lists contradict each other (then the order is a best effort). */
  readonly consistent: boolean;
}

interface Segment {
  /** The selecting stage that produced this sequence; -1 for the offered tools. */
  readonly producer: number;
  /** The stages that ran over it: non-selecting ones, then at most one selecting one. */
  readonly consumers: number[];
}

export function nameOrder(
  records: readonly LoggedRecord[],
  offered: readonly string[] | null,
  final: readonly string[] | null,
): NameOrder {
  const segments: Segment[] = [];
  let current: Segment = { producer: -1, consumers: [] };
  records.forEach((record, k) => {
    current.consumers.push(k);
    if (record.action === "select") {
      segments.push(current);
      current = { producer: k, consumers: [] };
    }
  });
  segments.push(current);

  let consistent = true;
  const inputs: string[][] = [];
  let last: string[] = [];
  segments.forEach((segment, s) => {
    const chains: (readonly string[])[] = [];
    const hints: (readonly string[])[] = [];
    let appended: readonly string[] = [];
    if (segment.producer === -1) {
      if (offered) chains.push(offered);
    } else {
      const producer = records[segment.producer]!;
      // The engine appends a reinstated tool after the stage's own output.
      appended = producer.reinstated;
      hints.push(producer.kept);
      chains.push(producer.added);
    }
    for (const k of segment.consumers) {
      const record = records[k]!;
      chains.push(record.kept);
      if (record.action === "select") chains.push(record.dropped, record.reinstated);
    }
    if (s === segments.length - 1 && final) chains.push(final);
    const merged = merge([...hints, ...chains], chains, new Set(appended));
    consistent &&= merged.consistent;
    // The appended names were left out of the merge, so none is in its order already.
    last = [...merged.order, ...appended];
    segment.consumers.forEach(() => inputs.push(last));
  });
  return { inputs, final: last, consistent };
}

/**
 * One order of every name in `ranked`, satisfying each chain, earliest-ranked first when free.
 * Kahn's algorithm with the ready names in a heap by rank: O(n log n) in the names and edges.
 */
function merge(
  ranked: readonly (readonly string[])[],
  chains: readonly (readonly string[])[],
  excluded: ReadonlySet<string>,
): { order: string[]; consistent: boolean } {
  const rank = new Map<string, number>();
  for (const list of ranked)
    for (const name of list) if (!excluded.has(name) && !rank.has(name)) rank.set(name, rank.size);
  const n = rank.size;
  // Edges "a before b" as flat arrays, then grouped by `a` (a repeated edge is harmless to Kahn).
  const from: number[] = [];
  const to: number[] = [];
  const blockers = new Int32Array(n);
  for (const chain of chains) {
    let previous = -1;
    for (const name of chain) {
      const r = rank.get(name);
      if (r === undefined) continue;
      if (previous !== -1 && previous !== r) {
        from.push(previous);
        to.push(r);
        blockers[r]!++;
      }
      previous = r;
    }
  }
  const start = new Int32Array(n + 1);
  for (const a of from) start[a + 1]!++;
  for (let r = 0; r < n; r++) start[r + 1]! += start[r]!;
  const fill = start.slice(0, n);
  const successors = new Int32Array(from.length);
  from.forEach((a, e) => (successors[fill[a]!++] = to[e]!));
  const names = [...rank.keys()];
  const done = new Uint8Array(n);
  const ready = new RankHeap();
  for (let r = 0; r < n; r++) if (blockers[r] === 0) ready.push(r);
  const order: string[] = [];
  let consistent = true;
  // The earliest-ranked name not yet placed: where a cycle is broken.
  let earliest = 0;
  while (order.length < n) {
    // A name is pushed once, when its last blocker is placed, and only if not yet placed.
    let next = ready.pop();
    if (next === undefined) {
      // A cycle: the log contradicts itself; take the earliest-ranked name and go on.
      consistent = false;
      while (done[earliest]) earliest++;
      next = earliest;
    }
    done[next] = 1;
    order.push(names[next]!);
    for (let e = start[next]!; e < start[next + 1]!; e++) {
      const successor = successors[e]!;
      if (--blockers[successor]! === 0 && !done[successor]) ready.push(successor);
    }
  }
  return { order, consistent };
}

/** A binary min-heap of ranks. */
class RankHeap {
  private readonly items: number[] = [];

  push(value: number): void {
    const items = this.items;
    let i = items.push(value) - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (items[parent]! <= value) break;
      items[i] = items[parent]!;
      i = parent;
    }
    items[i] = value;
  }

  pop(): number | undefined {
    const items = this.items;
    if (items.length === 0) return undefined;
    const top = items[0]!;
    const last = items.pop()!;
    if (items.length > 0) {
      let i = 0;
      for (;;) {
        const left = 2 * i + 1;
        if (left >= items.length) break;
        const right = left + 1;
        const child = right < items.length && items[right]! < items[left]! ? right : left;
        if (items[child]! >= last) break;
        items[i] = items[child]!;
        i = child;
      }
      items[i] = last;
    }
    return top;
  }
}
