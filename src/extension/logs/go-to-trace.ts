import * as vscode from "vscode";
import { notice, announce } from "../notify.js";
import type { LogSet, TraceItemNode, TraceNode, TraceTree } from "./trace-tree.js";

/** The set a command means: the one listed, else the one the user picks. */
async function pickSet(tree: TraceTree): Promise<LogSet | undefined> {
  const sets = tree.getChildren().flatMap((node) => (node.kind === "set" ? [node.set] : []));
  if (sets.length <= 1) return sets[0];
  const picked = await vscode.window.showQuickPick(
    sets.map((set) => ({
      label: tree.getTreeItem({ kind: "set", set }).label as string,
      description: `${set.index.count} traces`,
      set,
    })),
    { title: "Go to Trace: in which logs?" },
  );
  return picked?.set;
}

/** A trace number as typed ("#26", "26"), 1-based; or why it is none of the set's. */
export function parseTraceNumber(text: string, count: number): number | string {
  const match = /^\s*#?\s*(\d+)\s*$/.exec(text);
  const n = match ? Number(match[1]) : NaN;
  if (!Number.isSafeInteger(n) || n < 1 || n > count)
    return count === 0 ? "No trace is listed yet." : `A trace number from 1 to ${count}.`;
  return n;
}

/**
 * "Go to Trace #N…": lists the trace (clearing the set's filter when it hides it), reveals and
 * selects it, and opens it.
 */
export async function goToTrace(
  tree: TraceTree,
  view: Pick<vscode.TreeView<TraceNode>, "reveal">,
  open: (node: TraceItemNode) => Promise<void>,
): Promise<void> {
  const set = await pickSet(tree);
  if (!set) {
    announce(
      "info",
      notice`find the selection traces in a log first, then go to one by its number.`,
    );
    return;
  }
  const count = set.index.count;
  const text = await vscode.window.showInputBox({
    title: "Go to Trace",
    prompt: `The trace's number, as the view shows it (1–${count})`,
    placeHolder: "#26",
    validateInput: (value) => {
      const n = parseTraceNumber(value, set.index.count);
      return typeof n === "string" ? n : undefined;
    },
  });
  const n = text === undefined ? undefined : parseTraceNumber(text, set.index.count);
  if (typeof n !== "number") return;
  const index = n - 1;
  let position = tree.visible(set).indexOf(index);
  if (position === -1) {
    tree.setFilter(null, set);
    position = tree.visible(set).indexOf(index);
  }
  tree.showPosition(set, position);
  const node: TraceItemNode = { kind: "trace", set, index };
  await view.reveal(node, { select: true, focus: true });
  await open(node);
}
