import * as vscode from "vscode";
import { LOG_EXTENSIONS } from "./pick-logs.js";
import { FollowThread } from "../../node/follow-thread.js";
import { TurnSpool } from "../../node/turn-spool.js";
import { announce, log, neutralise, notice, unawaited } from "../notify.js";
import { batched, closeGroup, LIVE_REFRESH_MS, liveSettings, spoolFolder } from "./live-traces.js";
import type { LiveGroup, TraceNode, TraceTree } from "./trace-tree.js";

interface Followed {
  readonly group: LiveGroup & { folder: string };
  readonly follower: FollowThread;
  readonly refresh: ReturnType<typeof batched>;
}

/**
 * "Follow Log": a log's traces listed as it grows, from its start, across a rotation or a
 * truncation, in a worker thread (FollowThread); each is kept in a spool as the live turns are, so that one read
 * before a rotation still opens after it. The log's CodeLenses are asked for again as it grows.
 */
export class FollowedLogs implements vscode.Disposable {
  private readonly followed = new Map<string, Followed>();
  private readonly lensesChanged = new vscode.EventEmitter<void>();
  /** For the log CodeLens provider: fires when a followed log has new traces. */
  readonly onDidChangeCodeLenses = this.lensesChanged.event;

  constructor(private readonly tree: TraceTree) {}

  /** Follows the log the command was invoked on (the explorer's, the view's, the active editor's, else one the user picks). */
  async follow(arg?: unknown): Promise<void> {
    const uri =
      targetLog(arg) ??
      (
        await vscode.window.showOpenDialog({
          canSelectMany: false,
          filters: { Logs: [...LOG_EXTENSIONS, "txt"], "All files": ["*"] },
          title: "Follow Log",
          openLabel: "Follow",
        })
      )?.[0];
    if (!uri) return;
    const key = uri.toString();
    if (this.followed.has(key)) return;
    const folder = await spoolFolder();
    const group: LiveGroup & { folder: string } = {
      key,
      label: `Following ${neutralise(vscode.workspace.asRelativePath(uri), 80)}`,
      spool: new TurnSpool(folder, liveSettings().maxTurns),
      file: uri,
      state: "following",
      folder,
    };
    const refresh = batched(() => {
      this.tree.setLive(group);
      this.lensesChanged.fire();
    }, LIVE_REFRESH_MS);
    const follower = new FollowThread(uri.fsPath, {
      fromStart: true,
      onTrace: (found) => {
        group.spool.add(found.trace, found.line);
        refresh.call();
      },
      // A problem quotes the log: it goes to the log channel, never to a notification.
      onProblem: (problem) =>
        log().warn(
          `${uri.fsPath}${problem.line > 0 ? `:${problem.line}` : ""}: ${problem.message}`,
        ),
    });
    this.followed.set(key, { group, follower, refresh });
    this.tree.setLive(group);
    try {
      await follower.start();
    } catch (error) {
      this.followed.delete(key);
      this.tree.removeLive(group);
      await closeGroup(group);
      announce("error", notice`cannot follow ${vscode.workspace.asRelativePath(uri)}.`, {
        details: [error instanceof Error ? error.message : String(error)],
      });
      return;
    }
    await vscode.commands.executeCommand("paletteInspector.traces.focus");
  }

  /** Stops following a log (the view's entry, the explorer's file, else every followed log) and removes its entry. */
  async stop(arg?: unknown): Promise<void> {
    const key =
      isNode(arg) && arg.kind === "live"
        ? arg.group.key
        : arg instanceof vscode.Uri
          ? arg.toString()
          : null;
    const keys = key === null ? [...this.followed.keys()] : [key];
    for (const each of keys) {
      const followed = this.followed.get(each);
      if (!followed) continue;
      this.followed.delete(each);
      followed.refresh.cancel();
      await followed.follower.stop();
      this.tree.removeLive(followed.group);
      await closeGroup(followed.group);
    }
    this.lensesChanged.fire();
  }

  /** Whether a log is being followed. */
  isFollowing(uri: vscode.Uri): boolean {
    return this.followed.has(uri.toString());
  }

  dispose(): void {
    unawaited(this.stop(), notice`stopping the followed logs failed`);
    this.lensesChanged.dispose();
  }
}

function isNode(value: unknown): value is TraceNode {
  return typeof value === "object" && value !== null && "kind" in value;
}

function targetLog(arg: unknown): vscode.Uri | undefined {
  if (arg instanceof vscode.Uri) return arg;
  if (isNode(arg) && arg.kind === "set" && arg.set.files.length === 1) return arg.set.files[0];
  const active = vscode.window.activeTextEditor?.document.uri;
  return active?.scheme === "file" ? active : undefined;
}
