import * as vscode from "vscode";
import type { StageAction } from "../../core/contract.js";
import { counted } from "../../core/words.js";
import { registerCommand } from "../commands.js";
import { announce, notice, pickLabel, unawaited } from "../notify.js";
import { parseTimeRange } from "./filter.js";
import type { TraceTree } from "./trace-tree.js";

/** Names with their trace counts, most frequent first, then by name. */
function byCount<K extends string>(counts: ReadonlyMap<K, number>): [K, number][] {
  return [...counts].sort(([a, m], [b, n]) => n - m || a.localeCompare(b));
}

/** Longest text the text filter takes: it is a search, not a document. */
const MAX_FILTER_TEXT = 200;

/**
 * The Selection Traces view's filters: a tool dropped, a stage's action, errors, a text, a time
 * range; and clearing them. The pickers list the names the listed logs contain, so nothing has
 * to be typed.
 */
export function registerTraceFilters(tree: TraceTree): vscode.Disposable[] {
  // Sent only when it changes: the tree changes every 250 ms while a scan lists traces.
  let filtered: boolean | undefined;
  const setContext = async () => {
    if (filtered === (tree.filter !== null)) return;
    filtered = tree.filter !== null;
    await vscode.commands.executeCommand("setContext", "paletteInspector.tracesFiltered", filtered);
  };
  // setFilter changes the tree, which sets the context.
  const apply = (filter: Parameters<TraceTree["setFilter"]>[0]) => tree.setFilter(filter);
  const nothingListed = () =>
    announce(
      "info",
      notice`find the selection traces in a log first; the filters list what it has.`,
    );
  return [
    // A set scanned (or removed) later changes whether anything is filtered.
    tree.onDidChangeTreeData(() =>
      unawaited(setContext(), notice`updating the Selection Traces view's filter state failed`),
    ),
    registerCommand("paletteInspector.filterTracesByText", async () => {
      if (tree.getChildren().length === 0) return nothingListed();
      const text = await vscode.window.showInputBox({
        title: "Traces matching a text",
        prompt: "A turn id, a time, or a stage or tool name (any case, any part of it)",
        validateInput: (value) =>
          value.trim() === ""
            ? "Type some text to look for."
            : value.length > MAX_FILTER_TEXT
              ? `At most ${MAX_FILTER_TEXT} characters.`
              : undefined,
      });
      if (text !== undefined && text.trim() !== "") apply({ kind: "text", text: text.trim() });
    }),
    registerCommand("paletteInspector.filterTracesByTime", async () => {
      if (tree.getChildren().length === 0) return nothingListed();
      const text = await vscode.window.showInputBox({
        title: "Traces logged in a time range",
        prompt:
          "FROM .. TO, e.g. 2025-03-14 09:27 .. 2025-03-14 09:30 (UTC unless a zone is given; either end may be left out)",
        validateInput: (value) => {
          const range = parseTimeRange(value);
          return typeof range === "string" ? range : undefined;
        },
      });
      const range = text === undefined ? undefined : parseTimeRange(text);
      if (range !== undefined && typeof range !== "string") apply(range);
    }),
    registerCommand("paletteInspector.filterTracesByDroppedTool", async () => {
      const { dropped } = tree.filterChoices();
      if (dropped.size === 0) {
        if (tree.filterChoices().stages.size === 0) return nothingListed();
        return announce("info", notice`no listed trace drops a tool.`);
      }
      const picked = await vscode.window.showQuickPick(
        byCount(dropped).map(([tool, n]) => ({
          label: pickLabel(tool),
          description: `dropped in ${counted(n, "trace")}`,
          name: tool,
        })),
        {
          title: "Traces where a tool was dropped",
          placeHolder: "Which tool?",
          matchOnDescription: false,
        },
      );
      if (picked) apply({ kind: "dropped", tool: picked.name });
    }),
    registerCommand("paletteInspector.filterTracesByStageAction", async () => {
      const { stages } = tree.filterChoices();
      if (stages.size === 0) return nothingListed();
      const stage = await vscode.window.showQuickPick(
        [...stages]
          .sort(([a], [b]) => a.localeCompare(b))
          .map(([name, actions]) => ({
            label: pickLabel(name),
            name,
            description: byCount(actions)
              .map(([action, n]) => `${action} ${n}×`)
              .join(", "),
          })),
        { title: "Traces where a stage did an action", placeHolder: "Which stage?" },
      );
      if (!stage) return;
      const action = await vscode.window.showQuickPick(
        byCount(stages.get(stage.name)!).map(([name, n]) => ({
          label: pickLabel(name),
          name,
          description: `in ${counted(n, "trace")}`,
        })),
        { title: notice`What did '${stage.name}' do?`.text },
      );
      if (action)
        apply({ kind: "stageAction", stage: stage.name, action: action.name as StageAction });
    }),
    registerCommand("paletteInspector.filterTracesWithErrors", () =>
      tree.getChildren().length === 0 ? nothingListed() : apply({ kind: "errors" }),
    ),
    registerCommand("paletteInspector.clearTraceFilter", () => apply(null)),
  ];
}
