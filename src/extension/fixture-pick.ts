import * as vscode from "vscode";
import { FIXTURE_GLOB, SKIPPED_GLOB } from "../core/fixture/files.js";
import { notice, notify, pickLabel } from "./notify.js";

/** Fixtures offered at most; a workspace with more is asked to narrow the search first. */
const FIXTURES_LISTED = 500;

/** The workspace's fixtures, outside dependency and build folders, in no promised order. */
export function findWorkspaceFixtures(): Thenable<vscode.Uri[]> {
  return vscode.workspace.findFiles(FIXTURE_GLOB, SKIPPED_GLOB, FIXTURES_LISTED);
}

/** The path a picker shows for a fixture: relative to the workspace, neutralised. */
export function fixtureLabel(uri: vscode.Uri): string {
  return pickLabel(vscode.workspace.asRelativePath(uri));
}

/**
 * One of the workspace's fixtures, picked from a list sorted by path; undefined when the user
 * picks none, or when there is none (which is said).
 */
export async function pickFixture(title: string): Promise<vscode.Uri | undefined> {
  const found = await findWorkspaceFixtures();
  if (found.length === 0) {
    await notify(
      "info",
      notice`no *.turn.json fixture in this workspace. Create one with 'Palette Inspector: New Turn Fixture'.`,
    );
    return undefined;
  }
  const picks = found
    .map((uri) => ({ label: fixtureLabel(uri), uri }))
    .sort((a, b) => a.label.localeCompare(b.label, "en"));
  const picked = await vscode.window.showQuickPick(picks, { title, placeHolder: "Which fixture?" });
  return picked?.uri;
}
