import { describe, expect, it } from "vitest";
import { joinedModel, joinedTrace, OtelJoin, type Joined } from "../../src/core/otel/join.js";
import { readRequest } from "../../src/core/otel/request.js";
import type { LoggedTrace } from "../../src/core/traces/trace.js";
import { TurnBatch, TurnReader } from "../../src/node/receiver-items.js";
import {
  chatSpan,
  request,
  selectionTrace,
  turnSpan,
  TRACE_A,
  TRACE_B,
} from "../core/otel/otlp.js";

/** A selection that came as an OTLP kvlist, not as JSON text. */
const structured = {
  traceId: TRACE_B,
  spanId: "00000000000000b1",
  name: "agent.turn",
  startTimeUnixNano: "5000000000",
  attributes: [],
  events: [
    {
      name: "symfonic.tool_selection",
      timeUnixNano: "5000000001",
      attributes: [
        {
          key: "symfonic.selection",
          value: {
            kvlistValue: {
              values: [
                { key: "turn_id", value: { stringValue: "kv" } },
                { key: "trace", value: { arrayValue: { values: [] } } },
              ],
            },
          },
        },
      ],
    },
  ],
};

describe("the turns a receiver worker posts", () => {
  const forced = { ...selectionTrace("t-2", ["a", "b"], ["c"]), forced_choice: "a" };
  const read = readRequest(
    request([
      turnSpan(TRACE_A, 1000, selectionTrace("t-1", ["a"])),
      chatSpan(TRACE_A, 1001, { offered: ["a", "x"], calls: ["x"], model: "m" }),
      turnSpan(TRACE_A, 2000, forced),
      structured,
    ]),
  );
  const join = new OtelJoin();
  join.add(read);
  const joins = read.selections.map((s) => join.joined(s.traceId, s.time));

  /** What a reader keeping `maxTurns` makes of `post`'s turns, after a structured clone. */
  const readBack = (maxTurns: number, post: (batch: TurnBatch) => void) => {
    const batch = new TurnBatch();
    post(batch);
    const got: [boolean, number, LoggedTrace][] = [];
    new TurnReader(maxTurns).read(structuredClone(batch.take()!), (changed, index, trace) =>
      got.push([changed, index, trace]),
    );
    return got;
  };

  it("are read back, after a structured clone, as the very traces joinedTrace makes", () => {
    const got = readBack(10, (batch) =>
      read.selections.forEach((selection, index) => batch.push(index, selection, joins[index]!)),
    );
    const expected = read.selections.map((selection, index): [boolean, number, LoggedTrace] => {
      const joined = joins[index]!;
      return [false, index, joinedTrace(selection, joined && joinedModel(joined, selection.trace))];
    });
    expect(got).toEqual(expected);
    // Byte for byte as the spool writes them, keys in the same order.
    expect(got.map(([, , trace]) => JSON.stringify(trace))).toEqual(
      expected.map(([, , trace]) => JSON.stringify(trace)),
    );
    expect(got.map(([, , trace]) => trace.model?.model ?? null)).toEqual(["m", null, null]);
    expect(got[0]![2].model).toEqual({
      span_id: read.inferences[0]!.spanId,
      model: "m",
      offered: ["a", "x"],
      called: ["x"],
      tool_choice: null,
      convention: "gen_ai",
      final_not_offered: [],
      offered_not_final: ["x"],
      called_not_offered: [],
    });
    expect(got[1]![2].forcedChoice).toBe("a");
    expect(got[2]![2].id).toBe("kv");
  });

  it("bring a later change of a kept turn's join as its index alone, read with the selection kept here", () => {
    const later: Joined = {
      call: { spanId: "00000000000000f1", model: "late", offered: ["c"], toolChoice: "c" },
      called: ["c"],
      convention: "openinference",
    };
    const got = readBack(2, (batch) => {
      read.selections.forEach((selection, index) => batch.push(index, selection, null));
      // Turn 0 is no longer among the newest two: its change is passed over.
      batch.pushRejoin(0, later);
      batch.pushRejoin(1, later);
      batch.pushRejoin(2, null);
      batch.pushRejoin(3, later);
    });
    const selection = read.selections[1]!;
    expect(got.slice(3)).toEqual([
      [true, 1, joinedTrace(selection, joinedModel(later, selection.trace))],
      [true, 2, joinedTrace(read.selections[2]!, null)],
    ]);
    expect(got[3]![2].model?.final_not_offered).toEqual(["a", "b"]);
    // A batch begins empty again after each take, and has nothing to take until a turn is pushed.
    const batch = new TurnBatch();
    expect(batch.take()).toBeNull();
    const reader = new TurnReader(2);
    const seen: [boolean, number][] = [];
    for (let index = 0; index < 5; index++) {
      batch.push(index, selection, null);
      reader.read(structuredClone(batch.take()!), (changed, at) => seen.push([changed, at]));
    }
    batch.pushRejoin(4, later);
    reader.read(structuredClone(batch.take()!), (changed, at) => seen.push([changed, at]));
    expect(seen).toEqual([0, 1, 2, 3, 4].map((at) => [false, at]).concat([[true, 4]]));
    // The ring holds maxTurns selections, however many turns come.
    for (const column of ["sources", "otel", "times"])
      expect((reader as unknown as Record<string, unknown[]>)[column]).toHaveLength(2);
    // Keeping none, every change is passed over and every turn still read.
    expect(
      readBack(0, (batch) => {
        batch.push(0, selection, null);
        batch.pushRejoin(0, later);
      }),
    ).toEqual([[false, 0, joinedTrace(selection, null)]]);
  });

  it("keep no more than their characters of selections: the oldest go first, and a change of one gone is passed over and counted", () => {
    const later: Joined = {
      call: { spanId: "00000000000000f1", model: "late", offered: null, toolChoice: null },
      called: [],
      convention: "gen_ai",
    };
    const selection = read.selections[0]!;
    const length = selection.text!.length;
    // Room for three selections' text, though ten turns could be kept.
    const reader = new TurnReader(10, 3 * length);
    const batch = new TurnBatch();
    for (let index = 0; index < 5; index++) batch.push(index, selection, null);
    for (let index = 0; index < 5; index++) batch.pushRejoin(index, later);
    const changed: number[] = [];
    reader.read(structuredClone(batch.take()!), (isChange, index) => {
      if (isChange) changed.push(index);
    });
    expect(changed).toEqual([2, 3, 4]);
    expect(reader.passedOver).toBe(2);
  });
});
