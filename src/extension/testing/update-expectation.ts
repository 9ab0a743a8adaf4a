import * as vscode from "vscode";
import { expectationOf } from "../../core/expect.js";
import { expectChanges } from "../../core/fixture/edit-expect.js";
import { formatProblem } from "../../core/fixture/problems.js";
import { runFixture } from "../../core/run-fixture.js";
import { loadFixtureFromUri } from "../fixtures.js";

/**
 * "Update Expectation from Current Result": rewrites the fixture's `expect` block from a run,
 * after confirmation, as one undoable edit that leaves the rest of the file untouched.
 */
export async function updateExpectation(uri: vscode.Uri): Promise<boolean> {
  const loaded = await loadFixtureFromUri(uri);
  if (!loaded.ok) {
    const first = loaded.problems.find((problem) => problem.severity === "error");
    void vscode.window.showErrorMessage(
      `Palette Inspector: the fixture is invalid, so it has no result to record. ${first ? formatProblem(first) : ""}`,
    );
    return false;
  }
  const report = runFixture(loaded.fixture);
  const expect = expectationOf(report);
  const summary = `names [${expect.names!.join(", ")}], forced ${expect.forced_choice ?? "none"}${expect.error ? `, error ${expect.error}` : ""}`;
  const choice = await vscode.window.showWarningMessage(
    `Replace the expectations of ${vscode.workspace.asRelativePath(uri)} with the current result (${summary})?`,
    { modal: true },
    "Update Expectation",
  );
  if (choice !== "Update Expectation") return false;
  const document = await vscode.workspace.openTextDocument(uri);
  const edit = new vscode.WorkspaceEdit();
  for (const change of expectChanges(document.getText(), expect)) {
    edit.replace(
      uri,
      new vscode.Range(
        document.positionAt(change.offset),
        document.positionAt(change.offset + change.length),
      ),
      change.content,
    );
  }
  return vscode.workspace.applyEdit(edit);
}
