import * as vscode from "vscode";
import { FIXTURE_GLOB } from "../core/fixture/files.js";
import { RunSelectionCodeLens } from "./codelens.js";
import { DebugCommands } from "./debug/commands.js";
import { FixtureDiagnostics } from "./diagnostics.js";
import { registerFixtureCommands } from "./fixture-commands.js";
import { registerLanguageModelTools } from "./lm-tools.js";
import { loadFixtureFromUri } from "./fixtures.js";
import { restoreLogSets } from "./logs/log-commands.js";
import { LOG_EXTENSIONS } from "./logs/pick-logs.js";
import { LogTraceCodeLens } from "./logs/log-codelens.js";
import { LogDiagnostics } from "./logs/log-diagnostics.js";
import { registerTraceFilters } from "./logs/filter-commands.js";
import { LOG_EXCERPT_SCHEME, LogExcerpts } from "./logs/log-excerpts.js";
import { registerTraceCommands } from "./logs/trace-commands.js";
import { TraceTree } from "./logs/trace-tree.js";
import { FollowedLogs } from "./logs/follow-log.js";
import { LiveTraces } from "./logs/live-traces.js";
import { disposeLog, log, notice, unawaited } from "./notify.js";
import { TracePanels } from "./panel/panels.js";
import { registerStatistics } from "./stats/stats-command.js";
import { StatsPanels } from "./stats/stats-panels.js";
import { FixtureTests } from "./testing/fixture-tests.js";
import { endFixtureWorker } from "../node/fixture-check.js";
import { endKeptWorkers } from "../node/kept-workers.js";

const FIXTURE_SELECTOR: vscode.DocumentSelector = { pattern: FIXTURE_GLOB };
const LOG_SELECTOR: vscode.DocumentSelector = LOG_EXTENSIONS.map((extension) => ({
  pattern: `**/*.${extension}`,
}));

export function activate(context: vscode.ExtensionContext): void {
  const panels = new TracePanels(context.extensionUri, loadFixtureFromUri, (message) =>
    log().warn(message),
  );
  const statistics = new StatsPanels(context.extensionUri, panels);
  const tests = new FixtureTests();
  const diagnostics = new FixtureDiagnostics();
  unawaited(tests.discover(), notice`finding the workspace's fixtures failed`);
  // The opened logs are remembered per workspace and scanned again after a reload.
  const traces = new TraceTree(context.workspaceState);
  unawaited(restoreLogSets(traces), notice`reopening the saved selection trace sets failed`);
  const traceView = vscode.window.createTreeView("paletteInspector.traces", {
    treeDataProvider: traces,
    canSelectMany: true,
    showCollapseAll: true,
  });
  // Nothing listens and nothing is followed until the user asks.
  const live = {
    traces: new LiveTraces(traces, traceView, panels),
    logs: new FollowedLogs(traces),
  };

  context.subscriptions.push(
    { dispose: disposeLog },
    panels,
    statistics,
    tests,
    diagnostics,
    vscode.languages.registerCodeActionsProvider(FIXTURE_SELECTOR, diagnostics, {
      providedCodeActionKinds: [vscode.CodeActionKind.QuickFix],
    }),
    vscode.languages.registerCodeLensProvider(FIXTURE_SELECTOR, new RunSelectionCodeLens()),
    traces,
    new LogDiagnostics(traces),
    traceView,
    live.traces,
    live.logs,
    vscode.languages.registerCodeLensProvider(
      LOG_SELECTOR,
      new LogTraceCodeLens(live.logs.onDidChangeCodeLenses),
    ),
    vscode.workspace.registerTextDocumentContentProvider(LOG_EXCERPT_SCHEME, new LogExcerpts()),
    ...registerFixtureCommands(panels, tests),
    ...registerTraceCommands(traces, traceView, panels, live),
    ...registerTraceFilters(traces),
    ...registerLanguageModelTools(),
    ...new DebugCommands(panels).register(),
    registerStatistics(traces, traceView, statistics),
  );
}

/** Ends the fixture worker thread and the kept scan workers, which would otherwise outlive the extension. */
export async function deactivate(): Promise<void> {
  await Promise.all([endFixtureWorker(), endKeptWorkers()]);
}
