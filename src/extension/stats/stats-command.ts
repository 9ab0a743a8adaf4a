import * as vscode from "vscode";
import { registerCommand } from "../commands.js";
import { LOG_EXTENSIONS } from "../logs/log-commands.js";
import type { LogSet, TraceNode, TraceTree } from "../logs/trace-tree.js";
import { unchangedSince } from "../../node/log-file.js";
import type { LogStats } from "./read-stats.js";
import type { StatsPanels } from "./stats-panels.js";

/**
 * The logs "Palette Statistics" means: the explorer's selection (files and folders) or the
 * Selection Traces view's, else the item it was invoked on, else every log the view lists,
 * else logs the user picks. Each log once, in the order given.
 */
export async function statisticsTargets(
  arg: unknown,
  selected: unknown,
  tree: TraceTree,
): Promise<vscode.Uri[]> {
  // A Selection Traces node stands for the logs its set was opened on.
  const urisOf = (item: unknown): vscode.Uri[] =>
    item instanceof vscode.Uri
      ? [item]
      : typeof item === "object" && item !== null && "set" in item
        ? [...(item as { set: LogSet }).set.roots]
        : [];
  let uris = (Array.isArray(selected) ? selected : [arg]).flatMap(urisOf);
  if (uris.length === 0) uris = tree.getChildren().flatMap(urisOf);
  if (uris.length === 0)
    uris =
      (await vscode.window.showOpenDialog({
        canSelectMany: true,
        filters: { Logs: LOG_EXTENSIONS, "All files": ["*"] },
        title: "Palette Statistics: which logs?",
      })) ?? [];
  const seen = new Set<string>();
  return uris.filter((uri) => !seen.has(uri.toString()) && seen.add(uri.toString()));
}

/** The statistics of the set listed for exactly these logs, when its scan read them to the end and none changed since. */
export async function scannedStats(
  tree: TraceTree,
  uris: readonly vscode.Uri[],
): Promise<LogStats | undefined> {
  const set = tree.setOf(uris);
  if (!set?.scanned) return undefined;
  const inputs = set.files.map((uri) => ({ name: uri.fsPath, path: uri.fsPath }));
  return (await unchangedSince(inputs, set.scanned.stamps)) ? set.scanned.stats : undefined;
}

/** "Palette Statistics" for a log, several logs or a folder; a set just scanned is not read again. */
export async function showStatistics(
  arg: unknown,
  selected: unknown,
  tree: TraceTree,
  panels: StatsPanels,
): Promise<void> {
  const uris = await statisticsTargets(arg, selected, tree);
  if (uris.length > 0) await panels.show(uris, await scannedStats(tree, uris));
}

/** Palette Statistics, from the explorer (with its selection as the second argument) or the Selection Traces view. */
export function registerStatistics(
  traces: TraceTree,
  traceView: vscode.TreeView<TraceNode>,
  panels: StatsPanels,
): vscode.Disposable {
  return registerCommand("paletteInspector.showStatistics", (arg?: unknown, selected?: unknown) =>
    showStatistics(arg, selected ?? (arg ? undefined : traceView.selection), traces, panels),
  );
}
