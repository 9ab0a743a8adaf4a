import * as vscode from "vscode";
import { FIXTURE_GLOB, SKIPPED_GLOB } from "../core/fixture/files.js";

/** Fixtures looked at to find where the workspace keeps them: enough to see a habit. */
const LOOKED_AT = 500;

/**
 * Where a new fixture is proposed: the folder holding most of the workspace's `*.turn.json`
 * (ties: the shallower, then by name), else the root of the workspace folder `near` is in (or
 * the first one); with no workspace, `near`'s own folder.
 */
export async function fixtureFolder(near: vscode.Uri): Promise<vscode.Uri> {
  const root = vscode.workspace.getWorkspaceFolder(near) ?? vscode.workspace.workspaceFolders?.[0];
  if (!root) return vscode.Uri.joinPath(near, "..");
  const found = await vscode.workspace.findFiles(
    new vscode.RelativePattern(root, FIXTURE_GLOB),
    SKIPPED_GLOB,
    LOOKED_AT,
  );
  const counts = new Map<string, { folder: vscode.Uri; n: number }>();
  for (const uri of found) {
    const folder = vscode.Uri.joinPath(uri, "..");
    const entry = counts.get(folder.toString()) ?? { folder, n: 0 };
    entry.n++;
    counts.set(folder.toString(), entry);
  }
  const depth = (uri: vscode.Uri) => uri.path.split("/").length;
  const best = [...counts.values()].sort(
    (a, b) =>
      b.n - a.n || depth(a.folder) - depth(b.folder) || a.folder.path.localeCompare(b.folder.path),
  )[0];
  return best?.folder ?? root.uri;
}
