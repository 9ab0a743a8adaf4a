import { readFileSync } from "node:fs";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  debug,
  debugFake,
  DebugStackFrame,
  DebugThread,
  fake,
  FakeDebugSession,
  Uri,
  webviewFake,
  type FakeWebviewPanel,
} from "../fakes/vscode.js";
import { DebugCommands, expressionOf } from "../../src/extension/debug/commands.js";
import type { DebugFailure } from "../../src/extension/debug/frame.js";
import {
  EVALUATE_TIMEOUT_MS,
  evaluateInFrame,
  pausedPythonFrame,
} from "../../src/extension/debug/frame.js";
import type { DebugInspection } from "../../src/extension/debug/inspection.js";
import { readExpression, watchProgramMoves } from "../../src/extension/debug/inspection.js";
import { problemFailure } from "../../src/extension/debug/problems.js";
import { captureExpression, PROBE_SECONDS } from "../../src/core/debug/probe.js";
import type { DebugProblem } from "../../src/core/debug/reply.js";
import { TracePanels } from "../../src/extension/panel/panels.js";
import type { ToWebview } from "../../src/protocol.js";
import { AGENT_PRELUDE, evaluateIn } from "../core/debug/python.js";
import { writtenRecord } from "../builders/logged.js";
import * as logFile from "../../src/node/log-file.js";

// The workspace is the fake's in-memory disk; the real writer is tested in chosen-file.test.ts.
vi.mock("../../src/extension/chosen-file.js", () => import("../fakes/chosen-file.js"));

// Spied on to see that a debuggee's string is scanned in the worker thread, not on the host's.
vi.mock("../../src/node/log-file.js", async (original) => {
  const real = await original<typeof logFile>();
  return { ...real, scanTextOffThread: vi.fn(real.scanTextOffThread) };
});

/** The paused frame the adapter evaluates in: real Python, as debugpy would. */
let frameSetup = "";
const TURN = `
    result = ToolSelectionPipeline([LazyRoutingStage(allowed_names=["a"]), ForcedChoiceStage()]).run(["a", "b"], SelectionContext())
    return locals()`;

function pythonSession(name = "agent", type = "debugpy"): FakeDebugSession {
  return new FakeDebugSession("s1", name, type, async (command, args) => {
    if (command === "stackTrace")
      return {
        stackFrames: [
          { id: 2, name: "turn", line: 52, source: { path: "vscode-remote://h:1/w/agent.py" } },
        ],
      };
    const { expression } = args as { expression: string };
    return evaluateIn(frameSetup, expression, AGENT_PRELUDE);
  });
}

const inspect = (arg: unknown) =>
  fake.commands.get("paletteInspector.inspectVariable")!(arg) as Promise<void>;
const variable = (evaluateName: string) => ({
  sessionId: "s1",
  container: { name: "Locals", variablesReference: 4 },
  variable: { name: evaluateName, value: "…", variablesReference: 7, evaluateName },
});
const errors = () => fake.shown.filter((shown) => shown.kind === "error").map((s) => s.message);
const posted = (panel: FakeWebviewPanel) => panel.webview.posted as ToWebview[];

let panels: TracePanels;
beforeEach(() => {
  fake.reset();
  webviewFake.reset();
  debugFake.reset();
  frameSetup = TURN;
  panels = new TracePanels(Uri.file("/ext") as never, (() => {}) as never);
  new DebugCommands(panels).register();
});
afterEach(() => panels.dispose());

describe("Inspect in Palette Inspector", () => {
  it("opens the value's waterfall with its session, frame and expression, and marks it stale when the program moves on", async () => {
    const session = pythonSession();
    debugFake.focus(new DebugStackFrame(session, 1, 2));
    await inspect(variable("result"));
    expect(errors()).toEqual([]);
    const panel = webviewFake.panels.at(-1)!;
    expect(panel.title).toBe("Selection Trace: result");
    panel.webview.receive({ type: "ready", edit: {} });
    await vi.waitFor(() => expect(panel.webview.posted).toHaveLength(1));
    const show = posted(panel)[0]!;
    if (show.type !== "show") throw new Error(show.type);
    expect(show.view.report.origin).toEqual({
      kind: "debug",
      session: "agent",
      frame: "turn (agent.py:52)",
      expression: "result",
    });
    expect(show.view.report.trace.map((record) => record.stage)).toEqual(["lazy", "forced"]);
    expect(show.view.report.names).toEqual(["a"]);
    expect(show.view.stale).toBe(false);
    // The evaluate asked for the raw string, in the focused frame.
    expect(session.requests.find((r) => r.command === "evaluate")?.args).toMatchObject({
      frameId: 2,
      context: "clipboard",
      format: { rawString: true },
    });

    // Continue: the value is stale; Refresh with nothing paused keeps it, still stale, with no error.
    debugFake.message(session as never, { type: "request", command: "continue" });
    await vi.waitFor(() => expect(posted(panel).at(-1)).toMatchObject({ view: { stale: true } }));
    debugFake.focus(new DebugThread(session, 1));
    const beforeRefresh = posted(panel).length;
    panel.webview.receive({ type: "debugAction", action: "refresh" });
    expect(posted(panel).at(-1)).toMatchObject({ view: { stale: true } });

    // Paused again (the same frame id, a new turn): Refresh reads the new value.
    frameSetup = TURN.replace('allowed_names=["a"]', 'allowed_names=["b"]');
    debugFake.focus(new DebugStackFrame(session, 1, 2));
    panel.webview.receive({ type: "debugAction", action: "refresh" });
    await vi.waitFor(() =>
      expect(posted(panel).at(-1)).toMatchObject({
        view: { stale: false, report: { names: ["b"] } },
      }),
    );
    // The refresh with nothing paused ended before this one read the debuggee: no error, no post.
    expect(errors()).toEqual([]);
    expect(posted(panel)).toHaveLength(beforeRefresh + 1);
  });

  it("Turn into Fixture, Copy as Markdown and Compare with its replay, from the panel", async () => {
    fake.workspaceFolders.push({ uri: Uri.file("/ws"), name: "ws", index: 0 });
    debugFake.focus(new DebugStackFrame(pythonSession(), 1, 2));
    await inspect(variable("result"));
    const panel = webviewFake.panels.at(-1)!;
    panel.webview.receive({ type: "ready", edit: {} });
    await vi.waitFor(() => expect(panel.webview.posted).toHaveLength(1));

    panel.webview.receive({ type: "copyMarkdown", requestId: 1, run: "shown" });
    await vi.waitFor(() =>
      expect(fake.clipboard).toMatch(/^### Selection trace: result in turn \(agent\.py:52\)/),
    );

    fake.answers.saveDialog.push(Uri.file("/ws/result.turn.json"));
    panel.webview.receive({ type: "debugAction", action: "turnIntoFixture" });
    await vi.waitFor(() => expect(fake.files.has("file:///ws/result.turn.json")).toBe(true));
    const written = JSON.parse(fake.files.get("file:///ws/result.turn.json")!);
    expect(written.pipeline.map((stage: { kind: string }) => stage.kind)).toEqual([
      "scripted",
      "scripted",
    ]);
    expect(written.description).toBe(
      "replay of result read in turn (agent.py:52), debug session agent",
    );
    expect(written.expect).toEqual({ names: ["a"], forced_choice: null });

    fake.answers.quickPick.push((items: { label: string }[]) =>
      items.find((item) => item.label === "Its replay"),
    );
    panel.webview.receive({ type: "debugAction", action: "compare" });
    await vi.waitFor(() =>
      expect(webviewFake.panels.at(-1)!.title).toBe(
        "Selection Trace: result (debug value) ↔ replay",
      ),
    );
    expect(errors()).toEqual([]);
  });

  it("takes the expression from a Variables or Watch argument", () => {
    expect(expressionOf(variable("result.trace[0]"))).toBe("result.trace[0]");
    expect(expressionOf({ variable: { name: "x" } })).toBeUndefined();
    expect(expressionOf({ expression: "big" })).toBe("big");
    expect(expressionOf(undefined)).toBeUndefined();
  });
});

describe("what it says when it cannot read a value (and nothing else happens)", () => {
  async function refused(arg: unknown = variable("result")): Promise<string> {
    await inspect(arg);
    expect(webviewFake.panels).toEqual([]);
    expect(errors()).toHaveLength(1);
    return errors()[0]!;
  }

  it("no debug session", async () => {
    expect(await refused()).toMatch(
      /^Palette Inspector: No debug session: start debugging a Python program/,
    );
  });

  it("a session of another type, named with hostile text", async () => {
    debugFake.focus(new DebugStackFrame(pythonSession("[x](command:evil)", "node"), 1, 2));
    const message = await refused();
    expect(message).toMatch(
      /is of type node; Palette Inspector reads values from Python \(debugpy\) sessions\.$/,
    );
    expect(message).not.toMatch(/\]\(/);
  });

  it("not paused", async () => {
    debugFake.focus(new DebugThread(pythonSession(), 1));
    expect(await refused()).toMatch(/The program is running: pause it at a breakpoint/);
  });

  it("a name that does not exist", async () => {
    debugFake.focus(new DebugStackFrame(pythonSession(), 1, 2));
    expect(await refused(variable("reslt"))).toBe(
      "Palette Inspector: Python could not evaluate reslt in the paused frame (NameError). Is the name in scope here?",
    );
  });

  it("an object of another shape", async () => {
    debugFake.focus(new DebugStackFrame(pythonSession(), 1, 2));
    expect(await refused(variable("result.tools"))).toMatch(
      /^Palette Inspector: result.tools is a tuple of 1 item that is not a StageRecord; expected a SelectionResult, a StageRecord/,
    );
  });

  it("a value too large", async () => {
    const session = pythonSession();
    session.answer = async () => ({
      type: "str",
      result: '{"palette_inspector": 1, "kind": "too_large", "size": 60000000}',
    });
    debugFake.focus(new DebugStackFrame(session, 1, 2));
    expect(await refused()).toMatch(
      /result is too large to inspect: 60000000 characters as JSON, more than the limit of 52428800 \(50 MB\)/,
    );
  });

  it("waits longer for the adapter than the probe gives itself, so the probe stops first", () => {
    expect(EVALUATE_TIMEOUT_MS).toBeGreaterThanOrEqual(PROBE_SECONDS * 1000 + 5_000);
  });

  it("a debug adapter that never answers: a timeout, or Cancel", async () => {
    const session = pythonSession();
    session.answer = () => new Promise(() => {});
    debugFake.focus(new DebugStackFrame(session, 1, 2));
    const frame = await pausedPythonFrame();
    await expect(evaluateInFrame(frame, "x", "result", 100)).rejects.toThrow(
      "The debug adapter did not answer within 0.1 s while reading result; nothing was read.",
    );
    const waiting = evaluateInFrame(frame, "x", "result", 60_000);
    await vi.waitFor(() => expect(fake.progress).toHaveLength(2));
    expect(fake.progress[1]!.title).toBe("Reading result from the debug session…");
    fake.progress[1]!.cancel();
    await expect(waiting).rejects.toThrow("Stopped waiting for result; nothing was read.");
  }, 15_000);

  it("lets go of its timeout and of Cancel once the adapter answers", async () => {
    const session = pythonSession();
    session.answer = async () => ({ type: "str", result: "ok" });
    debugFake.focus(new DebugStackFrame(session, 1, 2));
    const frame = await pausedPythonFrame();
    vi.useFakeTimers();
    try {
      const timers = vi.getTimerCount();
      expect(await evaluateInFrame(frame, "x", "result")).toEqual({ type: "str", result: "ok" });
      expect(vi.getTimerCount()).toBe(timers);
      expect(fake.progress.map((p) => p.cancelListeners)).toEqual([0]);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe("the message for each kind of unreadable value", () => {
  const WANTED =
    "expected a SelectionResult, a StageRecord or a sequence of them, an exception carrying one, or a dict or JSON string in the log trace format.";
  it.each([
    [
      { kind: "evaluation", pythonType: "KeyError", message: "'k'" },
      "Python could not evaluate x in the paused frame (KeyError). Is the name in scope here?",
      ["'k'"],
    ],
    [{ kind: "shape", found: "an int" }, `x is an int; ${WANTED}`, ["an int"]],
    [
      { kind: "tooLarge", size: 9 },
      "x is too large to inspect: 9 characters as JSON, more than the limit of 52428800 (50 MB).",
      [],
    ],
    [
      { kind: "invalid", message: "trace[0].kept: not a list" },
      `x has the shape of a selection but a field is wrong (the log names it); ${WANTED}`,
      ["trace[0].kept: not a list"],
    ],
    [{ kind: "noTrace" }, `x holds no selection trace; ${WANTED}`, []],
    [
      { kind: "tooManyValues", values: 500000 },
      "x is too large to inspect: the probe stopped after reading 500000 values (a structure nested, shared or cyclic beyond that); nothing was read.",
      [],
    ],
    [
      { kind: "timedOut", seconds: 20 },
      "Reading x took more than 20 s in the debuggee, so the probe stopped and the program stays paused; nothing was read.",
      [],
    ],
    [
      { kind: "unreadable", message: "no JSON" },
      "Cannot read x: the debug adapter's answer is not what Palette Inspector expects (it needs debugpy).",
      ["no JSON"],
    ],
  ] as [DebugProblem, string, string[]][])("%j", (problem, text, details) => {
    const failure = problemFailure("x", problem);
    expect([failure.notice.text, failure.details, failure.level]).toEqual([text, details, "error"]);
  });
});

describe("the paused frame", () => {
  const answering = (stackTrace: () => Promise<unknown>, type = "debugpy") =>
    new FakeDebugSession("s1", "agent", type, async (command) =>
      command === "stackTrace" ? stackTrace() : { type: "str", result: "ok" },
    );
  const labelOf = async (stackTrace: () => Promise<unknown>) => {
    debugFake.focus(new DebugStackFrame(answering(stackTrace), 3, 7));
    return (await pausedPythonFrame()).label;
  };

  it("is named by the adapter's stack trace, as well as it says", async () => {
    const frame = (f: object) => async () => ({ stackFrames: [{ id: 1 }, { id: 7, ...f }] });
    expect(await labelOf(frame({ name: "turn", line: 4, source: { path: "C:\\w\\a.py" } }))).toBe(
      "turn (a.py:4)",
    );
    expect(await labelOf(frame({ name: "turn", source: { name: "b.py" } }))).toBe("turn (b.py:0)");
    expect(await labelOf(frame({ line: 4 }))).toBe("frame");
    expect(await labelOf(async () => ({ stackFrames: [{ id: 1, name: "other" }] }))).toBe(
      "frame 7",
    );
    expect(await labelOf(async () => ({}))).toBe("frame 7");
    expect(await labelOf(() => Promise.reject(new Error("gone")))).toBe("frame 7");
    const session = debug.activeDebugSession!;
    expect(session.requests.at(-1)).toEqual({
      command: "stackTrace",
      args: { threadId: 3, startFrame: 0, levels: 50 },
    });
  });

  it("is not waited for long when the adapter hangs on the stack trace", async () => {
    vi.useFakeTimers();
    try {
      const label = labelOf(() => new Promise(() => {}));
      await vi.advanceTimersByTimeAsync(1_999);
      let settled = false;
      label.then(
        () => (settled = true),
        () => (settled = true),
      );
      await vi.advanceTimersByTimeAsync(0);
      expect(settled).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      expect(await label).toBe("frame 7");
    } finally {
      vi.useRealTimers();
    }
  });

  it("is read from a session of the older 'python' type too, and only when one is paused", async () => {
    debugFake.focus(
      new DebugStackFrame(
        answering(async () => ({}), "python"),
        3,
        7,
      ),
    );
    // The focused frame's own session counts, whichever session is active.
    debug.activeDebugSession = new FakeDebugSession("s9", "web", "node", async () => ({}));
    expect(await pausedPythonFrame()).toMatchObject({ frameId: 7, threadId: 3 });
    debug.activeDebugSession = (debug.activeStackItem as DebugStackFrame).session;
    debug.activeStackItem = undefined;
    await expect(pausedPythonFrame()).rejects.toThrow(/^The program is running: pause it/);
  });

  it("says why an evaluation failed: the program ran on, or the adapter refused", async () => {
    const session = answering(async () => ({}));
    debugFake.focus(new DebugStackFrame(session, 3, 7));
    const frame = await pausedPythonFrame();
    const failure = async (reason: unknown) => {
      session.answer = () => Promise.reject(reason);
      return evaluateInFrame(frame, "x", "result").then(
        () => expect.fail("it read a value"),
        (error: DebugFailure) => [error.message, error.details, error.level],
      );
    };
    expect(await failure(new Error("Unable to find thread 3"))).toEqual([
      "The program is running again: pause it where result is in scope, then try again.",
      ["Unable to find thread 3"],
      "error",
    ]);
    expect(await failure("Thread is not paused")).toEqual([
      "The program is running again: pause it where result is in scope, then try again.",
      ["Thread is not paused"],
      "error",
    ]);
    expect((await failure(new Error("thread not stopped")))[0]).toMatch(/^The program is running/);
    expect(await failure(new Error("no evaluate here"))).toEqual([
      "The debug adapter could not evaluate result.",
      ["no evaluate here"],
      "error",
    ]);
    session.answer = () => new Promise(() => {});
    const waiting = evaluateInFrame(frame, "x", "result");
    await vi.waitFor(() => expect(fake.progress).toHaveLength(5));
    fake.progress[4]!.cancel();
    await expect(waiting).rejects.toMatchObject({ level: "info", details: [] });
  });
});

describe("an inspected value over time", () => {
  async function inspected() {
    const session = pythonSession();
    debugFake.focus(new DebugStackFrame(session, 1, 2));
    await inspect(variable("result"));
    const debugSession = panels.open.at(-1)!.source as { inspection: DebugInspection };
    const { inspection } = debugSession;
    let changes = 0;
    inspection.onDidChange(() => changes++);
    return { session, inspection, changes: () => changes };
  }

  it("a string holding a log line is scanned for its trace in the worker thread", async () => {
    const line = `INFO ${JSON.stringify({ trace: [{ stage: "s", action: "select", kept: ["a"], dropped: ["b"] }] })}`;
    frameSetup = `    line = ${JSON.stringify(line)}\n    return locals()`;
    debugFake.focus(new DebugStackFrame(pythonSession(), 1, 2));
    const scans = vi.mocked(logFile.scanTextOffThread);
    scans.mockClear();
    const read = await readExpression("line");
    expect(read.trace.records.map((record) => [record.stage, record.kept])).toEqual([["s", ["a"]]]);
    expect(scans.mock.calls).toEqual([[line, { limit: 1 }]]);
  });

  it("is named after the file of its frame, or the session when the frame has no place", async () => {
    const { inspection } = await inspected();
    expect(inspection.report.file).toBe("agent.py");
    // The panel's header already says where the value came from.
    expect(inspection.report.description).toBe("");
    const session = pythonSession();
    session.answer = async (command, args) =>
      command === "stackTrace"
        ? {}
        : evaluateIn(frameSetup, (args as { expression: string }).expression, AGENT_PRELUDE);
    debugFake.focus(new DebugStackFrame(session, 1, 2));
    const read = await readExpression("result");
    expect([read.frame.label, read.report.file]).toEqual(["frame 2", "agent"]);
  });

  it("goes stale once, when its own session moves, focuses elsewhere or ends; other sessions do not count", async () => {
    const { session, inspection, changes } = await inspected();
    const other = pythonSession("other");
    Object.assign(other, { id: "s2" });
    debugFake.message(other, { type: "request", command: "continue" });
    debugFake.focus(new DebugStackFrame(session, 1, 2));
    debugFake.terminated.fire(other);
    expect([inspection.stale, changes()]).toEqual([false, 0]);
    debugFake.focus(new DebugStackFrame(other, 1, 2));
    expect([inspection.stale, changes()]).toEqual([true, 1]);
    debugFake.focus(new DebugStackFrame(session, 1, 3));
    debugFake.terminated.fire(session);
    expect(changes()).toBe(1);
    await inspection.refresh();
    expect([inspection.stale, changes()]).toEqual([false, 2]);
    // Refreshed in frame 3, frame 3 is its own; frame 2 no longer is.
    debugFake.focus(new DebugStackFrame(session, 1, 3));
    expect([inspection.stale, changes()]).toEqual([false, 2]);
    debugFake.focus(new DebugStackFrame(session, 1, 2));
    expect([inspection.stale, changes()]).toEqual([true, 3]);
    await inspection.refresh();
    debugFake.terminated.fire(session);
    expect([inspection.stale, changes()]).toEqual([true, 5]);
  });

  it("Refresh with nothing paused marks a current value stale", async () => {
    const { inspection, changes } = await inspected();
    debug.activeStackItem = undefined;
    await inspection.refresh();
    expect([inspection.stale, changes()]).toEqual([true, 1]);
  });

  it("takes the file from the frame label's last place, whatever the function's name holds", async () => {
    const session = pythonSession();
    session.answer = async (command, args) =>
      command === "stackTrace"
        ? { stackFrames: [{ id: 2, name: "f (x.py:1)", line: 9, source: { path: "/w/agent.py" } }] }
        : evaluateIn(frameSetup, (args as { expression: string }).expression, AGENT_PRELUDE);
    debugFake.focus(new DebugStackFrame(session, 1, 2));
    expect((await readExpression("result")).report.file).toBe("agent.py");
  });

  it("stops listening once disposed", async () => {
    const { session, inspection, changes } = await inspected();
    inspection.dispose();
    debugFake.focus(new DebugThread(session, 1));
    debugFake.terminated.fire(session);
    expect([inspection.stale, changes()]).toEqual([false, 0]);
  });
});

describe("what counts as the program moving on", () => {
  it("a resuming request, a continued or stopped event, from either kind of Python session", () => {
    const { event, disposables } = watchProgramMoves();
    const moves: string[] = [];
    event((id) => moves.push(id));
    const session = (type: string) => new FakeDebugSession(type, type, type, async () => ({}));
    for (const command of [
      "continue",
      "next",
      "stepIn",
      "stepOut",
      "stepBack",
      "reverseContinue",
      "goto",
      "restartFrame",
      "restart",
    ])
      debugFake.message(session("debugpy"), { type: "request", command });
    expect(moves).toHaveLength(9);
    moves.length = 0;
    debugFake.message(session("python"), { type: "event", event: "continued" });
    debugFake.message(session("debugpy"), { type: "event", event: "stopped" });
    expect(moves).toEqual(["python", "debugpy"]);
    moves.length = 0;
    debugFake.message(session("debugpy"), { type: "request", command: "evaluate" });
    debugFake.message(session("debugpy"), { type: "request" });
    // Only a request runs the program on, only an event says it did, whichever way each goes.
    debugFake.message(session("debugpy"), { type: "response", command: "continue" }, true);
    debugFake.message(session("debugpy"), { type: "event", event: "output" });
    debugFake.message(session("debugpy"), { type: "request", event: "stopped" }, false);
    debugFake.message(session("node"), { type: "event", event: "stopped" });
    expect(moves).toEqual([]);
    for (const d of disposables) d.dispose();
    debugFake.message(session("debugpy"), { type: "event", event: "stopped" });
    expect(moves).toEqual([]);
  });
});

describe("the debug commands' own choices", () => {
  const paused = () => debugFake.focus(new DebugStackFrame(pythonSession(), 1, 2));
  const command = (id: string) => fake.commands.get(`paletteInspector.${id}`)!() as Promise<void>;
  const infos = () => fake.shown.filter((s) => s.kind !== "error").map((s) => s.message);
  const saveTarget = () => (fake.dialogs[0] as { defaultUri: Uri; title: string }).defaultUri.path;

  it("takes an evaluate name, a watch expression or a name; blank ones are no expression", () => {
    expect(expressionOf({ variable: { evaluateName: "  " }, expression: "e" })).toBeUndefined();
    expect(expressionOf({ variable: null, evaluateName: "a.b" })).toBe("a.b");
    expect(expressionOf({ evaluateName: " ", expression: "", name: "n" })).toBe("n");
    expect(expressionOf({ expression: 3, name: " " })).toBeUndefined();
    expect(expressionOf("result")).toBeUndefined();
    expect(expressionOf(null)).toBeUndefined();
  });

  it("a variable with no expression says to type one instead", async () => {
    await inspect({ variable: { name: "x" } });
    expect(errors()).toEqual([
      "Palette Inspector: This variable has no expression the debugger can evaluate; use 'Inspect Selection in Debug Session…' with an expression instead.",
    ]);
  });

  it("from the palette, asks for one line of Python, trimmed, offering the last expression read", async () => {
    paused();
    fake.answers.inputBox.push("  result  ");
    await inspect(undefined);
    expect(webviewFake.panels.at(-1)!.title).toBe("Selection Trace: result");
    const [asked] = fake.inputBoxes;
    expect(asked).toMatchObject({ title: "Inspect Selection in Debug Session", value: "result" });
    expect(asked!.prompt).toMatch(/^A Python expression in the paused frame/);
    expect(["", " ", "a\nb", "a\rb", "x"].map((v) => asked!.validateInput!(v))).toEqual([
      "One line of Python",
      "One line of Python",
      "One line of Python",
      "One line of Python",
      undefined,
    ]);
    await inspect(variable("result.trace"));
    fake.answers.inputBox.push(undefined);
    await command("inspectExpression");
    expect(fake.inputBoxes[1]!.value).toBe("result.trace");
    expect(webviewFake.panels).toHaveLength(2);
  });

  it("from the palette with no debug session, says so before asking for an expression", async () => {
    await command("inspectExpression");
    expect(fake.inputBoxes).toEqual([]);
    expect(errors()).toEqual([expect.stringMatching(/No debug session: start debugging/)]);
  });

  it("anything but a known failure is reported as unexpected, its stack in the log", async () => {
    paused();
    const broken = {
      showDebug: () => {
        throw new Error("boom");
      },
    };
    await new DebugCommands(broken as unknown as TracePanels).inspect("result");
    expect(errors()).toEqual([
      "Palette Inspector: Reading from the debug session failed unexpectedly.",
    ]);
    expect(fake.outputs.get("Palette Inspector")!.join("\n")).toMatch(/\n {2}Error: boom\n\s+at /);
  });

  it("Turn into Fixture names the file after the expression, in the first workspace folder", async () => {
    // A workspace file with no folders lists none: the file goes to the root, as with no workspace.
    fake.workspaceFile = Uri.file("/empty.code-workspace");
    paused();
    await inspect(variable("(result)"));
    const panel = webviewFake.panels.at(-1)!;
    fake.answers.saveDialog.push(undefined);
    panel.webview.receive({ type: "debugAction", action: "turnIntoFixture" });
    await vi.waitFor(() => expect(fake.dialogs).toHaveLength(1));
    expect(saveTarget()).toBe("/result.turn.json");
    fake.workspaceFolders.push({ uri: Uri.file("/ws"), name: "ws", index: 0 });
    fake.answers.saveDialog.push(undefined);
    frameSetup = TURN.replace("result =", "r = {}\n    r['a b!'] =");
    await inspect(variable("r['a b!']"));
    webviewFake.panels.at(-1)!.webview.receive({ type: "debugAction", action: "turnIntoFixture" });
    await vi.waitFor(() => expect(fake.dialogs).toHaveLength(2));
    expect((fake.dialogs[1] as { defaultUri: Uri }).defaultUri.path).toBe("/ws/r-a-b.turn.json");
    // A long expression makes a name of its first 60 characters.
    const long = `result_${"x".repeat(70)}`;
    frameSetup = TURN.replace("result =", `${long} =`);
    fake.answers.saveDialog.push(undefined);
    await inspect(variable(long));
    webviewFake.panels.at(-1)!.webview.receive({ type: "debugAction", action: "turnIntoFixture" });
    await vi.waitFor(() => expect(fake.dialogs).toHaveLength(3));
    expect((fake.dialogs[2] as { defaultUri: Uri }).defaultUri.path).toBe(
      `/ws/${long.slice(0, 60)}.turn.json`,
    );
    expect(errors()).toEqual([]);
  });

  const PIPELINE = `
    pipeline = ToolSelectionPipeline([LazyRoutingStage(allowed_names=["a"]), ForcedChoiceStage()])
    result = pipeline.run(["a", "b"], SelectionContext())
    return locals()`;

  it("Capture Turn Fixture writes the pipeline's configuration and says the replay reproduces it", async () => {
    fake.workspaceFolders.push({ uri: Uri.file("/ws"), name: "ws", index: 0 });
    frameSetup = PIPELINE;
    paused();
    fake.answers.saveDialog.push(Uri.file("/ws/captured.turn.json"));
    await command("captureTurnFixture");
    expect(errors()).toEqual([]);
    expect(saveTarget()).toBe("/ws/turn.captured.turn.json");
    expect((fake.dialogs[0] as { title: string }).title).toBe("Capture the turn as a fixture");
    const written = JSON.parse(fake.files.get("file:///ws/captured.turn.json")!);
    expect(written.pipeline.map((stage: { kind: string }) => stage.kind)).toEqual([
      "lazy",
      "forced",
    ]);
    expect(written.description).toBe("captured from the debug session agent at turn (agent.py:52)");
    expect(infos()).toEqual([
      "Palette Inspector: Captured the turn: 2 of 2 stages configured as in the program, 0 played back as recorded; the replay reproduces the trace.",
    ]);
  });

  it("Capture Turn Fixture from an inspected value's panel captures the turn that value came from", async () => {
    frameSetup = PIPELINE;
    paused();
    await inspect(variable("result"));
    fake.answers.saveDialog.push(Uri.file("/from-panel.turn.json"));
    webviewFake.panels[0]!.webview.receive({ type: "debugAction", action: "captureTurn" });
    await vi.waitFor(() => expect(fake.files.has("file:///from-panel.turn.json")).toBe(true));
    const evaluated = (debug.activeDebugSession!.requests.at(-1)!.args as { expression: string })
      .expression;
    expect(evaluated).toContain(captureExpression(null, "result"));
    expect(errors()).toEqual([]);
  });

  it("Turn into Fixture says where the replay of a value differs from it", async () => {
    const logged = JSON.stringify({
      trace: [
        writtenRecord("role", "abstain", {
          kept: ["a"],
          dropped: ["b"],
          degraded: false,
          reasons: {},
        }),
      ],
    });
    frameSetup = `
    import json
    value = json.loads(${JSON.stringify(logged)})
    return locals()`;
    paused();
    await inspect(variable("value"));
    fake.answers.saveDialog.push(Uri.file("/v.turn.json"));
    webviewFake.panels[0]!.webview.receive({ type: "debugAction", action: "turnIntoFixture" });
    await vi.waitFor(() => expect(fake.shown).toHaveLength(1));
    expect(fake.shown[0]).toEqual({
      kind: "warning",
      message: "Palette Inspector: The replay differs from the value; the log says where.",
    });
    expect(fake.outputs.get("Palette Inspector")!.join("\n")).toMatch(
      /the log says where\.\n {2}stage 'role' \(abstain\) dropped/,
    );
  });

  it("Capture Turn Fixture with no result of the turn in the frame warns that the replay was not checked", async () => {
    frameSetup = `
    pipeline = ToolSelectionPipeline([LazyRoutingStage(allowed_names=["a"])])
    return locals()`;
    paused();
    fake.answers.saveDialog.push(Uri.file("/unchecked.turn.json"));
    await command("captureTurnFixture");
    expect(fake.files.has("file:///unchecked.turn.json")).toBe(true);
    expect(fake.shown.map((shown) => [shown.kind, shown.message])).toEqual([
      [
        "warning",
        expect.stringMatching(
          /^Palette Inspector: Captured the turn, but its replay differs from the program's trace: no SelectionResult /,
        ),
      ],
    ]);
    expect(fake.outputs.get("Palette Inspector")!.join("\n")).toContain(
      "\n  no SelectionResult of this turn in the frame, so the replay was not checked",
    );
  });

  it("Capture Turn Fixture counts the stages played back, and writes nothing when Save is cancelled", async () => {
    frameSetup = `
    pipeline = ToolSelectionPipeline([LazyRoutingStage(allowed_names=["a"])])
    result = pipeline.run(["a", "b"], SelectionContext())
    pipeline.stages[0]._allowed = ("b",)
    return locals()`;
    paused();
    fake.answers.saveDialog.push(Uri.file("/c.turn.json"), undefined);
    await command("captureTurnFixture");
    expect(infos()).toEqual([
      "Palette Inspector: Captured the turn: 0 of 1 stage configured as in the program, 1 played back as recorded; the replay reproduces the trace.",
    ]);
    expect(fake.outputs.get("Palette Inspector")!.join("\n")).toMatch(
      /the replay reproduces the trace\.\n {2}stage 1 'lazy' \(lazy\) is played back as recorded: /,
    );
    await command("captureTurnFixture");
    expect(fake.shown).toHaveLength(1);
    expect(errors()).toEqual([]);
  });

  it("Capture Turn Fixture asks which pipeline when the frame holds several (names neutralised)", async () => {
    frameSetup = `
    first = ToolSelectionPipeline([LazyRoutingStage(allowed_names=["a"])])
    second = ToolSelectionPipeline([])
    result = first.run(["a", "b"], SelectionContext())
    return locals()`;
    paused();
    fake.answers.quickPick.push(undefined);
    await command("captureTurnFixture");
    expect(fake.quickPicks[0]).toEqual({
      items: [
        { label: "first", name: "first" },
        { label: "second", name: "second" },
      ],
      options: { title: "Capture Turn Fixture", placeHolder: "Which pipeline ran this turn?" },
    });
    expect(fake.dialogs).toEqual([]);
    fake.answers.quickPick.push((items: { name: string }[]) => items[0]);
    fake.answers.saveDialog.push(Uri.file("/first.turn.json"));
    await command("captureTurnFixture");
    expect(JSON.parse(fake.files.get("file:///first.turn.json")!).pipeline).toHaveLength(1);
    expect(errors()).toEqual([]);
  });

  it("Capture Turn Fixture asks for the pipeline's expression when no local holds one", async () => {
    frameSetup = `
    x = 1
    return locals()`;
    paused();
    fake.answers.inputBox.push(undefined, "x", "nothing_here");
    await command("captureTurnFixture");
    expect(fake.inputBoxes[0]).toMatchObject({ title: "Capture Turn Fixture", value: "pipeline" });
    expect(fake.inputBoxes[0]!.prompt).toMatch(/^No ToolSelectionPipeline among/);
    expect(["", "a\nb", "p"].map((v) => fake.inputBoxes[0]!.validateInput!(v))).toEqual([
      "One line of Python",
      "One line of Python",
      undefined,
    ]);
    expect(fake.shown).toEqual([]);
    await command("captureTurnFixture");
    expect(errors()).toEqual([
      expect.stringMatching(
        /^Palette Inspector: x is a value of type int, not a ToolSelectionPipeline/,
      ),
    ]);
    await command("captureTurnFixture");
    expect(errors()[1]).toMatch(/^Palette Inspector: Python could not evaluate nothing_here in/);
  });

  it("Capture Turn Fixture says when part of the pipeline cannot be read", async () => {
    frameSetup = `
    pipeline = ToolSelectionPipeline([ForcedChoiceStage(resolver=lambda tools, context: None)])
    return locals()`;
    paused();
    await command("captureTurnFixture");
    expect(errors()).toEqual([
      "Palette Inspector: Cannot capture this turn: the log says which part of the pipeline could not be read.",
    ]);
    expect(fake.outputs.get("Palette Inspector")!.join("\n")).toMatch(/\n {2}stage 1 'forced'/);
  });

  it("Compare offers the other inspected values, a fixture's run and the replay; a fixture's run opens", async () => {
    fake.workspaceFolders.push({ uri: Uri.file("/ws"), name: "ws", index: 0 });
    paused();
    await inspect(variable("result"));
    await inspect(variable("result.trace"));
    fake.writeFile("/ws/a.turn.json", readFileSync("examples/weather-forecast.turn.json", "utf8"));
    fake.writeFile("/ws/tools.catalog.json", readFileSync("examples/tools.catalog.json", "utf8"));
    fake.writeFile("/ws/node_modules/x.turn.json", "{}");
    fake.answers.quickPick.push(
      (items: { label: string }[]) => items.find((item) => item.label === "A fixture's run…"),
      (items: { label: string }[]) => items[0],
    );
    webviewFake.panels[0]!.webview.receive({ type: "debugAction", action: "compare" });
    await vi.waitFor(() => expect(webviewFake.panels).toHaveLength(3));
    const [compare, fixtures] = fake.quickPicks;
    expect(compare!.options).toEqual({ title: "Compare result with…" });
    expect(
      (compare!.items as { label: string; description?: string; detail: string }[]).map(
        ({ label, description, detail }) => [label, description, detail],
      ),
    ).toEqual([
      ["result.trace", "turn (agent.py:52)", "another inspected value"],
      ["A fixture's run…", undefined, "run a *.turn.json of this workspace and compare"],
      ["Its replay", undefined, "the fixture Turn into Fixture would write, run here"],
    ]);
    expect(fixtures!.items).toEqual([{ label: "a.turn.json", uri: Uri.file("/ws/a.turn.json") }]);
    expect(fixtures!.options).toEqual({
      title: "Compare with a fixture's run",
      placeHolder: "Which fixture?",
    });
    // The fixture's run is named by its file, not called a replay.
    expect(webviewFake.panels[2]!.title).toBe(
      "Selection Trace: result (debug value) ↔ a.turn.json",
    );
    expect(errors()).toEqual([]);
  });

  it("Compare with another inspected value opens both; a broken fixture is refused", async () => {
    paused();
    await inspect(variable("result"));
    await inspect(variable("result.trace"));
    fake.answers.quickPick.push((items: { label: string }[]) => items[0]);
    webviewFake.panels[1]!.webview.receive({ type: "debugAction", action: "compare" });
    await vi.waitFor(() => expect(webviewFake.panels).toHaveLength(3));
    expect(webviewFake.panels[2]!.title).toBe(
      "Selection Trace: result.trace (debug value) ↔ result (debug value)",
    );
    fake.writeFile("/b.turn.json", "{ not json");
    fake.answers.quickPick.push(
      (items: { label: string }[]) => items.find((item) => item.label === "A fixture's run…"),
      (items: { label: string }[]) => items[0],
    );
    webviewFake.panels[0]!.webview.receive({ type: "debugAction", action: "compare" });
    await vi.waitFor(() => expect(errors()).toHaveLength(1));
    expect(errors()[0]).toBe(
      "Palette Inspector: The fixture /b.turn.json has problems; fix them first.",
    );
    expect(fake.outputs.get("Palette Inspector")!.join("\n")).toMatch(
      /The fixture \/b\.turn\.json has problems; fix them first\.\n {2}\S/,
    );
    fake.answers.quickPick.push(undefined);
    webviewFake.panels[0]!.webview.receive({ type: "debugAction", action: "compare" });
    await vi.waitFor(() => expect(fake.quickPicks).toHaveLength(4));
    fake.answers.quickPick.push(
      (items: { label: string }[]) => items.find((item) => item.label === "A fixture's run…"),
      undefined,
    );
    webviewFake.panels[0]!.webview.receive({ type: "debugAction", action: "compare" });
    await vi.waitFor(() => expect(fake.quickPicks).toHaveLength(6));
    expect(webviewFake.panels).toHaveLength(3);
    // Cancelling either pick is no error.
    expect(errors()).toHaveLength(1);
  });
});
