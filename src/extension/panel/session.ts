import { posix } from "node:path";
import * as vscode from "vscode";
import { compareReports } from "../../core/compare.js";
import { expectationFailures, updatedExpectation } from "../../core/expect.js";
import type { FixtureJson } from "../../core/fixture/schema.js";
import type { Fixture, LoadResult } from "../../core/fixture/load.js";
import { problemMessage } from "../../core/fixture/problems.js";
import { stageName } from "../../core/fixture/semantics.js";
import { WHAT_IF_SIDES } from "../../core/compare-text.js";
import { comparisonMarkdown } from "../../core/render/comparison-markdown.js";
import { reportMarkdown } from "../../core/render/markdown.js";
import { reportView, type RunReport } from "../../core/report.js";
import { baseName } from "../../core/words.js";
import { runFixture } from "../../core/run-fixture.js";
import {
  applyWhatIf,
  describeWhatIf,
  movesNothing,
  runWhatIf,
  whatIfLevers,
  type WhatIf,
} from "../../core/whatif.js";
import {
  PANEL_REQUEST_TIMEOUTS,
  parseFromWebview,
  type DebugAction,
  type FromWebview,
  type ProblemView,
  type RolePalette,
  type ToWebview,
  type TraceView,
  type WhatIfView,
} from "../../protocol.js";
import { writeChosenFile } from "../chosen-file.js";
import type { DebugInspection } from "../debug/inspection.js";
import { announce, notice, unawaited } from "../notify.js";
import { WebviewSession } from "../webview-session.js";
import { chooseNewFile, FIXTURE_FILTERS } from "../workspace-files.js";
import type { ComparedSides } from "./sides.js";
import { findToolMention, suggestedVariantPath, variantFixtureText } from "./variant-file.js";
import { openLogLine } from "../logs/log-excerpts.js";

/** What a re-run nobody awaits says when it fails unexpectedly. */
const REFRESH_FAILED = notice`Re-running the trace panel`;

/** Reads a fixture (open document first, so unsaved edits count, then disk) and its catalogue. */
export type FixtureLoader = (uri: vscode.Uri) => Promise<LoadResult>;

/** What a panel shows: a fixture it runs (live, what-if), or a report from a log (read-only). */
export type TraceSource =
  | { readonly kind: "fixture"; readonly uri: vscode.Uri }
  | { readonly kind: "report"; readonly report: RunReport; readonly selectedTool?: string }
  /** Two runs stage by stage: `variant` shown against `base`, each side named. */
  | {
      readonly kind: "comparison";
      readonly base: RunReport;
      readonly variant: RunReport;
      readonly sides: ComparedSides;
    }
  /** A value read from a paused debug session (read-only); `act` runs the panel's debug buttons. */
  | {
      readonly kind: "debug";
      readonly inspection: DebugInspection;
      readonly act: (action: DebugAction, inspection: DebugInspection) => Promise<void>;
    }
  /** A restored panel whose saved source was refused: it shows why, and nothing else. */
  | { readonly kind: "refused"; readonly reason: string };

/** Edits settle this long before a live re-run. */
export const RERUN_DEBOUNCE_MS = 200;

/** One Selection Trace panel: it owns its webview's messages, the live re-run and the what-if. */
export class TraceSession extends WebviewSession<FromWebview, ToWebview> {
  /** The latest refresh started; only it may post. */
  private generation = 0;
  private fixture: Fixture | null = null;
  private base: RunReport | null = null;
  /** The last what-if run the webview was sent: what "Copy as Markdown" copies while one is shown. */
  private lastWhatIf: RunReport | null = null;
  /** The what-if the webview shows; each live re-run runs it too, so the webview draws once. */
  private edit: WhatIf | null = null;
  private watchers: vscode.Disposable[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    panel: vscode.WebviewPanel,
    readonly source: TraceSource,
    extensionUri: vscode.Uri,
    private readonly load: FixtureLoader,
    log: (message: string) => void,
    /** "Compare…": asks which run to show against this one, and opens the comparison. */
    private readonly compare: (session: TraceSession) => Promise<void> = async () => {},
  ) {
    super(
      panel,
      extensionUri,
      { script: "webview.js", style: "panel.css" },
      parseFromWebview,
      PANEL_REQUEST_TIMEOUTS,
      log,
    );
    if (source.kind === "fixture") {
      this.disposables.push(
        vscode.workspace.onDidChangeTextDocument((event) => this.touched(event.document.uri)),
      );
      this.watchFiles([source.uri]);
    }
    if (source.kind === "debug")
      this.disposables.push(
        source.inspection,
        source.inspection.onDidChange(() => unawaited(this.refresh(), REFRESH_FAILED)),
      );
  }

  /** Runs the fixture again (after an edit, or when asked to show it again) and posts the result. */
  async refresh(): Promise<void> {
    this.lastWhatIf = null;
    if (this.source.kind === "fixture") return this.runFixture(this.source.uri);
    this.post(this.readOnlyMessage(this.source));
  }

  /** What a panel that runs nothing shows: a logged trace, a debug value, a comparison, a refusal. */
  private readOnlyMessage(source: Exclude<TraceSource, { kind: "fixture" }>): ToWebview {
    switch (source.kind) {
      case "report": {
        this.base = source.report;
        const selectedTool = source.selectedTool;
        return {
          type: "show",
          view: {
            ...readOnlyView(this.base, null),
            ...(selectedTool !== undefined && { selectedTool }),
          },
        };
      }
      case "debug":
        this.base = source.inspection.report;
        return {
          type: "show",
          view: { ...readOnlyView(this.base, null), stale: source.inspection.stale },
        };
      case "refused":
        return {
          type: "problems",
          file: "not restored",
          source: null,
          problems: [
            {
              severity: "error",
              file: "saved panel",
              line: 1,
              column: 1,
              message: `This panel was not restored: ${source.reason}. Run the fixture again to inspect it.`,
            },
          ],
        };
      case "comparison":
        this.base = source.base;
        return {
          type: "show",
          view: readOnlyView(source.base, {
            report: reportView(source.variant),
            comparison: compareReports(source.base, source.variant),
            ...source.sides,
          }),
        };
    }
  }

  /** Loads and runs the fixture, and posts its run or its problems (unless a newer run started). */
  private async runFixture(uri: vscode.Uri): Promise<void> {
    const generation = ++this.generation;
    let loaded: LoadResult;
    try {
      loaded = await this.load(uri);
    } catch (error) {
      loaded = {
        ok: false,
        problems: [
          {
            severity: "error",
            file: uri.toString(),
            range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
            path: [],
            message: `cannot read ${this.displayName(uri.toString())}: ${readFailure(error)}`,
          },
        ],
      };
    }
    // Loading reads files asynchronously: a run of older text that ends late must not replace a newer one.
    if (generation !== this.generation) return;
    if (!loaded.ok) {
      this.fixture = null;
      this.base = null;
      const problems: ProblemView[] = loaded.problems.map((p) => ({
        severity: p.severity,
        file: this.displayName(p.file),
        line: p.range.start.line + 1,
        column: p.range.start.character + 1,
        message: problemMessage(p),
      }));
      this.post({ type: "problems", file: uri.fsPath, source: uri.toString(), problems });
      return;
    }
    this.base = runFixture(loaded.fixture);
    this.fixture = loaded.fixture;
    if (loaded.fixture.catalogFile) this.watchFiles([uri, fileUri(loaded.fixture.catalogFile)]);
    const turn = loaded.fixture.json.turn;
    this.post({
      type: "show",
      view: {
        report: reportView(this.base),
        levers: whatIfLevers(loaded.fixture.json, loaded.fixture.catalog.safetyLevels),
        source: uri.toString(),
        compared: null,
        whatIf: this.edit === null ? null : this.whatIfView(this.edit),
        turn: { query: turn?.query ?? "", role: turn?.role ?? "" },
        failed: expectationFailures(loaded.fixture.json.expect, this.base),
        rolePalettes: rolePalettes(loaded.fixture.json),
      },
    });
  }

  /** The what-if's run on the current text, as the `show` message carries it. */
  private whatIfView(edit: WhatIf): WhatIfView {
    const variant = this.variant(edit);
    if ("error" in variant) return { edit, error: variant.error };
    // The page shows this run after a reload (a tab switch): it is what Copy as Markdown copies.
    this.lastWhatIf = variant.report;
    return {
      edit,
      variant: reportView(variant.report),
      comparison: compareReports(this.base!, variant.report),
    };
  }

  protected async handle(message: FromWebview): Promise<void> {
    switch (message.type) {
      case "ready":
        this.edit = movesNothing(message.edit) ? null : message.edit;
        return this.refresh();
      case "clearWhatIf":
        this.edit = null;
        return;
      case "whatIf": {
        this.edit = message.edit;
        const variant = this.variant(message.edit);
        if ("error" in variant)
          return this.post({
            type: "reply",
            requestId: message.requestId,
            ok: false,
            message: variant.error,
          });
        this.lastWhatIf = variant.report;
        return this.post({
          type: "whatIfResult",
          requestId: message.requestId,
          variant: reportView(variant.report),
          comparison: compareReports(this.base!, variant.report),
        });
      }
      case "copyMarkdown": {
        // Only a run this host computed and sent is copied, never text from the webview.
        const text = this.markdown(message.run);
        if (text === null)
          return this.post({
            type: "reply",
            requestId: message.requestId,
            ok: false,
            message:
              message.run === "whatIf" ? "The what-if has no run to copy." : "Nothing to copy yet.",
          });
        await vscode.env.clipboard.writeText(text);
        return this.post({
          type: "reply",
          requestId: message.requestId,
          ok: true,
          message:
            message.run === "whatIf" || this.source.kind === "comparison"
              ? "Copied the waterfall and the comparison as Markdown."
              : "Copied the waterfall as Markdown.",
        });
      }
      case "saveVariant":
        return this.post({
          type: "reply",
          requestId: message.requestId,
          ...(await this.saveVariant(message.edit)),
        });
      case "revealTool":
        return this.reveal(message.tool);
      case "openSource":
        return this.openSource(message.compared);
      case "compare":
        return this.compare(this);
      case "debugAction":
        if (this.source.kind === "debug")
          return this.source.act(message.action, this.source.inspection);
        return;
    }
  }

  /** What is on screen as Markdown: a run, or a what-if or a second run with its comparison. */
  private markdown(run: "shown" | "whatIf"): string | null {
    const source = this.source;
    if (run === "whatIf") {
      const whatIf = this.lastWhatIf;
      if (whatIf === null || this.base === null) return null;
      return comparisonMarkdown(
        whatIf,
        this.base,
        compareReports(this.base, whatIf),
        WHAT_IF_SIDES,
        { title: `${this.displayName(whatIf.file)} (what-if)` },
      );
    }
    if (source.kind === "comparison")
      return comparisonMarkdown(
        source.variant,
        source.base,
        compareReports(source.base, source.variant),
        source.sides.names,
        { title: this.displayName(source.variant.file) },
      );
    return this.base === null
      ? null
      : reportMarkdown(this.base, { title: this.displayName(this.base.file) });
  }

  /** The run this panel shows (a fixture's own run, never its what-if); a fixture has one once it ran. */
  get shownRun(): RunReport | null {
    const source = this.source;
    // A panel whose page never loaded (a tab not yet shown) still has the run it was opened for.
    if (source.kind === "report") return source.report;
    if (source.kind === "comparison") return source.base;
    if (source.kind === "debug") return source.inspection.report;
    return this.base;
  }

  /** A report's file as the user knows it: workspace-relative, else its name; never a local absolute path. */
  private displayName(file: string): string {
    const uri = fileUri(file);
    if (vscode.workspace.getWorkspaceFolder(uri))
      return vscode.workspace.asRelativePath(uri, false);
    return baseName(uri.path);
  }

  /** Back from a logged trace to its line in the log. */
  private async openSource(compared: boolean): Promise<void> {
    const source = this.source;
    const report =
      source.kind === "report"
        ? source.report
        : source.kind === "comparison"
          ? compared
            ? source.variant
            : source.base
          : null;
    if (report === null || report.origin.kind !== "log") return;
    await openLogLine(fileUri(report.file), report.origin.line);
  }

  /** The what-if run, or why it cannot run (the variant must pass the same checks as a fixture). */
  private variant(edit: WhatIf): { report: RunReport } | { error: string } {
    // A fixture and its own run are set and cleared together.
    if (this.fixture === null)
      return { error: "The fixture has problems; fix them before asking what-if." };
    return runWhatIf(this.fixture, edit);
  }

  private async saveVariant(edit: WhatIf): Promise<{ ok: boolean; message: string }> {
    if (this.fixture === null || this.source.kind !== "fixture")
      return { ok: false, message: "Only a valid fixture can be saved as a what-if." };
    const check = this.variant(edit);
    if ("error" in check) return { ok: false, message: check.error };
    const from = this.source.uri;
    const target = await chooseNewFile({
      defaultUri: from.with({ path: suggestedVariantPath(from.path) }),
      filters: FIXTURE_FILTERS,
      saveLabel: "Save what-if as fixture",
      title: "Save the what-if as a new fixture",
    });
    if (target === undefined) return { ok: false, message: "Not saved." };
    if (target.toString() === from.toString())
      return { ok: false, message: "Not saved: that is the fixture itself; choose a new name." };
    // The variant says what it is, and expects what it now decides, so it is a test from the start.
    const json: FixtureJson = {
      ...applyWhatIf(this.fixture.json, edit),
      description: `what-if of ${posix.basename(from.path)}: ${describeWhatIf(edit)}`,
      expect: updatedExpectation(undefined, check.report).expect,
    };
    const text = variantFixtureText(json, from.path, target.path);
    if (!(await writeChosenFile(target, text))) return { ok: false, message: "Not saved." };
    await vscode.window.showTextDocument(target, { viewColumn: vscode.ViewColumn.One });
    return { ok: true, message: `Saved ${vscode.workspace.asRelativePath(target)}.` };
  }

  private async reveal(tool: string): Promise<void> {
    if (this.source.kind !== "fixture") return;
    const document = await vscode.workspace.openTextDocument(this.source.uri);
    const found = findToolMention(document.getText(), tool);
    if (found === null) {
      announce(
        "info",
        notice`the fixture does not name '${tool}' itself (it comes from the catalogue).`,
      );
      return;
    }
    const selection = new vscode.Selection(
      document.positionAt(found.offset),
      document.positionAt(found.offset + found.length),
    );
    await vscode.window.showTextDocument(document, {
      selection,
      viewColumn: vscode.ViewColumn.One,
      preserveFocus: false,
    });
  }

  /** An open document changed (unsaved edits count): re-run if it is the fixture or its catalogue. */
  private touched(uri: vscode.Uri): void {
    if (this.source.kind !== "fixture") return;
    const key = uri.toString();
    const catalog = this.fixture?.catalogFile ? fileUri(this.fixture.catalogFile).toString() : null;
    if (key === this.source.uri.toString() || key === catalog) this.schedule();
  }

  private schedule(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => unawaited(this.refresh(), REFRESH_FAILED), RERUN_DEBOUNCE_MS);
  }

  /** Changes on disk (a save, a checkout) re-run too. */
  private watchFiles(uris: readonly vscode.Uri[]): void {
    for (const watcher of this.watchers) watcher.dispose();
    this.watchers = uris.map((uri) => {
      // A glob cannot escape its own syntax: each of its characters in the name matches as `?`,
      // and the exact file is picked out below.
      const name = uri.path
        .split("/")
        .pop()!
        .replace(/[[\]{}*?!]/g, "?");
      const watcher = vscode.workspace.createFileSystemWatcher(
        new vscode.RelativePattern(vscode.Uri.joinPath(uri, ".."), name),
      );
      const onChange = (changed: vscode.Uri) => {
        if (changed.toString() === uri.toString()) this.schedule();
      };
      return vscode.Disposable.from(
        watcher,
        watcher.onDidChange(onChange),
        watcher.onDidCreate(onChange),
        watcher.onDidDelete(onChange),
      );
    });
  }

  override dispose(): void {
    clearTimeout(this.timer);
    for (const watcher of this.watchers) watcher.dispose();
    this.watchers = [];
    super.dispose();
  }
}

/** A read-only view (a logged trace, or two compared): no levers, no what-if, no expectations. */
function readOnlyView(report: RunReport, compared: TraceView["compared"]): TraceView {
  return {
    report: reportView(report),
    levers: null,
    source: null,
    compared,
    whatIf: null,
    turn: null,
    failed: [],
  };
}

/** Every role's palette in the fixture's role stages. */
function rolePalettes(json: FixtureJson): RolePalette[] {
  return (json.pipeline ?? []).flatMap((stage) =>
    stage.kind === "role"
      ? Object.entries(stage.role_tools ?? {}).flatMap(([role, tools]) =>
          // A null palette is no policy for that role: it names no tools.
          tools === null ? [] : [{ stage: stageName(stage), role, tools }],
        )
      : [],
  );
}

/** The lead's loader names a catalogue by URI string or by path. */
function fileUri(file: string): vscode.Uri {
  return /^[a-z][\w+.-]*:\/\//i.test(file) ? vscode.Uri.parse(file) : vscode.Uri.file(file);
}

/** Why a fixture could not be read, in words (a FileSystemError's code, else its message). */
function readFailure(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === "FileNotFound" || code === "ENOENT") return "the file does not exist";
  if (code === "NoPermissions" || code === "EACCES") return "permission denied";
  if (code === "FileIsADirectory" || code === "EISDIR") return "it is a folder";
  return error instanceof Error ? error.message : String(error);
}
