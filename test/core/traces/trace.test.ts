import { describe, expect, it } from "vitest";
import {
  describe as describeValue,
  isTraceCandidate,
  MAX_TRACE_NAMES,
  MAX_VALUE_DEPTH,
  validateTrace,
} from "../../../src/core/traces/trace.js";
import { loggedRecord } from "./engine.js";

const problem = (candidate: Record<string, unknown>) => {
  const result = validateTrace({ trace: [], ...candidate });
  return "problem" in result ? result.problem : null;
};

describe("validateTrace", () => {
  it("reads every field docs/formats.md names, with missing lists empty", () => {
    const result = validateTrace({
      "@timestamp": "2025-03-14T09:26:53Z",
      request_id: 42,
      trace: [
        {
          stage: "policy",
          action: "select",
          kept: ["search"],
          dropped: ["delete_rows"],
          forced_choice: null,
          detail: "ceiling medium",
          degraded: false,
          reasons: { delete_rows: "safety critical > medium" },
        },
      ],
      tools: ["search", { name: "final_answer", description: "x" }],
      offered: ["search", "delete_rows"],
      forced_choice: null,
      error: null,
      turn: { query: "q", role: "analyst", state: {}, messages: [], extra: 1 },
    });
    expect(result).toEqual({
      trace: {
        records: [
          {
            stage: "policy",
            action: "select",
            kept: ["search"],
            dropped: ["delete_rows"],
            added: [],
            reinstated: [],
            forced_choice: null,
            detail: "ceiling medium",
            degraded: false,
            reasons: { delete_rows: "safety critical > medium" },
          },
        ],
        tools: ["search", { name: "final_answer", description: "x" }],
        offered: ["search", "delete_rows"],
        forcedChoice: null,
        error: null,
        turn: { query: "q", role: "analyst", state: {}, messages: [] },
        time: "2025-03-14T09:26:53Z",
        id: 42,
      },
    });
  });

  /** What a trace logged with nothing but its records holds, given a time and an id. */
  const bare = (time: string | null, id: string | null) => ({
    trace: { records: [], tools: null, offered: null, error: null, turn: null, time, id },
  });

  it("reads tools and offered logged as null as not logged, and no context as no time and no id", () => {
    expect(validateTrace({ trace: [], tools: null, offered: null })).toStrictEqual(
      bare(null, null),
    );
  });

  it("tells a logged forced choice of null from none logged, and takes a context's time and id", () => {
    expect(validateTrace({ trace: [] }, { time: "t", id: "i" })).toEqual(bare("t", "i"));
  });

  it("reads an error given as a message or as { kind, message, tool }", () => {
    const read = (error: unknown) => {
      const result = validateTrace({ trace: [], error });
      return "trace" in result ? result.trace.error : result.problem;
    };
    expect(read("forced tool 'sql' is not among the final tools")).toEqual({
      kind: "ForcedToolUnavailable",
      message: "forced tool 'sql' is not among the final tools",
      tool: null,
    });
    expect(read({ kind: "ForcedToolUnavailable", message: "m", tool: "sql" })).toEqual({
      kind: "ForcedToolUnavailable",
      message: "m",
      tool: "sql",
    });
    expect(read(3)).toBe("'error' must be null, a message or { kind, message }, found a number");
  });

  it("names the field and what was found when a type is wrong", () => {
    expect(problem({ trace: [1] })).toBe("trace record 0 must be an object, found a number");
    expect(problem({ trace: [{ stage: "a", action: "drop" }] })).toBe(
      "trace record 0 (stage 'a'): 'action' must be one of abstain, select, force, error, found 'drop'",
    );
    expect(problem({ trace: [{ stage: "a", action: "select", kept: "search" }] })).toBe(
      "trace record 0 (stage 'a'): 'kept' must be a list of tool names, found a string",
    );
    expect(problem({ trace: [{ stage: "a", action: "select", dropped: ["x", 2] }] })).toBe(
      "trace record 0 (stage 'a'): 'dropped' must be a list of tool names, found a number at position 1",
    );
    expect(problem({ trace: [{ stage: "a", action: "force", forced_choice: 1 }] })).toBe(
      "trace record 0 (stage 'a'): 'forced_choice' must be a tool name or null, found a number",
    );
    expect(problem({ trace: [{ stage: "a", action: "abstain", degraded: "yes" }] })).toBe(
      "trace record 0 (stage 'a'): 'degraded' must be true or false, found a string",
    );
    expect(problem({ trace: [{ stage: "a", action: "abstain", reasons: { x: 1 } }] })).toBe(
      "trace record 0 (stage 'a'): the reason for 'x' must be a string, found a number",
    );
    expect(problem({ tools: "search" })).toBe(
      "'tools' must be a list of tool names or objects, found a string",
    );
    expect(problem({ offered: [null] })).toBe(
      "'offered' must be a list of tool names or objects, found null at position 0",
    );
    expect(problem({ turn: { state: [] } })).toBe("'turn.state' must be an object, found a list");
    expect(problem({ ts: {} })).toBe("the time 'ts' must be a string or a number, found an object");
    expect(problem({ turn_id: true })).toBe(
      "the id 'turn_id' must be a string or a number, found true",
    );
    expect(problem({ forced_choice: [] })).toBe(
      "'forced_choice' must be a tool name or null, found a list",
    );
  });

  it("takes only an object with its own trace list as a candidate", () => {
    expect(isTraceCandidate({ trace: [] })).toBe(true);
    expect(isTraceCandidate({ trace: "abc" })).toBe(false);
    expect(isTraceCandidate([{ trace: [] }])).toBe(false);
    expect(isTraceCandidate(Object.create({ trace: [] }))).toBe(false);
  });
});

describe("validateTrace: records", () => {
  const records = (...trace: unknown[]) => {
    const result = validateTrace({ trace });
    if ("problem" in result) throw new Error(result.problem);
    return result.trace.records;
  };
  const complete = {
    stage: "s",
    action: "select",
    kept: ["a"],
    dropped: ["b"],
    added: [],
    reinstated: [],
    forced_choice: null,
    detail: "d",
  };

  it("keeps a complete record as parsed, extra fields and all", () => {
    const record = { ...complete, degraded: true, reasons: { b: "why" }, extra: 1 };
    expect(records(record)[0]).toBe(record);
  });

  it("fills each missing or null part of a record with its default", () => {
    const without = (key: string, value?: unknown) => {
      const record: Record<string, unknown> = { ...complete, extra: 1 };
      if (value === undefined) delete record[key];
      else record[key] = value;
      return records(record)[0];
    };
    const defaults = { ...complete };
    // Strictly: a copy holds no key set to undefined for a field the log did not give.
    expect(without("kept")).toStrictEqual({ ...defaults, kept: [] });
    expect(without("dropped", null)).toEqual({ ...defaults, dropped: [] });
    expect(without("added")).toEqual(defaults);
    expect(without("reinstated", null)).toEqual(defaults);
    expect(without("forced_choice")).toEqual(defaults);
    expect(without("detail")).toEqual({ ...defaults, detail: "" });
    expect(without("degraded", null)).toEqual(defaults);
    expect(without("reasons", null)).toEqual(defaults);
    // A copy keeps what was logged of degraded and reasons.
    expect(records({ stage: "s", action: "error", degraded: false, reasons: { a: "r" } })).toEqual([
      loggedRecord("s", "error", { degraded: false, reasons: { a: "r" } }),
    ]);
    expect(records({ stage: "s", action: "force", forced_choice: "a" })[0]).toMatchObject({
      forced_choice: "a",
    });
  });

  it("names the record, its stage and what was found for each wrong field", () => {
    expect(problem({ trace: [complete, { action: "select" }] })).toBe(
      "trace record 1: 'stage' must be a string, found nothing",
    );
    expect(problem({ trace: [{ stage: "a", action: 3 }] })).toBe(
      "trace record 0 (stage 'a'): 'action' must be one of abstain, select, force, error, found a number",
    );
    expect(problem({ trace: [{ stage: "a", action: "select", detail: 1 }] })).toBe(
      "trace record 0 (stage 'a'): 'detail' must be a string, found a number",
    );
    expect(problem({ trace: [{ stage: "a", action: "select", reasons: [] }] })).toBe(
      "trace record 0 (stage 'a'): 'reasons' must be an object of tool name → reason, found a list",
    );
    expect(problem({ trace: [{ stage: "a", action: "select", reinstated: {} }] })).toBe(
      "trace record 0 (stage 'a'): 'reinstated' must be a list of tool names, found an object",
    );
    expect(problem({ trace: [{ stage: "a", action: "select", added: [null] }] })).toBe(
      "trace record 0 (stage 'a'): 'added' must be a list of tool names, found null at position 0",
    );
  });
});

describe("validateTrace: the trace's own fields", () => {
  const read = (candidate: Record<string, unknown>) => {
    const result = validateTrace({ trace: [], ...candidate });
    if ("problem" in result) throw new Error(result.problem);
    return result.trace;
  };

  it("takes the first time and id key that is set, in the documented order", () => {
    expect(read({ ts: null, time: "b", timestamp: "c", "@timestamp": "d" }).time).toBe("b");
    expect(read({ timestamp: 3, "@timestamp": "d" }).time).toBe(3);
    expect(read({ "@timestamp": "d" }).time).toBe("d");
    expect(read({ turn_id: null, request_id: "r", trace_id: "t" }).id).toBe("r");
    expect(read({ trace_id: "t" }).id).toBe("t");
    // The trace's own time and id win over the context's.
    const result = validateTrace(
      { trace: [], time: "own", turn_id: 0 },
      { time: "ctx", id: "ctx" },
    );
    expect("trace" in result && [result.trace.time, result.trace.id]).toEqual(["own", 0]);
  });

  it("reads an error's missing parts as their defaults, and refuses wrong ones", () => {
    expect(read({ error: {} }).error).toEqual({
      kind: "ForcedToolUnavailable",
      message: "",
      tool: null,
    });
    expect(read({ error: { kind: "Other", message: null, tool: null } }).error).toEqual({
      kind: "Other",
      message: "",
      tool: null,
    });
    expect(problem({ error: { kind: 1 } })).toBe("'error.kind' must be a string, found a number");
    expect(problem({ error: { message: false } })).toBe(
      "'error.message' must be a string, found false",
    );
    expect(problem({ error: { tool: 2 } })).toBe(
      "'error.tool' must be a tool name or null, found a number",
    );
  });

  it("reads a turn's set fields, leaves out its null ones, and refuses wrong ones", () => {
    expect(read({ turn: { query: null, role: "r", state: null, messages: null } }).turn).toEqual({
      role: "r",
    });
    expect(read({ turn: { query: "q" } }).turn).toEqual({ query: "q" });
    expect(read({ turn: null }).turn).toBeNull();
    expect(problem({ turn: [] })).toBe("'turn' must be an object, found a list");
    expect(problem({ turn: { query: 1 } })).toBe("'turn.query' must be a string, found a number");
    expect(problem({ turn: { role: {} } })).toBe("'turn.role' must be a string, found an object");
    expect(problem({ turn: { messages: {} } })).toBe(
      "'turn.messages' must be a list, found an object",
    );
  });

  it("refuses a turn or a tool nested deeper than the limit, and takes one at the limit", () => {
    const nested = (depth: number) => {
      let value: unknown = 1;
      for (let i = 0; i < depth; i++) value = { v: value };
      return value;
    };
    // The turn is depth 0, so what it holds starts at depth 1.
    expect(read({ turn: { state: nested(MAX_VALUE_DEPTH) } }).turn).not.toBeNull();
    expect(problem({ turn: { state: nested(MAX_VALUE_DEPTH + 1) } })).toBe(
      "'turn' is nested deeper than 64 levels",
    );
    expect(read({ turn: { messages: [nested(MAX_VALUE_DEPTH - 1)] } }).turn).not.toBeNull();
    expect(problem({ turn: { messages: [nested(MAX_VALUE_DEPTH)] } })).toBe(
      "'turn' is nested deeper than 64 levels",
    );
    // A tool is depth 0 itself.
    expect(read({ tools: [{ name: "a", x: nested(MAX_VALUE_DEPTH) }] }).tools).toHaveLength(1);
    expect(problem({ offered: ["a", { name: "b", x: nested(MAX_VALUE_DEPTH + 1) }] })).toBe(
      "'offered' position 1 is nested deeper than 64 levels",
    );
  });

  it("counts a tool object by its name against the limit of names", () => {
    const many = Array.from({ length: MAX_TRACE_NAMES }, (_, i) => `t${i}`);
    const asObjects = many.map((name) => ({ name }));
    expect(read({ offered: many, tools: asObjects }).tools).toHaveLength(MAX_TRACE_NAMES);
    expect(problem({ offered: many, tools: [...asObjects, { name: "one more" }] })).toBe(
      "the trace names 10,001 different tools; the limit is 10,000",
    );
    // Names counted in every list of every record.
    const half = many.slice(0, MAX_TRACE_NAMES / 2);
    const record = (kept: string[], dropped: string[]) => ({
      stage: "s",
      action: "select",
      kept,
      dropped,
      added: ["x"],
      reinstated: ["y"],
    });
    expect(problem({ trace: [record(half, many.slice(MAX_TRACE_NAMES / 2))] })).toBe(
      "the trace names 10,002 different tools; the limit is 10,000",
    );
  });
});

describe("describe", () => {
  it("names each kind of value for a problem sentence", () => {
    expect(
      [undefined, null, [], "x", 1, true, false, {}, 1n].map((value) => describeValue(value)),
    ).toEqual([
      "nothing",
      "null",
      "a list",
      "a string",
      "a number",
      "true",
      "false",
      "an object",
      "bigint",
    ]);
  });
});
