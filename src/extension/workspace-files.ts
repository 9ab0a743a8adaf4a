import * as vscode from "vscode";
import { ask, notice } from "./notify.js";

/** Whether a file is there, so that a command can refuse to overwrite it silently. */
export async function exists(uri: vscode.Uri): Promise<boolean> {
  try {
    await vscode.workspace.fs.stat(uri);
    return true;
  } catch {
    return false;
  }
}

/**
 * The save dialog's filter for a new fixture. Its extension is `json`, not `turn.json`: a
 * dialog compares a filter with the name's last extension only, so VS Code's own dialog
 * (the one in remote and web windows) otherwise saves `x.turn.json` as `x.turn.json.turn.json`.
 */
export const FIXTURE_FILTERS: Record<string, string[]> = { "Turn fixture": ["json"] };

/**
 * Asks where to write a new file; an existing file is replaced only after the user says so.
 * Undefined when the user cancels at either step.
 */
export async function chooseNewFile(options: {
  defaultUri: vscode.Uri;
  title: string;
  saveLabel: string;
  filters: Record<string, string[]>;
}): Promise<vscode.Uri | undefined> {
  const target = await vscode.window.showSaveDialog(options);
  if (target === undefined) return undefined;
  if (await exists(target)) {
    const choice = await ask(
      notice`${vscode.workspace.asRelativePath(target)} already exists. Replace it?`,
      [],
      "Replace",
    );
    if (choice !== "Replace") return undefined;
  }
  return target;
}
