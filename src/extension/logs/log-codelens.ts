import * as vscode from "vscode";
import { scanText } from "../../core/traces/scan.js";

/** Logs larger than this are left to "Find Selection Traces in File", which streams them. */
const MAX_LENS_CHARS = 20 * 1024 * 1024;

/** "Inspect selection trace" on every line of an open log that holds one. */
export class LogTraceCodeLens implements vscode.CodeLensProvider {
  provideCodeLenses(
    document: vscode.TextDocument,
    token: vscode.CancellationToken,
  ): vscode.CodeLens[] {
    const text = document.getText();
    if (text.length > MAX_LENS_CHARS || !text.includes('"trace"')) return [];
    let traces;
    try {
      traces = scanText(text, { signal: token }).traces;
    } catch {
      return []; // cancelled: the editor asks again
    }
    return traces.map((found) => {
      const range = new vscode.Range(found.line - 1, 0, found.line - 1, 0);
      return new vscode.CodeLens(range, {
        title: "$(type-hierarchy) Inspect selection trace",
        command: "paletteInspector.openTrace",
        arguments: [document.uri, found.line],
      });
    });
  }
}
