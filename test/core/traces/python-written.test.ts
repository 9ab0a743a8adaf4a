/**
 * Logs written by Python (test/python/written_cases.py), each a way a trace may be lost or misread:
 * the scan finds what Python logged, where it logged it, and a problem exactly on the lines
 * Python cut or nested too deep.
 */
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { readBack, type Logged } from "./python-written.js";

const run = spawnSync("python3", ["test/python/written_cases.py"], {
  encoding: "utf8",
  maxBuffer: 64 * 1024 * 1024,
});
const CASES = JSON.parse(run.stdout) as Record<string, Logged>;

describe("logs written by Python", () => {
  it("are written by python3 without an error", () => {
    expect(run.stderr).toBe("");
  });

  it.each(Object.keys(CASES))("%s: what Python logged is what the scan reads", (name) => {
    const logged = CASES[name]!;
    const read = readBack(logged.log);
    expect({ traces: read.traces, problems: read.problems }, read.messages.join("\n")).toEqual({
      traces: logged.traces,
      problems: logged.problems,
    });
  });
});

describe("a Python repr cut off inside a string", () => {
  it("is a problem at its line saying the repr is not closed, and a good trace after it is found", () => {
    const read = readBack(CASES.a_repr_cut_inside_a_string!.log);
    expect(read.messages).toEqual([
      expect.stringMatching(
        /^1: truncated Python repr: the call SelectionResult\(…\) opened at column \d+ is not closed$/,
      ),
    ]);
    expect(read.traces.map((t) => [t.line, t.names])).toEqual([[3, ["g"]]]);
  });
});
