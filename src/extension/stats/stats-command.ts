import * as vscode from "vscode";
import { counted } from "../../core/words.js";
import { registerCommand } from "../commands.js";
import { pickLabel } from "../notify.js";
import { pickLogs } from "../logs/pick-logs.js";
import type { LogSet, TraceNode, TraceTree } from "../logs/trace-tree.js";
import { unchangedSince } from "../../node/log-file.js";
import type { LogStats } from "./read-stats.js";
import type { StatsPanels } from "./stats-panels.js";

/**
 * The logs "Palette Statistics" means: the explorer's selection (files and folders) or the
 * Selection Traces view's, else the item it was invoked on, else the set the view lists (the one
 * the user picks when it lists several, or all of them), else logs the user picks. Each log
 * once, in the order given (reading them counts a file once however often it is named).
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
  if (uris.length === 0) {
    const sets = tree.getChildren().flatMap((node) => (node.kind === "set" ? [node.set] : []));
    if (sets.length > 1) return pickSet(sets);
    uris = sets.flatMap((set) => set.roots);
  }
  if (uris.length === 0) uris = await pickLogs("Palette Statistics: which logs?");
  const seen = new Set<string>();
  return uris.filter((uri) => !seen.has(uri.toString()) && seen.add(uri.toString()));
}

/** Which listed set the statistics are of, or all of them; Cancel is none. */
async function pickSet(sets: readonly LogSet[]): Promise<vscode.Uri[]> {
  const name = (uri: vscode.Uri) => vscode.workspace.asRelativePath(uri);
  const all = {
    label: `All ${sets.length} sets`,
    description: "each file counted once",
    roots: sets.flatMap((set) => set.roots),
  };
  const picked = await vscode.window.showQuickPick(
    [
      ...sets.map((set) => ({
        label: pickLabel(set.roots.map(name).join(", ")),
        description: counted(set.files.length, "file"),
        roots: set.roots,
      })),
      all,
    ],
    { title: "Palette Statistics", placeHolder: "Statistics of which set of logs?" },
  );
  const seen = new Set<string>();
  return (picked?.roots ?? []).filter(
    (uri) => !seen.has(uri.toString()) && seen.add(uri.toString()),
  );
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
