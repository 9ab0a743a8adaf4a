import * as vscode from "vscode";
import { STAGE_ACTIONS, type StageAction } from "../../core/contract.js";
import type { TraceTree } from "./trace-tree.js";

/** The Selection Traces view's filters: a tool dropped, a stage's action, errors; and clearing them. */
export function registerTraceFilters(tree: TraceTree): vscode.Disposable[] {
  const setContext = () =>
    vscode.commands.executeCommand(
      "setContext",
      "paletteInspector.tracesFiltered",
      tree.filter !== null,
    );
  const apply = (filter: Parameters<TraceTree["setFilter"]>[0]) => {
    tree.setFilter(filter);
    void setContext();
  };
  return [
    vscode.commands.registerCommand("paletteInspector.filterTracesByDroppedTool", async () => {
      const tool = await vscode.window.showInputBox({
        title: "Traces where a tool was dropped",
        prompt: "Tool name",
        validateInput: (v) => (v.trim() ? undefined : "A tool name"),
      });
      if (tool) apply({ kind: "dropped", tool: tool.trim() });
    }),
    vscode.commands.registerCommand("paletteInspector.filterTracesByStageAction", async () => {
      const stage = await vscode.window.showInputBox({
        title: "Traces where a stage did an action",
        prompt: "Stage name (e.g. policy)",
        validateInput: (v) => (v.trim() ? undefined : "A stage name"),
      });
      if (!stage) return;
      const action = await vscode.window.showQuickPick([...STAGE_ACTIONS], {
        title: `What did '${stage.trim()}' do?`,
      });
      if (action)
        apply({ kind: "stageAction", stage: stage.trim(), action: action as StageAction });
    }),
    vscode.commands.registerCommand("paletteInspector.filterTracesWithErrors", () =>
      apply({ kind: "errors" }),
    ),
    vscode.commands.registerCommand("paletteInspector.clearTraceFilter", () => apply(null)),
  ];
}
