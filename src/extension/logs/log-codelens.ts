import * as vscode from "vscode";
import { scanLogs } from "../../node/log-file.js";

/**
 * The lenses read at most this much of a document (in a worker thread, as every scan); the rest
 * is left to "Find Selection Traces in Files", which streams it and lists it.
 */
export const MAX_LENS_CHARS = 1024 * 1024;

/** "Inspect selection trace" on every line of an open log that holds one, in its first MAX_LENS_CHARS. */
export class LogTraceCodeLens implements vscode.CodeLensProvider {
  /** `changed`: when the lenses are to be asked for again (a followed log grew). */
  constructor(readonly onDidChangeCodeLenses?: vscode.Event<void>) {}

  async provideCodeLenses(
    document: vscode.TextDocument,
    token: vscode.CancellationToken,
  ): Promise<vscode.CodeLens[]> {
    const { text, stoppedAt } = firstLines(document);
    if (text === "" && stoppedAt === null) return [];
    // Only the lines are kept: a line of thousands of traces gets one lens, which opens its first.
    const lines: number[] = [];
    const scan = await scanLogs([{ name: document.uri.toString(), path: null, text }], {
      signal: token,
      onTrace: (found) => void (found.line !== lines.at(-1) && lines.push(found.line)),
      onProblem: () => undefined,
    });
    if (scan.cancelled) return []; // the editor asks again
    const lenses = lines.map(
      (line) =>
        new vscode.CodeLens(new vscode.Range(line - 1, 0, line - 1, 0), {
          title: "$(type-hierarchy) Inspect selection trace",
          command: "paletteInspector.openTrace",
          arguments: [document.uri, line],
        }),
    );
    if (stoppedAt !== null)
      lenses.push(
        new vscode.CodeLens(new vscode.Range(stoppedAt, 0, stoppedAt, 0), {
          title: `$(warning) Traces from line ${stoppedAt + 1} on are not marked here (the file is over 1 MB): Find Selection Traces in Files`,
          command: "paletteInspector.inspectLog",
          arguments: [document.uri],
        }),
      );
    return lenses;
  }
}

/**
 * The whole lines within the document's first MAX_LENS_CHARS, and the 0-based line it stopped at
 * (null: all of it); empty when the document holds no `"trace"` at all (a string search, at memchr speed).
 */
function firstLines(document: vscode.TextDocument): { text: string; stoppedAt: number | null } {
  const all = document.getText();
  if (!all.includes('"trace"')) return { text: "", stoppedAt: null };
  if (all.length <= MAX_LENS_CHARS) return { text: all, stoppedAt: null };
  const limit = document.positionAt(MAX_LENS_CHARS);
  return { text: all.slice(0, MAX_LENS_CHARS - limit.character), stoppedAt: limit.line };
}
