import * as vscode from "vscode";
import { LOG_EXTENSIONS } from "../logs/log-commands.js";
import type { TraceTree } from "../logs/trace-tree.js";
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
  const uriOf = (item: unknown): vscode.Uri | null =>
    item instanceof vscode.Uri
      ? item
      : typeof item === "object" &&
          item !== null &&
          (item as { uri?: unknown }).uri instanceof vscode.Uri
        ? (item as { uri: vscode.Uri }).uri
        : null;
  let uris = (Array.isArray(selected) ? selected : [arg]).map(uriOf).filter((u) => u !== null);
  if (uris.length === 0) uris = tree.getChildren().map((node) => node.uri);
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

/** "Palette Statistics" for a log, several logs or a folder. */
export async function showStatistics(
  arg: unknown,
  selected: unknown,
  tree: TraceTree,
  panels: StatsPanels,
): Promise<void> {
  const uris = await statisticsTargets(arg, selected, tree);
  if (uris.length > 0) await panels.show(uris);
}
