import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  isoTime,
  joinedTrace,
  MAX_OPEN_TRACES,
  MAX_SPANS_PER_TRACE,
  OtelJoin,
  sameJoin,
  type Joined,
} from "../../../src/core/otel/join.js";
import type { Convention, ModelCall } from "../../../src/core/traces/model-call.js";
import type {
  OtlpInference,
  OtlpRead,
  OtlpRecord,
  OtlpSelection,
  OtlpToolSpan,
} from "../../../src/core/otel/request.js";
import { loggedFinalNames } from "../../../src/core/traces/final.js";
import { validateTrace, type LoggedTrace } from "../../../src/core/traces/trace.js";
import { selectionTrace, TRACE_A, TRACE_B } from "./otlp.js";

interface Spans {
  readonly selections: OtlpSelection[];
  readonly inferences: OtlpInference[];
  readonly toolSpans: OtlpToolSpan[];
  readonly records: OtlpRecord[];
}

/** The join as docs/formats.md words it, by scanning every span seen (in the order they came) each time. */
function joinedByScan(spans: Spans, selection: OtlpSelection): ModelCall | null {
  const ofTrace = <T extends { traceId: string }>(list: readonly T[]) =>
    list.filter((item) => item.traceId === selection.traceId);
  const least = <T>(list: readonly T[], time: (item: T) => bigint): T | undefined =>
    list.reduce<T | undefined>(
      (best, item) => (best === undefined || time(item) < time(best) ? item : best),
      undefined,
    );
  const next = least(
    ofTrace(spans.selections).filter((s) => s.time > selection.time),
    (s) => s.time,
  )?.time;
  const inferences = ofTrace(spans.inferences);
  const call = least(
    inferences.filter((i) => i.start >= selection.time && (next === undefined || i.start < next)),
    (i) => i.start,
  );
  if (!call) return null;
  const nextCall = least(
    inferences.filter((i) => i.start > call.start),
    (i) => i.start,
  )?.start;
  const ran = ofTrace(spans.toolSpans)
    .filter((t) => t.start > call.start && (nextCall === undefined || t.start < nextCall))
    .sort((a, b) => (a.start < b.start ? -1 : a.start > b.start ? 1 : 0))
    .map((t) => t.name);
  const recorded = ofTrace(spans.records).filter((r) => r.spanId === call.spanId);
  const logged = call.called === null && recorded.length > 0;
  const own = logged ? recorded.flatMap((r) => r.called) : call.called;
  // Tool spans say what was called where the call's own record names no tool.
  const called = own !== null && own.length > 0 ? own : ran.length > 0 ? ran : own;
  const final = loggedFinalNames(selection.trace);
  const against = call.offered ?? final;
  return {
    span_id: call.spanId,
    model: call.model,
    offered: call.offered,
    called,
    tool_choice: call.toolChoice,
    convention: logged ? "gen_ai_logs" : call.convention,
    final_not_offered: call.offered ? final.filter((n) => !against.includes(n)) : null,
    offered_not_final: call.offered ? call.offered.filter((n) => !final.includes(n)) : null,
    called_not_offered: called && called.filter((n) => !against.includes(n)),
  };
}

function trace(tools: string[]): LoggedTrace {
  const checked = validateTrace(selectionTrace("t", tools));
  if ("problem" in checked) throw new Error(checked.problem);
  return checked.trace;
}

const names = fc.subarray(["x", "y", "z"]);
const traceId = fc.constantFrom(TRACE_A, TRACE_B);
const time = fc.bigInt({ min: 0n, max: 12n });
let nextId = 0;
const id = () => (nextId++).toString(16).padStart(16, "0");

/** A selection of TRACE_A at 1 whose final tools are `tools`, and a join that has it and `call`. */
function joinedAt1(tools: string[], call: OtlpInference): [OtelJoin, OtlpSelection] {
  const selection: OtlpSelection = {
    traceId: TRACE_A,
    spanId: id(),
    service: null,
    time: 1n,
    trace: trace(tools),
  };
  const join = new OtelJoin();
  join.add({
    selections: [selection],
    inferences: [call],
    toolSpans: [],
    records: [],
    rejected: 0,
    problems: [],
  });
  return [join, selection];
}
const request = fc.record({
  selections: fc.array(
    fc.record({ traceId, time, tools: names }).map(({ traceId, time, tools }): OtlpSelection => ({
      traceId,
      spanId: id(),
      service: null,
      time,
      trace: trace(tools),
    })),
    { maxLength: 4 },
  ),
  inferences: fc.array(
    fc.record({
      traceId,
      start: time,
      offered: fc.option(names, { nil: null }),
      called: fc.option(
        names.filter((n) => n.length > 0),
        { nil: null },
      ),
      // What its log records say it called, and whether they come with the next request.
      logged: fc.option(names, { nil: null }),
      late: fc.boolean(),
    }),
    { maxLength: 4 },
  ),
  toolSpans: fc.array(fc.record({ traceId, start: time, name: fc.constantFrom("x", "y", "w") }), {
    maxLength: 4,
  }),
});

describe("the join of selections to their model calls", () => {
  it("joins as a scan of every span seen would, and its windows hold every earlier selection whose join a request changed", () => {
    fc.assert(
      fc.property(fc.array(request, { minLength: 1, maxLength: 8 }), (requests) => {
        const join = new OtelJoin();
        const seen: Spans = { selections: [], inferences: [], toolSpans: [], records: [] };
        let late: OtlpRecord[] = [];
        for (const r of requests) {
          const inferences = r.inferences.map(
            ({ logged: _logged, late: _late, ...i }): OtlpInference => ({
              ...i,
              spanId: id(),
              model: null,
              toolChoice: null,
              convention: "gen_ai",
            }),
          );
          const records = late;
          late = [];
          r.inferences.forEach((i, k) => {
            if (i.logged === null) return;
            const { traceId, spanId } = inferences[k]!;
            (i.late ? late : records).push({ traceId, spanId, called: i.logged });
          });
          const read: OtlpRead = {
            selections: r.selections,
            inferences,
            toolSpans: r.toolSpans,
            records,
            rejected: 0,
            problems: [],
          };
          const before = seen.selections.map((s) => join.model(s));
          const touched = join.add(read);
          seen.selections.push(...read.selections);
          seen.inferences.push(...read.inferences);
          seen.toolSpans.push(...read.toolSpans);
          seen.records.push(...read.records);
          for (const [k, selection] of seen.selections.entries()) {
            const model = join.model(selection);
            expect(model).toEqual(joinedByScan(seen, selection));
            if (k >= before.length || JSON.stringify(model) === JSON.stringify(before[k])) continue;
            const windows = touched.get(selection.traceId);
            expect(windows).toBeDefined();
            if (windows !== null)
              expect(
                windows!.some(([from, to]) => from <= selection.time && selection.time <= to),
              ).toBe(true);
          }
        }
      }),
      { numRuns: 300 },
    );
  });

  it("finds the differences of long lists of names as of short ones", () => {
    const many = Array.from({ length: 20 }, (_, i) => `t${i}`);
    const [join, selection] = joinedAt1([...many, "extra"], {
      traceId: TRACE_A,
      spanId: id(),
      start: 2n,
      model: null,
      offered: [...many, "new"],
      called: ["new", "t3", "zzz"],
      toolChoice: null,
      convention: "gen_ai",
    });
    expect(join.model(selection)).toMatchObject({
      final_not_offered: ["extra"],
      offered_not_final: ["new"],
      called_not_offered: ["zzz"],
    });
  });

  it("says two joins give the same model call exactly when their span, model, offered and called names are the same", () => {
    const call: OtlpInference = {
      traceId: TRACE_A,
      spanId: "00000000000000c1",
      start: 2n,
      model: "m",
      offered: ["a", "b"],
      called: null,
      toolChoice: null,
      convention: "gen_ai",
    };
    const joined: Joined = { call, called: ["a"], convention: "gen_ai" };
    const as = (
      other: OtlpInference,
      called: string[] | null,
      convention: Convention = "gen_ai",
    ) => ({
      call: other,
      called,
      convention,
    });
    // Equal values in other objects are the same join: a kept turn compares with what it was handed.
    expect(sameJoin(joined, as({ ...call, offered: ["a", "b"] }, ["a"]))).toBe(true);
    expect(sameJoin(null, null)).toBe(true);
    expect(sameJoin(joined, null)).toBe(false);
    expect(sameJoin(null, as(call, ["a"]))).toBe(false);
    for (const other of [
      as({ ...call, spanId: "00000000000000c2" }, ["a"]),
      as({ ...call, model: null }, ["a"]),
      as({ ...call, offered: ["a"] }, ["a"]),
      as({ ...call, offered: ["b", "a"] }, ["a"]),
      as({ ...call, offered: ["a", "c"] }, ["a"]),
      as({ ...call, offered: null }, ["a"]),
      as({ ...call, toolChoice: "a" }, ["a"]),
      as(call, ["a"], "gen_ai_logs"),
      as(call, ["b"]),
      as(call, ["a", "b"]),
      as(call, []),
      as(call, null),
    ])
      expect(sameJoin(joined, other)).toBe(false);
    // No tools offered (the attribute absent) on either side, or on one.
    const unoffered: Joined = as({ ...call, offered: null }, ["a"]);
    expect(sameJoin(unoffered, as({ ...call, offered: null }, ["a"]))).toBe(true);
    expect(sameJoin(unoffered, as(call, ["a"]))).toBe(false);
    // What the join finds is what model() makes the model call of.
    const [join, selection] = joinedAt1(["a"], call);
    // Neither the call nor a tool span records a call: not recorded, not none.
    expect(join.joined(TRACE_A, 1n)).toEqual({ call, called: null, convention: "gen_ai" });
    expect(join.joined(TRACE_A, 3n)).toBeNull();
    // Before the trace's only selection, a call after that selection is not the one it fed.
    expect(join.joined(TRACE_A, 0n)).toBeNull();
    expect(join.joined(TRACE_B, 1n)).toBeNull();
    expect(join.model(selection)).toMatchObject({ span_id: call.spanId, offered_not_final: ["b"] });
  });
});

describe("the time of a selection received", () => {
  it("is Date's ISO text of its millisecond, in any order of times and across seconds", () => {
    const nanos = fc.oneof(
      fc.bigInt({ min: 0n, max: 10n ** 20n - 1n }),
      // Times a few milliseconds apart, as a running agent's turns are, across second boundaries.
      fc.bigInt({ min: 1_700_000_000_995n, max: 1_700_000_001_005n }).map((ms) => ms * 1_000_000n),
    );
    fc.assert(
      fc.property(fc.array(nanos, { minLength: 1, maxLength: 20 }), (times) => {
        for (const time of times)
          expect(isoTime(time)).toBe(new Date(Number(time / 1_000_000n)).toISOString());
      }),
    );
    expect(isoTime(1_700_000_000_007_999_999n)).toBe("2023-11-14T22:13:20.007Z");
    expect(isoTime(1_700_000_000_070_000_000n)).toBe("2023-11-14T22:13:20.070Z");
    expect(isoTime(1_700_000_000_700_000_000n)).toBe("2023-11-14T22:13:20.700Z");
    expect(isoTime(0n)).toBe("1970-01-01T00:00:00.000Z");
    for (const ms of [9, 10, 99, 100, 999])
      expect(isoTime(BigInt(1_700_000_000_000 + ms) * 1_000_000n)).toBe(
        new Date(1_700_000_000_000 + ms).toISOString(),
      );
  });
});

describe("what the join remembers", () => {
  const hex = (n: number) => n.toString(16).padStart(32, "0");
  const selectionAt = (traceId: string, time: bigint): OtlpSelection => ({
    traceId,
    spanId: id(),
    service: null,
    time,
    trace: trace(["x"]),
  });
  const inferenceAt = (traceId: string, start: bigint): OtlpInference => ({
    traceId,
    spanId: id(),
    start,
    model: null,
    offered: ["x"],
    called: null,
    toolChoice: null,
    convention: "gen_ai",
  });
  const read = (selections: OtlpSelection[], inferences: OtlpInference[] = []): OtlpRead => ({
    selections,
    inferences,
    toolSpans: [],
    records: [],
    rejected: 0,
    problems: [],
  });

  it("keeps the most recently used traces past twice MAX_OPEN_TRACES, the one just added among them", () => {
    const join = new OtelJoin();
    // Trace 0 is touched again last, so it is among the most recently used.
    for (let t = 0; t < 2 * MAX_OPEN_TRACES; t++) join.add(read([], [inferenceAt(hex(t), 5n)]));
    join.add(read([], [inferenceAt(hex(0), 6n)]));
    // The trace that takes the join past twice the limit, with a selection and its model call.
    const newest = selectionAt(hex(2 * MAX_OPEN_TRACES), 1n);
    join.add(read([newest], [inferenceAt(hex(2 * MAX_OPEN_TRACES), 2n)]));
    expect(join.model(newest)?.offered).toEqual(["x"]);
    expect(join.model(selectionAt(hex(0), 1n))?.offered).toEqual(["x"]);
    // The oldest used of the rest are forgotten, down to MAX_OPEN_TRACES.
    expect(join.model(selectionAt(hex(1), 1n))).toBeNull();
    expect(join.model(selectionAt(hex(MAX_OPEN_TRACES), 1n))).toBeNull();
    expect(join.model(selectionAt(hex(MAX_OPEN_TRACES + 1), 1n))?.offered).toEqual(["x"]);
    expect(join.model(selectionAt(hex(2 * MAX_OPEN_TRACES - 1), 1n))?.offered).toEqual(["x"]);
    // The next forgetting comes MAX_OPEN_TRACES new traces later, not at the next one.
    join.add(read([], [inferenceAt(hex(2 * MAX_OPEN_TRACES + 1), 5n)]));
    expect(join.model(selectionAt(hex(MAX_OPEN_TRACES + 1), 1n))?.offered).toEqual(["x"]);
  });

  it("never forgets a pinned trace, however long unused, nor the traces of the request being added", () => {
    const pinned = new Set([hex(0)]);
    const join = new OtelJoin((traceId) => pinned.has(traceId));
    const waiting = selectionAt(hex(0), 1n);
    join.add(read([waiting], [inferenceAt(hex(0), 2n)]));
    // One request of more new traces than are kept: each of them gets its spans.
    const many = Array.from({ length: 3 * MAX_OPEN_TRACES }, (_, t) => hex(t + 1));
    join.add(
      read(
        many.map((traceId) => selectionAt(traceId, 1n)),
        many.map((traceId) => inferenceAt(traceId, 2n)),
      ),
    );
    expect(join.model(waiting)?.offered).toEqual(["x"]);
    expect(join.model(selectionAt(many[0]!, 1n))?.offered).toEqual(["x"]);
    expect(join.model(selectionAt(many.at(-1)!, 1n))?.offered).toEqual(["x"]);
    // Unpinned, it is forgotten at the next forgetting like any other.
    pinned.clear();
    for (let t = 0; t <= MAX_OPEN_TRACES; t++)
      join.add(read([], [inferenceAt(hex(10 ** 6 + t), 5n)]));
    expect(join.model(waiting)).toBeNull();
  });

  it("says a trace it knew nothing of may change any selection's join, and yields every 256 spans and traces", () => {
    const join = new OtelJoin();
    expect(join.add(read([selectionAt(TRACE_A, 1n)]))).toEqual(new Map([[TRACE_A, null]]));
    expect(join.add(read([selectionAt(TRACE_A, 3n)])).get(TRACE_A)).toEqual([[1n, 3n]]);
    const steps = (selections: number, inferences: number, tools: number, traces: number) => {
      const ids = Array.from({ length: traces }, (_, t) => hex(10 ** 7 + t));
      const generator = new OtelJoin().addInSteps({
        selections: Array.from({ length: selections }, (_, i) => selectionAt(ids[i % traces]!, 1n)),
        inferences: Array.from({ length: inferences }, (_, i) => inferenceAt(ids[i % traces]!, 2n)),
        toolSpans: Array.from({ length: tools }, (_, i) => ({
          traceId: ids[i % traces]!,
          start: 3n,
          name: "x",
        })),
        records: [],
        rejected: 0,
        problems: [],
      });
      let yields = 0;
      while (!generator.next().done) yields++;
      return yields;
    };
    // Each selection, inference span, tool span and trace touched counts one.
    expect(steps(255, 0, 0, 1)).toBe(1);
    expect(steps(254, 0, 0, 1)).toBe(0);
    expect(steps(0, 255, 0, 1)).toBe(1);
    expect(steps(0, 256, 0, 1)).toBe(1);
    expect(steps(0, 0, 255, 1)).toBe(1);
    expect(steps(100, 100, 56, 100)).toBe(1);
    expect(steps(256, 0, 0, 256)).toBe(2);
  });

  it("never forgets a trace that holds something for lack of use, and lets go of what it held when told to forget it", () => {
    const join = new OtelJoin<string>();
    const held = selectionAt(hex(0), 1n);
    join.add(read([held], [inferenceAt(hex(0), 2n)]));
    const trace = join.trace(hex(0))!;
    trace.held = "kept turns";
    // Only a trace whose spans were added is known.
    expect(join.trace(hex(1))).toBeUndefined();
    expect(join.joinedIn(trace, 1n)).toEqual(join.joined(hex(0), 1n));
    for (let t = 0; t <= 2 * MAX_OPEN_TRACES; t++)
      join.add(read([], [inferenceAt(hex(10 ** 6 + t), 5n)]));
    expect(join.model(held)?.offered).toEqual(["x"]);
    expect(join.trace(hex(0))).toBe(trace);
    // Let go of, it is forgotten at the next forgetting like any other.
    trace.held = undefined;
    for (let t = 0; t <= MAX_OPEN_TRACES; t++)
      join.add(read([], [inferenceAt(hex(2 * 10 ** 6 + t), 5n)]));
    expect(join.model(held)).toBeNull();
    join.add(read([held], [inferenceAt(hex(0), 2n)]));
    join.trace(hex(0))!.held = "again";
    join.forget(hex(0));
    expect(join.trace(hex(0))).toBeUndefined();
  });

  it("forgets what a trace's spans said when told to", () => {
    const join = new OtelJoin();
    const selection = selectionAt(TRACE_A, 1n);
    join.add(read([selection], [inferenceAt(TRACE_A, 2n)]));
    join.forget(TRACE_B);
    expect(join.model(selection)).not.toBeNull();
    join.forget(TRACE_A);
    expect(join.model(selection)).toBeNull();
    expect(join.add(read([], [inferenceAt(TRACE_A, 3n)]))).toEqual(new Map([[TRACE_A, null]]));
  });

  it("gives a trace without a forced choice none, not an undefined one", () => {
    const selection = selectionAt(TRACE_A, 1n);
    const joined = joinedTrace(selection, null);
    expect(Object.keys(joined)).not.toContain("forcedChoice");
    expect(joined.time).toBe("1970-01-01T00:00:00.000Z");
  });

  it("remembers MAX_SPANS_PER_TRACE selections and tool spans per trace; later ones change no join", () => {
    const join = new OtelJoin();
    const last = BigInt(MAX_SPANS_PER_TRACE);
    const call = { ...inferenceAt(TRACE_A, last + 5n), called: null };
    join.add({
      selections: Array.from({ length: MAX_SPANS_PER_TRACE }, (_, i) =>
        selectionAt(TRACE_A, BigInt(i)),
      ),
      inferences: [call],
      toolSpans: Array.from({ length: MAX_SPANS_PER_TRACE }, (_, i) => ({
        traceId: TRACE_A,
        start: last + 6n,
        name: `t${i}`,
      })),
      records: [],
      rejected: 0,
      problems: [],
    });
    // Past the limit, one more selection and one more tool span are not remembered.
    join.add({
      selections: [selectionAt(TRACE_A, last + 1n)],
      inferences: [],
      toolSpans: [{ traceId: TRACE_A, start: last + 7n, name: "late" }],
      records: [],
      rejected: 0,
      problems: [],
    });
    // An early selection's next one is still the one after it, before the call.
    expect(join.model(selectionAt(TRACE_A, 5n))).toBeNull();
    const model = join.model(selectionAt(TRACE_A, last - 1n));
    expect(model?.span_id).toBe(call.spanId);
    expect(model?.called).toHaveLength(MAX_SPANS_PER_TRACE);
    expect(model?.called).not.toContain("late");
  });

  it("remembers MAX_SPANS_PER_TRACE spans of each kind per trace; later ones are not joined", () => {
    const join = new OtelJoin();
    const spans = Array.from({ length: MAX_SPANS_PER_TRACE }, (_, i) =>
      inferenceAt(TRACE_A, BigInt(i)),
    );
    join.add(read([], spans));
    const late = selectionAt(TRACE_A, BigInt(MAX_SPANS_PER_TRACE));
    join.add(read([late], [inferenceAt(TRACE_A, BigInt(MAX_SPANS_PER_TRACE + 1))]));
    expect(join.model(late)).toBeNull();
    // The inference span not remembered is counted: its caller can say so.
    expect(join.dropped.spans).toBe(1);
    expect(join.model(selectionAt(TRACE_A, BigInt(MAX_SPANS_PER_TRACE - 1)))?.span_id).toBe(
      spans.at(-1)!.spanId,
    );
  });

  it("keeps its spans within its bytes: past them the least recently used traces are forgotten and counted, never a pinned one", () => {
    const names = Array.from({ length: 1000 }, (_, i) => `tool_${i}`);
    const join = new OtelJoin((traceId) => traceId === TRACE_A, 1_000_000);
    const traceOf = (n: number) => n.toString(16).padStart(32, "0");
    const offering = (traceId: string) =>
      read([selectionAt(traceId, 1n)], [{ ...inferenceAt(traceId, 2n), offered: [...names] }]);
    join.add(offering(TRACE_A));
    for (let t = 1; t <= 100; t++) join.add(offering(traceOf(t)));
    expect(join.bytes).toBeLessThanOrEqual(1_000_000);
    expect(join.dropped.traces).toBeGreaterThan(70);
    expect(join.model(selectionAt(TRACE_A, 1n))?.offered).toHaveLength(1000);
    expect(join.model(selectionAt(traceOf(100), 1n))?.offered).toHaveLength(1000);
    expect(join.model(selectionAt(traceOf(1), 1n))).toBeNull();
  });
});
