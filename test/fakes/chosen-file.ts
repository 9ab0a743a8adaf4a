/**
 * `writeChosenFile` on the fake's in-memory disk, for tests whose workspace lives there (`/ws/…`
 * is on no real disk). A test file takes it with
 * `vi.mock("../../src/extension/chosen-file.js", () => import("../fakes/chosen-file.js"))`;
 * test/extension/chosen-file.test.ts tests the real one on a real disk.
 */
import * as vscode from "vscode";

export async function writeChosenFile(target: vscode.Uri, text: string): Promise<boolean> {
  await vscode.workspace.fs.writeFile(target, new TextEncoder().encode(text));
  return true;
}
