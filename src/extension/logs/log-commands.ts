import { homedir } from "node:os";
import * as vscode from "vscode";
import { reportFromTrace } from "../../core/traces/report.js";
import { ScanCancelled, type FoundTrace } from "../../core/traces/scan.js";
import { traceToFixture } from "../../core/traces/to-fixture.js";
import { loadFixture } from "../../core/fixture/load.js";
import { type RunReport } from "../../core/report.js";
import { runFixture } from "../../core/run-fixture.js";
import { fileStamps, readTraceAt, scanLogs, scanTextOffThread } from "../../node/log-file.js";
import { expandInputs } from "../../node/log-source.js";
import { TraceIndex } from "../../node/trace-index.js";
import { readText, readWorkspaceCatalog } from "../fixtures.js";
import {
  log,
  notice,
  announce,
  percentProgress,
  withProgress,
  type NoticeText,
} from "../notify.js";
import { StatsFold } from "../stats/read-stats.js";
import { rememberTrace } from "./log-excerpts.js";
import { openTurn, turnPlace, turnReport } from "./live-turn.js";
import type { TracePanels } from "../panel/panels.js";
import { fixtureFolder } from "../fixture-folder.js";
import { saveNewFixture } from "../save-fixture.js";
import {
  traceFile,
  traceNumber,
  type LogSet,
  type TraceItemNode,
  type TraceNode,
  type TraceTree,
} from "./trace-tree.js";
import { baseName, counted } from "../../core/words.js";
import { pickLogs } from "./pick-logs.js";

/** Problems written to the log channel after a scan; the view lists up to MAX_PROBLEMS. */
const LOGGED_PROBLEMS = 50;

/** The logs a command means: those selected in the explorer, the one it was invoked on, the active editor's, else those the user picks. */
async function targetLogs(arg: unknown, selected: unknown): Promise<vscode.Uri[]> {
  if (Array.isArray(selected) && selected.length > 0 && selected.every(isUri)) return selected;
  if (isUri(arg)) return [arg];
  const active = vscode.window.activeTextEditor?.document.uri;
  if (active && active.scheme === "file") return [active];
  return pickLogs("Find Selection Traces in Files");
}

function isUri(value: unknown): value is vscode.Uri {
  return value instanceof vscode.Uri;
}

/** "Find Selection Traces in File": the selected files and folders, scanned as one set. */
export async function inspectLog(arg: unknown, tree: TraceTree, selected?: unknown): Promise<void> {
  const roots = await targetLogs(arg, selected);
  if (roots.length > 0) await openLogSet(roots, tree);
}

/** What a set is called in messages: its first file or folder, and how many more. */
function setName(roots: readonly vscode.Uri[]): string {
  const first = vscode.workspace.asRelativePath(roots[0]!);
  return roots.length === 1 ? first : `${first} and ${roots.length - 1} more`;
}

/**
 * Scans a set of logs with progress and Cancel, and lists it in the Selection Traces view.
 * `restoring`: scanned again after a window reload, so only failures are said.
 */
export async function openLogSet(
  roots: readonly vscode.Uri[],
  tree: TraceTree,
  options: { restoring?: boolean } = {},
): Promise<LogSet | undefined> {
  const name = setName(roots);
  const inputs = await expandInputs(
    roots.map((uri) => uri.fsPath),
    (path) => path,
  );
  if (inputs.length === 0) {
    if (options.restoring) tree.forget(roots);
    else announce("warning", notice`no log files (*.log, *.jsonl, *.json, .gz, …) in ${name}.`);
    return undefined;
  }
  // The scan streams the files from disk, so their sizes come from there too; and a set whose
  // files are as they were scanned need not be read again for its statistics.
  const stamps = await fileStamps(inputs);
  const total = stamps.reduce((sum, stamp) => sum + (stamp?.size ?? 0), 0);
  const files = inputs.map((input) => vscode.Uri.file(input.path!));
  return withProgress(notice`Finding selection traces in ${name}`, async (report, token) => {
    // Listed from the start, so that traces appear as they are found.
    const set: Mutable<LogSet> = {
      roots,
      files,
      index: new TraceIndex(),
      cancelled: false,
      scanning: true,
      percent: 0,
    };
    const { index } = set;
    tree.setSet(set);
    const refresh = throttled(() => tree.grew(set), REFRESH_MS);
    const progress = percentProgress(report, total);
    const fold = new StatsFold(inputs);
    const scan = await scanLogs(inputs, {
      signal: token,
      checkpoints: true,
      onTrace: (found, file) => {
        index.add(found, file);
        fold.trace(found, file);
        refresh.call();
      },
      onProblem: (problem) => {
        index.addProblem(problem);
        fold.problem(problem);
      },
      onProgress: (bytes) => void (set.percent = progress(bytes)),
    });
    refresh.cancel();
    index.finish();
    set.scanning = false;
    set.cancelled = scan.cancelled;
    if (!scan.cancelled) set.scanned = { stats: fold.done(scan), stamps };
    const details = index.problems
      .slice(0, LOGGED_PROBLEMS)
      .map(
        (problem) =>
          `${inputs[problem.file]!.path}${problem.line === null ? "" : `:${problem.line}`}: ${problem.message}`,
      );
    if (scan.unreadable === inputs.length) {
      tree.removeSet(set);
      if (options.restoring) {
        // Gone since the last session: say so in the log once, and stop restoring it.
        log().warn([`Selection traces of ${name} are no longer listed:`, ...details].join("\n  "));
        tree.forget(roots);
      } else announce("error", notice`cannot read ${name}.`, { details });
      return undefined;
    }
    tree.grew(set);
    if (options.restoring) {
      if (details.length > 0) log().warn([`Selection traces of ${name}:`, ...details].join("\n  "));
      return set;
    }
    await vscode.commands.executeCommand("paletteInspector.traces.focus");
    const traces = counted(scan.traceCount, "selection trace");
    const problems = counted(scan.problemCount, "problem");
    announce(
      scan.problemCount > 0 || scan.cancelled ? "warning" : "info",
      scan.cancelled
        ? notice`scan of ${name} cancelled at ${set.percent}%: ${traces} and ${problems} in what was read; the list is partial.`
        : notice`${traces} in ${name}, ${problems}.`,
      { details },
    );
    return set;
  });
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** How often a set being scanned is shown again with the traces found since. */
const REFRESH_MS = 250;

/** Calls `fn` at once, then at most once per `ms` while calls keep coming (the last is never lost). */
export function throttled(fn: () => void, ms: number): { call(): void; cancel(): void } {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let pending = false;
  const tick = () => {
    if (!pending) return void (timer = undefined);
    pending = false;
    fn();
    timer = setTimeout(tick, ms);
  };
  return {
    call() {
      if (timer !== undefined) return void (pending = true);
      fn();
      timer = setTimeout(tick, ms);
    },
    cancel() {
      clearTimeout(timer);
      timer = undefined;
      pending = false;
    },
  };
}

/** Scans again the sets that were open before the window was reloaded. */
export async function restoreLogSets(tree: TraceTree): Promise<void> {
  for (const roots of tree.savedSets())
    if (roots.length > 0) await openLogSet(roots, tree, { restoring: true });
}

/**
 * The full trace behind a tree entry, re-read from its byte range in its file. A gzip is inflated
 * again from the checkpoint before the trace (or its start, before its checkpoints are ready),
 * which can take seconds in a big one: that shows progress with Cancel.
 */
async function traceOf(node: TraceItemNode): Promise<FoundTrace> {
  const file = traceFile(node);
  const at = node.set.index.location(node.index);
  // Read in a set of OTLP files, it joins the set's log records as the scan did.
  const records = node.set.scanned?.stats.scan.setRecords;
  const otlpSet = records ? { records, file: node.set.index.fileOf(node.index) } : undefined;
  if (!/\.gz$/i.test(file.path)) return readTraceAt(file.fsPath, at, { otlpSet });
  return withProgress(
    notice`Reading trace ${traceNumber(node.index)} from ${vscode.workspace.asRelativePath(file)}`,
    (_report, token) => readTraceAt(file.fsPath, at, { signal: token, otlpSet }),
  );
}

/** A listed trace or a live turn, read back, with where it is from and its number there. */
interface Listed {
  readonly found: FoundTrace;
  /** Its log; for a received turn, its place under the receiver (`otlp://live/3`). */
  readonly place: vscode.Uri;
  readonly index: number;
  /** The trace as the panel shows it. */
  readonly report: () => RunReport;
}

/** The trace a view item holds, or null for any other item. */
async function listedTrace(node: TraceNode | undefined): Promise<Listed | null> {
  if (node?.kind === "trace") {
    const found = await traceOf(node);
    const place = traceFile(node);
    return { found, place, index: node.index, report: () => reportOf(found, place) };
  }
  if (node?.kind !== "turn") return null;
  const found = await node.group.spool.read(node.number);
  const place = turnPlace(node);
  return {
    found,
    place,
    index: node.number,
    report: () => turnReport(node, found),
  };
}

/** What a replay says it replays: the log and line, or the receiver's place of a turn. */
function replaySource(listed: Listed): { file: string; line: number | null } {
  const received = listed.place.scheme === "otlp";
  return {
    file: received ? listed.place.toString() : vscode.workspace.asRelativePath(listed.place),
    line: received ? null : listed.found.line,
  };
}

/** Where a listed trace's replay is named and proposed: beside its log; a received turn's as `live`. */
function replayPath(listed: Listed): string {
  return listed.place.scheme === "otlp"
    ? `/live.trace-${listed.index + 1}.turn.json`
    : suggestedFixturePath(listed.place.path, listed.index);
}

/**
 * Where a new replay is proposed: with the workspace's fixtures, not in the folder of logs; a
 * received turn has no folder, so with the first workspace folder's, else in the home folder.
 */
async function replayFolder(place: vscode.Uri): Promise<vscode.Uri> {
  if (place.scheme !== "otlp") return fixtureFolder(place);
  const root = vscode.workspace.workspaceFolders?.[0]?.uri;
  return root ? fixtureFolder(root) : vscode.Uri.file(homedir());
}

/** The trace that starts at a line of an open log (CodeLens), read from the editor's text. */
async function traceAtLine(uri: vscode.Uri, line: number): Promise<FoundTrace | undefined> {
  const text = await readText(uri);
  const { traces } = await scanTextOffThread(text);
  return traces.find((found) => found.line === line);
}

/** A logged trace as the panel shows it; where it starts is kept, to open its log at its line. */
export function reportOf(found: FoundTrace, uri: vscode.Uri): RunReport {
  rememberTrace(uri, found);
  return reportFromTrace(found, uri.toString());
}

/** A command that could not finish says why, unless the user cancelled it. */
function failed(message: NoticeText, error: unknown): void {
  if (error instanceof ScanCancelled) return;
  announce("error", message, {
    details: [error instanceof Error ? error.message : String(error)],
  });
}

/**
 * Opens a logged trace, read-only, in the Selection Trace panel: in the preview panel (one for
 * every trace looked at, as the Explorer's preview tab), or with `toSide` in a panel of its own.
 */
export async function openTrace(
  arg: unknown,
  line: number | undefined,
  panels: TracePanels,
  tree?: TraceTree,
  toSide = false,
): Promise<void> {
  const open = { preview: !toSide };
  try {
    if (arg instanceof vscode.Uri && line !== undefined) {
      const found = await traceAtLine(arg, line);
      if (!found) throw new Error(`no selection trace starts at line ${line} any more`);
      // Numbered as in the view when the file is listed there, else within the file.
      const index = tree?.listedIndex(arg, line) ?? found.index;
      panels.showReport(reportOf({ ...found, index }, arg), undefined, undefined, open);
      return;
    }
    const node = arg as TraceNode | undefined;
    if (node?.kind === "turn") return await openTurn(node, panels, open);
    if (node?.kind !== "trace") return;
    panels.showReport(reportOf(await traceOf(node), traceFile(node)), undefined, undefined, open);
  } catch (error) {
    failed(notice`cannot open the selection trace.`, error);
  }
}

/** `app.log` + trace #3 → `app.trace-3.turn.json`, next to the log. */
export function suggestedFixturePath(logPath: string, index: number): string {
  const slash = logPath.lastIndexOf("/");
  return `${logPath.slice(0, slash + 1)}${fixtureName(logPath, index)}`;
}

/** `…/app.log.2.gz` + trace #3 → `app.log.2.trace-3.turn.json`. */
function fixtureName(logPath: string, index: number): string {
  const base = baseName(logPath)
    .replace(/\.gz$/i, "")
    .replace(/\.(log|jsonl|ndjson|json|txt)$/i, "");
  return `${base}.trace-${index + 1}.turn.json`;
}

/** "Turn into Fixture": writes a fixture that replays the trace, then runs it. */
export async function turnIntoFixture(
  node: TraceNode | undefined,
  panels: TracePanels,
): Promise<vscode.Uri | undefined> {
  let listed: Listed | null;
  try {
    listed = await listedTrace(node);
  } catch (error) {
    failed(notice`cannot read the selection trace.`, error);
    return undefined;
  }
  if (!listed) return undefined;
  const { found, place } = listed;
  const { fixture, caveats } = traceToFixture(found.trace, replaySource(listed));
  const target = await saveNewFixture(
    fixture,
    {
      defaultUri: vscode.Uri.joinPath(await replayFolder(place), baseName(replayPath(listed))),
      title: "Turn the logged trace into a fixture",
    },
    panels,
  );
  if (!target) return undefined;
  if (caveats.length > 0)
    announce(
      "warning",
      notice`the replay differs from the log in ${counted(caveats.length, "way")}; see the log for how.`,
      { details: caveats },
    );
  return target;
}

/** "Compare with Replay": the logged trace against a run of the fixture that replays it. */
export async function compareWithReplay(
  node: TraceNode | undefined,
  panels: TracePanels,
): Promise<void> {
  try {
    const listed = await listedTrace(node);
    if (!listed) return;
    const { found, place } = listed;
    const { fixture } = traceToFixture(found.trace, replaySource(listed));
    const replayFile = place.with({ path: replayPath(listed) }).toString();
    const loaded = await loadFixture(
      { file: replayFile, text: JSON.stringify(fixture) },
      readWorkspaceCatalog,
    );
    if (!loaded.ok)
      throw new Error(
        `the replay fixture is invalid: ${loaded.problems[0]?.message ?? "unknown problem"}`,
      );
    // The replay has no file of its own yet: it is named after the log it replays, never after a path that does not exist.
    const replay = { ...runFixture(loaded.fixture), file: place.toString() };
    panels.showComparison(listed.report(), replay, true);
  } catch (error) {
    failed(notice`cannot compare the trace with its replay.`, error);
  }
}

/** "Compare Traces": two selected traces side by side, stage by stage. */
export async function compareTraces(
  selected: readonly TraceNode[] | undefined,
  panels: TracePanels,
): Promise<void> {
  const traces = (selected ?? []).filter((node) => node.kind === "trace" || node.kind === "turn");
  if (traces.length !== 2) {
    announce("info", notice`select exactly two traces (Ctrl/Cmd+click) to compare them.`);
    return;
  }
  try {
    const [base, variant] = await Promise.all(
      traces.map(async (node) => (await listedTrace(node))!.report()),
    );
    panels.showComparison(base!, variant!);
  } catch (error) {
    failed(notice`cannot compare the traces.`, error);
  }
}
