import { realpath } from "node:fs/promises";
import * as vscode from "vscode";
import {
  loadFixture,
  type CatalogReader,
  type LoadResult,
  type SourceFile,
} from "../core/fixture/load.js";

/** The text of a file as the user sees it: the open editor's (unsaved edits included), else the disk's. */
export async function readSource(uri: vscode.Uri): Promise<SourceFile> {
  const open = vscode.workspace.textDocuments.find((doc) => doc.uri.toString() === uri.toString());
  if (open) return { file: uri.toString(), text: open.getText() };
  const bytes = await vscode.workspace.fs.readFile(uri);
  return { file: uri.toString(), text: new TextDecoder("utf-8").decode(bytes) };
}

/** The folder a fixture may read from: its workspace folder, or its own folder outside any workspace. */
export function fixtureBoundary(fixture: vscode.Uri): vscode.Uri {
  return vscode.workspace.getWorkspaceFolder(fixture)?.uri ?? vscode.Uri.joinPath(fixture, "..");
}

/** Resolves links so that a symlink cannot lead a catalogue path out of the workspace. */
async function canonical(uri: vscode.Uri): Promise<string> {
  if (uri.scheme !== "file") return uri.path;
  try {
    return await realpath(uri.fsPath);
  } catch {
    return uri.fsPath;
  }
}

function contains(folder: string, file: string): boolean {
  const base = folder.endsWith("/") ? folder : folder + "/";
  return file.startsWith(base);
}

/** Reads the catalogue a fixture names, only inside the fixture's workspace folder. */
export const readWorkspaceCatalog: CatalogReader = async (ref, fixtureFile) => {
  const fixture = vscode.Uri.parse(fixtureFile);
  const target = vscode.Uri.joinPath(fixture, "..", ref);
  const boundary = fixtureBoundary(fixture);
  const [inside, folder] = [await canonical(target), await canonical(boundary)];
  if (!contains(folder, inside)) {
    throw new Error(
      `catalogue file '${ref}' is outside the workspace folder; a fixture may only read files in its workspace`,
    );
  }
  try {
    return await readSource(target);
  } catch {
    throw new Error(
      `catalogue file '${ref}' does not exist or cannot be read (looked for ${target.fsPath || target.toString()})`,
    );
  }
};

/** Loads a fixture as the editor shows it, catalogue included. */
export function loadFixtureFromUri(uri: vscode.Uri): Promise<LoadResult> {
  return readSource(uri).then((source) => loadFixture(source, readWorkspaceCatalog));
}
