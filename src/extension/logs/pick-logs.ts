import * as vscode from "vscode";

/** Logs an editor may hold as text: the Inspect CodeLens is offered on them. */
export const LOG_EXTENSIONS = ["log", "jsonl", "ndjson", "json"];

/**
 * Log files or a folder of logs, as the user picks them. Windows' and Linux's own dialogs choose
 * files or folders, never both: which one is asked first.
 */
export async function pickLogs(title: string): Promise<vscode.Uri[]> {
  const kind = await vscode.window.showQuickPick(
    [
      { label: "$(file) Log Files…", folders: false },
      { label: "$(folder) A Folder of Logs…", folders: true },
    ],
    { title, placeHolder: "Read log files, or every log in a folder and its subfolders?" },
  );
  if (kind === undefined) return [];
  const picked = await vscode.window.showOpenDialog(
    kind.folders
      ? { canSelectFiles: false, canSelectFolders: true, canSelectMany: true, title }
      : {
          canSelectMany: true,
          filters: { Logs: [...LOG_EXTENSIONS, "txt", "gz"], "All files": ["*"] },
          title,
        },
  );
  return picked ?? [];
}
