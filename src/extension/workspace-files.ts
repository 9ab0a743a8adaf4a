import * as vscode from "vscode";

/** Whether a file is there, so that a command can refuse to overwrite it silently. */
export async function exists(uri: vscode.Uri): Promise<boolean> {
  try {
    await vscode.workspace.fs.stat(uri);
    return true;
  } catch {
    return false;
  }
}
