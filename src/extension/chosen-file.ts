import * as vscode from "vscode";
import { readReason } from "../node/log-source.js";
import { FileRefused, writeWholeFile } from "../node/safe-file.js";
import { announce, notice } from "./notify.js";

/**
 * Writes a file the user chose (in a save dialog or by name) whole. On disk it is never written
 * through a symbolic link a repository may have planted at its name or as its folder, nor over a
 * folder or a FIFO: that save is refused, said, and changes nothing (false). Other file systems
 * (remote, virtual) are written through VS Code.
 */
export async function writeChosenFile(target: vscode.Uri, text: string): Promise<boolean> {
  const bytes = new TextEncoder().encode(text);
  if (target.scheme !== "file") {
    await vscode.workspace.fs.writeFile(target, bytes);
    return true;
  }
  try {
    writeWholeFile(target.fsPath, bytes);
    return true;
  } catch (error) {
    if (!(error instanceof FileRefused))
      throw new Error(`cannot write ${target.fsPath}: ${readReason(error)}`, { cause: error });
    announce(
      "error",
      notice`${vscode.workspace.asRelativePath(target)} was not saved: nothing is written through a symbolic link, nor over a folder or a special file.`,
      { details: [`${target.fsPath}: ${error.message}`] },
    );
    return false;
  }
}
