import * as vscode from "vscode";
import { announce, notice, withProgress } from "../notify.js";
import type { LogSet, TraceItemNode, TraceNode, TraceTree } from "./trace-tree.js";

/** A count as people read it: 87,522. */
const grouped = (n: number) => n.toLocaleString("en-US");

/** The set that holds trace #n: the one listed that does, else the one the user picks. */
async function pickSet(tree: TraceTree, sets: readonly LogSet[], n: number) {
  const holding = sets.filter((set) => set.index.count >= n);
  if (holding.length <= 1) return holding[0];
  const picked = await vscode.window.showQuickPick(
    holding.map((set) => ({
      label: tree.getTreeItem({ kind: "set", set }).label as string,
      description: `${grouped(set.index.count)} traces`,
      set,
    })),
    { title: `Go to Trace #${grouped(n)}: in which logs?` },
  );
  return picked?.set;
}

/** A trace number as typed ("#26", "26"), 1-based; or why it is none of the set's. */
export function parseTraceNumber(text: string, count: number): number | string {
  const match = /^\s*#?\s*(\d+)\s*$/.exec(text);
  const n = match ? Number(match[1]) : NaN;
  if (!Number.isSafeInteger(n) || n < 1 || n > count)
    return count === 0 ? "No trace is listed yet." : `A trace number from 1 to ${grouped(count)}.`;
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
  const sets = tree.getChildren().flatMap((node) => (node.kind === "set" ? [node.set] : []));
  if (sets.length === 0) {
    announce(
      "info",
      notice`find the selection traces in a log first, then go to one by its number.`,
    );
    return;
  }
  // The number first: with several sets, only those that hold it are offered after.
  const count = () => Math.max(...sets.map((set) => set.index.count));
  const text = await vscode.window.showInputBox({
    title: "Go to Trace",
    prompt: `The trace's number, as the view shows it (1–${grouped(count())})`,
    placeHolder: "#26",
    validateInput: (value) => {
      const n = parseTraceNumber(value, count());
      return typeof n === "string" ? n : undefined;
    },
  });
  const n = text === undefined ? undefined : parseTraceNumber(text, count());
  if (typeof n !== "number") return;
  const set = await pickSet(tree, sets, n);
  if (!set) return;
  const index = n - 1;
  let position = tree.visible(set).indexOf(index);
  if (position === -1) {
    tree.setFilter(null, set);
    position = tree.visible(set).indexOf(index);
  }
  tree.showPosition(set, position);
  const node: TraceItemNode = { kind: "trace", set, index };
  await view.reveal(node, { select: true, focus: true });
  // A trace deep in a big log takes a while to read back: say so.
  await withProgress(notice`Opening trace #${grouped(n)}`, () => open(node));
}
