import { stat } from "node:fs/promises";
import * as vscode from "vscode";
import { reportFromTrace } from "../../core/traces/report.js";
import { scanText, type FoundTrace } from "../../core/traces/scan.js";
import type { TraceSummary } from "../../core/traces/summary.js";
import { traceToFixture } from "../../core/traces/to-fixture.js";
import { loadFixture } from "../../core/fixture/load.js";
import { type RunReport } from "../../core/report.js";
import { runFixture } from "../../core/run-fixture.js";
import { readTraceAt, scanLogFile } from "../../node/log-file.js";
import { readText, readWorkspaceCatalog } from "../fixtures.js";
import { notice, notify, withProgress } from "../notify.js";
import type { TracePanels } from "../panel/panels.js";
import { chooseNewFile, FIXTURE_FILTERS } from "../workspace-files.js";
import type { TraceTree, TraceNode } from "./trace-tree.js";

export const LOG_EXTENSIONS = ["log", "jsonl", "ndjson", "json"];

/** The log a command means: the one it was invoked on, else the active editor's, else one the user picks. */
async function targetLog(arg: unknown): Promise<vscode.Uri | undefined> {
  if (arg instanceof vscode.Uri) return arg;
  const active = vscode.window.activeTextEditor?.document.uri;
  if (active && active.scheme === "file") return active;
  const picked = await vscode.window.showOpenDialog({
    canSelectMany: false,
    filters: { Logs: LOG_EXTENSIONS, "All files": ["*"] },
    title: "Find Selection Traces in File",
  });
  return picked?.[0];
}

/** "Find Selection Traces in File": a cancellable scan with progress, listed in the Selection Traces view. */
export async function inspectLog(arg: unknown, tree: TraceTree): Promise<void> {
  const uri = await targetLog(arg);
  if (!uri) return;
  const name = vscode.workspace.asRelativePath(uri);
  let size = 0;
  try {
    // The scan streams the file from disk, so its size comes from there too.
    size = (await stat(uri.fsPath)).size;
  } catch {
    void notify("error", notice`cannot read ${name}.`, { details: [uri.fsPath] });
    return;
  }
  await withProgress(notice`Finding selection traces in ${name}`, async (report, token) => {
    let reported = 0;
    try {
      const scan = await scanLogFile(uri.fsPath, {
        signal: token,
        onProgress: (bytes) => {
          const percent = size > 0 ? Math.floor((bytes / size) * 100) : 100;
          if (percent > reported) report(notice`${percent}%`, percent - reported);
          reported = percent;
        },
      });
      tree.setScan(uri, scan);
      await vscode.commands.executeCommand("paletteInspector.traces.focus");
      const problems = scan.problemCount > 0 ? `, ${scan.problemCount} broken line(s)` : "";
      const cancelled = scan.cancelled ? " (cancelled: partial list)" : "";
      void notify(
        "info",
        notice`${scan.traceCount} selection trace(s) in ${name}${problems}${cancelled}.`,
        {
          details: scan.problems.map(
            (problem) => `${uri.fsPath}:${problem.line}: ${problem.message}`,
          ),
        },
      );
    } catch (error) {
      void notify("error", notice`cannot scan ${name} for selection traces.`, {
        details: [messageOf(error)],
      });
    }
  });
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The full trace behind a tree entry, re-read from its byte range. */
async function traceOf(node: Extract<TraceNode, { kind: "trace" }>): Promise<FoundTrace> {
  return readTraceAt(node.uri.fsPath, node.summary);
}

/** The trace that starts at a line of an open log (CodeLens), read from the editor's text. */
async function traceAtLine(uri: vscode.Uri, line: number): Promise<FoundTrace | undefined> {
  const text = await readText(uri);
  return scanText(text).traces.find((found) => found.line === line);
}

export function reportOf(found: FoundTrace, uri: vscode.Uri): RunReport {
  return reportFromTrace(found, uri.toString());
}

/** Opens a logged trace, read-only, in the Selection Trace panel. */
export async function openTrace(
  arg: unknown,
  line: number | undefined,
  panels: TracePanels,
): Promise<void> {
  try {
    if (arg instanceof vscode.Uri && line !== undefined) {
      const found = await traceAtLine(arg, line);
      if (!found) throw new Error(`no selection trace starts at line ${line} any more`);
      panels.showReport(reportOf(found, arg));
      return;
    }
    const node = arg as TraceNode | undefined;
    if (node?.kind !== "trace") return;
    panels.showReport(reportOf(await traceOf(node), node.uri));
  } catch (error) {
    void notify("error", notice`cannot open the selection trace.`, { details: [messageOf(error)] });
  }
}

/** `app.log` + trace 3 → `app.trace-3.turn.json`, next to the log. */
export function suggestedFixturePath(
  logPath: string,
  summary: Pick<TraceSummary, "index">,
): string {
  const slash = logPath.lastIndexOf("/");
  const base = logPath.slice(slash + 1).replace(/\.(log|jsonl|ndjson|json|txt)$/i, "");
  return `${logPath.slice(0, slash + 1)}${base}.trace-${summary.index}.turn.json`;
}

/** "Turn into Fixture": writes a fixture that replays the trace, then runs it. */
export async function turnIntoFixture(
  node: TraceNode | undefined,
  panels: TracePanels,
): Promise<vscode.Uri | undefined> {
  if (node?.kind !== "trace") return undefined;
  let found: FoundTrace;
  try {
    found = await traceOf(node);
  } catch (error) {
    void notify("error", notice`cannot read the selection trace.`, { details: [messageOf(error)] });
    return undefined;
  }
  const { fixture, caveats } = traceToFixture(found.trace, {
    file: vscode.workspace.asRelativePath(node.uri),
    line: found.line,
  });
  const target = await chooseNewFile({
    defaultUri: node.uri.with({ path: suggestedFixturePath(node.uri.path, node.summary) }),
    filters: FIXTURE_FILTERS,
    saveLabel: "Save fixture",
    title: "Turn the logged trace into a fixture",
  });
  if (!target) return undefined;
  await vscode.workspace.fs.writeFile(
    target,
    new TextEncoder().encode(JSON.stringify(fixture, null, 2) + "\n"),
  );
  await vscode.window.showTextDocument(target, { preview: false });
  await panels.showFixture(target);
  if (caveats.length > 0)
    void notify(
      "warning",
      notice`the replay differs from the log in ${caveats.length} way(s); see the log for how.`,
      { details: caveats },
    );
  return target;
}

/** "Compare with Replay": the logged trace against a run of the fixture that replays it. */
export async function compareWithReplay(
  node: TraceNode | undefined,
  panels: TracePanels,
): Promise<void> {
  if (node?.kind !== "trace") return;
  try {
    const found = await traceOf(node);
    const { fixture } = traceToFixture(found.trace, {
      file: vscode.workspace.asRelativePath(node.uri),
      line: found.line,
    });
    const replayFile = node.uri
      .with({ path: suggestedFixturePath(node.uri.path, node.summary) })
      .toString();
    const loaded = await loadFixture(
      { file: replayFile, text: JSON.stringify(fixture) },
      readWorkspaceCatalog,
    );
    if (!loaded.ok)
      throw new Error(
        `the replay fixture is invalid: ${loaded.problems[0]?.message ?? "unknown problem"}`,
      );
    // The replay has no file of its own yet: it is named after the log it replays, never after a path that does not exist.
    const replay = { ...runFixture(loaded.fixture), file: node.uri.toString() };
    panels.showComparison(reportOf(found, node.uri), replay);
  } catch (error) {
    void notify("error", notice`cannot compare the trace with its replay.`, {
      details: [messageOf(error)],
    });
  }
}

/** "Compare Traces": two selected traces side by side, stage by stage. */
export async function compareTraces(
  selected: readonly TraceNode[] | undefined,
  panels: TracePanels,
): Promise<void> {
  const traces = (selected ?? []).filter(
    (node): node is Extract<TraceNode, { kind: "trace" }> => node.kind === "trace",
  );
  if (traces.length !== 2) {
    void notify("info", notice`select exactly two traces (Ctrl/Cmd+click) to compare them.`);
    return;
  }
  try {
    const [base, variant] = await Promise.all(
      traces.map(async (node) => reportOf(await traceOf(node), node.uri)),
    );
    panels.showComparison(base!, variant!);
  } catch (error) {
    void notify("error", notice`cannot compare the traces.`, { details: [messageOf(error)] });
  }
}
