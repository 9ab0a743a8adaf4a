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
    last = [...merged.order, ...appended.filter((name) => !merged.order.includes(name))];
    segment.consumers.forEach(() => inputs.push(last));
  });
  return { inputs, final: last, consistent };
}

/** One order of every name in `ranked`, satisfying each chain, earliest-ranked first when free. */
function merge(
  ranked: readonly (readonly string[])[],
  chains: readonly (readonly string[])[],
  excluded: ReadonlySet<string>,
): { order: string[]; consistent: boolean } {
  const rank = new Map<string, number>();
  for (const list of ranked)
    for (const name of list) if (!excluded.has(name) && !rank.has(name)) rank.set(name, rank.size);
  const after = new Map<string, Set<string>>();
  const blockers = new Map<string, number>();
  for (const name of rank.keys()) {
    after.set(name, new Set());
    blockers.set(name, 0);
  }
  for (const chain of chains) {
    const names = chain.filter((name) => rank.has(name));
    for (let i = 1; i < names.length; i++) {
      const edges = after.get(names[i - 1]!)!;
      if (names[i] === names[i - 1] || edges.has(names[i]!)) continue;
      edges.add(names[i]!);
      blockers.set(names[i]!, blockers.get(names[i]!)! + 1);
    }
  }
  const order: string[] = [];
  const left = new Set(rank.keys());
  let consistent = true;
  while (left.size > 0) {
    let next: string | undefined;
    for (const name of left)
      if (blockers.get(name) === 0) {
        next = name;
        break;
      }
    if (next === undefined) {
      // A cycle: the log contradicts itself; take the earliest-ranked name and go on.
      consistent = false;
      next = left.values().next().value!;
    }
    left.delete(next);
    order.push(next);
    for (const successor of after.get(next)!) blockers.set(successor, blockers.get(successor)! - 1);
  }
  return { order, consistent };
}
