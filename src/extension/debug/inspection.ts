import * as vscode from "vscode";
import { inspectExpression } from "../../core/debug/probe.js";
import { readInspectReply } from "../../core/debug/reply.js";
import type { RunReport } from "../../core/report.js";
import { reportFromLoggedTrace } from "../../core/traces/report.js";
import type { LoggedTrace } from "../../core/traces/trace.js";
import { evaluateInFrame, pausedPythonFrame, type PausedFrame } from "./frame.js";
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
  const read = readInspectReply(reply);
  if (!read.ok) throw problemFailure(expression, read.problem);
  const file = frame.label.match(/\(([^()]*):\d+\)$/)?.[1] ?? frame.session.name;
  const report = reportFromLoggedTrace(
    read.value,
    { kind: "debug", session: frame.session.name, frame: frame.label, expression },
    file,
    `${expression} in ${frame.label}, debug session ${frame.session.name}`,
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
  ) {
    this.subscriptions = [
      vscode.debug.onDidChangeActiveStackItem((item) => {
        const here =
          item instanceof vscode.DebugStackFrame &&
          item.session.id === this.current.frame.session.id &&
          item.frameId === this.current.frame.frameId;
        this.mark(!here);
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

  private mark(stale: boolean): void {
    if (stale === this.stale) return;
    this.stale = stale;
    this.changed.fire();
  }

  dispose(): void {
    for (const subscription of this.subscriptions) subscription.dispose();
  }
}
