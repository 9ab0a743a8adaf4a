// The name-order merge of a logged trace was quadratic in its names, a huge
// trace was read whole, and a cancel could not stop between traces.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { nameOrder } from "../../../src/core/traces/order.js";
import { scanText } from "../../../src/core/traces/scan.js";
import { MAX_TRACE_NAMES, type LoggedRecord } from "../../../src/core/traces/trace.js";
import { scanLogFile } from "../../../src/node/log-file.js";
import { tempDir } from "../../helpers/temp.js";

const names = (n: number) => Array.from({ length: n }, (_, i) => `t${i}`);
const select = (kept: string[], dropped: string[] = []): LoggedRecord => ({
  stage: "s",
  action: "select",
  kept,
  dropped,
  added: [],
  reinstated: [],
  forced_choice: null,
  detail: "",
});

describe("quadratic name-order merge", () => {
  it("keeps the earliest-ranked order when the log's lists contradict each other", () => {
    // The offered order and the kept order disagree everywhere: a cycle at every step.
    const offered = names(2000);
    const order = nameOrder([select([...offered].reverse())], offered, null);
    expect(order.consistent).toBe(false);
    expect(order.inputs[0]).toEqual(offered);
    expect(order.final).toEqual([...offered].reverse());
  });

  it("places a name whose blockers clear after a cycle was broken only once", () => {
    const order = nameOrder([select(["c", "b"]), select(["b", "a"])], ["a", "b", "c"], ["a", "c"]);
    expect(order.inputs[0]).toEqual(["a", "b", "c"]);
    expect(new Set(order.final).size).toBe(order.final.length);
  });

  it("refuses a trace naming more tools than the limit, as a problem on its line", () => {
    const many = names(MAX_TRACE_NAMES + 1);
    const line = JSON.stringify({ offered: many, trace: [select([...many].reverse())] });
    const { traces, problems } = scanText(`${line}\n`);
    expect(traces).toEqual([]);
    expect(problems).toEqual([
      { line: 1, message: "the trace names 10,001 different tools; the limit is 10,000" },
    ]);
    const fine = names(MAX_TRACE_NAMES);
    expect(scanText(JSON.stringify({ offered: fine, trace: [select(fine)] })).traces).toHaveLength(
      1,
    );
  });

  it("stops between two traces of one chunk when cancelled", async () => {
    const file = join(tempDir("pi-order-"), "many.log");
    const line = JSON.stringify({ offered: names(50), trace: [select(names(50))] });
    writeFileSync(file, `${line}\n`.repeat(20));
    const signal = { aborted: false };
    const scan = await scanLogFile(file, { signal, onTrace: () => (signal.aborted = true) });
    expect(scan.cancelled).toBe(true);
    expect(scan.traceCount).toBe(1);
  });
});

/**
 * The order the merge is defined to give, found the slow way: rank names by first appearance
 * (the offered tools, then each record's kept list); each list orders its names; place the
 * earliest-ranked name whose predecessors are all placed, or, when none is free (the lists
 * contradict each other), the earliest-ranked name not yet placed.
 */
function slowOrder(chains: readonly string[][]): { order: string[]; consistent: boolean } {
  const ranked = [...new Set(chains.flat())];
  const before = new Map(ranked.map((name) => [name, new Set<string>()]));
  for (const chain of chains)
    chain.forEach((name, i) => {
      if (i > 0 && chain[i - 1] !== name) before.get(name)!.add(chain[i - 1]!);
    });
  const order: string[] = [];
  let consistent = true;
  while (order.length < ranked.length) {
    const placed = new Set(order);
    const free = ranked.find(
      (name) => !placed.has(name) && [...before.get(name)!].every((p) => placed.has(p)),
    );
    if (free === undefined) consistent = false;
    order.push(free ?? ranked.find((name) => !placed.has(name))!);
  }
  return { order, consistent };
}

describe("name-order merge", () => {
  it("leaves a reinstated tool out of the next stage's order and appends it after the output", () => {
    // The later stage logs c between a and b: c's place is the engine's (appended), not the log's.
    const reinstating = { ...select(["a", "b"], ["c"]), reinstated: ["c"] };
    const after = { ...select(["a", "c", "b"]), action: "abstain" as const };
    const order = nameOrder([reinstating, after], ["a", "b", "c"], null);
    expect(order.inputs[1]).toEqual(["a", "b", "c"]);
    expect(order.consistent).toBe(true);
  });

  it("gives the order its definition gives, for any lists of names", () => {
    const list = fc.array(fc.constantFrom(...names(12)), { maxLength: 10 });
    fc.assert(
      fc.property(list, fc.array(list, { maxLength: 5 }), (offered, kepts) => {
        const records = kepts.map((kept) => ({ ...select(kept), action: "abstain" as const }));
        const order = nameOrder(records, offered, null);
        const slow = slowOrder([offered, ...kepts]);
        expect(order.inputs[0] ?? order.final).toEqual(slow.order);
        expect(order.consistent).toBe(slow.consistent);
      }),
      { numRuns: 300 },
    );
  });
});
