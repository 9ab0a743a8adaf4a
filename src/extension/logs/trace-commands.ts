import type * as vscode from "vscode";
import { registerCommand } from "../commands.js";
import type { TracePanels } from "../panel/panels.js";
import { goToTrace } from "./go-to-trace.js";
import type { FollowedLogs } from "./follow-log.js";
import type { LiveTraces } from "./live-traces.js";
import {
  compareTraces,
  compareWithReplay,
  inspectLog,
  openTrace,
  turnIntoFixture,
} from "./log-commands.js";
import type { LiveGroup, LogSet, TraceNode, TraceTree } from "./trace-tree.js";

/**
 * Finding traces in logs and what the Selection Traces view does with them: open, page, go to,
 * remove, turn into a fixture, compare; live traces and followed logs.
 */
export function registerTraceCommands(
  traces: TraceTree,
  traceView: vscode.TreeView<TraceNode>,
  panels: TracePanels,
  live: { readonly traces: LiveTraces; readonly logs: FollowedLogs },
): vscode.Disposable[] {
  return [
    registerCommand("paletteInspector.startLiveTraces", () => live.traces.start()),
    registerCommand("paletteInspector.stopLiveTraces", () => live.traces.stop()),
    registerCommand("paletteInspector.followLog", (arg?: unknown) =>
      live.logs.follow(arg ?? traceView.selection[0]),
    ),
    registerCommand("paletteInspector.stopFollowingLog", (arg?: unknown) =>
      live.logs.stop(arg ?? traceView.selection[0]),
    ),
    // From the explorer: the clicked item, then every selected one.
    registerCommand("paletteInspector.inspectLog", (arg?: unknown, selected?: unknown) =>
      inspectLog(arg, traces, selected),
    ),
    registerCommand("paletteInspector.openTrace", (arg?: unknown, line?: number) =>
      openTrace(arg, line, panels, traces),
    ),
    registerCommand("paletteInspector.openTraceToSide", (node?: TraceNode) =>
      openTrace(node ?? traceView.selection[0], undefined, panels, traces, true),
    ),
    registerCommand("paletteInspector.showMoreTraces", (set: LogSet | LiveGroup) =>
      traces.showMore(set),
    ),
    registerCommand("paletteInspector.goToTrace", () =>
      goToTrace(traces, traceView, (node) => openTrace(node, undefined, panels, traces)),
    ),
    registerCommand("paletteInspector.removeLogSet", (node?: TraceNode) => {
      if (node?.kind === "set") traces.removeSet(node.set);
    }),
    registerCommand("paletteInspector.traceToFixture", (node?: TraceNode) =>
      turnIntoFixture(node ?? traceView.selection[0], panels),
    ),
    // Invoked on one item with the view's selection as the second argument.
    registerCommand(
      "paletteInspector.compareTraces",
      (node?: TraceNode, selected?: readonly TraceNode[]) =>
        compareTraces(selected ?? (node ? [node] : traceView.selection), panels),
    ),
    registerCommand("paletteInspector.compareWithReplay", (node?: TraceNode) =>
      compareWithReplay(node ?? traceView.selection[0], panels),
    ),
  ];
}
