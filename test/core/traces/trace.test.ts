import { describe, expect, it } from "vitest";
import { isTraceCandidate, validateTrace } from "../../../src/core/traces/trace.js";

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

  it("tells a logged forced choice of null from none logged, and takes a context's time and id", () => {
    const logged = validateTrace({ trace: [] }, { time: "t", id: "i" });
    expect(logged).toEqual({
      trace: {
        records: [],
        tools: null,
        offered: null,
        error: null,
        turn: null,
        time: "t",
        id: "i",
      },
    });
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
