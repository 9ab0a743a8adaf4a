import { describe, expect, it } from "vitest";
import { scanText } from "../../../src/core/traces/scan.js";
import { anyValue, MAX_ANY_VALUE_DEPTH } from "../../../src/core/otel/any-value.js";
import { MAX_PENDING } from "../../../src/core/otel/scanner.js";
import { MAX_OPEN_TRACES } from "../../../src/core/otel/join.js";
import { readRequest } from "../../../src/core/otel/request.js";
import {
  attrs,
  chatSpan,
  lines,
  request,
  selectionTrace,
  spanId,
  str,
  toolSpan,
  TRACE_A,
  TRACE_B,
  turnSpan,
} from "./otlp.js";

const scan = (text: string) => scanText(text);

describe("selection traces in OTLP/JSON", () => {
  it("reads a selection event with its time, id, OTel ids and service, joined to the inference span after it", () => {
    const turn = spanId();
    const chat = spanId();
    const { traces, problems } = scan(
      lines(
        request([
          turnSpan(TRACE_A, 1000, selectionTrace("t-1", ["a", "b"], ["c"]), turn),
          chatSpan(TRACE_A, 1001, { offered: ["a", "b"], calls: ["a"], model: "gpt-4o", id: chat }),
        ]),
      ),
    );
    expect(problems).toEqual([]);
    expect(traces).toHaveLength(1);
    const trace = traces[0]!.trace;
    expect([traces[0]!.line, trace.time, trace.id]).toEqual([1, "1970-01-01T00:00:01.000Z", "t-1"]);
    expect(trace.otel).toEqual({ trace_id: TRACE_A, span_id: turn, service: "agent" });
    expect(trace.model).toEqual({
      span_id: chat,
      model: "gpt-4o",
      offered: ["a", "b"],
      called: ["a"],
      final_not_offered: [],
      offered_not_final: [],
      called_not_offered: [],
    });
  });

  it("joins an inference span of a later request, and one of an earlier request that starts after the selection", () => {
    const chat = spanId();
    const { traces } = scan(
      lines(
        request([chatSpan(TRACE_A, 1005, { offered: ["a"], id: chat })]),
        request([turnSpan(TRACE_A, 1000, selectionTrace("t-1", ["a"]))]),
      ),
    );
    expect(traces[0]!.line).toBe(2);
    expect(traces[0]!.trace.model?.span_id).toBe(chat);
  });

  it("takes the first inference span at or after the selection, never one before it, one of another trace or one after the trace's next selection", () => {
    const first = spanId();
    const { traces } = scan(
      lines(
        request([
          chatSpan(TRACE_A, 999, { offered: ["x"] }),
          chatSpan(TRACE_B, 1001, { offered: ["y"] }),
          chatSpan(TRACE_A, 1003, { offered: ["late"] }),
          chatSpan(TRACE_A, 1000, { offered: ["a"], id: first }),
          turnSpan(TRACE_A, 1000, selectionTrace("t-1", ["a"])),
          turnSpan(TRACE_A, 2000, selectionTrace("t-2", ["a"])),
        ]),
      ),
    );
    expect(traces.map((t) => t.trace.model?.span_id ?? null)).toEqual([first, null]);
  });

  it("is model null when no inference span follows", () => {
    const { traces } = scan(lines(request([turnSpan(TRACE_A, 1, selectionTrace("t", ["a"]))])));
    expect(traces[0]!.trace.model).toBeNull();
  });

  it("reads OpenAI's {function: {name}} definitions and structured arrays, and the differences against the final palette", () => {
    const offered = {
      arrayValue: {
        values: [
          {
            kvlistValue: {
              values: [
                {
                  key: "function",
                  value: { kvlistValue: { values: [{ key: "name", value: str("b") }] } },
                },
              ],
            },
          },
          { kvlistValue: { values: [{ key: "name", value: str("extra") }] } },
        ],
      },
    };
    const { traces, problems } = scan(
      lines(
        request([
          turnSpan(TRACE_A, 1, selectionTrace("t", ["a", "b"])),
          chatSpan(TRACE_A, 2, { offered, calls: ["extra", "zzz", "b"] }),
        ]),
      ),
    );
    expect(problems).toEqual([]);
    expect(traces[0]!.trace.model).toMatchObject({
      model: null,
      offered: ["b", "extra"],
      called: ["extra", "zzz", "b"],
      final_not_offered: ["a"],
      offered_not_final: ["extra"],
      called_not_offered: ["zzz"],
    });
  });

  it("without definitions, offered is null, the first two differences are empty and called_not_offered is against the final names", () => {
    const { traces } = scan(
      lines(
        request([
          turnSpan(TRACE_A, 1, selectionTrace("t", ["a"])),
          chatSpan(TRACE_A, 2, { calls: ["a", "b"] }),
        ]),
      ),
    );
    expect(traces[0]!.trace.model).toMatchObject({
      offered: null,
      called: ["a", "b"],
      final_not_offered: [],
      offered_not_final: [],
      called_not_offered: ["b"],
    });
  });

  it("without tool calls in the output, called is the execute_tool spans after the call and before the next inference span, in start order", () => {
    const { traces } = scan(
      lines(
        request([
          toolSpan(TRACE_A, 7, "second"),
          toolSpan(TRACE_A, 3, "first"),
          toolSpan(TRACE_A, 1, "before"),
          toolSpan(TRACE_B, 4, "other trace"),
          toolSpan(TRACE_A, 11, "after next call"),
        ]),
        request([
          turnSpan(TRACE_A, 1, selectionTrace("t", ["first"])),
          chatSpan(TRACE_A, 2, { offered: ["first"] }),
          chatSpan(TRACE_A, 10, { operation: "text_completion" }),
        ]),
      ),
    );
    expect(traces[0]!.trace.model?.called).toEqual(["first", "second"]);
    expect(traces[0]!.trace.model?.called_not_offered).toEqual(["second"]);
  });

  it("reads a span named symfonic.tool_selection, its time the span's start, and a structured kvlist selection", () => {
    const selection = {
      kvlistValue: {
        values: [
          { key: "turn_id", value: str("s-1") },
          { key: "tools", value: { arrayValue: { values: [str("a")] } } },
          { key: "forced_choice", value: {} },
          {
            key: "trace",
            value: {
              arrayValue: {
                values: [
                  {
                    kvlistValue: {
                      values: [
                        { key: "stage", value: str("intent") },
                        { key: "action", value: str("select") },
                        { key: "kept", value: { arrayValue: { values: [str("a")] } } },
                        { key: "dropped", value: { arrayValue: {} } },
                        { key: "added", value: { arrayValue: { values: [] } } },
                        { key: "reinstated", value: { arrayValue: { values: [] } } },
                        { key: "forced_choice", value: {} },
                        { key: "detail", value: str("") },
                        { key: "degraded", value: { boolValue: false } },
                      ],
                    },
                  },
                ],
              },
            },
          },
        ],
      },
    };
    const id = spanId();
    const { traces, problems } = scan(
      lines(
        request(
          [
            {
              traceId: TRACE_A.toUpperCase(),
              spanId: id,
              name: "symfonic.tool_selection",
              startTimeUnixNano: 1_500_000_000,
              attributes: [{ key: "symfonic.selection", value: selection }],
            },
          ],
          null,
        ),
      ),
    );
    expect(problems).toEqual([]);
    expect(traces[0]!.trace).toMatchObject({
      id: "s-1",
      time: "1970-01-01T00:00:01.500Z",
      forcedChoice: null,
      tools: ["a"],
      otel: { trace_id: TRACE_A, span_id: id, service: null },
    });
  });

  it("reads one whole pretty-printed document, its traces at line 1", () => {
    const text = JSON.stringify(
      request([turnSpan(TRACE_A, 1, selectionTrace("t", ["a"]))]),
      null,
      2,
    );
    const { traces, problems } = scan(text);
    expect(problems).toEqual([]);
    expect(traces.map((t) => [t.line, t.trace.id])).toEqual([[1, "t"]]);
  });

  it("hands selections on in file order, at most MAX_PENDING held back", () => {
    const many = Array.from({ length: MAX_PENDING + 2 }, (_, i) =>
      turnSpan(TRACE_A, i + 1, selectionTrace(`t${i}`, ["a"])),
    );
    const { traces } = scan(lines(request(many)));
    expect(traces.map((t) => t.index)).toEqual(many.map((_, i) => i));
    expect(traces.at(-1)!.trace.id).toBe(`t${MAX_PENDING + 1}`);
  });

  it("re-reads a trace from its recorded range to the same trace, model included", () => {
    const text = lines(
      request([
        turnSpan(TRACE_A, 1, selectionTrace("t1", ["a"])),
        turnSpan(TRACE_B, 1, selectionTrace("t2", ["a"])),
      ]),
      request([chatSpan(TRACE_B, 2, { offered: ["a"] })]),
    );
    const found = scan(text).traces[1]!;
    const bytes = new TextEncoder()
      .encode(text)
      .subarray(found.offset, found.offset + found.length);
    const again = scanText(bytes, { firstLine: found.line, firstOffset: found.offset }).traces[
      found.ordinal
    ]!;
    expect(again).toEqual(found);
    expect(again.trace.model).not.toBeNull();
  });
});

describe("hostile OTLP/JSON", () => {
  const problemsOf = (text: string) => scan(text).problems;

  it("a line that is not JSON or not a request is a problem of its line; the other lines are read", () => {
    const good = request([turnSpan(TRACE_A, 1, selectionTrace("t", ["a"]))]);
    const { traces, problems } = scan(
      `${JSON.stringify(good)}\n{"resourceSpans": [\n{"other": 1}\n`,
    );
    expect(traces).toHaveLength(1);
    expect(problems).toEqual([
      { line: 2, message: expect.stringMatching(/^invalid JSON: /) },
      {
        line: 3,
        message: "not an OTLP ExportTraceServiceRequest (an object with a 'resourceSpans' array)",
      },
    ]);
  });

  it("names the JSON path of a bad id, time, selection or definitions; the request's other spans are read", () => {
    const bad = [
      { ...turnSpan(TRACE_A, 1, selectionTrace("x", ["a"])), traceId: "zz" },
      { ...turnSpan(TRACE_A, 1, selectionTrace("x", ["a"])), spanId: 7 },
      { ...turnSpan(TRACE_A, 1, selectionTrace("x", ["a"])), startTimeUnixNano: "-1" },
      turnSpan(TRACE_A, 1, "{not json"),
      turnSpan(TRACE_A, 1, { trace: "no" }),
      turnSpan(TRACE_A, 1, { trace: [{ stage: "s", action: "explode" }] }),
      chatSpan(TRACE_A, 1, { offered: "[1]" }),
      chatSpan(TRACE_A, 1, { offered: { boolValue: "yes" } }),
      turnSpan(TRACE_A, 5, selectionTrace("good", ["a"])),
    ];
    const { traces, problems } = scan("\n" + lines(request(bad)));
    expect(traces.map((t) => t.trace.id)).toEqual(["good"]);
    const at = "resourceSpans[0].scopeSpans[0].spans";
    expect(problems.map((p) => p.line)).toEqual(Array(8).fill(2));
    expect(problems.map((p) => p.message)).toEqual([
      `${at}[0].traceId: must be 32 hex digits`,
      `${at}[1].spanId: must be 16 hex digits`,
      `${at}[2].startTimeUnixNano: must be a time in Unix nanoseconds`,
      expect.stringMatching(
        new RegExp(
          `^${escape(at)}\\[3\\]\\.events\\[0\\]\\.attributes\\['symfonic.selection'\\]: 'symfonic.selection' is not valid JSON`,
        ),
      ),
      `${at}[4].events[0].attributes['symfonic.selection']: must be a selection trace: an object with a 'trace' array`,
      expect.stringMatching(
        new RegExp(
          `^${escape(at)}\\[5\\]\\.events\\[0\\]\\.attributes\\['symfonic.selection'\\]: trace record 0 \\(stage 's'\\): 'action' must be one of`,
        ),
      ),
      `${at}[6].attributes['gen_ai.tool.definitions'][0]: 'gen_ai.tool.definitions': a tool name must be a string`,
      `${at}[7].attributes[1].value.boolValue: must be a boolean`,
    ]);
  });

  it("names the JSON path of a malformed resource, scope, span, events or output messages, and reads the rest", () => {
    const good = (id: string, ms: number) => turnSpan(TRACE_A, ms, selectionTrace(id, ["a"]));
    const read = readRequest({
      resourceSpans: [
        7,
        { scopeSpans: "no" },
        {},
        {
          resource: { attributes: [{ key: "service.name", value: { intValue: "x" } }] },
          scopeSpans: [
            null,
            { spans: {} },
            { scope: {} },
            {
              spans: [
                "span",
                { ...good("events", 1), events: {} },
                chatSpan(TRACE_A, 2, { operation: "chat" }),
                {
                  ...chatSpan(TRACE_A, 3, {}),
                  attributes: attrs({
                    "gen_ai.operation.name": "text_completion",
                    "gen_ai.output.messages": '{"role":"assistant"}',
                  }),
                },
                { ...good("number time", 0), startTimeUnixNano: 5_000_000 },
                { ...good("unsafe", 0), startTimeUnixNano: 2 ** 53 },
                { ...good("upper", 6), traceId: TRACE_A.toUpperCase() },
                good("kept", 7),
              ],
            },
          ],
        },
      ],
    });
    const at = "resourceSpans[3].scopeSpans[3].spans";
    expect(read.problems).toEqual([
      { path: "resourceSpans[0]", message: "must be an object with a 'scopeSpans' array" },
      { path: "resourceSpans[1]", message: "must be an object with a 'scopeSpans' array" },
      {
        path: "resourceSpans[3].resource.attributes[0].value.intValue",
        message: "must be a number, found 'x'",
      },
      { path: "resourceSpans[3].scopeSpans[0]", message: "must be an object with a 'spans' array" },
      { path: "resourceSpans[3].scopeSpans[1]", message: "must be an object with a 'spans' array" },
      { path: `${at}[0]`, message: "a span must be an object" },
      { path: `${at}[1].events`, message: "must be an array" },
      {
        path: `${at}[3].attributes['gen_ai.output.messages']`,
        message: "'gen_ai.output.messages' must be an array",
      },
      { path: `${at}[5].startTimeUnixNano`, message: "must be a time in Unix nanoseconds" },
    ]);
    expect(read.rejected).toBe(4);
    // A resource, scope or scope without spans is no span rejected; a span read is not either.
    expect(read.selections.map((s) => [s.trace.id, s.traceId, s.time, s.service])).toEqual([
      ["number time", TRACE_A, 0n, null],
      ["upper", TRACE_A, 6_000_000n, null],
      ["kept", TRACE_A, 7_000_000n, null],
    ]);
    expect(read.inferences.map((i) => [i.start, i.offered, i.called])).toEqual([
      [2_000_000n, null, null],
    ]);
  });

  it("joins a selection waiting for the file's end however many other traces come after it", () => {
    const others = Array.from({ length: 2 * MAX_OPEN_TRACES + 1 }, (_, t) =>
      chatSpan(t.toString(16).padStart(32, "0"), 5, {}),
    );
    const { traces } = scan(
      lines(
        request([
          turnSpan(TRACE_A, 1, selectionTrace("t", ["a"])),
          chatSpan(TRACE_A, 2, { offered: ["a"] }),
        ]),
        request(others),
      ),
    );
    expect(traces.map((t) => t.trace.model?.offered)).toEqual([["a"]]);
  });

  it("reads the first of an attribute given twice, past entries that are not pairs; a bad value of an attribute not read is no problem", () => {
    const chat = chatSpan(TRACE_A, 2, { offered: ["a"], model: "first" });
    const { attributes } = chat;
    const span = {
      ...chat,
      attributes: [
        7,
        { key: 3, value: str("x") },
        ...attributes,
        { key: "gen_ai.request.model", value: str("second") },
        { key: "gen_ai.tool.name", value: { boolValue: "not read on a chat span" } },
      ],
    };
    const turn = turnSpan(TRACE_A, 1, selectionTrace("t", ["a"]));
    const tool = {
      ...toolSpan(TRACE_A, 3, "a"),
      attributes: [
        { key: "gen_ai.request.model", value: { intValue: "not read on a tool span" } },
        ...toolSpan(TRACE_A, 3, "a").attributes,
      ],
    };
    const { traces, problems } = scan(lines(request([turn, span, tool])));
    expect(problems).toEqual([]);
    expect(
      traces.map((t) => [t.trace.model?.model, t.trace.model?.offered, t.trace.model?.called]),
    ).toEqual([["first", ["a"], ["a"]]]);
  });

  it("refuses an AnyValue nested past the limit with its path, and keeps __proto__ a plain key", () => {
    let deep: unknown = str("x");
    for (let i = 0; i <= MAX_ANY_VALUE_DEPTH + 1; i++) deep = { arrayValue: { values: [deep] } };
    expect(() => anyValue(deep, "v")).toThrow(/nested more than \d+ levels deep/);
    const object = anyValue(
      {
        kvlistValue: {
          values: [
            {
              key: "__proto__",
              value: { kvlistValue: { values: [{ key: "polluted", value: { boolValue: true } }] } },
            },
          ],
        },
      },
      "v",
    ) as Record<string, unknown>;
    expect(Object.getPrototypeOf(object)).toBe(Object.prototype);
    expect(Object.keys(object)).toEqual(["__proto__"]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("a line over the line limit is a problem, never held", () => {
    const text = lines(request([turnSpan(TRACE_A, 1, selectionTrace("t", ["a".repeat(5000)]))]));
    expect(scanText(text, { maxLineBytes: 1000 }).problems).toEqual([
      { line: 1, message: "the line is longer than 1000 bytes; it was not read" },
    ]);
  });

  it("a list of tool names in attributes over the limit is refused", () => {
    const names = Array.from({ length: 10_001 }, (_, i) => ({ name: `t${i}` }));
    expect(
      problemsOf(lines(request([chatSpan(TRACE_A, 1, { offered: JSON.stringify(names) })])))[0]
        ?.message,
    ).toMatch(/names more than 10,000 tools/);
  });
});

function escape(text: string): string {
  return text.replace(/[.[\]()]/g, "\\$&");
}
