import * as nodePath from "node:path";
import * as vscode from "vscode";
import type { CatalogReader, LoadResult } from "../core/fixture/load.js";
import {
  decodeSource,
  sizeProblem,
  textSource,
  unreadableSource,
  type SourceFile,
  type SourceKind,
  type UnreadableSource,
} from "../core/fixture/source.js";
import { confinedCatalogPath, fixtureBoundary } from "../node/confine.js";
import { checkedFixture } from "../node/fixture-check.js";
import { NotReadable, readSourceFile } from "../node/source-file.js";

/** The open editor's text of a file (unsaved edits included), if it is open. */
export function openText(uri: vscode.Uri): string | undefined {
  return vscode.workspace.textDocuments
    .find((doc) => doc.uri.toString() === uri.toString())
    ?.getText();
}

/** A file's text as the user sees it, without the fixture limits (logs are read their own way). */
export async function readText(uri: vscode.Uri): Promise<string> {
  return openText(uri) ?? new TextDecoder("utf-8").decode(await vscode.workspace.fs.readFile(uri));
}

/**
 * A fixture or catalogue as the user sees it: the open editor's text, else the file's bytes.
 * Only a regular file is read, nothing above MAX_SOURCE_BYTES is read at all, and bytes that
 * are not UTF-8 are a problem at the first bad byte. Rejects when the file does not exist.
 * With `roots`, a file on disk is opened once and checked on its handle (see readSourceFile).
 */
export async function readSource(
  uri: vscode.Uri,
  kind: SourceKind = "fixture",
  roots?: readonly string[],
): Promise<SourceFile | UnreadableSource> {
  const file = uri.toString();
  const open = openText(uri);
  if (open !== undefined) return textSource(file, kind, open);
  // workspace.fs checks a path and then reads it: a link swapped in between would be read.
  if (roots !== undefined && uri.scheme === "file")
    return readSourceFile(uri.fsPath, kind, file, roots);
  const stat = await vscode.workspace.fs.stat(uri);
  if ((stat.type & vscode.FileType.File) === 0)
    return unreadableSource(
      file,
      (stat.type & vscode.FileType.Directory) !== 0
        ? `the ${kind} is a folder`
        : `the ${kind} is not a regular file (a FIFO, a device or a socket)`,
    );
  return (
    sizeProblem(file, kind, stat.size) ??
    decodeSource(file, kind, await vscode.workspace.fs.readFile(uri))
  );
}

/**
 * Reads the catalogue a fixture names, only inside the fixture's workspace folder (see
 * fixtureBoundary). Virtual workspaces have no links to follow: their paths are checked as written.
 * With `roots` (asked at each read), one on disk that no editor has open is read from disk under
 * them, through the handle that was checked (see readSource).
 */
export const workspaceCatalogReader =
  (roots?: () => readonly string[]): CatalogReader =>
  async (ref, fixtureFile) => {
    const fixture = vscode.Uri.parse(fixtureFile);
    const onDisk = fixture.scheme === "file";
    const paths = onDisk ? nodePath : nodePath.posix;
    const where = (uri: vscode.Uri) => (onDisk ? uri.fsPath : uri.path);
    const folder = vscode.workspace.getWorkspaceFolder(fixture)?.uri;
    const boundary = fixtureBoundary(
      where(fixture),
      folder && where(folder),
      paths,
      onDisk ? undefined : () => false,
    );
    const written = confinedCatalogPath(ref, where(fixture), boundary, onDisk, paths);
    const target = onDisk ? vscode.Uri.file(written) : fixture.with({ path: written });
    try {
      return await readSource(target, "catalogue", roots?.());
    } catch (error) {
      const why =
        error instanceof NotReadable
          ? `cannot be read: ${error.message}`
          : "does not exist or cannot be read";
      throw new Error(`catalogue file '${ref}' ${why} (looked for ${written})`, { cause: error });
    }
  };

/** The editor's reader: what workspace.fs gives, in any workspace, virtual ones included. */
export const readWorkspaceCatalog = workspaceCatalogReader();

/** Loads a fixture as the editor shows it, catalogue included (a large one checked off the host's thread). */
export async function loadFixtureFromUri(uri: vscode.Uri): Promise<LoadResult> {
  const source = await readSource(uri);
  if ("problems" in source) return { ok: false, problems: source.problems };
  return checkedFixture(source, readWorkspaceCatalog);
}
