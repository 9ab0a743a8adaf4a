import * as vscode from "vscode";
import { updatedExpectation, type ExpectChange } from "../../core/expect.js";
import { expectChanges } from "../../core/fixture/edit-expect.js";
import { formatProblem } from "../../core/fixture/problems.js";
import { runFixture } from "../../core/run-fixture.js";
import { counted } from "../../core/words.js";
import { loadFixtureFromUri } from "../fixtures.js";
import { ask, notice, announce } from "../notify.js";

/** A value of `expect` in words: names joined, null as "none". */
function shown(value: unknown): string {
  if (value === undefined) return "(absent)";
  if (value === null) return "none";
  if (Array.isArray(value)) return value.length === 0 ? "(no tools)" : value.join(", ");
  return String(value);
}

/**
 * One line of the confirmation: `names: a, b → a`. Every stage of a valid fixture runs, so an
 * `actions` entry always has an action after.
 */
function changeLine(change: ExpectChange): string {
  return `${change.key}: ${shown(change.before)} → ${shown(change.after)}`;
}

/**
 * "Update Expectation from Current Result": sets the fixture's `expect` keys (the user's own,
 * no others) to what the run decides, after a confirmation that lists every change; one
 * undoable edit that leaves the rest of the file untouched, then saved and the test re-run.
 */
export async function updateExpectation(
  uri: vscode.Uri,
  rerun: (uri: vscode.Uri) => Promise<void> = async () => {},
): Promise<boolean> {
  const file = vscode.workspace.asRelativePath(uri);
  const loaded = await loadFixtureFromUri(uri);
  if (!loaded.ok) {
    announce(
      "error",
      notice`${file} is invalid, so it has no result to record; its problems are in the log.`,
      { details: loaded.problems.filter((p) => p.severity === "error").map(formatProblem) },
    );
    return false;
  }
  const report = runFixture(loaded.fixture);
  const { expect, changes } = updatedExpectation(loaded.fixture.json.expect, report);
  if (changes.length === 0) {
    announce("info", notice`The expectations of ${file} already match the current result.`);
    return false;
  }
  const choice = await ask(
    notice`Update ${counted(changes.length, "expectation")} of ${file} to the current result?`,
    changes.map(changeLine),
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
  if (!(await vscode.workspace.applyEdit(edit))) return false;
  // Saved, so the test reads what the user confirmed, not an outdated result.
  if (!(await document.save())) return false;
  await rerun(uri);
  return true;
}
