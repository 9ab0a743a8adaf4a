import * as vscode from "vscode";
import type { LogSet, TraceTree } from "./trace-tree.js";

/** The setting that keeps a log's problems out of the Problems panel (for huge sets). */
export const LOG_PROBLEMS_SETTING = "logs.problemsPanel";

/**
 * The problems of the logs the Selection Traces view lists (a broken trace, a file that cannot be
 * read), in the Problems panel at their lines: those each set's scan kept (the first 1,000 of a
 * set), once its scan is over.
 */
export class LogDiagnostics implements vscode.Disposable {
  private readonly collection =
    vscode.languages.createDiagnosticCollection("palette-inspector-logs");
  private readonly subscription: vscode.Disposable;
  /** The finished sets last published, so a change of the view that is no set's is free. */
  private shown: readonly LogSet[] = [];
  private enabled = true;

  constructor(private readonly tree: TraceTree) {
    this.subscription = tree.onDidChangeTreeData(() => this.update());
    this.update();
  }

  private update(): void {
    const enabled = vscode.workspace
      .getConfiguration("paletteInspector")
      .get<boolean>(LOG_PROBLEMS_SETTING, true);
    const sets = enabled
      ? this.tree
          .getChildren()
          .flatMap((node) => (node.kind === "set" && !node.set.scanning ? [node.set] : []))
      : [];
    if (
      enabled === this.enabled &&
      sets.length === this.shown.length &&
      sets.every((set, i) => set === this.shown[i])
    )
      return;
    this.enabled = enabled;
    this.shown = sets;
    this.collection.clear();
    const byFile = new Map<string, { uri: vscode.Uri; diagnostics: vscode.Diagnostic[] }>();
    // The same file in two sets has its problems once.
    const seen = new Set<string>();
    for (const set of sets)
      for (const problem of set.index.problems) {
        const uri = set.files[problem.file];
        if (uri === undefined) continue;
        const key = uri.toString();
        // A file-wide problem (unreadable, binary) sits on the first line.
        const line = Math.max(0, (problem.line ?? 1) - 1);
        const once = `${key}\u0000${line}\u0000${problem.message}`;
        if (seen.has(once)) continue;
        seen.add(once);
        let entry = byFile.get(key);
        if (!entry) byFile.set(key, (entry = { uri, diagnostics: [] }));
        const diagnostic = new vscode.Diagnostic(
          new vscode.Range(line, 0, line, Number.MAX_SAFE_INTEGER),
          problem.message,
          problem.unreadable ? vscode.DiagnosticSeverity.Error : vscode.DiagnosticSeverity.Warning,
        );
        diagnostic.source = "Palette Inspector";
        entry.diagnostics.push(diagnostic);
      }
    this.collection.set([...byFile.values()].map(({ uri, diagnostics }) => [uri, diagnostics]));
  }

  dispose(): void {
    this.subscription.dispose();
    this.collection.dispose();
  }
}
