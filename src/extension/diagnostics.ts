import * as vscode from "vscode";
import { loadCatalog, loadFixture } from "../core/fixture/load.js";
import type { Problem } from "../core/fixture/problems.js";
import { textSource } from "../core/fixture/source.js";
import { toDiagnostic } from "./convert.js";
import { readWorkspaceCatalog } from "./fixtures.js";

export const isFixture = (uri: vscode.Uri) => uri.path.endsWith(".turn.json");
export const isCatalog = (uri: vscode.Uri) => uri.path.endsWith(".catalog.json");

/** The problems of one document: a fixture (with its catalogue's) or a catalogue on its own. */
export async function problemsOf(document: vscode.TextDocument): Promise<Problem[]> {
  const kind = isCatalog(document.uri) ? "catalogue" : "fixture";
  const source = textSource(document.uri.toString(), kind, document.getText());
  if ("problems" in source) return [...source.problems];
  if (isCatalog(document.uri)) {
    const loaded = loadCatalog(source);
    return "problems" in loaded ? loaded.problems : [];
  }
  return [...(await loadFixture(source, readWorkspaceCatalog)).problems];
}

/**
 * Keeps the Problems panel in step with open fixtures and catalogues as the user types
 * (debounced), with the errors a JSON Schema cannot express and exact ranges.
 */
export class FixtureDiagnostics implements vscode.Disposable {
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
      vscode.workspace.onDidCloseTextDocument((doc) => this.clear(doc.uri)),
    ];
    for (const doc of vscode.workspace.textDocuments) this.schedule(doc, 0);
  }

  private schedule(document: vscode.TextDocument, delay: number): void {
    if (!isFixture(document.uri) && !isCatalog(document.uri)) return;
    const key = document.uri.toString();
    clearTimeout(this.timers.get(key));
    this.timers.set(
      key,
      setTimeout(() => void this.refresh(document), delay),
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
    for (const problem of problems) {
      const list = byFile.get(problem.file) ?? [];
      list.push(toDiagnostic(problem));
      byFile.set(problem.file, list);
    }
    for (const stale of this.reported.get(key) ?? [])
      if (!byFile.has(stale)) this.collection.delete(vscode.Uri.parse(stale));
    for (const [file, diagnostics] of byFile)
      this.collection.set(vscode.Uri.parse(file), diagnostics);
    this.reported.set(key, new Set(byFile.keys()));
  }

  private clear(uri: vscode.Uri): void {
    const key = uri.toString();
    clearTimeout(this.timers.get(key));
    this.generation.set(key, (this.generation.get(key) ?? 0) + 1);
    for (const file of this.reported.get(key) ?? [key])
      this.collection.delete(vscode.Uri.parse(file));
    this.reported.delete(key);
  }

  dispose(): void {
    for (const timer of this.timers.values()) clearTimeout(timer);
    for (const subscription of this.subscriptions) subscription.dispose();
    this.collection.dispose();
  }
}
