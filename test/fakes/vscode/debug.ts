/** `vscode.debug`: the focused stack item, sessions and the DAP messages trackers see. */
import { Disposable, EventEmitter } from "./core.js";

/** A paused frame, as `debug.activeStackItem` holds it. */
export class DebugStackFrame {
  constructor(
    readonly session: FakeDebugSession,
    readonly threadId: number,
    readonly frameId: number,
  ) {}
}

/** A running thread: what `debug.activeStackItem` holds after Continue. */
export class DebugThread {
  constructor(
    readonly session: FakeDebugSession,
    readonly threadId: number,
  ) {}
}

/** A debug session whose adapter answers `customRequest` with `answer` (a never-settling promise plays a hung adapter). */
export class FakeDebugSession {
  readonly requests: { command: string; args: unknown }[] = [];
  constructor(
    readonly id: string,
    readonly name: string,
    readonly type: string,
    public answer: (command: string, args: unknown) => Promise<unknown>,
  ) {}
  customRequest(command: string, args: unknown): Promise<unknown> {
    this.requests.push({ command, args });
    return this.answer(command, args);
  }
}

type TrackerFactory = {
  createDebugAdapterTracker(session: FakeDebugSession): {
    onWillReceiveMessage?(message: unknown): void;
    onDidSendMessage?(message: unknown): void;
  };
};

/** The debugger as tests drive it: the focused item, and the DAP messages trackers see. */
export const debugFake = {
  trackers: new Map<string, TrackerFactory[]>(),
  stackItem: new EventEmitter<DebugStackFrame | DebugThread | undefined>(),
  terminated: new EventEmitter<FakeDebugSession>(),
  /** Focuses an item, as pausing or continuing does. */
  focus(item: DebugStackFrame | DebugThread | undefined): void {
    debug.activeStackItem = item;
    debug.activeDebugSession = item?.session;
    this.stackItem.fire(item);
  },
  /**
   * A DAP message from VS Code to the adapter or back. Each way carries any type (VS Code answers
   * the adapter's reverse requests), so the direction defaults to the usual one of the type.
   */
  message(
    session: FakeDebugSession,
    message: { type: string; [key: string]: unknown },
    toAdapter = message.type === "request",
  ): void {
    for (const factory of this.trackers.get(session.type) ?? []) {
      const tracker = factory.createDebugAdapterTracker(session);
      if (toAdapter) tracker.onWillReceiveMessage?.(message);
      else tracker.onDidSendMessage?.(message);
    }
  },
  reset(): void {
    this.trackers.clear();
    debug.activeStackItem = undefined;
    debug.activeDebugSession = undefined;
  },
};

export const debug = {
  activeStackItem: undefined as DebugStackFrame | DebugThread | undefined,
  activeDebugSession: undefined as FakeDebugSession | undefined,
  onDidChangeActiveStackItem: debugFake.stackItem.event,
  onDidTerminateDebugSession: debugFake.terminated.event,
  registerDebugAdapterTrackerFactory(type: string, factory: TrackerFactory) {
    debugFake.trackers.set(type, [...(debugFake.trackers.get(type) ?? []), factory]);
    return new Disposable(() =>
      debugFake.trackers.set(
        type,
        (debugFake.trackers.get(type) ?? []).filter((known) => known !== factory),
      ),
    );
  },
};
