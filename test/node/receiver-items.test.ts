import { describe, expect, it } from "vitest";
import { joinedTrace, OtelJoin } from "../../src/core/otel/join.js";
import { readRequest } from "../../src/core/otel/request.js";
import type { LoggedTrace } from "../../src/core/traces/trace.js";
import { forEachTurn, TurnBatch } from "../../src/node/receiver-items.js";
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
  it("are read back, after a structured clone, as the very traces joinedTrace makes", () => {
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
    const batch = new TurnBatch();
    const expected: [boolean, number, LoggedTrace][] = [];
    read.selections.forEach((selection, index) => {
      const model = join.model(selection);
      const changed = index === 1;
      batch.push(changed, index, selection, model);
      expected.push([changed, index, joinedTrace(selection, model)]);
    });
    const got: [boolean, number, LoggedTrace][] = [];
    forEachTurn(structuredClone(batch.take()!), (changed, index, trace) =>
      got.push([changed, index, trace]),
    );
    expect(got).toEqual(expected);
    // Byte for byte as the spool writes them, keys in the same order.
    expect(got.map(([, , trace]) => JSON.stringify(trace))).toEqual(
      expected.map(([, , trace]) => JSON.stringify(trace)),
    );
    expect(got.map(([, , trace]) => trace.model?.model ?? null)).toEqual(["m", null, null]);
    expect(got[1]![2].forcedChoice).toBe("a");
    expect(got[2]![2].id).toBe("kv");
  });
});
