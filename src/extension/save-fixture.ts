import * as vscode from "vscode";
import type { FixtureJson } from "../core/fixture/schema.js";
import { writeChosenFile } from "./chosen-file.js";
import type { TracePanels } from "./panel/panels.js";
import { chooseNewFile, FIXTURE_FILTERS } from "./workspace-files.js";

/** Asks where a new fixture goes, writes it, opens it, and runs it in the panel; undefined if cancelled or refused. */
export async function saveNewFixture(
  fixture: FixtureJson,
  dialog: { readonly defaultUri: vscode.Uri; readonly title: string },
  panels: TracePanels,
): Promise<vscode.Uri | undefined> {
  const target = await chooseNewFile({
    ...dialog,
    filters: FIXTURE_FILTERS,
    saveLabel: "Save fixture",
  });
  if (!target || !(await writeChosenFile(target, JSON.stringify(fixture, null, 2) + "\n")))
    return undefined;
  await vscode.window.showTextDocument(target, { preview: false });
  await panels.showFixture(target);
  return target;
}
