/**
 * The name-order merge of a logged trace: its time on 4× the names, as a ratio to its
 * time on the smaller trace. Linear-logarithmic work is about 5× (more with garbage collection
 * on a loaded machine); the old rescan at every step was 16×.
 */
import { nameOrder } from "../src/core/traces/order.js";
import type { LoggedRecord } from "../src/core/traces/trace.js";
import { fmt, interleavedMedians, verdict } from "./measure.js";

/** Offered in one order, kept in the reverse: every step of the merge breaks a cycle. */
function contradictory(n: number): () => unknown {
  const offered = Array.from({ length: n }, (_, i) => `tool_${i}`);
  const record: LoggedRecord = {
    stage: "s",
    action: "select",
    kept: [...offered].reverse(),
    dropped: [],
    added: [],
    reinstated: [],
    forced_choice: null,
    detail: "",
  };
  return () => nameOrder([record], offered, null);
}

export function benchOrder(): string[] {
  const [small, large] = interleavedMedians(contradictory(10_000), contradictory(40_000), 9);
  return [
    "name order of a logged trace (contradictory lists)",
    `  10,000 names ${fmt(small)}, 40,000 names ${fmt(large)}: ${verdict(large / small, 10, true)}`,
  ];
}
