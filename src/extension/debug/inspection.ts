import * as vscode from "vscode";
import { inspectExpression } from "../../core/debug/probe.js";
import { readInspectReply, traceOfText } from "../../core/debug/reply.js";
import { scanTextOffThread } from "../../node/log-file.js";
import type { RunReport } from "../../core/report.js";
import { reportFromLoggedTrace } from "../../core/traces/report.js";
import type { LoggedTrace } from "../../core/traces/trace.js";
import {
  evaluateInFrame,
  pausedPythonFrame,
  PYTHON_DEBUG_TYPES,
  type PausedFrame,
} from "./frame.js";
import { problemFailure } from "./problems.js";

/** A value read from a paused frame: its trace, as the panel shows it. */
export interface DebugRead {
  readonly trace: LoggedTrace;
  readonly report: RunReport;
  readonly frame: PausedFrame;
}

/** Reads `expression` in the focused frame; throws a DebugFailure saying what is wrong. */
export async function readExpression(expression: string): Promise<DebugRead> {
  const frame = await pausedPythonFrame();
  const reply = await evaluateInFrame(frame, inspectExpression(expression), expression);
  // The reply is parsed once; a string in it is scanned as a log in a worker thread.
  const read = await readInspectReply(reply, async (text) =>
    traceOfText(await scanTextOffThread(text, { limit: 1 })),
  );
  if (!read.ok) throw problemFailure(expression, read.problem);
  const file = frame.label.match(/\(([^()]*):\d+\)$/)?.[1] ?? frame.session.name;
  const report = reportFromLoggedTrace(
    read.value,
    { kind: "debug", session: frame.session.name, frame: frame.label, expression },
    file,
    // The header's debug line says where it came from; nothing to repeat.
    "",
  );
  return { trace: read.value, report, frame };
}

/**
 * One inspected value over time: Refresh reads the same expression in the frame focused now; once
 * the program moves on (a step, a continue, the session ends) the value shown is marked stale.
 */
export class DebugInspection implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;
  private readonly subscriptions: vscode.Disposable[];
  stale = false;

  constructor(
    private current: DebugRead,
    readonly expression: string,
    moved: vscode.Event<string>,
  ) {
    this.subscriptions = [
      moved((sessionId) => {
        if (sessionId === this.current.frame.session.id) this.mark(true);
      }),
      vscode.debug.onDidChangeActiveStackItem((item) => {
        const here =
          item instanceof vscode.DebugStackFrame &&
          item.session.id === this.current.frame.session.id &&
          item.frameId === this.current.frame.frameId;
        if (!here) this.mark(true);
      }),
      vscode.debug.onDidTerminateDebugSession((session) => {
        if (session.id === this.current.frame.session.id) this.mark(true);
      }),
      this.changed,
    ];
  }

  get read(): DebugRead {
    return this.current;
  }

  get report(): RunReport {
    return this.current.report;
  }

  /** Reads the expression again; when nothing is paused, the value stays and is marked stale. */
  async refresh(): Promise<void> {
    const item = vscode.debug.activeStackItem;
    if (!(item instanceof vscode.DebugStackFrame)) {
      this.mark(true);
      return;
    }
    this.current = await readExpression(this.expression);
    this.stale = false;
    this.changed.fire();
  }

  /** Only Refresh makes a value current again: a frame id can be reused by the next stop. */
  private mark(stale: true): void {
    if (this.stale) return;
    this.stale = stale;
    this.changed.fire();
  }

  dispose(): void {
    for (const subscription of this.subscriptions) subscription.dispose();
  }
}

/** DAP requests that let the program run on; after one, a value read before is stale. */
const RESUMING = new Set([
  "continue",
  "next",
  "stepIn",
  "stepOut",
  "stepBack",
  "reverseContinue",
  "goto",
  "restartFrame",
  "restart",
]);

/**
 * Fires a session's id whenever its program runs on or stops again. Seen on the DAP messages
 * themselves: the focused frame alone cannot tell, since the next stop may reuse its id.
 */
export function watchProgramMoves(): {
  event: vscode.Event<string>;
  disposables: vscode.Disposable[];
} {
  const moved = new vscode.EventEmitter<string>();
  const factory: vscode.DebugAdapterTrackerFactory = {
    createDebugAdapterTracker: (session) => ({
      onWillReceiveMessage: (message: { type?: string; command?: string }) => {
        if (message.type === "request" && RESUMING.has(message.command ?? ""))
          moved.fire(session.id);
      },
      onDidSendMessage: (message: { type?: string; event?: string }) => {
        if (
          message.type === "event" &&
          (message.event === "continued" || message.event === "stopped")
        )
          moved.fire(session.id);
      },
    }),
  };
  return {
    event: moved.event,
    disposables: [
      moved,
      ...PYTHON_DEBUG_TYPES.map((type) =>
        vscode.debug.registerDebugAdapterTrackerFactory(type, factory),
      ),
    ],
  };
}
