import * as vscode from "vscode";
import { TraceScanner, type FoundTrace } from "../../core/traces/scan.js";

/**
 * The lenses read at most this much of a document, on the host thread where a hostile log would
 * freeze every extension; the rest is left to "Find Selection Traces in Files", which streams it.
 */
export const MAX_LENS_CHARS = 1024 * 1024;

/** Characters handed to the scanner at once; between them the event loop gets a turn at least every BUSY_MS. */
const SLICE_CHARS = 64 * 1024;
const BUSY_MS = 15;

/** "Inspect selection trace" on every line of an open log that holds one, in its first MAX_LENS_CHARS. */
export class LogTraceCodeLens implements vscode.CodeLensProvider {
  async provideCodeLenses(
    document: vscode.TextDocument,
    token: vscode.CancellationToken,
  ): Promise<vscode.CodeLens[]> {
    const { text, stoppedAt } = firstLines(document);
    if (text === "" && stoppedAt === null) return [];
    let traces;
    try {
      traces = await tracesIn(text, token);
    } catch {
      return []; // cancelled: the editor asks again
    }
    const lenses = traces.map((found) => {
      const range = new vscode.Range(found.line - 1, 0, found.line - 1, 0);
      return new vscode.CodeLens(range, {
        title: "$(type-hierarchy) Inspect selection trace",
        command: "paletteInspector.openTrace",
        arguments: [document.uri, found.line],
      });
    });
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

/** The traces of `text`, read in slices: a megabyte of log lines must not hold the host's event loop. */
async function tracesIn(text: string, token: vscode.CancellationToken): Promise<FoundTrace[]> {
  const traces: FoundTrace[] = [];
  const scanner = new TraceScanner({
    signal: token,
    onTrace: (found) => traces.push(found),
    onProblem: () => undefined,
  });
  let turn = performance.now();
  for (let at = 0; at < text.length; at += SLICE_CHARS) {
    scanner.push(text.slice(at, at + SLICE_CHARS));
    if (performance.now() - turn > BUSY_MS) {
      await new Promise((resolve) => setTimeout(resolve, 0));
      turn = performance.now();
    }
  }
  scanner.end();
  return traces;
}
