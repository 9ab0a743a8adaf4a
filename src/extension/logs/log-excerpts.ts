import { stat } from "node:fs/promises";
import * as vscode from "vscode";
import type { FoundTrace } from "../../core/traces/scan.js";
import { baseName } from "../../core/words.js";
import { readExcerpt } from "../../node/log-excerpt.js";
import { log, notice, announce, withProgress } from "../notify.js";

/** The scheme of the read-only excerpts of logs that no editor opens. */
export const LOG_EXCERPT_SCHEME = "palette-inspector-log";
/** VS Code does not hand a file over this size to extensions as a text document. */
export const MAX_EDITOR_BYTES = 50 * 1024 * 1024;
/** Trace starts remembered (file, line → byte offset); the oldest are forgotten first. */
const KNOWN_STARTS = 10_000;
/** Excerpts this window opened; an older one is read again by opening it again. */
const OPENED = 1000;

/** What an excerpt URI stands for: never read from the URI, which anyone can write. */
interface Opened {
  readonly path: string;
  readonly line: number;
  readonly offset: number | undefined;
}

const starts = new Map<string, number>();
const opened = new Map<string, Opened>();
let next = 0;

function startKey(path: string, line: number): string {
  return `${path}\n${line}`;
}

/** Keeps where a trace opened from a log starts, so that its line can be shown from there. */
export function rememberTrace(file: vscode.Uri, found: Pick<FoundTrace, "line" | "offset">): void {
  if (file.scheme !== "file") return;
  const key = startKey(file.fsPath, found.line);
  starts.delete(key);
  starts.set(key, found.offset);
  if (starts.size > KNOWN_STARTS) starts.delete(starts.keys().next().value!);
}

/** Whether an editor can open the log: not a gzip, and not over VS Code's limit for extensions. */
export function opensInEditor(path: string, size: number): boolean {
  return !/\.gz$/i.test(path) && size <= MAX_EDITOR_BYTES;
}

/** The URI of an excerpt: its title is the file and line; its query, the only thing read back, a number this window gave it. */
function excerptUri(path: string, line: number): vscode.Uri {
  const id = String(next++);
  opened.set(id, { path, line, offset: starts.get(startKey(path, line)) });
  if (opened.size > OPENED) opened.delete(opened.keys().next().value!);
  return vscode.Uri.from({
    scheme: LOG_EXCERPT_SCHEME,
    path: `/${baseName(path)}:${line}`,
    query: id,
  });
}

/** Shows a log at a line: in an editor when one opens it, else the lines around it, read-only. */
export async function openLogLine(file: vscode.Uri, line: number): Promise<void> {
  const size =
    file.scheme === "file"
      ? await stat(file.fsPath).then(
          (s) => s.size,
          () => 0,
        )
      : 0;
  if (file.scheme !== "file" || opensInEditor(file.path, size)) {
    await vscode.window.showTextDocument(file, {
      selection: new vscode.Range(line - 1, 0, line - 1, 0),
      viewColumn: vscode.ViewColumn.One,
      preserveFocus: false,
    });
    return;
  }
  const uri = excerptUri(file.fsPath, line);
  try {
    const document = await withProgress(
      notice`Reading ${vscode.workspace.asRelativePath(file)} around line ${line}`,
      () => vscode.workspace.openTextDocument(uri),
    );
    const at = excerptLine(document.getText());
    await vscode.window.showTextDocument(document, {
      selection: new vscode.Range(at, 0, at, 0),
      viewColumn: vscode.ViewColumn.One,
      preserveFocus: false,
    });
  } catch (error) {
    announce(
      "error",
      notice`cannot show line ${line} of ${vscode.workspace.asRelativePath(file)}.`,
      {
        details: [error instanceof Error ? error.message : String(error)],
      },
    );
  }
}

/** The marker of the line asked for, so that the editor's selection lands on it. */
const MARK = "▶ ";

/** The 0-based line of the excerpt's text that holds the line asked for. */
function excerptLine(text: string): number {
  const lines = text.split("\n");
  const at = lines.findIndex((line) => line.startsWith(MARK));
  return at === -1 ? 0 : at;
}

/** Serves the excerpts this window opened; any other URI of the scheme gets a line saying so. */
export class LogExcerpts implements vscode.TextDocumentContentProvider {
  async provideTextDocumentContent(
    uri: vscode.Uri,
    token: vscode.CancellationToken,
  ): Promise<string> {
    const entry = /^\d{1,9}$/.test(uri.query) ? opened.get(uri.query) : undefined;
    if (!entry || uri.path !== `/${entry.path.split(/[\\/]/).pop() || entry.path}:${entry.line}`) {
      log().warn(
        `palette-inspector: refused to show ${uri.toString()}: this window did not open it`,
      );
      return "This excerpt of a log is no longer available: open it again from its Selection Trace panel.\n";
    }
    const excerpt = await readExcerpt(entry.path, entry.line, {
      offset: entry.offset,
      signal: token,
    });
    const last = excerpt.firstLine + excerpt.lines.length - 1;
    const header =
      `${entry.path}, lines ${excerpt.firstLine}–${last}: a read-only excerpt (a .gz, or a file ` +
      `over 50 MB, does not open in an editor); ${MARK.trim()} marks line ${entry.line}`;
    const body = excerpt.lines.map(
      (text, i) => `${i === excerpt.at ? MARK : "  "}${excerpt.firstLine + i}  ${text}`,
    );
    return [header, "", ...body, ""].join("\n");
  }
}
