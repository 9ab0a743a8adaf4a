import * as vscode from "vscode";

/** "Run selection" at the top of every fixture. */
export class RunSelectionCodeLens implements vscode.CodeLensProvider {
  provideCodeLenses(document: vscode.TextDocument): vscode.CodeLens[] {
    const top = new vscode.Range(0, 0, 0, 0);
    return [
      new vscode.CodeLens(top, {
        title: "$(play) Run selection",
        command: "paletteInspector.runFixture",
        arguments: [document.uri],
      }),
    ];
  }
}
