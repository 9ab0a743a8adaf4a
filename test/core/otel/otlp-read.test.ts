import { describe, expect, it } from "vitest";
import { scanText } from "../../../src/core/traces/scan.js";
import { anyValue, MAX_ANY_VALUE_DEPTH } from "../../../src/core/otel/any-value.js";
import { MAX_PENDING } from "../../../src/core/otel/scanner.js";
import { MAX_OPEN_TRACES } from "../../../src/core/otel/join.js";
import { readRequest, readRequestInSteps, textSelection } from "../../../src/core/otel/request.js";
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
      tool_choice: null,
      convention: "gen_ai",
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

  it("without definitions, offered is null, the first two differences are null and called_not_offered is against the final names", () => {
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
      final_not_offered: null,
      offered_not_final: null,
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
        message:
          "not an OTLP ExportTraceServiceRequest or ExportLogsServiceRequest (an object with a 'resourceSpans' or 'resourceLogs' array)",
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
    // Two requests of more traces than the join keeps for lack of use: all newer than A's.
    const others = (from: number) =>
      request(
        Array.from({ length: MAX_OPEN_TRACES + 1 }, (_, t) =>
          chatSpan((from + t).toString(16).padStart(32, "0"), 5, {}),
        ),
      );
    const { traces } = scan(
      lines(
        request([
          turnSpan(TRACE_A, 1, selectionTrace("t", ["a"])),
          chatSpan(TRACE_A, 2, { offered: ["a"] }),
        ]),
        others(0),
        others(MAX_OPEN_TRACES + 1),
      ),
    );
    expect(traces.map((t) => t.trace.model?.offered)).toEqual([["a"]]);
  });

  it("keeps a trace whose selection still waits when its earlier one was handed on", () => {
    const traceOf = (n: number) => n.toString(16).padStart(32, "0");
    const chats = (from: number) =>
      request(
        Array.from({ length: MAX_OPEN_TRACES + 1 }, (_, t) => chatSpan(traceOf(from + t), 5, {})),
      );
    const { traces } = scan(
      lines(
        request([
          turnSpan(TRACE_A, 1, selectionTrace("first", ["a"])),
          turnSpan(TRACE_A, 3, selectionTrace("second", ["a"])),
          chatSpan(TRACE_A, 4, { offered: ["a"] }),
        ]),
        // Enough other selections that A's first is handed on before the end, its second still waiting.
        request(
          Array.from({ length: MAX_PENDING - 1 }, (_, t) =>
            turnSpan(traceOf(10 ** 6 + t), 1, selectionTrace(`other ${t}`, ["a"])),
          ),
        ),
        chats(0),
        chats(MAX_OPEN_TRACES + 1),
      ),
    );
    const byId = new Map(traces.map((t) => [t.trace.id, t.trace.model?.offered]));
    expect([byId.get("first"), byId.get("second")]).toEqual([undefined, ["a"]]);
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

describe("reading one request's spans", () => {
  const read = (...spans: unknown[]) => readRequest(request(spans));
  const at = "resourceSpans[0].scopeSpans[0].spans";
  const messages = (...parts: unknown[]) =>
    JSON.stringify([{ role: "assistant", parts }, { role: "assistant" }]);
  const selection = JSON.stringify(selectionTrace("t", ["a"]));

  it("takes chat, text_completion and generate_content spans as inference spans, and no other", () => {
    const spans = ["chat", "text_completion", "generate_content", "embeddings", "Chat"].map(
      (op, i) => chatSpan(TRACE_A, i, { operation: op }),
    );
    expect(read(...spans).inferences.map((i) => i.start)).toEqual([0n, 1_000_000n, 2_000_000n]);
  });

  it("takes an execute_tool span with a tool name as a tool span, and no other", () => {
    const named = toolSpan(TRACE_A, 1, "a");
    const { toolSpans, inferences, selections } = read(
      named,
      { ...named, attributes: attrs({ "gen_ai.operation.name": "execute_tool" }) },
      {
        ...named,
        attributes: attrs({ "gen_ai.operation.name": "invoke_agent", "gen_ai.tool.name": "b" }),
      },
      { ...named, attributes: attrs({ "gen_ai.tool.name": "c" }) },
    );
    expect(toolSpans).toEqual([{ traceId: TRACE_A, start: 1_000_000n, name: "a" }]);
    expect([inferences, selections]).toEqual([[], []]);
  });

  it("reads a selection only from a span or event of the selection's name that has the attribute", () => {
    const plain = { traceId: TRACE_A, spanId: spanId(), startTimeUnixNano: "1" };
    const named = { ...plain, name: "symfonic.tool_selection" };
    const event = (name: string, attributes: unknown[]) => ({
      name,
      timeUnixNano: "2",
      attributes,
    });
    const { selections, problems, rejected } = read(
      { ...plain, name: "other", attributes: attrs({ "symfonic.selection": selection }) },
      { ...named, attributes: attrs({ other: "x" }) },
      {
        ...plain,
        name: "turn",
        events: [
          null,
          5,
          event("other", attrs({ "symfonic.selection": selection })),
          event("symfonic.tool_selection", attrs({ other: "x" })),
        ],
      },
    );
    expect([selections, problems, rejected]).toEqual([[], [], 0]);
  });

  it("names the path of a bad selection in a span as in an event, and of an event's time", () => {
    const { problems } = read(
      {
        traceId: TRACE_A,
        spanId: spanId(),
        startTimeUnixNano: "1",
        name: "symfonic.tool_selection",
        attributes: attrs({ "symfonic.selection": "{" }),
      },
      {
        ...turnSpan(TRACE_A, 1, selectionTrace("t", ["a"])),
        events: [
          {
            name: "symfonic.tool_selection",
            timeUnixNano: "x",
            attributes: attrs({ "symfonic.selection": selection }),
          },
        ],
      },
      {
        ...turnSpan(TRACE_A, 1, selectionTrace("t", ["a"])),
        events: [
          {
            name: "symfonic.tool_selection",
            attributes: [{ key: "symfonic.selection", value: { intValue: "?" } }],
          },
        ],
      },
    );
    expect(problems.map((p) => [p.path, p.message.replace(/JSON: .*/, "JSON")])).toEqual([
      [`${at}[0].attributes['symfonic.selection']`, "'symfonic.selection' is not valid JSON"],
      [`${at}[1].events[0].timeUnixNano`, "must be a time in Unix nanoseconds"],
      [`${at}[2].events[0].attributes[0].value.intValue`, "must be a number, found '?'"],
    ]);
  });

  it("names the attributes of a span that are not a list, and the JSON text that is not JSON", () => {
    const { problems } = read(
      { ...turnSpan(TRACE_A, 1, selection), attributes: "x" },
      {
        traceId: TRACE_A,
        spanId: spanId(),
        startTimeUnixNano: "1",
        name: "symfonic.tool_selection",
        attributes: 3,
      },
      chatSpan(TRACE_A, 2, { offered: "{" }),
      {
        ...chatSpan(TRACE_A, 2, {}),
        attributes: attrs({ "gen_ai.operation.name": "chat", "gen_ai.output.messages": "[" }),
      },
    );
    expect(problems.map((p) => [p.path, p.message.replace(/JSON: .*/, "JSON")])).toEqual([
      [`${at}[0].attributes`, "must be an array"],
      [`${at}[1].attributes`, "must be an array"],
      [
        `${at}[2].attributes['gen_ai.tool.definitions']`,
        "'gen_ai.tool.definitions' is not valid JSON",
      ],
      [
        `${at}[3].attributes['gen_ai.output.messages']`,
        "'gen_ai.output.messages' is not valid JSON",
      ],
    ]);
  });

  it("keeps a selection's JSON text, and none for a structured one", () => {
    const structured = {
      ...turnSpan(TRACE_A, 2, ""),
      events: [
        {
          name: "symfonic.tool_selection",
          timeUnixNano: "2",
          attributes: [
            {
              key: "symfonic.selection",
              value: {
                kvlistValue: {
                  values: [{ key: "trace", value: { arrayValue: {} } }],
                },
              },
            },
          ],
        },
      ],
    };
    const { selections } = read(turnSpan(TRACE_A, 1, selection), structured);
    expect(selections.map((s) => s.text)).toEqual([selection, undefined]);
    expect(Object.keys(selections[1]!)).not.toContain("text");
    expect(() => textSelection('{"trace": 1}')).toThrow(
      "'symfonic.selection': must be a selection trace: an object with a 'trace' array",
    );
  });

  it("refuses ids that are not exactly so many hex digits, and times that are not whole nanoseconds", () => {
    const hex = "0af7651916cd43dd8448eb211c80319c";
    const ids = [7, "", "z" + hex.slice(1), hex.slice(0, -1) + "z", hex + "0", hex.slice(1)];
    const times = ["12x", "x12", "", "1".repeat(21), -1, 1.5, "-1", " 1"];
    const { problems, rejected, selections } = read(
      ...ids.map((traceId) => ({ ...turnSpan(TRACE_A, 1, selection), traceId })),
      ...times.map((startTimeUnixNano) => ({
        ...turnSpan(TRACE_A, 1, selection),
        startTimeUnixNano,
      })),
      { ...turnSpan(TRACE_A, 1, selection), startTimeUnixNano: 0 },
      { ...turnSpan(TRACE_A, 1, selection), startTimeUnixNano: "1".repeat(20) },
    );
    expect(rejected).toBe(ids.length + times.length);
    expect(problems.map((p) => p.message)).toEqual([
      ...ids.map(() => "must be 32 hex digits"),
      ...times.map(() => "must be a time in Unix nanoseconds"),
    ]);
    expect(selections).toHaveLength(2);
  });

  it("reads the names of definitions and tool calls, and refuses what is not a list of them", () => {
    const chat = (definitions: unknown, output?: unknown) => ({
      ...chatSpan(TRACE_A, 1, {}),
      attributes: [
        ...attrs({ "gen_ai.operation.name": "chat" }),
        ...(definitions === undefined
          ? []
          : [{ key: "gen_ai.tool.definitions", value: definitions }]),
        ...(output === undefined ? [] : [{ key: "gen_ai.output.messages", value: output }]),
      ],
    });
    const { inferences, problems } = read(
      chat({}, {}),
      chat(str('[{"name": "a"}, {"function": {"name": "b"}}]')),
      chat(
        undefined,
        str(messages({ type: "text", content: "hi" }, { type: "tool_call", name: "c" })),
      ),
      chat(undefined, str(messages({ type: "text" }))),
      chat(str("{}")),
      chat(str("[null]")),
      chat(undefined, str(messages({ type: "tool_call", name: 3 }))),
      chat(undefined, str('{"parts": []}')),
      chat(undefined, str(messages({ type: "text", content: "no tool" }))),
    );
    expect(inferences.map((i) => [i.offered, i.called])).toEqual([
      [null, null],
      [["a", "b"], null],
      [null, ["c"]],
      // Output of an empty text only records nothing of the calls; a text, that none was made.
      [null, null],
      [null, []],
    ]);
    expect(problems.map((p) => `${p.path}: ${p.message}`)).toEqual([
      `${at}[4].attributes['gen_ai.tool.definitions']: 'gen_ai.tool.definitions' must be an array`,
      `${at}[5].attributes['gen_ai.tool.definitions'][0]: 'gen_ai.tool.definitions': a tool name must be a string`,
      `${at}[6].attributes['gen_ai.output.messages'][0].parts[0]: 'gen_ai.output.messages': a tool name must be a string`,
      `${at}[7].attributes['gen_ai.output.messages']: 'gen_ai.output.messages' must be an array`,
    ]);
  });

  it("without tool calls in its output, an inference span's calls are the execute_tool spans after it", () => {
    const { traces } = scan(
      lines(
        request([
          turnSpan(TRACE_A, 1, selectionTrace("t", ["a"])),
          {
            ...chatSpan(TRACE_A, 2, {}),
            attributes: attrs({
              "gen_ai.operation.name": "chat",
              "gen_ai.output.messages": messages({ type: "text" }),
            }),
          },
          toolSpan(TRACE_A, 3, "a"),
        ]),
      ),
    );
    expect(traces.map((t) => t.trace.model?.called)).toEqual([["a"]]);
  });

  it("yields every 64 spans read", () => {
    const steps = (spans: number) => {
      const generator = readRequestInSteps(
        request(Array.from({ length: spans }, () => toolSpan(TRACE_A, 1, "a"))),
      );
      let yields = 0;
      while (!generator.next().done) yields++;
      return yields;
    };
    expect([steps(63), steps(64), steps(128), steps(129)]).toEqual([0, 1, 2, 2]);
  });
});
