import { describe, expect, it } from "vitest";
import { describeTrace, reportFromLoggedTrace } from "../../../src/core/traces/report.js";
import { scanText, type FoundTrace } from "../../../src/core/traces/scan.js";
import { summarizeTrace, summaryToJson } from "../../../src/core/traces/summary.js";
import { validateTrace } from "../../../src/core/traces/trace.js";
import { parseValue } from "../../../src/core/traces/value.js";

function rec(stage: string, action: string, lists: Record<string, unknown> = {}) {
  return { stage, action, kept: [], dropped: [], added: [], reinstated: [], ...lists };
}

/** The traces of a log's text, as the scanner finds them. */
function found(text: string): FoundTrace[] {
  return scanText(text).traces;
}

const line = (json: Record<string, unknown>) => `INFO selection ${JSON.stringify(json)}`;

describe("the summary of a found trace", () => {
  it("names its place, time, id, stages, final names and forced choice", () => {
    const [, , second] = found(
      [
        line({ trace: [] }),
        `${line({ trace: [rec("a", "select", { kept: ["x"], dropped: ["y"] })], tools: ["x"] })} ${JSON.stringify(
          {
            ts: 1700000000,
            turn_id: "t-1",
            trace: [
              rec("intent", "select", { kept: ["x", "y"], dropped: ["z"] }),
              rec("forced", "force", { kept: ["x", "y"], forced_choice: "y" }),
            ],
          },
        )}`,
      ].join("\n"),
    );
    const summary = summarizeTrace(second!);
    expect(summary).toEqual({
      index: 2,
      line: 2,
      offset: second!.offset,
      length: second!.length,
      ordinal: 1,
      time: 1700000000,
      id: "t-1",
      stages: [
        { stage: "intent", action: "select", dropped: ["z"] },
        { stage: "forced", action: "force", dropped: [] },
      ],
      names: ["x", "y"],
      forcedChoice: "y",
      error: false,
      degraded: false,
    });
    expect(second!.offset).toBeGreaterThan(0);
    expect(summaryToJson(summary)).toEqual({
      index: 2,
      line: 2,
      time: 1700000000,
      id: "t-1",
      stage_count: 2,
      names: ["x", "y"],
      forced_choice: "y",
    });
  });

  it("a logged forced choice and final list win over the records'", () => {
    const [trace] = found(
      line({
        trace: [rec("forced", "force", { kept: ["x", "y"], forced_choice: "y" })],
        tools: ["x"],
        forced_choice: null,
      }),
    );
    expect(summarizeTrace(trace!)).toMatchObject({ names: ["x"], forcedChoice: null });
  });

  it("without a logged final list or forced choice, takes the logged offered tools and the last record's choice", () => {
    const [offeredOnly, forced] = found(
      [
        line({ trace: [], offered: ["b", "a"] }),
        line({
          trace: [
            rec("role", "select", { kept: ["x", "y"] }),
            rec("forced", "force", { kept: ["x", "y"], forced_choice: "y" }),
            rec("audit", "abstain", { kept: ["x", "y"], forced_choice: "x" }),
          ],
        }),
      ].join("\n"),
    );
    expect(summarizeTrace(offeredOnly!)).toMatchObject({ names: ["b", "a"], forcedChoice: null });
    expect(summarizeTrace(forced!)).toMatchObject({ names: ["x", "y"], forcedChoice: "x" });
  });

  it("is degraded when a record says so or a stage raised without saying otherwise; an error is flagged", () => {
    const degraded = (records: object[], error?: object) =>
      summarizeTrace(found(line({ trace: records, ...(error ? { error } : {}) }))[0]!);
    expect(degraded([rec("a", "select", { degraded: true })]).degraded).toBe(true);
    expect(degraded([rec("a", "select"), rec("b", "error")]).degraded).toBe(true);
    expect(degraded([rec("a", "error", { degraded: false })]).degraded).toBe(false);
    expect(degraded([rec("a", "abstain")]).degraded).toBe(false);
    expect(degraded([], { kind: "X", message: "m" }).error).toBe(true);
    expect(degraded([]).error).toBe(false);
  });
});

describe("a logged trace as a report", () => {
  const trace = (json: Record<string, unknown>) => {
    const read = validateTrace(json);
    if ("problem" in read) throw new Error(read.problem);
    return read.trace;
  };
  const report = (json: Record<string, unknown>) =>
    reportFromLoggedTrace(trace(json), { kind: "fixture" }, "f", "d");

  it("an error of another kind is shown with its kind, the tool it names or the forced one, and who dropped it", () => {
    const records = [
      rec("forced", "force", { kept: ["a", "b"], forced_choice: "b" }),
      rec("policy", "select", { kept: ["a"], dropped: ["b"], forced_choice: "b" }),
    ];
    expect(report({ trace: records, error: { kind: "Boom", message: "bad" } }).error).toEqual({
      kind: "ForcedToolUnavailable",
      message: "Boom: bad",
      tool: "b",
      droppedBy: "policy",
    });
    expect(
      report({
        trace: records,
        error: { kind: "ForcedToolUnavailable", message: "gone", tool: "a" },
      }).error,
    ).toEqual({ kind: "ForcedToolUnavailable", message: "gone", tool: "a", droppedBy: null });
    expect(report({ trace: [], error: { kind: "Boom", message: "m" } }).error).toMatchObject({
      tool: "",
      droppedBy: null,
    });
  });

  it("rebuilds the final list from the logged offered tools, and the offered from the logged final list", () => {
    expect(report({ trace: [], offered: ["b", "a"] })).toMatchObject({
      offered: ["b", "a"],
      names: ["b", "a"],
      tools: ["b", "a"],
    });
    expect(report({ trace: [], tools: ["b", "a"] })).toMatchObject({
      offered: ["b", "a"],
      names: ["b", "a"],
    });
  });

  it("the forced choice is the logged one, else the last record's", () => {
    const records = [rec("forced", "force", { kept: ["a"], forced_choice: "a" })];
    expect(report({ trace: records }).forcedChoice).toBe("a");
    expect(report({ trace: records, forced_choice: null }).forcedChoice).toBeNull();
    expect(report({ trace: [] }).forcedChoice).toBeNull();
  });

  it("describes a trace by number and line, then its id and time when it has them", () => {
    const [plain, full] = found(
      `${line({ trace: [] })}\n${line({ trace: [], turn_id: 7, time: 1.5 })}`,
    );
    expect(describeTrace(plain!)).toBe("#1 · line 1");
    expect(describeTrace(full!)).toBe("#2 · line 2 · id 7 · 1.5");
  });
});

describe("one bracketed value", () => {
  it("reads JSON, then a Python repr", () => {
    const text = `x {"a": [1, null]} ['b', None, True]`;
    expect(parseValue(text, 2, 18, false)).toEqual({ value: { a: [1, null] } });
    expect(parseValue(text, 19, text.length, false)).toEqual({ value: ["b", null, true] });
    expect(parseValue("x {'a': 1}", 2, 10, false)).toEqual({ value: { a: 1 } });
  });

  it("JSON-only values report the JSON error at its column of the line", () => {
    const text = `log: {"a": 1,, "b": 2}`;
    const read = parseValue(text, 5, text.length, true);
    expect(read).toEqual({ problem: expect.stringMatching(/^invalid JSON: .* at column 14/) });
    const far = `log: {"a": 1, "bbbbbbbb": 2,, "c": 3}`;
    expect(parseValue(far, 5, far.length, true)).toEqual({
      problem: expect.stringMatching(/^invalid JSON: .* at column 29$/),
    });
  });

  it("reads an object or a list as JSON where JSON and a repr differ; anything else as a repr", () => {
    // `\/` is `/` in JSON and stays `\/` in a Python string.
    const whole = (text: string) => parseValue(text, 0, text.length, false);
    expect(whole('[1, "\\/"]')).toEqual({ value: [1, "/"] });
    expect(whole('{"a": "\\/"}')).toEqual({ value: { a: "/" } });
    expect(whole('("\\/",)')).toEqual({ value: ["\\/"] });
    // A value that cannot be JSON is read as a repr even where its markers are JSON keys.
    expect(parseValue("(1,)", 0, 4, true)).toEqual({ value: [1] });
  });

  it("a value neither JSON nor a repr says what is wrong with the repr", () => {
    const read = parseValue("{'a': }", 0, 7, false);
    expect(read).toEqual({ problem: expect.stringMatching(/^invalid Python repr: /) });
  });
});
