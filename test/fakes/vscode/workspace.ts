/** `vscode.workspace`: folders, settings, open documents, the file system and its watchers. */
import type * as vscode from "vscode";
import { minimatch } from "minimatch";
import {
  Disposable,
  EventEmitter,
  FileType,
  type Imitates,
  type ImitatesNamespace,
  Uri,
} from "./core.js";
import type { FakeDocument, WorkspaceEdit } from "./documents.js";
import { events, fake } from "./state.js";

function notFound(uri: Uri): Error {
  return Object.assign(new Error(`EntryNotFound (FileSystemError): ${uri.toString()}`), {
    code: "FileNotFound",
  });
}

/** Whether a file matches a glob as VS Code reads one: a string against the whole path, a RelativePattern below its base. */
function matchesGlob(pattern: vscode.GlobPattern, uri: vscode.Uri): boolean {
  if (typeof pattern === "string") return minimatch(uri.path, pattern, { dot: true });
  const base = pattern.baseUri.path.replace(/\/$/, "");
  if (uri.scheme !== pattern.baseUri.scheme || !uri.path.startsWith(`${base}/`)) return false;
  return minimatch(uri.path.slice(base.length + 1), pattern.pattern, { dot: true });
}

/** A watcher that, like VS Code's, reports only the files its glob matches. */
function fileSystemWatcher(
  pattern: vscode.GlobPattern,
  ignoreCreateEvents = false,
  ignoreChangeEvents = false,
  ignoreDeleteEvents = false,
) {
  const forward = (source: EventEmitter<Uri>, ignored: boolean) => {
    const own = new EventEmitter<vscode.Uri>();
    const subscription = source.event((uri) => {
      if (!ignored && matchesGlob(pattern, uri)) own.fire(uri);
    });
    return { own, subscription };
  };
  const created = forward(events.fsCreate, ignoreCreateEvents);
  const changed = forward(events.fsChange, ignoreChangeEvents);
  const deleted = forward(events.fsDelete, ignoreDeleteEvents);
  return {
    ignoreCreateEvents,
    ignoreChangeEvents,
    ignoreDeleteEvents,
    onDidCreate: created.own.event,
    onDidChange: changed.own.event,
    onDidDelete: deleted.own.event,
    dispose() {
      for (const { own, subscription } of [created, changed, deleted]) {
        subscription.dispose();
        own.dispose();
      }
    },
  } satisfies vscode.FileSystemWatcher;
}

export const workspace = {
  get textDocuments() {
    return fake.documents;
  },
  get workspaceFolders() {
    return fake.workspaceFolders.length > 0 || fake.workspaceFile
      ? fake.workspaceFolders
      : undefined;
  },
  get workspaceFile() {
    return fake.workspaceFile;
  },
  get isTrusted() {
    return fake.trusted;
  },
  /** As VS Code: the folder holding the URI, or the folder it is. */
  getWorkspaceFolder(uri: Uri) {
    return fake.workspaceFolders.find(
      (folder) => uri.path === folder.uri.path || uri.path.startsWith(folder.uri.path + "/"),
    );
  },
  /** As VS Code: the folder's name leads when asked, or by default in a multi-root workspace. */
  asRelativePath(target: Uri | string, includeWorkspaceFolder?: boolean): string {
    const path = typeof target === "string" ? target : target.path;
    const folder = fake.workspaceFolders.find((f) => path.startsWith(f.uri.path + "/"));
    if (!folder) return path;
    const relative = path.slice(folder.uri.path.length + 1);
    const named = includeWorkspaceFolder ?? fake.workspaceFolders.length > 1;
    return named ? `${folder.name}/${relative}` : relative;
  },
  async findFiles(
    include: vscode.GlobPattern,
    exclude?: vscode.GlobPattern | null,
    maxResults?: number,
  ): Promise<Uri[]> {
    return (
      [...fake.files.keys()]
        .map((key) => Uri.parse(key))
        .filter((uri) => matchesGlob(include, uri) && !(exclude && matchesGlob(exclude, uri)))
        // VS Code promises no order (here: as the files were written), so code that needs one sorts.
        .slice(0, maxResults)
    );
  },
  async openTextDocument(uri: Uri): Promise<FakeDocument> {
    const open = fake.documents.find((doc) => doc.uri.toString() === uri.toString());
    if (open) return open;
    // A scheme with a content provider: its document holds what the provider says, as in VS Code.
    const provider = fake.contentProviders.get(uri.scheme);
    if (!provider) return fake.openDocument(uri);
    const text = await provider.provideTextDocumentContent(uri, {
      isCancellationRequested: false,
      onCancellationRequested: new EventEmitter<void>().event,
    } as unknown as vscode.CancellationToken);
    return fake.openDocument(uri, text ?? "");
  },
  registerTextDocumentContentProvider(
    scheme: string,
    provider: vscode.TextDocumentContentProvider,
  ) {
    fake.contentProviders.set(scheme, provider);
    return new Disposable(() => fake.contentProviders.delete(scheme));
  },
  async applyEdit(edit: WorkspaceEdit): Promise<boolean> {
    fake.appliedEdits.push(edit);
    for (const { uri, edit: textEdit } of edit.edits) {
      const document = await workspace.openTextDocument(uri);
      const text = document.getText();
      const next =
        text.slice(0, document.offsetAt(textEdit.range.start)) +
        textEdit.newText +
        text.slice(document.offsetAt(textEdit.range.end));
      fake.editDocument(document, next);
    }
    return true;
  },
  fs: {
    async readFile(uri: vscode.Uri): Promise<Uint8Array> {
      fake.reads.push(uri.toString());
      const bytes = fake.bytes.get(uri.toString());
      if (bytes) return bytes;
      const text = fake.files.get(uri.toString());
      if (text === undefined) throw notFound(uri);
      return new TextEncoder().encode(text);
    },
    async writeFile(uri: vscode.Uri, content: Uint8Array): Promise<void> {
      const existed = fake.files.has(uri.toString());
      fake.files.set(uri.toString(), new TextDecoder().decode(content));
      (existed ? events.fsChange : events.fsCreate).fire(Uri.parse(uri.toString()));
    },
    async stat(uri: vscode.Uri): Promise<vscode.FileStat> {
      const stat = (type: FileType, size: number) => ({ type, ctime: 0, mtime: 0, size });
      const type = fake.types.get(uri.toString());
      if (type !== undefined) return stat(type, 0);
      const bytes = fake.bytes.get(uri.toString());
      if (bytes) return stat(FileType.File, bytes.length);
      const text = fake.files.get(uri.toString());
      if (text === undefined) throw notFound(uri);
      return stat(FileType.File, new TextEncoder().encode(text).length);
    },
  } satisfies Imitates<vscode.FileSystem, "readFile" | "writeFile" | "stat">,
  onDidOpenTextDocument: events.open.event,
  onDidChangeTextDocument: events.change.event,
  onDidCloseTextDocument: events.close.event,
  onDidSaveTextDocument: events.save.event,
  createFileSystemWatcher: fileSystemWatcher,
  getConfiguration(section?: string) {
    return {
      get: <T>(key: string, fallback?: T) =>
        (fake.settings.get(section ? `${section}.${key}` : key) as T | undefined) ?? fallback,
    };
  },
} satisfies ImitatesNamespace<
  typeof vscode.workspace,
  | "workspaceFolders"
  | "workspaceFile"
  | "isTrusted"
  | "getWorkspaceFolder"
  | "asRelativePath"
  | "findFiles"
  | "createFileSystemWatcher"
  | "registerTextDocumentContentProvider"
>;
