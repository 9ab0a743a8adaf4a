import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as vscode from "vscode";
import { PortInUse, DEFAULT_PORT } from "../../node/otlp-receiver.js";
import { ReceiverThread } from "../../node/receiver-thread.js";
import { DEFAULT_MAX_TURNS, TurnSpool } from "../../node/turn-spool.js";
import { counted } from "../../core/words.js";
import { announce, log, notice, notify, unawaited } from "../notify.js";
import type { TracePanels } from "../panel/panels.js";
import { openTurn } from "./live-turn.js";
import type { LiveGroup, TraceNode, TraceTree } from "./trace-tree.js";

/** How often the tree, the status bar and "follow newest" catch up with the turns received. */
export const LIVE_REFRESH_MS = 250;
const USE_FREE_PORT = "Use a Free Port";
const CHOOSE_PORT = "Choose Port…";

/** The live settings, read when they are used. */
export function liveSettings(): { port: number; maxTurns: number; followNewest: boolean } {
  const config = vscode.workspace.getConfiguration("paletteInspector.live");
  const port = config.get<number>("port", DEFAULT_PORT);
  const maxTurns = config.get<number>("maxTurns", DEFAULT_MAX_TURNS);
  return {
    port: Number.isInteger(port) && port >= 0 && port <= 65535 ? port : DEFAULT_PORT,
    maxTurns: Number.isInteger(maxTurns) && maxTurns >= 1 ? maxTurns : DEFAULT_MAX_TURNS,
    followNewest: config.get<boolean>("followNewest", false) === true,
  };
}

/** A folder of its own for a spool's files, removed with it. */
export async function spoolFolder(): Promise<string> {
  return mkdtemp(join(tmpdir(), "palette-inspector-live-"));
}

/**
 * Calls `fn` at most once per `ms` while calls keep coming, the last never lost; unlike the
 * scan's throttle, the first call waits too, so a burst of turns costs one refresh.
 */
export function batched(fn: () => void, ms: number): { call(): void; cancel(): void } {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return {
    call() {
      timer ??= setTimeout(() => {
        timer = undefined;
        fn();
      }, ms);
    },
    cancel() {
      clearTimeout(timer);
      timer = undefined;
    },
  };
}

/**
 * "Start Live Traces": the OTLP receiver, in a worker thread of the extension host
 * (ReceiverThread), started only by the user. Its
 * turns are listed in the Live group (the newest `maxTurns` kept, the rest dropped), counted in
 * the status bar (a click stops it), and with "follow newest" each new one is opened.
 */
export class LiveTraces implements vscode.Disposable {
  private receiver: ReceiverThread | null = null;
  private group: (LiveGroup & { folder: string }) | null = null;
  /** Turns received by the receiver now running are numbered from here in the spool. */
  private base = 0;
  /** The newest turn not yet shown, for "follow newest". */
  private newest: number | null = null;
  /** The port listened on, for the status bar. */
  private listening = "";
  private readonly status: vscode.StatusBarItem;
  private readonly refresh = batched(() => this.show(), LIVE_REFRESH_MS);
  /** Turns received since the view last showed them: its badge while it is hidden. */
  private unseen = 0;
  /** Turns numbered below this were there when the view last caught up. */
  private seen = 0;
  private readonly visibility: vscode.Disposable;

  constructor(
    private readonly tree: TraceTree,
    private readonly view: Pick<
      vscode.TreeView<TraceNode>,
      "reveal" | "visible" | "badge" | "onDidChangeVisibility"
    >,
    private readonly panels: TracePanels,
    /** The receiver worker's bundle (tests give one that fails). */
    private readonly receiverScript?: string,
  ) {
    this.status = vscode.window.createStatusBarItem(vscode.StatusBarAlignment.Left, 50);
    this.status.command = "paletteInspector.stopLiveTraces";
    this.status.name = "Palette Inspector Live Traces";
    this.visibility = view.onDidChangeVisibility(({ visible }) => {
      if (!visible) return;
      this.unseen = 0;
      this.view.badge = undefined;
    });
  }

  get running(): boolean {
    return this.receiver !== null;
  }

  /** Listens on `port` (the setting when not given); a port taken offers another in one step. */
  async start(port = liveSettings().port): Promise<void> {
    if (this.receiver) {
      announce("info", notice`live traces are already being received (${this.status.text}).`);
      return;
    }
    const group = await this.liveGroup();
    const receiver = new ReceiverThread(
      {
        port,
        onTrace: ({ trace }) => {
          this.newest = group.spool.add(trace);
          this.refresh.call();
        },
        onModel: ({ index, trace }) => group.spool.replace(this.base + index, trace),
        onFailure: (message) => this.failed(receiver, message),
        // The receiver's own words are long: whole in the log, a fixed line in the notification.
        onDropped: (text) =>
          announce(
            "warning",
            notice`live traces are over a memory budget: the oldest turns' model calls are no longer updated.`,
            { details: [text] },
          ),
      },
      this.receiverScript,
    );
    this.base = group.spool.received;
    let address: { host: string; port: number };
    try {
      address = await receiver.start();
    } catch (error) {
      // Not listening: an empty group is not listed, one with turns says it is stopped.
      group.state = "stopped";
      if (group.spool.received === 0) this.tree.removeLive(group);
      else this.tree.setLive(group);
      if (error instanceof PortInUse) return this.portTaken(port);
      announce("error", notice`cannot receive live traces on port ${port}: ${String(error)}`);
      return;
    }
    this.receiver = receiver;
    group.state = `listening on ${address.host}:${address.port}`;
    this.status.tooltip = `Palette Inspector receives OpenTelemetry traces at http://${address.host}:${address.port}/v1/traces. Click to stop.`;
    this.listening = `${address.port}`;
    this.show();
    this.status.show();
    log().info(`live traces: listening on http://${address.host}:${address.port}/v1/traces`);
    await vscode.commands.executeCommand("paletteInspector.traces.focus");
    announce(
      "info",
      notice`receiving OpenTelemetry traces at http://${address.host}:${address.port}/v1/traces.`,
    );
  }

  /** Stops listening; the turns received stay listed until the next start with another `maxTurns`. */
  async stop(): Promise<void> {
    const receiver = this.receiver;
    if (!receiver) return;
    this.receiver = null;
    await receiver.stop();
    this.refresh.cancel();
    this.status.hide();
    if (this.group) this.group.state = "stopped";
    this.show();
  }

  /** The receiver's thread ended on its own: it is stopped, and the user told why. */
  private failed(receiver: ReceiverThread, message: string): void {
    if (this.receiver !== receiver) return;
    this.receiver = null;
    this.refresh.cancel();
    this.status.hide();
    if (this.group) this.group.state = "stopped";
    this.show();
    // The reason is the worker's own error text: in the details (the log), not in the notification.
    announce("error", notice`live traces stopped: the receiver's worker thread ended.`, {
      details: [message],
    });
  }

  dispose(): void {
    this.refresh.cancel();
    this.status.dispose();
    this.visibility.dispose();
    const group = this.group;
    unawaited(
      (async () => {
        await this.stop();
        if (group) await closeGroup(group);
      })(),
      notice`stopping live traces failed`,
    );
  }

  /** The group the turns go to: kept across a stop and a start, made again when maxTurns changed. */
  private async liveGroup(): Promise<LiveGroup & { folder: string }> {
    const { maxTurns } = liveSettings();
    if (this.group?.spool.maxTurns === maxTurns) return this.group;
    if (this.group) {
      this.tree.removeLive(this.group);
      await closeGroup(this.group);
    }
    const folder = await spoolFolder();
    this.group = {
      key: "live",
      label: "Live (OpenTelemetry)",
      spool: new TurnSpool(folder, maxTurns),
      file: null,
      state: "starting",
      folder,
    };
    this.tree.setLive(this.group);
    return this.group;
  }

  private show(): void {
    const group = this.group;
    if (!group) return;
    if (this.receiver)
      this.status.text = `$(broadcast) OTLP :${this.listening} · ${counted(group.spool.received, "turn")}`;
    this.tree.setLive(group);
    const newest = this.newest;
    this.newest = null;
    if (newest === null) return;
    const node = { kind: "turn", group, number: newest } as const;
    if (!this.view.visible) {
      // Hidden: the view's badge counts what came since it was last seen.
      this.unseen += newest + 1 - this.seen;
      this.view.badge = { value: this.unseen, tooltip: counted(this.unseen, "new live turn") };
    }
    this.seen = newest + 1;
    const follow = liveSettings().followNewest;
    if (follow)
      unawaited(
        openTurn(node, this.panels, { preview: true }),
        notice`opening the newest turn failed`,
      );
    // Shown: the newest turn is scrolled into view (and selected when followed).
    if (this.view.visible)
      unawaited(
        this.view.reveal(node, { select: follow, focus: false }),
        notice`revealing the newest turn failed`,
      );
  }

  /** The port is taken (AI Toolkit listens on 4318 too): a free port, or one the user types. */
  private async portTaken(port: number): Promise<void> {
    const choice = await notify(
      "warning",
      notice`port ${port} is taken by another program, so live traces cannot be received there. Receive them on another port (then point the agent's OTLP exporter at it), or set paletteInspector.live.port.`,
      { actions: [USE_FREE_PORT, CHOOSE_PORT] },
    );
    if (choice === USE_FREE_PORT) return this.start(0);
    if (choice !== CHOOSE_PORT) return;
    const typed = await vscode.window.showInputBox({
      title: "Receive live traces on port",
      prompt: "A TCP port on 127.0.0.1 (0: any free port)",
      value: String(port === 65535 ? port - 1 : port + 1),
      validateInput: (text) =>
        /^\d{1,5}$/.test(text.trim()) && Number(text) <= 65535
          ? undefined
          : "A port number from 0 to 65535.",
    });
    if (typed !== undefined) return this.start(Number(typed.trim()));
  }
}

/** Forgets a group's turns: its spool files and their folder are deleted. */
export async function closeGroup(group: LiveGroup & { folder: string }): Promise<void> {
  await group.spool.close();
  await rm(group.folder, { recursive: true, force: true });
}
