import * as vscode from "vscode";
import { PROBE_SECONDS } from "../../core/debug/probe.js";
import type { EvaluateReply } from "../../core/debug/reply.js";
import { notice, withProgress, type NoticeText } from "../notify.js";

/** The debug types whose adapter is debugpy: ms-python's (`debugpy`) and its older name. */
export const PYTHON_DEBUG_TYPES: readonly string[] = ["debugpy", "python"];

/** How long the adapter may take to answer before the read is given up: longer than the probe gives itself, so the probe stops first. */
export const EVALUATE_TIMEOUT_MS = (PROBE_SECONDS + 10) * 1000;

/** The frame's name and place are a courtesy: not worth waiting long for. */
const LABEL_TIMEOUT_MS = 2_000;

/** A paused Python frame: where a value is read from. */
export interface PausedFrame {
  readonly session: vscode.DebugSession;
  readonly frameId: number;
  readonly threadId: number;
  /** `turn (agent.py:42)`, or `frame 7` when the adapter will not say. */
  readonly label: string;
}

/** Why nothing was read: fixed wording, names neutralised. */
export class DebugFailure extends Error {
  constructor(
    readonly notice: NoticeText,
    readonly details: readonly string[] = [],
    readonly level: "error" | "info" = "error",
  ) {
    super(notice.text);
  }
}

/** The focused frame of a paused Python session, or a DebugFailure saying what is expected. */
export async function pausedPythonFrame(): Promise<PausedFrame> {
  const item = vscode.debug.activeStackItem;
  const session = item?.session ?? vscode.debug.activeDebugSession;
  if (session === undefined)
    throw new DebugFailure(
      notice`No debug session: start debugging a Python program and pause it at a breakpoint, then try again.`,
    );
  if (!PYTHON_DEBUG_TYPES.includes(session.type))
    throw new DebugFailure(
      notice`The debug session ${session.name} is of type ${session.type}; Palette Inspector reads values from Python (debugpy) sessions.`,
    );
  if (!(item instanceof vscode.DebugStackFrame))
    throw new DebugFailure(
      notice`The program is running: pause it at a breakpoint where the value is in scope, then try again.`,
    );
  return {
    session,
    frameId: item.frameId,
    threadId: item.threadId,
    label: await frameLabel(session, item.threadId, item.frameId),
  };
}

async function frameLabel(
  session: vscode.DebugSession,
  threadId: number,
  frameId: number,
): Promise<string> {
  try {
    // A hung adapter must not hang the command here: the read that follows has the timeout and Cancel.
    const trace = (await Promise.race([
      session.customRequest("stackTrace", { threadId, startFrame: 0, levels: 50 }),
      new Promise((resolve) => setTimeout(resolve, LABEL_TIMEOUT_MS, {})),
    ])) as {
      stackFrames?: {
        id: number;
        name?: string;
        line?: number;
        source?: { path?: string; name?: string };
      }[];
    };
    const frame = trace.stackFrames?.find((candidate) => candidate.id === frameId);
    if (frame) {
      // In a remote window the path is a URI: its last segment is the file either way.
      const file = (frame.source?.path ?? frame.source?.name ?? "").split(/[\\/]/).pop();
      return `${frame.name ?? "frame"}${file ? ` (${file}:${frame.line ?? 0})` : ""}`;
    }
  } catch {
    // The label is a courtesy: the read itself says what went wrong.
  }
  return `frame ${frameId}`;
}

/**
 * Evaluates `python` in the frame as text (debugpy's `rawString`: unquoted and not cut at 64 KB),
 * with a cancellable progress notification and a timeout. `what` names the value in messages.
 */
export async function evaluateInFrame(
  frame: PausedFrame,
  python: string,
  what: string,
  timeoutMs = EVALUATE_TIMEOUT_MS,
): Promise<EvaluateReply> {
  const request = Promise.resolve(
    frame.session.customRequest("evaluate", {
      expression: python,
      frameId: frame.frameId,
      context: "clipboard",
      format: { rawString: true },
    }) as Thenable<EvaluateReply>,
  );
  type Outcome = { reply: EvaluateReply } | { failed: unknown } | "cancelled" | "timeout";
  const outcome = await withProgress(
    notice`Reading ${what} from the debug session…`,
    (_report, token) => {
      const cleanup: (() => void)[] = [];
      return new Promise<Outcome>((resolve) => {
        const timer = setTimeout(() => resolve("timeout"), timeoutMs);
        const cancelled = token.onCancellationRequested(() => resolve("cancelled"));
        cleanup.push(
          () => clearTimeout(timer),
          () => cancelled.dispose(),
        );
        request.then(
          (reply) => resolve({ reply }),
          (failed: unknown) => resolve({ failed }),
        );
      }).finally(() => cleanup.forEach((undo) => undo()));
    },
  );
  if (outcome === "cancelled")
    throw new DebugFailure(notice`Stopped waiting for ${what}; nothing was read.`, [], "info");
  if (outcome === "timeout")
    throw new DebugFailure(
      notice`The debug adapter did not answer within ${timeoutMs / 1000} s while reading ${what}; nothing was read.`,
    );
  if ("failed" in outcome) {
    const message =
      outcome.failed instanceof Error ? outcome.failed.message : String(outcome.failed);
    if (/unable to find thread|not stopped|not paused/i.test(message))
      throw new DebugFailure(
        notice`The program is running again: pause it where ${what} is in scope, then try again.`,
        [message],
      );
    throw new DebugFailure(notice`The debug adapter could not evaluate ${what}.`, [message]);
  }
  return outcome.reply;
}
