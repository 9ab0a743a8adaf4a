import { describe, expect, it } from "vitest";
import type { ReportOrigin, RunReport } from "../../src/core/report.js";
import { comparedSides, comparisonTitle, runName } from "../../src/extension/panel/sides.js";

const run = (origin: ReportOrigin, file: string) => ({ origin, file }) as RunReport;
const log = (line: number, index: number, file = "file:///ws/logs/agent.log") =>
  run({ kind: "log", line, index }, file);
const debug = (expression: string, frame: string) =>
  run({ kind: "debug", session: "agent", frame, expression }, "/ws/agent.py");

describe("the sides of a comparison", () => {
  it("names a run by what it is: a fixture by its file, a trace by file and number, a debug value by its expression", () => {
    expect(runName(run({ kind: "fixture" }, "/ws/fixtures/my-first.turn.json"))).toBe(
      "my-first.turn.json",
    );
    expect(runName(log(40, 5))).toBe("agent.log #6");
    expect(runName(debug("result", "turn (agent.py:52)"))).toBe("result (debug value)");
  });

  it("names a replay after what it replays, and titles its tab just 'replay'", () => {
    const sides = comparedSides(
      log(12, 2),
      run({ kind: "fixture" }, "file:///ws/logs/agent.log"),
      true,
    );
    expect(sides).toEqual({ names: ["agent.log #3", "replay of agent.log #3"], replay: true });
    expect(comparisonTitle(sides)).toBe("agent.log #3 ↔ replay");
  });

  it("a debug value against a fixture's run names the expression and the fixture's file", () => {
    const sides = comparedSides(
      debug("result", "turn (agent.py:52)"),
      run({ kind: "fixture" }, "/ws/my-first.turn.json"),
      false,
    );
    expect(sides.names).toEqual(["result (debug value)", "my-first.turn.json"]);
    expect(comparisonTitle(sides)).toBe("result (debug value) ↔ my-first.turn.json");
  });

  it("never gives both sides one name: the frame, the line or the folder tells them apart", () => {
    expect(
      comparedSides(
        debug("result", "turn (agent.py:52)"),
        debug("result", "turn (agent.py:60)"),
        false,
      ).names,
    ).toEqual([
      "result (debug value) at turn (agent.py:52)",
      "result (debug value) at turn (agent.py:60)",
    ]);
    expect(
      comparedSides(log(3, 0, "/ws/a/agent.log"), log(9, 0, "/ws/b/agent.log"), false).names,
    ).toEqual(["agent.log #1 (line 3)", "agent.log #1 (line 9)"]);
    expect(
      comparedSides(
        run({ kind: "fixture" }, "/ws/a/t.turn.json"),
        run({ kind: "fixture" }, "/ws/b/t.turn.json"),
        false,
      ).names,
    ).toEqual(["t.turn.json in a", "t.turn.json in b"]);
  });
});
