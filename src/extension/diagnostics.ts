import { modify } from "jsonc-parser";
import { FIXTURE_GLOB, isFixturePath, SKIPPED_GLOB } from "../core/fixture/files.js";
import * as vscode from "vscode";
import { notice, unawaited } from "./notify.js";
import type { Fix } from "../core/fixture/issues.js";
import type { PathSegment } from "../core/json/positions.js";
import type { Problem } from "../core/fixture/problems.js";
import { sizeProblem, textSource } from "../core/fixture/source.js";
import { catalogueProblems, fixtureProblems } from "../node/fixture-check.js";
import { toDiagnostic } from "./convert.js";
import { readWorkspaceCatalog } from "./fixtures.js";

export const isFixture = (uri: vscode.Uri) => isFixturePath(uri.path);
export const isCatalog = (uri: vscode.Uri) => uri.path.endsWith(".catalog.json");

/** The problems of one document: a fixture (with its catalogue's) or a catalogue on its own. */
export async function problemsOf(document: vscode.TextDocument): Promise<Problem[]> {
  const kind = isCatalog(document.uri) ? "catalogue" : "fixture";
  const source = textSource(document.uri.toString(), kind, document.getText());
  if ("problems" in source) return [...source.problems];
  // A large document is checked in a worker thread: a hostile one must not hold the host.
  if (isCatalog(document.uri)) return [...(await catalogueProblems(source))];
  return [...(await fixtureProblems(source, readWorkspaceCatalog))];
}

/**
 * The open documents whose syntax errors VS Code's JSON language service reports itself (`json`
 * ones, unless its validation is off): the Problems panel lists each mistake once. A `jsonc`
 * document is not among them: that service accepts the comments the fixture format refuses.
 */
function jsonServiceDocuments(): Set<string> {
  if (vscode.workspace.getConfiguration("json").get<boolean>("validate.enable", true) === false)
    return new Set();
  return new Set(
    vscode.workspace.textDocuments
      .filter((doc) => doc.languageId === "json")
      .map((doc) => doc.uri.toString()),
  );
}

/**
 * Keeps the Problems panel in step with open fixtures and catalogues as the user types
 * (debounced), with the errors a JSON Schema cannot express and exact ranges.
 */
export class FixtureDiagnostics implements vscode.Disposable, vscode.CodeActionProvider {
  /** The fixes of the published diagnostics, by file: a diagnostic has no room for data of its own. */
  private readonly fixes = new Map<
    string,
    {
      readonly diagnostic: vscode.Diagnostic;
      readonly path: readonly PathSegment[];
      readonly fix: Fix;
    }[]
  >();
  private readonly collection = vscode.languages.createDiagnosticCollection("palette-inspector");
  private readonly timers = new Map<string, ReturnType<typeof setTimeout>>();
  /** Which files each document last reported on, so stale entries are cleared. */
  private readonly reported = new Map<string, Set<string>>();
  /** The latest validation started per document: an older one that ends later must not win. */
  private readonly generation = new Map<string, number>();
  private readonly subscriptions: vscode.Disposable[];

  constructor(private readonly delayMs = 300) {
    this.subscriptions = [
      vscode.workspace.onDidOpenTextDocument((doc) => this.schedule(doc, 0)),
      vscode.workspace.onDidChangeTextDocument((event) =>
        this.schedule(event.document, this.delayMs),
      ),
      vscode.workspace.onDidCloseTextDocument((doc) => {
        this.clear(doc.uri);
        if (isFixture(doc.uri)) this.checkSizeLater(doc.uri);
      }),
    ];
    for (const doc of vscode.workspace.textDocuments) this.schedule(doc, 0);
    // A fixture too large to read is never opened, yet the Problems panel says why it cannot run.
    const watcher = vscode.workspace.createFileSystemWatcher(FIXTURE_GLOB);
    this.subscriptions.push(
      watcher,
      watcher.onDidCreate((uri) => this.checkSizeLater(uri)),
      watcher.onDidChange((uri) => this.checkSizeLater(uri)),
      watcher.onDidDelete((uri) => {
        if (isFixture(uri) && !this.isOpen(uri)) this.collection.delete(uri);
      }),
    );
    // An open fixture's problems include its catalogue's: re-check them when a catalogue changes on disk.
    const catalogues = vscode.workspace.createFileSystemWatcher("**/*.catalog.json");
    const recheckFixtures = () => {
      for (const doc of vscode.workspace.textDocuments)
        if (isFixture(doc.uri)) this.schedule(doc, this.delayMs);
    };
    this.subscriptions.push(
      catalogues,
      catalogues.onDidCreate(recheckFixtures),
      catalogues.onDidChange(recheckFixtures),
      catalogues.onDidDelete(recheckFixtures),
    );
    unawaited(
      vscode.workspace
        .findFiles(FIXTURE_GLOB, SKIPPED_GLOB)
        .then((uris) => Promise.all(uris.map((uri) => this.checkSize(uri)))),
      notice`checking the sizes of the workspace's fixtures failed`,
    );
  }

  private isOpen(uri: vscode.Uri): boolean {
    return vscode.workspace.textDocuments.some((doc) => doc.uri.toString() === uri.toString());
  }

  /**
   * Reports a closed fixture over the size limit (from its size alone: it is not read). Callers
   * pass fixtures only (the watcher's glob, the close handler's check).
   */
  private async checkSize(uri: vscode.Uri): Promise<void> {
    let size: number;
    try {
      size = (await vscode.workspace.fs.stat(uri)).size;
    } catch {
      return;
    }
    // An open fixture (even one opened during the stat) shows its document's problems instead.
    if (this.isOpen(uri)) return;
    const tooLarge = sizeProblem(uri.toString(), "fixture", size);
    if (tooLarge) this.collection.set(uri, tooLarge.problems.map(toDiagnostic));
    else this.collection.delete(uri);
  }

  /** `checkSize` for an event, which nobody awaits. */
  private checkSizeLater(uri: vscode.Uri): void {
    unawaited(this.checkSize(uri), notice`checking ${vscode.workspace.asRelativePath(uri)} failed`);
  }

  private schedule(document: vscode.TextDocument, delay: number): void {
    if (!isFixture(document.uri) && !isCatalog(document.uri)) return;
    const key = document.uri.toString();
    clearTimeout(this.timers.get(key));
    this.timers.set(
      key,
      setTimeout(
        () =>
          unawaited(
            this.refresh(document),
            notice`checking ${vscode.workspace.asRelativePath(document.uri)} failed`,
          ),
        delay,
      ),
    );
  }

  /** Validates one document now and publishes its problems, grouped by the file they are in. */
  async refresh(document: vscode.TextDocument): Promise<void> {
    const key = document.uri.toString();
    this.timers.delete(key);
    const generation = (this.generation.get(key) ?? 0) + 1;
    this.generation.set(key, generation);
    const problems = await problemsOf(document);
    if (this.generation.get(key) !== generation) return;
    const byFile = new Map<string, vscode.Diagnostic[]>([[key, []]]);
    const fixes = new Map<string, NonNullable<ReturnType<FixtureDiagnostics["fixes"]["get"]>>>();
    const validatedAsJson = jsonServiceDocuments();
    for (const problem of problems) {
      if (problem.syntax && validatedAsJson.has(problem.file)) continue;
      const list = byFile.get(problem.file) ?? [];
      const diagnostic = toDiagnostic(problem);
      list.push(diagnostic);
      byFile.set(problem.file, list);
      if (problem.fix)
        fixes.set(problem.file, [
          ...(fixes.get(problem.file) ?? []),
          { diagnostic, path: problem.path, fix: problem.fix },
        ]);
    }
    for (const file of byFile.keys()) this.fixes.set(file, fixes.get(file) ?? []);
    for (const stale of this.reported.get(key) ?? [])
      if (!byFile.has(stale)) this.collection.delete(vscode.Uri.parse(stale));
    for (const [file, diagnostics] of byFile)
      this.collection.set(vscode.Uri.parse(file), diagnostics);
    this.reported.set(key, new Set(byFile.keys()));
  }

  /** Quick Fixes (Ctrl+.) for the problems that carry one: the name meant, or the key to remove. */
  provideCodeActions(
    document: vscode.TextDocument,
    _range: vscode.Range,
    context: vscode.CodeActionContext,
  ): vscode.CodeAction[] {
    const known = this.fixes.get(document.uri.toString()) ?? [];
    const actions: vscode.CodeAction[] = [];
    for (const diagnostic of context.diagnostics) {
      const entry = known.find(
        (candidate) =>
          candidate.diagnostic.message === diagnostic.message &&
          candidate.diagnostic.range.isEqual(diagnostic.range),
      );
      if (!entry) continue;
      const edit = new vscode.WorkspaceEdit();
      let title: string;
      if (entry.fix.kind === "replace") {
        title = `Change to '${entry.fix.with}'`;
        edit.replace(document.uri, diagnostic.range, JSON.stringify(entry.fix.with));
      } else {
        title = `Remove '${String(entry.path.at(-1))}'`;
        const text = document.getText();
        // No formatting options: jsonc-parser would re-indent the whole enclosing value.
        for (const change of modify(text, [...entry.path], undefined, {}))
          edit.replace(
            document.uri,
            new vscode.Range(
              document.positionAt(change.offset),
              document.positionAt(change.offset + change.length),
            ),
            change.content,
          );
      }
      const action = new vscode.CodeAction(title, vscode.CodeActionKind.QuickFix);
      action.diagnostics = [diagnostic];
      action.isPreferred = true;
      action.edit = edit;
      actions.push(action);
    }
    return actions;
  }

  private clear(uri: vscode.Uri): void {
    const key = uri.toString();
    clearTimeout(this.timers.get(key));
    this.generation.set(key, (this.generation.get(key) ?? 0) + 1);
    for (const file of this.reported.get(key) ?? [key]) {
      this.collection.delete(vscode.Uri.parse(file));
      this.fixes.delete(file);
    }
    this.reported.delete(key);
  }

  dispose(): void {
    for (const timer of this.timers.values()) clearTimeout(timer);
    for (const subscription of this.subscriptions) subscription.dispose();
    this.collection.dispose();
  }
}
