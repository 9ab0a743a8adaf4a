import * as vscode from "vscode";
import { expectationOf } from "../../core/expect.js";
import { expectChanges } from "../../core/fixture/edit-expect.js";
import { formatProblem } from "../../core/fixture/problems.js";
import { runFixture } from "../../core/run-fixture.js";
import { loadFixtureFromUri } from "../fixtures.js";
import { ask, notice, notify } from "../notify.js";

/**
 * "Update Expectation from Current Result": rewrites the fixture's `expect` block from a run,
 * after confirmation, as one undoable edit that leaves the rest of the file untouched.
 */
export async function updateExpectation(uri: vscode.Uri): Promise<boolean> {
  const name = vscode.workspace.asRelativePath(uri);
  const loaded = await loadFixtureFromUri(uri);
  if (!loaded.ok) {
    void notify(
      "error",
      notice`${name} is invalid, so it has no result to record; its problems are in the log.`,
      { details: loaded.problems.filter((p) => p.severity === "error").map(formatProblem) },
    );
    return false;
  }
  const report = runFixture(loaded.fixture);
  const expect = expectationOf(report);
  const choice = await ask(
    notice`Replace the expectations of ${name} with the current result?`,
    [
      `Names: ${expect.names!.join(", ") || "none"}`,
      `Forced choice: ${expect.forced_choice ?? "none"}`,
      ...(expect.error ? [`Error: ${expect.error}`] : []),
    ],
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
