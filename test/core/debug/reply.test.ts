import { describe, expect, it } from "vitest";
import { MAX_VALUE_CHARS } from "../../../src/core/debug/probe.js";
import {
  probeOutput,
  readInspectReply,
  type EvaluateReply,
} from "../../../src/core/debug/reply.js";

/** A reply as debugpy gives it for the probe's str result (rawString: the text itself). */
const reply = (value: Record<string, unknown>): EvaluateReply => ({
  result: JSON.stringify({ palette_inspector: 1, ...value }),
  type: "str",
});
const TRACE = { trace: [{ stage: "s", action: "select", kept: ["a"], dropped: ["b"] }] };

describe("reading the probe's reply", () => {
  it("an answer of another Python type is that type's evaluation error, with the text as message", () => {
    expect(probeOutput({ result: "division by zero", type: "ZeroDivisionError" })).toEqual({
      ok: false,
      problem: { kind: "evaluation", pythonType: "ZeroDivisionError", message: "division by zero" },
    });
  });

  it("an adapter that sends no type is read as a string", () => {
    expect(probeOutput({ result: JSON.stringify({ palette_inspector: 1, x: 2 }) })).toEqual({
      ok: true,
      value: { palette_inspector: 1, x: 2 },
    });
  });

  it("a reply without a result is unreadable", () => {
    expect(probeOutput({ type: "str" } as unknown as EvaluateReply)).toEqual({
      ok: false,
      problem: { kind: "unreadable", message: "the reply has no result" },
    });
  });

  it("an answer past the limit and its slack is too large, read no further; one at the edge is read", () => {
    const edge = MAX_VALUE_CHARS + 1024;
    expect(probeOutput({ result: "{".padEnd(edge + 1, " "), type: "str" })).toEqual({
      ok: false,
      problem: { kind: "tooLarge", size: edge + 1 },
    });
    const padded = JSON.stringify({ palette_inspector: 1 }).padEnd(edge, " ");
    expect(probeOutput({ result: padded, type: "str" })).toEqual({
      ok: true,
      value: { palette_inspector: 1 },
    });
  });

  it("a quoted Python string, with or without a prefix in either case, asks for rawString", () => {
    for (const result of [`'{}'`, `"{}"`, `r'{}'`, `B"{}"`, `u'{}'`, `R"x"`]) {
      const read = probeOutput({ result, type: "str" });
      expect(read, result).toEqual({
        ok: false,
        problem: {
          kind: "unreadable",
          message:
            "the debugger answered with a quoted Python string; it needs debugpy's rawString format",
        },
      });
    }
  });

  it("text that is not JSON, JSON that is not an object, or an object without the probe's mark is unreadable", () => {
    const unreadable = {
      ok: false,
      problem: { kind: "unreadable", message: "the answer is not the JSON the probe writes" },
    };
    for (const result of ["x{", "[1]", "null", '{"palette_inspector": 2}', '{"kind": "trace"}'])
      expect(probeOutput({ result, type: "str" }), result).toEqual(unreadable);
  });

  it("the probe's own refusals: too large with its size, and a shape with what it found", () => {
    expect(probeOutput(reply({ kind: "too_large", size: 123 }))).toEqual({
      ok: false,
      problem: { kind: "tooLarge", size: 123 },
    });
    expect(probeOutput(reply({ kind: "too_large", size: "many" }))).toEqual({
      ok: false,
      problem: { kind: "tooLarge", size: 0 },
    });
    expect(probeOutput(reply({ kind: "shape", found: "a value of type int" }))).toEqual({
      ok: false,
      problem: { kind: "shape", found: "a value of type int" },
    });
  });
});

describe("reading an inspected value", () => {
  it("a trace the probe built from Python objects", () => {
    const read = readInspectReply(reply({ kind: "trace", trace: { ...TRACE, tools: ["a"] } }));
    expect(read.ok && read.value.records[0]).toMatchObject({ stage: "s", dropped: ["b"] });
    expect(read.ok && read.value.tools).toEqual(["a"]);
  });

  it("a trace entry that is not an object, or a record with a wrong field", () => {
    expect(readInspectReply(reply({ kind: "trace", trace: [] }))).toEqual({
      ok: false,
      problem: { kind: "unreadable", message: "no trace in the answer" },
    });
    const bad = readInspectReply(
      reply({ kind: "trace", trace: { trace: [{ stage: "s", action: "dance" }] } }),
    );
    expect(bad).toMatchObject({ ok: false, problem: { kind: "invalid" } });
    expect(!bad.ok && bad.problem.kind === "invalid" && bad.problem.message).toMatch(/dance/);
  });

  it("a dict: the first trace in it, or none, or the first one's problem", () => {
    const json = (value: unknown) => readInspectReply(reply({ kind: "json", value }));
    const nested = json({ event: "x", selection: TRACE, other: { trace: [] } });
    expect(nested.ok && nested.value.records.map((r) => r.stage)).toEqual(["s"]);
    // A value in a debuggee has no log line to take a time or id from.
    expect(nested.ok && [nested.value.time, nested.value.id]).toEqual([null, null]);
    expect(json({ a: 1 })).toEqual({ ok: false, problem: { kind: "noTrace" } });
    expect(json({ trace: [{ stage: 1 }] })).toMatchObject({
      ok: false,
      problem: { kind: "invalid" },
    });
  });

  it("a string: the first trace a log scan finds, the first problem, or none", () => {
    const text = (value: string) => readInspectReply(reply({ kind: "text", text: value }));
    const found = text(`INFO ${JSON.stringify(TRACE)}`);
    expect(found.ok && found.value.records[0]!.kept).toEqual(["a"]);
    const broken = text('{"trace": [{"stage": "s", "action": "dance", "kept": []}]}');
    expect(broken).toMatchObject({ ok: false, problem: { kind: "invalid" } });
    expect(!broken.ok && broken.problem.kind === "invalid" && broken.problem.message).toMatch(
      /dance/,
    );
    expect(text("hello")).toEqual({ ok: false, problem: { kind: "noTrace" } });
  });

  it("a string is handed whole to the caller's reader, which alone reads it; other kinds never reach it", () => {
    const handed: string[] = [];
    const readText = (text: string) => (handed.push(text), "read by the caller" as const);
    expect(readInspectReply(reply({ kind: "text", text: "INFO {} ✓" }), readText)).toBe(
      "read by the caller",
    );
    const trace = readInspectReply(reply({ kind: "trace", trace: TRACE }), readText);
    expect(trace !== "read by the caller" && trace.ok).toBe(true);
    expect(handed).toEqual(["INFO {} ✓"]);
  });

  it("a reply the probe did not write, or of a kind inspect never writes", () => {
    const unreadable = {
      ok: false,
      problem: { kind: "unreadable", message: "the answer is not the JSON the probe writes" },
    };
    expect(readInspectReply({ result: "{}", type: "str" })).toEqual(unreadable);
    expect(readInspectReply(reply({ kind: "capture" }))).toEqual(unreadable);
    expect(readInspectReply(reply({ kind: "shape", found: "x" }))).toEqual({
      ok: false,
      problem: { kind: "shape", found: "x" },
    });
  });
});
