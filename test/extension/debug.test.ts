import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
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
import { evaluateInFrame, pausedPythonFrame } from "../../src/extension/debug/frame.js";
import { TracePanels } from "../../src/extension/panel/panels.js";
import type { ToWebview } from "../../src/protocol.js";
import { AGENT_PRELUDE, evaluateIn } from "../core/debug/python.js";

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
    panel.webview.receive({ type: "debugAction", action: "refresh" });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(errors()).toEqual([]);
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
      expect(webviewFake.panels.at(-1)!.title).toBe("Selection Trace: result ↔ replay"),
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
});
