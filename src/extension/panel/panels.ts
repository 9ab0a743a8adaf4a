import * as vscode from "vscode";
import { isFixturePath } from "../../core/fixture/files.js";
import type { RunReport } from "../../core/report.js";
import { baseName } from "../../core/words.js";
import { relative } from "node:path";
import { isInside, leadsTo } from "../../node/confine.js";
import { parsePanelState } from "../../protocol.js";
import { pickComparison } from "./compare-pick.js";
import { comparedSides, comparisonTitle } from "./sides.js";
import { webviewOptions } from "../webview-session.js";
import { TraceSession, type FixtureLoader, type TraceSource } from "./session.js";

/** The panel's view type: package.json's `onWebviewPanel:` activation and the serializer use it. */
export const TRACE_VIEW_TYPE = "paletteInspector.trace";

/** Every open Selection Trace panel; the commands call `showFixture` and `showReport`. */
export class TracePanels implements vscode.Disposable {
  private readonly sessions = new Set<TraceSession>();
  private readonly registration: vscode.Disposable;
  /** The panel a trace opened for a look is shown in, until the next one replaces it (as the Explorer's preview tab); opened again, it is kept. */
  private preview: TraceSession | null = null;

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly load: FixtureLoader,
    private readonly log: (message: string) => void = (message) => console.warn(message),
  ) {
    // Panels open before a window reload come back with the fixture URI their webview kept.
    this.registration = vscode.window.registerWebviewPanelSerializer(TRACE_VIEW_TYPE, {
      deserializeWebviewPanel: async (panel: vscode.WebviewPanel, state: unknown) => {
        const source = parsePanelState(state)?.source;
        if (!source) {
          panel.dispose();
          return;
        }
        const restorable = restorableFixture(source);
        if (typeof restorable === "string") {
          this.log(`palette-inspector: a saved panel was not restored: ${restorable}`);
          panel.title = "Selection Trace: not restored";
          this.adopt(panel, { kind: "refused", reason: restorable });
        } else this.adopt(panel, { kind: "fixture", uri: restorable });
      },
    });
  }

  /** Opens (or reveals and re-runs) the panel for a fixture. */
  async showFixture(uri: vscode.Uri): Promise<void> {
    const source: TraceSource = { kind: "fixture", uri };
    const existing = this.revealed(source);
    if (existing) return existing.refresh();
    this.adopt(this.createPanel(title(uri.path)), source);
  }

  /** The open panel already showing this subject, revealed where it is; undefined when none is. */
  private revealed(source: TraceSource): TraceSession | undefined {
    const key = subjectKey(source);
    if (key === null) return undefined;
    const existing = [...this.sessions].find((session) => subjectKey(session.source) === key);
    existing?.panel.reveal(undefined, true);
    return existing;
  }

  /**
   * Opens (or reveals) a read-only panel for a report that did not come from a fixture (a logged
   * trace), optionally with a tool selected. `preview`: in the preview panel, replacing what it
   * showed; else in a panel of its own beside the active editor ("Open to the Side").
   */
  showReport(
    report: RunReport,
    label = reportLabel(report),
    selectedTool?: string,
    open: { readonly preview?: boolean } = {},
  ): void {
    const source: TraceSource = {
      kind: "report",
      report,
      ...(selectedTool !== undefined && { selectedTool }),
    };
    const title = `Selection Trace: ${label}`;
    const existing = this.revealed(source);
    if (existing) {
      // A second open of the trace in the preview keeps it, as a double click does in the Explorer.
      if (existing === this.preview) this.preview = null;
      return;
    }
    const preview = open.preview && this.preview;
    if (!preview) {
      const session = this.adopt(this.createPanel(title), source);
      if (open.preview) this.preview = session;
      return;
    }
    preview.dispose();
    this.sessions.delete(preview);
    preview.panel.title = title;
    this.preview = this.adopt(preview.panel, source);
    preview.panel.reveal(undefined, true);
  }

  /** Opens a read-only panel for a value read from a paused debug session. */
  showDebug(source: Extract<TraceSource, { kind: "debug" }>): TraceSession {
    return this.adopt(this.createPanel(`Selection Trace: ${source.inspection.expression}`), source);
  }

  /** Opens a read-only panel showing `variant` against `base`, stage by stage (`replay`: `variant` is `base` replayed). */
  showComparison(base: RunReport, variant: RunReport, replay = false): void {
    const sides = comparedSides(base, variant, replay);
    const source: TraceSource = { kind: "comparison", base, variant, sides };
    // In the active group: beside it, each comparison opened another group.
    if (!this.revealed(source))
      this.adopt(
        this.createPanel(`Selection Trace: ${comparisonTitle(sides)}`, vscode.ViewColumn.Active),
        source,
      );
  }

  /** The panels open now, for tests and for commands that act on the active one. */
  get open(): readonly TraceSession[] {
    return [...this.sessions];
  }

  private createPanel(
    label: string,
    viewColumn: vscode.ViewColumn = vscode.ViewColumn.Beside,
  ): vscode.WebviewPanel {
    return vscode.window.createWebviewPanel(
      TRACE_VIEW_TYPE,
      label,
      { viewColumn, preserveFocus: true },
      webviewOptions(this.extensionUri),
    );
  }

  private adopt(panel: vscode.WebviewPanel, source: TraceSource): TraceSession {
    panel.title = source.kind === "fixture" ? title(source.uri.path) : panel.title;
    const session = new TraceSession(
      panel,
      source,
      this.extensionUri,
      this.load,
      this.log,
      (from) => this.compareFrom(from),
    );
    this.sessions.add(session);
    panel.onDidDispose(() => {
      this.sessions.delete(session);
      if (this.preview === session) this.preview = null;
    });
    return session;
  }

  /** "Compare…" on a panel: its run against one the user picks. */
  private async compareFrom(session: TraceSession): Promise<void> {
    const base = session.shownRun;
    if (base === null) return;
    const others = [
      ...new Set(this.open.map((other) => other.shownRun).filter((run) => run !== null)),
    ].filter((run) => run !== base);
    const fixture = session.source.kind === "fixture" ? session.source.uri : null;
    const variant = await pickComparison(base, fixture, others, this.load);
    if (variant) this.showComparison(base, variant);
  }

  dispose(): void {
    this.registration.dispose();
    for (const session of this.sessions) session.panel.dispose();
    this.sessions.clear();
  }
}

/** What a panel is about: one panel per fixture, per logged trace, per pair compared. */
function subjectKey(source: TraceSource): string | null {
  const report = (r: RunReport) =>
    `${r.origin.kind}:${r.file}:${r.origin.kind === "log" ? r.origin.line : ""}`;
  switch (source.kind) {
    case "fixture":
      return `fixture:${source.uri.toString()}`;
    case "report":
      return `report:${report(source.report)}`;
    case "comparison":
      return `comparison:${report(source.base)}|${report(source.variant)}|${source.sides.replay}`;
    case "refused":
    case "debug":
      // A refused restore is about nothing, and a debug value is read afresh each time.
      return null;
  }
}

/**
 * The fixture a saved panel state names, if the panel may load it again: a `file:` URI of a
 * `*.turn.json` inside a workspace folder. The state lives in the webview, so it is not trusted;
 * otherwise the reason it was refused.
 */
export function restorableFixture(source: string): vscode.Uri | string {
  return restorableUri(source, (uri) =>
    isFixturePath(uri.path) ? null : "its saved source is not a *.turn.json fixture",
  );
}

/**
 * A URI a saved (so untrusted) view state names, if it may be read again: a plain `file:` URI
 * that `accepts`, inside a workspace folder (or, with `folderItself`, that folder), symbolic
 * links followed; otherwise the reason it was refused.
 */
export function restorableUri(
  source: string,
  accepts: (uri: vscode.Uri) => string | null,
  folderItself = false,
): vscode.Uri | string {
  let uri: vscode.Uri;
  try {
    uri = vscode.Uri.parse(source, true);
  } catch {
    return "its saved source is not a URI";
  }
  if (uri.scheme !== "file") return "its saved source is not a file on this machine";
  if (uri.query !== "" || uri.fragment !== "") return "its saved source is not a plain file URI";
  const refused = accepts(uri);
  if (refused !== null) return refused;
  if (uri.path.split("/").includes("..")) return "its saved source leaves its folder";
  const folder = vscode.workspace.getWorkspaceFolder(uri);
  const within = (root: string, path: string) =>
    isInside(root, path) || (folderItself && relative(root, path) === "");
  if (!folder || !within(folder.uri.fsPath, uri.fsPath))
    return "its saved source is not in a folder of this workspace";
  if (!within(leadsTo(folder.uri.fsPath), leadsTo(uri.fsPath)))
    return "its saved source is a link that leads out of the workspace";
  return uri;
}

function title(path: string): string {
  return `Selection Trace: ${baseName(path)}`;
}

/** A panel's name for a report: a logged trace by its number (as in the Selection Traces view) and line. */
function reportLabel(report: RunReport): string {
  const origin = report.origin;
  if (origin.kind === "log") return `#${origin.index + 1} ${baseName(report.file)}:${origin.line}`;
  if (origin.kind === "received") return `live turn #${origin.index + 1}`;
  return origin.kind === "debug" ? origin.expression : baseName(report.file);
}
