import * as vscode from "vscode";
import type { ScanProblem } from "../../core/traces/scan.js";
import type { TraceSummary } from "../../core/traces/summary.js";
import type { LogScan } from "../../node/log-file.js";
import { describeFilter, matchesFilter, type TraceFilter } from "./filter.js";
import { counted } from "../../core/words.js";
import type { StageAction } from "../../core/contract.js";

/** Traces are listed a page at a time so a log with 50,000 of them stays responsive. */
export const PAGE_SIZE = 500;

export type TraceNode =
  | { readonly kind: "log"; readonly uri: vscode.Uri; readonly scan: LogScan }
  | { readonly kind: "trace"; readonly uri: vscode.Uri; readonly summary: TraceSummary }
  | {
      readonly kind: "more";
      readonly uri: vscode.Uri;
      readonly shown: number;
      readonly remaining: number;
    }
  | { readonly kind: "problems"; readonly uri: vscode.Uri; readonly scan: LogScan }
  | { readonly kind: "problem"; readonly uri: vscode.Uri; readonly problem: ScanProblem };

function traceLabel(summary: TraceSummary): string {
  const when = summary.time === null ? "" : ` · ${String(summary.time)}`;
  const id = summary.id === null ? "" : ` · ${String(summary.id)}`;
  return `#${summary.index} line ${summary.line}${when}${id}`;
}

function traceDescription(summary: TraceSummary): string {
  const forced = summary.forcedChoice ? ` · forced ${summary.forcedChoice}` : "";
  return `${counted(summary.stages.length, "stage")} · ${counted(summary.names.length, "tool")}${forced}`;
}

/** The "Selection Traces" view: traces found per log file, filterable, with the problems found. */
/** Tool and stage names of the listed logs, each with how many traces show it. */
export interface FilterChoices {
  readonly dropped: ReadonlyMap<string, number>;
  readonly stages: ReadonlyMap<string, ReadonlyMap<StageAction, number>>;
}

export class TraceTree implements vscode.TreeDataProvider<TraceNode> {
  private readonly changed = new vscode.EventEmitter<TraceNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly logs = new Map<string, { uri: vscode.Uri; scan: LogScan; pages: number }>();
  private filterValue: TraceFilter | null = null;

  /** Shows (or replaces) the scan of one log file. */
  setScan(uri: vscode.Uri, scan: LogScan): void {
    this.logs.set(uri.toString(), { uri, scan, pages: 1 });
    this.changed.fire(undefined);
  }

  get filter(): TraceFilter | null {
    return this.filterValue;
  }

  setFilter(filter: TraceFilter | null): void {
    this.filterValue = filter;
    this.changed.fire(undefined);
  }

  showMore(uri: vscode.Uri): void {
    const log = this.logs.get(uri.toString());
    if (!log) return;
    log.pages++;
    this.changed.fire(undefined);
  }

  removeLog(uri: vscode.Uri): void {
    this.logs.delete(uri.toString());
    this.changed.fire(undefined);
  }

  /** What the listed logs contain, for the filter pickers: dropped tools and each stage's actions, counted by trace. */
  filterChoices(): FilterChoices {
    const dropped = new Map<string, number>();
    const stages = new Map<string, Map<StageAction, number>>();
    const bump = <K>(map: Map<K, number>, key: K) => map.set(key, (map.get(key) ?? 0) + 1);
    for (const { scan } of this.logs.values())
      for (const summary of scan.traces) {
        for (const tool of new Set(summary.stages.flatMap((stage) => stage.dropped)))
          bump(dropped, tool);
        for (const { stage, action } of summary.stages) {
          const actions = stages.get(stage) ?? new Map<StageAction, number>();
          stages.set(stage, bump(actions, action));
        }
      }
    return { dropped, stages };
  }

  /** Every trace of a log that the filter lets through, in file order. */
  visibleTraces(uri: vscode.Uri): TraceSummary[] {
    return (this.logs.get(uri.toString())?.scan.traces ?? []).filter((summary) =>
      matchesFilter(summary, this.filterValue),
    );
  }

  getChildren(node?: TraceNode): TraceNode[] {
    if (!node) return [...this.logs.values()].map(({ uri, scan }) => ({ kind: "log", uri, scan }));
    if (node.kind === "log") {
      const pages = this.logs.get(node.uri.toString())?.pages ?? 1;
      const visible = this.visibleTraces(node.uri);
      const shown = visible.slice(0, pages * PAGE_SIZE);
      const children: TraceNode[] = shown.map((summary) => ({
        kind: "trace",
        uri: node.uri,
        summary,
      }));
      if (visible.length > shown.length)
        children.push({
          kind: "more",
          uri: node.uri,
          shown: shown.length,
          remaining: visible.length - shown.length,
        });
      if (node.scan.problemCount > 0)
        children.push({ kind: "problems", uri: node.uri, scan: node.scan });
      return children;
    }
    if (node.kind === "problems")
      return node.scan.problems.map((problem) => ({ kind: "problem", uri: node.uri, problem }));
    return [];
  }

  getTreeItem(node: TraceNode): vscode.TreeItem {
    switch (node.kind) {
      case "log": {
        const item = new vscode.TreeItem(
          vscode.workspace.asRelativePath(node.uri),
          vscode.TreeItemCollapsibleState.Expanded,
        );
        const shown = this.visibleTraces(node.uri).length;
        const filtered = this.filterValue
          ? ` ${describeFilter(this.filterValue)}: ${shown} of`
          : "";
        item.description =
          `${filtered} ${node.scan.traceCount} traces${node.scan.cancelled ? " (scan cancelled)" : ""}`.trim();
        item.iconPath = new vscode.ThemeIcon("output");
        item.resourceUri = node.uri;
        item.contextValue = "paletteInspector.log";
        return item;
      }
      case "trace": {
        const { summary } = node;
        const item = new vscode.TreeItem(traceLabel(summary), vscode.TreeItemCollapsibleState.None);
        item.description = traceDescription(summary);
        item.tooltip = `${summary.stages.map((stage) => `${stage.stage}: ${stage.action}`).join("\n")}\n\nfinal: ${summary.names.join(", ") || "(none)"}`;
        item.iconPath = summary.error
          ? new vscode.ThemeIcon("error", new vscode.ThemeColor("errorForeground"))
          : summary.degraded
            ? new vscode.ThemeIcon("warning", new vscode.ThemeColor("list.warningForeground"))
            : new vscode.ThemeIcon("type-hierarchy");
        item.contextValue = "paletteInspector.trace";
        item.command = {
          command: "paletteInspector.openTrace",
          title: "Open Selection Trace",
          arguments: [node],
        };
        item.accessibilityInformation = {
          label: `Trace ${summary.index} at line ${summary.line}, ${traceDescription(summary)}${summary.error ? ", failed" : ""}${summary.degraded ? ", degraded" : ""}`,
        };
        return item;
      }
      case "more": {
        const item = new vscode.TreeItem(
          `Show ${Math.min(PAGE_SIZE, node.remaining)} more (${node.remaining} not shown)`,
        );
        item.command = {
          command: "paletteInspector.showMoreTraces",
          title: "Show more",
          arguments: [node.uri],
        };
        item.iconPath = new vscode.ThemeIcon("ellipsis");
        return item;
      }
      case "problems": {
        const item = new vscode.TreeItem(
          `Problems (${node.scan.problemCount})`,
          vscode.TreeItemCollapsibleState.Collapsed,
        );
        item.iconPath = new vscode.ThemeIcon("warning");
        return item;
      }
      case "problem": {
        const item = new vscode.TreeItem(`line ${node.problem.line}: ${node.problem.message}`);
        item.command = {
          command: "vscode.open",
          title: "Go to line",
          arguments: [
            node.uri,
            { selection: new vscode.Range(node.problem.line - 1, 0, node.problem.line - 1, 0) },
          ],
        };
        return item;
      }
    }
  }

  dispose(): void {
    this.changed.dispose();
  }
}
