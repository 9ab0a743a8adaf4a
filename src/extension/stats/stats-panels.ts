import * as vscode from "vscode";
import { compareStats, type Comparison, type Side } from "../../core/stats/comparison.js";
import type { PaletteStats } from "../../core/stats/fold.js";
import { SPLIT_TIME_HELP, splitTimeMs } from "../../core/stats/split.js";
import {
  comparisonCsv,
  comparisonMarkdown,
  statsCsv,
  statsMarkdown,
} from "../../core/stats/export.js";
import { statsRows, type StatsRows, type ToolRow } from "../../core/stats/rows.js";
import { baseName, counted } from "../../core/words.js";
import { readTraceAt } from "../../node/log-file.js";
import { reportOf } from "../logs/log-commands.js";
import {
  comparisonView,
  parseFromStatsView,
  parseStatsPanelState,
  STATS_REQUEST_TIMEOUTS,
  type FromStatsView,
  type MissingGroup,
  type ToStatsView,
  toolColumns,
} from "../../stats-protocol.js";
import { announce, log, notice, notify, percentProgress, withProgress } from "../notify.js";
import { writeChosenFile } from "../chosen-file.js";
import { restorableUri, type TracePanels } from "../panel/panels.js";
import { webviewOptions, WebviewSession } from "../webview-session.js";
import { chooseNewFile } from "../workspace-files.js";
import {
  otlpSetOf,
  readLogStats,
  readSplitStats,
  type LogStats,
  type ReadOptions,
  type TraceRef,
} from "./read-stats.js";

/** The view type: package.json's `onWebviewPanel:` activation and the serializer use it. */
export const STATS_VIEW_TYPE = "paletteInspector.statistics";
const TITLE = "Palette Statistics";

/** Reads logs with progress (cancellable: a cancelled read shows what was read, marked so). */
export async function readWithProgress(uris: readonly vscode.Uri[]): Promise<LogStats | null> {
  return readingWithProgress(uris, readLogStats);
}

/** Reads logs with `reader`, its progress in percent of the bytes on disk; null after saying why it could not. */
async function readingWithProgress<Read extends Pick<LogStats, "scan" | "files" | "problems">>(
  uris: readonly vscode.Uri[],
  reader: (paths: string[], options: ReadOptions) => Promise<Read>,
): Promise<Read | null> {
  const label = uris.length === 1 ? vscode.workspace.asRelativePath(uris[0]!) : null;
  const title =
    label === null
      ? notice`Palette statistics: reading ${uris.length} logs or folders`
      : notice`Palette statistics: reading ${label}`;
  let read: Read;
  try {
    read = await withProgress(title, (report, token) => {
      let progress: ((bytes: number) => number) | undefined;
      return reader(
        uris.map((uri) => uri.fsPath),
        {
          signal: token,
          // In percent of the bytes on disk, as the Selection Traces view's scan says it.
          onProgress: (bytes, total) => (progress ??= percentProgress(report, total))(bytes),
        },
      );
    });
  } catch (error) {
    await notify("error", notice`Palette statistics could not read the logs.`, {
      details: [error instanceof Error ? error.message : String(error)],
    });
    return null;
  }
  const { unreadable } = read.scan;
  // No files at all counts as none readable.
  if (unreadable === read.files.length) {
    await notify("error", notice`Palette statistics could not read the logs.`, {
      details: read.files.length === 0 ? ["no log files there"] : read.problems,
    });
    return null;
  }
  if (unreadable > 0)
    announce("warning", notice`Palette statistics: ${unreadable} of the logs could not be read.`, {
      details: read.problems,
    });
  return read;
}

/** Every open Palette Statistics view. */
export class StatsPanels implements vscode.Disposable {
  private readonly sessions = new Set<StatsSession>();
  private readonly registration: vscode.Disposable;

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly traces: TracePanels,
  ) {
    // A view open before a window reload reads its logs again.
    this.registration = vscode.window.registerWebviewPanelSerializer(STATS_VIEW_TYPE, {
      deserializeWebviewPanel: async (panel: vscode.WebviewPanel, state: unknown) => {
        const sources = parseStatsPanelState(state)?.sources ?? [];
        const restorable = sources.map((source) => restorableUri(source, () => null, true));
        const refused = restorable.find((uri) => typeof uri === "string");
        if (refused !== undefined) return refuse(panel, refused);
        const uris = restorable as vscode.Uri[];
        const read = uris.length > 0 ? await readWithProgress(uris) : null;
        if (!read) {
          panel.dispose();
          return;
        }
        this.adopt(panel, uris, read);
      },
    });
  }

  /** Reads the logs (unless `scanned` holds what reading them gives) and opens a view of their statistics. */
  async show(uris: readonly vscode.Uri[], scanned?: LogStats): Promise<StatsSession | null> {
    const read = scanned ?? (await readWithProgress(uris));
    if (!read) return null;
    // The logs read, each once: not the names given, which may overlap or be gone.
    const label =
      uris.length === 1
        ? baseName(uris[0]!.path)
        : counted(read.files.length - read.scan.unreadable, "log");
    const panel = vscode.window.createWebviewPanel(
      STATS_VIEW_TYPE,
      `${TITLE}: ${label}`,
      { viewColumn: vscode.ViewColumn.Active },
      webviewOptions(this.extensionUri),
    );
    return this.adopt(panel, uris, read);
  }

  get open(): readonly StatsSession[] {
    return [...this.sessions];
  }

  private adopt(panel: vscode.WebviewPanel, uris: readonly vscode.Uri[], read: LogStats) {
    const session = new StatsSession(panel, uris, read, this.extensionUri, this.traces);
    this.sessions.add(session);
    panel.onDidDispose(() => this.sessions.delete(session));
    return session;
  }

  dispose(): void {
    this.registration.dispose();
    for (const session of this.sessions) session.panel.dispose();
    this.sessions.clear();
  }
}

/** Logs as the user knows them (workspace-relative paths). */
function against(files: readonly string[]): string[] {
  return files.map((file) => vscode.workspace.asRelativePath(file));
}

/** A restored view whose saved logs may not be read: it reads nothing and says why. */
function refuse(panel: vscode.WebviewPanel, reason: string): void {
  log().warn(`palette-inspector: a saved statistics view was not restored: ${reason}`);
  panel.title = `${TITLE}: not restored`;
  panel.webview.options = { enableScripts: false, localResourceRoots: [] };
  panel.webview.html = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'">
<title>${TITLE}: not restored</title>
</head>
<body><p>This view was not restored: ${reason.replace(/&/g, "&amp;").replace(/</g, "&lt;")}. Open Palette Statistics on the logs again.</p></body>
</html>
`;
}

/** One Palette Statistics view: it owns its webview's messages and the traces it can open. */
export class StatsSession extends WebviewSession<FromStatsView, ToStatsView> {
  readonly rows: StatsRows;
  /** Traces the view was told about, by the `ref` it got. */
  private readonly refs: TraceRef[] = [];
  private readonly refIds = new Map<TraceRef, number>();
  /** The last comparison made (with another set, OLD, or this set split at a time), for its export and its traces. */
  private compared: {
    readonly sides: { readonly old: PaletteStats<TraceRef>; readonly new: PaletteStats<TraceRef> };
    readonly comparison: Comparison;
    readonly label: string;
    /** The reading OLD's traces came from, to read one again as its scan joined it. */
    readonly read: Pick<LogStats, "files" | "scan">;
  } | null = null;

  constructor(
    panel: vscode.WebviewPanel,
    readonly sources: readonly vscode.Uri[],
    private readonly read: LogStats,
    extensionUri: vscode.Uri,
    private readonly traces: TracePanels,
  ) {
    super(
      panel,
      extensionUri,
      { script: "stats-webview.js", style: "stats.css", title: TITLE },
      parseFromStatsView,
      STATS_REQUEST_TIMEOUTS,
      (line) => log().warn(line),
    );
    this.rows = statsRows(read.stats);
  }

  protected async handle(message: FromStatsView): Promise<void> {
    switch (message.type) {
      case "ready":
        return this.post({
          type: "stats",
          view: {
            sources: this.sources.map((uri) => uri.toString()),
            files: this.read.files.map((file) => vscode.workspace.asRelativePath(file)),
            traces: this.rows.traces,
            problems: this.rows.problems,
            errors: this.rows.errors,
            stages: this.rows.stages,
            tools: toolColumns(this.rows.tools),
            timeline: this.rows.timeline,
            unreadableTimes: this.read.stats.timeline.unreadable,
            cancelled: this.read.scan.cancelled,
          },
        });
      case "missing":
        return this.post({
          type: "missing",
          requestId: message.requestId,
          tool: message.tool,
          groups: this.missing(message.tool, message.side),
        });
      case "openTrace":
        return this.openTrace(message.ref, message.tool);
      case "copyMarkdown": {
        const compared = this.shownComparison(message.comparison);
        await vscode.env.clipboard.writeText(
          (compared ? comparisonMarkdown(compared.comparison, compared.label) : "") +
            statsMarkdown(this.rows, this.pick(message.tools)),
        );
        return this.reply(
          message.requestId,
          true,
          compared
            ? "Copied the comparison and the tables as Markdown."
            : "Copied the tables as Markdown.",
        );
      }
      case "saveCsv":
        return this.saveCsv(message.requestId, message.tools, message.comparison);
      case "compare":
        return this.compare(message.requestId);
      case "split":
        return this.split(message.requestId, message.at);
    }
  }

  /** Compares this set (NEW) with logs the user picks (OLD, the set compared against). */
  private async compare(requestId: number): Promise<void> {
    const uris = await vscode.window.showOpenDialog({
      canSelectFiles: true,
      canSelectFolders: true,
      canSelectMany: true,
      openLabel: "Compare with",
      title: "Compare these statistics with other logs (the set before the change)",
    });
    if (!uris || uris.length === 0) return this.reply(requestId, false, "Not compared.");
    const other = await readWithProgress(uris);
    if (!other) return this.reply(requestId, false, "The other logs could not be read.");
    const others = against(other.files);
    const sides = { old: other.stats, new: this.read.stats };
    const comparison = compareStats(sides.old, sides.new);
    const label = others.length === 1 ? others[0]! : counted(others.length, "log");
    this.compared = { sides, comparison, label, read: other };
    const timelines = { old: sides.old.timeline, new: sides.new.timeline };
    this.post({
      type: "comparison",
      requestId,
      view: comparisonView(others, comparison, timelines),
    });
  }

  /** Reads this set again cut at `at` (a time picked on its timeline) and compares before with after, as `stats --split-at`. */
  private async split(requestId: number, at: string): Promise<void> {
    const atMs = splitTimeMs(at);
    if (atMs === null)
      return this.reply(requestId, false, `The split time must be ${SPLIT_TIME_HELP}.`);
    const read = await readingWithProgress(this.sources, (paths, options) =>
      readSplitStats(paths, at, atMs, options),
    );
    if (!read) return this.reply(requestId, false, "The logs could not be read again.");
    if (read.scan.cancelled)
      return this.reply(requestId, false, "Not compared: the reading was cancelled.");
    // The CLI's words, for a time the page did not offer (its picker offers only times inside the set).
    if ("error" in read.split)
      return this.reply(
        requestId,
        false,
        `${read.split.error.replace(/^--split-at needs/, "A split needs").replace(/^--split-at/, "A split at")}.`,
      );
    const sides = { old: read.old, new: read.new };
    const comparison = compareStats(sides.old, sides.new);
    this.compared = { sides, comparison, label: `the traces before ${at}`, read };
    const timelines = { old: sides.old.timeline, new: sides.new.timeline };
    this.post({
      type: "comparison",
      requestId,
      view: comparisonView(against(read.files), comparison, timelines, {
        at,
        atMs,
        untimed: read.split.untimed,
      }),
    });
  }

  /** The comparison the page says it shows, if the host made one (a reloaded page shows none). */
  private shownComparison(shown: boolean | undefined): typeof this.compared {
    return shown ? this.compared : null;
  }

  /**
   * The traces in which the tool went missing, by the stage that removed it, most first: in this
   * set, or in a side of the last comparison (none before one).
   */
  missing(tool: string, side?: Side): MissingGroup[] {
    const compared = side === undefined ? null : this.compared;
    const set = compared
      ? { rows: compared.comparison[side!], stats: compared.sides[side!] }
      : side === "old"
        ? null
        : { rows: this.rows, stats: this.read.stats };
    const row = set?.rows.tools.find((r) => r.name === tool);
    if (!set || !row) return [];
    const samples = set.stats.tools.get(tool)!.samples;
    return row.removedBy.map(({ stage, n, failed }) => ({
      stage,
      failed,
      total: n,
      // readLogStats keeps samples, so every stage a tool went missing in has its first trace.
      traces: samples.get(stage)!.map((ref) => ({
        ref: this.refId(ref),
        file: vscode.workspace.asRelativePath(ref.path),
        line: ref.line,
        time: ref.time,
        id: ref.id,
      })),
    }));
  }

  private refId(ref: TraceRef): number {
    let id = this.refIds.get(ref);
    if (id === undefined) {
      id = this.refs.push(ref) - 1;
      this.refIds.set(ref, id);
    }
    return id;
  }

  private async openTrace(id: number, tool: string): Promise<void> {
    const ref = this.refs[id];
    if (!ref) return;
    try {
      const otlpSet =
        otlpSetOf(this.read, ref.path) ??
        (this.compared ? otlpSetOf(this.compared.read, ref.path) : undefined);
      const found = await readTraceAt(ref.path, ref, { otlpSet });
      this.traces.showReport(reportOf(found, vscode.Uri.file(ref.path)), undefined, tool, {
        preview: true,
      });
    } catch (error) {
      await notify("error", notice`The trace could not be opened.`, {
        details: [error instanceof Error ? error.message : String(error)],
      });
    }
  }

  /** The rows of the named tools, in the order given (the view's sort and filter). */
  private pick(names: readonly string[]): ToolRow[] {
    const byName = new Map(this.rows.tools.map((row) => [row.name, row]));
    return names.flatMap((name) => byName.get(name) ?? []);
  }

  private async saveCsv(
    requestId: number,
    tools: readonly string[],
    comparison: boolean | undefined,
  ): Promise<void> {
    const compared = this.shownComparison(comparison);
    const folder =
      vscode.workspace.workspaceFolders?.[0]?.uri ?? vscode.Uri.joinPath(this.sources[0]!, "..");
    const target = await chooseNewFile({
      defaultUri: vscode.Uri.joinPath(folder, "palette-statistics.csv"),
      filters: { CSV: ["csv"] },
      saveLabel: "Save statistics",
      title: "Save the palette statistics as CSV",
    });
    if (!target) return this.reply(requestId, false, "Not saved.");
    const csv =
      (compared ? comparisonCsv(compared.comparison) : "") + statsCsv(this.rows, this.pick(tools));
    if (!(await writeChosenFile(target, csv))) return this.reply(requestId, false, "Not saved.");
    return this.reply(requestId, true, `Saved ${vscode.workspace.asRelativePath(target)}.`);
  }

  private reply(requestId: number, ok: boolean, message: string): void {
    this.post({ type: "reply", requestId, ok, message });
  }
}
