import * as vscode from "vscode";
import { isFixturePath } from "../core/fixture/files.js";
import { registerCommand } from "./commands.js";
import { pickFixture } from "./fixture-pick.js";
import { newFixture } from "./new-fixture.js";
import type { TracePanels } from "./panel/panels.js";
import type { FixtureTests } from "./testing/fixture-tests.js";
import { updateExpectation } from "./testing/update-expectation.js";

/** The fixture a command means: the one it was invoked on, else the active editor's, else one the user picks. */
async function targetFixture(arg: unknown): Promise<vscode.Uri | undefined> {
  if (arg instanceof vscode.Uri) return arg;
  const active = vscode.window.activeTextEditor?.document.uri;
  if (active && isFixturePath(active.path)) return active;
  return pickFixture("Run Selection on Fixture");
}

/**
 * The fixture of a failed test: the test item a Testing menu hands over, or the URI its message's
 * link names — only a fixture inside the workspace, as a link's argument is text.
 */
function testRunFixture(arg: unknown): vscode.Uri | undefined {
  if (typeof arg === "string") {
    let uri: vscode.Uri;
    try {
      uri = vscode.Uri.parse(arg, true);
    } catch {
      return undefined;
    }
    return isFixturePath(uri.path) && vscode.workspace.getWorkspaceFolder(uri) ? uri : undefined;
  }
  if (typeof arg !== "object" || arg === null) return undefined;
  return (arg as { test?: vscode.TestItem }).test?.uri;
}

/** Run Selection on Fixture, New Turn Fixture, Update Expectation, and a failed test's Show Selection Trace. */
export function registerFixtureCommands(
  panels: TracePanels,
  tests: FixtureTests,
): vscode.Disposable[] {
  return [
    registerCommand("paletteInspector.runFixture", async (arg?: unknown) => {
      const uri = await targetFixture(arg);
      if (uri) await panels.showFixture(uri);
    }),
    registerCommand("paletteInspector.newFixture", (arg?: unknown) =>
      newFixture(arg instanceof vscode.Uri ? arg : undefined),
    ),
    registerCommand("paletteInspector.updateExpectation", async (arg?: unknown) => {
      const uri = await targetFixture(arg);
      if (uri) await updateExpectation(uri, (saved) => tests.runFile(saved));
    }),
    // From a failed test's message: the waterfall of the run that failed.
    registerCommand("paletteInspector.showTestRun", async (arg?: unknown) => {
      const uri = testRunFixture(arg);
      if (uri) await panels.showFixture(uri);
    }),
  ];
}
