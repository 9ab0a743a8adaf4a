import * as vscode from "vscode";
import { RunSelectionCodeLens } from "./codelens.js";
import { DebugCommands } from "./debug/commands.js";
import { FixtureDiagnostics } from "./diagnostics.js";
import { registerLanguageModelTools } from "./lm-tools.js";
import { loadFixtureFromUri } from "./fixtures.js";
import {
  compareTraces,
  compareWithReplay,
  inspectLog,
  LOG_EXTENSIONS,
  openTrace,
  restoreLogSets,
  turnIntoFixture,
} from "./logs/log-commands.js";
import { LogTraceCodeLens } from "./logs/log-codelens.js";
import { registerTraceFilters } from "./logs/filter-commands.js";
import { goToTrace } from "./logs/go-to-trace.js";
import { LOG_EXCERPT_SCHEME, LogExcerpts } from "./logs/log-excerpts.js";
import { TraceTree, type LogSet, type TraceNode } from "./logs/trace-tree.js";
import { newFixture } from "./new-fixture.js";
import { disposeLog, log, notice, notify, pickLabel } from "./notify.js";
import { TracePanels } from "./panel/panels.js";
import { showStatistics } from "./stats/stats-command.js";
import { StatsPanels } from "./stats/stats-panels.js";
import { FixtureTests } from "./testing/fixture-tests.js";
import { updateExpectation } from "./testing/update-expectation.js";

const FIXTURE_SELECTOR: vscode.DocumentSelector = { pattern: "**/*.turn.json" };
const LOG_SELECTOR: vscode.DocumentSelector = LOG_EXTENSIONS.map((extension) => ({
  pattern: `**/*.${extension}`,
}));

/** Fixtures as quick-pick items, sorted by their path in the workspace. */
function fixturePicks(found: readonly vscode.Uri[]): { label: string; uri: vscode.Uri }[] {
  return found
    .map((uri) => ({ label: pickLabel(vscode.workspace.asRelativePath(uri)), uri }))
    .sort((a, b) => a.label.localeCompare(b.label, "en"));
}

/** The fixture a command means: the one it was invoked on, else the active editor's, else one the user picks. */
async function targetFixture(arg: unknown): Promise<vscode.Uri | undefined> {
  if (arg instanceof vscode.Uri) return arg;
  const active = vscode.window.activeTextEditor?.document.uri;
  if (active?.path.endsWith(".turn.json")) return active;
  const found = await vscode.workspace.findFiles("**/*.turn.json", "**/node_modules/**", 500);
  if (found.length === 0) {
    void notify(
      "info",
      notice`no *.turn.json fixture in this workspace. Create one with 'Palette Inspector: New Turn Fixture'.`,
    );
    return undefined;
  }
  const picked = await vscode.window.showQuickPick(fixturePicks(found), {
    title: "Run Selection on Fixture",
    placeHolder: "Which fixture?",
  });
  return picked?.uri;
}

export function activate(context: vscode.ExtensionContext): void {
  const panels = new TracePanels(context.extensionUri, loadFixtureFromUri, (message) =>
    log().warn(message),
  );
  const statistics = new StatsPanels(context.extensionUri, panels);
  const tests = new FixtureTests();
  const diagnostics = new FixtureDiagnostics();
  void tests.discover();
  // The opened logs are remembered per workspace and scanned again after a reload.
  const traces = new TraceTree(context.workspaceState);
  void restoreLogSets(traces);
  const traceView = vscode.window.createTreeView("paletteInspector.traces", {
    treeDataProvider: traces,
    canSelectMany: true,
    showCollapseAll: true,
  });

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
    vscode.commands.registerCommand("paletteInspector.runFixture", async (arg?: unknown) => {
      const uri = await targetFixture(arg);
      if (uri) await panels.showFixture(uri);
    }),
    vscode.commands.registerCommand("paletteInspector.newFixture", (arg?: unknown) =>
      newFixture(arg instanceof vscode.Uri ? arg : undefined),
    ),
    vscode.commands.registerCommand("paletteInspector.updateExpectation", async (arg?: unknown) => {
      const uri = await targetFixture(arg);
      if (uri) await updateExpectation(uri, (saved) => tests.runFile(saved));
    }),
    traces,
    traceView,
    vscode.languages.registerCodeLensProvider(LOG_SELECTOR, new LogTraceCodeLens()),
    vscode.workspace.registerTextDocumentContentProvider(LOG_EXCERPT_SCHEME, new LogExcerpts()),
    // From the explorer: the clicked item, then every selected one.
    vscode.commands.registerCommand(
      "paletteInspector.inspectLog",
      (arg?: unknown, selected?: unknown) => inspectLog(arg, traces, selected),
    ),
    vscode.commands.registerCommand("paletteInspector.openTrace", (arg?: unknown, line?: number) =>
      openTrace(arg, line, panels, traces),
    ),
    vscode.commands.registerCommand("paletteInspector.openTraceToSide", (node?: TraceNode) =>
      openTrace(node ?? traceView.selection[0], undefined, panels, traces, true),
    ),
    vscode.commands.registerCommand("paletteInspector.showMoreTraces", (set: LogSet) =>
      traces.showMore(set),
    ),
    vscode.commands.registerCommand("paletteInspector.goToTrace", () =>
      goToTrace(traces, traceView, (node) => openTrace(node, undefined, panels, traces)),
    ),
    vscode.commands.registerCommand("paletteInspector.removeLogSet", (node?: TraceNode) => {
      if (node?.kind === "set") traces.removeSet(node.set);
    }),
    vscode.commands.registerCommand("paletteInspector.traceToFixture", (node?: TraceNode) =>
      turnIntoFixture(node ?? traceView.selection[0], panels),
    ),
    // Invoked on one item with the view's selection as the second argument.
    vscode.commands.registerCommand(
      "paletteInspector.compareTraces",
      (node?: TraceNode, selected?: readonly TraceNode[]) =>
        compareTraces(selected ?? (node ? [node] : traceView.selection), panels),
    ),
    vscode.commands.registerCommand("paletteInspector.compareWithReplay", (node?: TraceNode) =>
      compareWithReplay(node ?? traceView.selection[0], panels),
    ),
    ...registerTraceFilters(traces),
    ...registerLanguageModelTools(),
    ...new DebugCommands(panels).register(),
    // From the explorer (with its selection as the second argument) or the Selection Traces view.
    vscode.commands.registerCommand(
      "paletteInspector.showStatistics",
      (arg?: unknown, selected?: unknown) =>
        showStatistics(
          arg,
          selected ?? (arg ? undefined : traceView.selection),
          traces,
          statistics,
        ),
    ),
    // From a failed test's message: the waterfall of the run that failed.
    vscode.commands.registerCommand(
      "paletteInspector.showTestRun",
      async (arg?: { test?: vscode.TestItem }) => {
        const uri = arg?.test?.uri;
        if (uri) await panels.showFixture(uri);
      },
    ),
  );
}

export function deactivate(): void {}
