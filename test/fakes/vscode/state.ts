/** What tests set up and read back (`fake`), and the events the fake's namespaces fire. */
import type * as vscode from "vscode";
import { emitters, EventEmitter, type FileType, type Range, Uri } from "./core.js";
import { FakeDocument, type WorkspaceEdit } from "./documents.js";
import { diagnosticCollections } from "./languages.js";
import { testControllers } from "./testing.js";
import type { FakeInputBoxOptions } from "./window.js";

export const events = {
  open: new EventEmitter<FakeDocument>(),
  change: new EventEmitter<{ document: FakeDocument; contentChanges: unknown[] }>(),
  close: new EventEmitter<FakeDocument>(),
  save: new EventEmitter<FakeDocument>(),
  fsChange: new EventEmitter<Uri>(),
  fsCreate: new EventEmitter<Uri>(),
  fsDelete: new EventEmitter<Uri>(),
};

/** What tests set up and read back. */
export const fake = {
  files: new Map<string, string>(),
  /** Files whose bytes are not text (invalid UTF-8), by URI. */
  bytes: new Map<string, Uint8Array>(),
  /** Entries that are not regular files (a folder, a FIFO), by URI. */
  types: new Map<string, FileType>(),
  /** Every URI `workspace.fs.readFile` was asked for, in order. */
  reads: [] as string[],
  documents: [] as FakeDocument[],
  workspaceFolders: [] as { uri: Uri; name: string; index: number }[],
  /** The open `.code-workspace` file: with it, VS Code lists no folders as [] rather than undefined. */
  workspaceFile: undefined as Uri | undefined,
  commands: new Map<string, (...args: unknown[]) => unknown>(),
  /** Notifications and modal dialogs, with a modal's detail text. */
  shown: [] as {
    kind: "info" | "warning" | "error";
    message: string;
    modal?: boolean;
    detail?: string;
  }[],
  /** Progress notifications: their titles, every message reported, and `cancel` to press Cancel. */
  progress: [] as {
    title: string;
    cancellable: boolean;
    location: unknown;
    messages: string[];
    /** Each `increment` reported: the share of the bar (in percent) the step adds. */
    increments: number[];
    cancel: () => void;
    /** Listeners for Cancel still subscribed (a task that ended should have let go). */
    readonly cancelListeners: number;
  }[],
  /** Queued answers for dialogs, taken in order; undefined means the user cancelled. */
  answers: {
    inputBox: [] as (string | undefined)[],
    quickPick: [] as unknown[],
    message: [] as (string | undefined)[],
    saveDialog: [] as (Uri | undefined)[],
  },
  clipboard: "",
  appliedEdits: [] as WorkspaceEdit[],
  outputs: new Map<string, string[]>(),
  /** Every line written to a log channel, with the level it was written at. */
  logLines: [] as {
    channel: string;
    level: "info" | "warn" | "error" | "debug" | "trace" | "line";
    text: string;
  }[],
  /** The output channels brought to the front (`show`), by name, in order. */
  /** The output channels disposed, by name, in order. */
  disposedOutputs: [] as string[],
  shownOutputs: [] as { name: string; preserveFocus: boolean | undefined }[],
  /** Documents shown in an editor, with the selection and every option they were shown with. */
  shownDocuments: [] as {
    uri: Uri;
    selection: Range | undefined;
    options: vscode.TextDocumentShowOptions | undefined;
  }[],
  /** The items and options of every quick pick shown. */
  quickPicks: [] as { items: unknown[]; options: unknown }[],
  /** The options of every input box shown. */
  inputBoxes: [] as FakeInputBoxOptions[],
  /** The options of every save and open dialog shown, in order. */
  dialogs: [] as (vscode.SaveDialogOptions | vscode.OpenDialogOptions | undefined)[],
  /** Tree views by id: the options each was created with, its selection (a test may set it) and what it revealed. */
  treeViews: new Map<
    string,
    {
      options: vscode.TreeViewOptions<unknown>;
      selection: unknown[];
      /** Every element `reveal` was asked for, with its options. */
      revealed: { element: unknown; options: unknown }[];
    }
  >(),
  /** Code lens and code action providers registered and not yet disposed. */
  providers: [] as {
    kind: "codeLens" | "codeActions";
    selector: vscode.DocumentSelector;
    provider: unknown;
    metadata?: vscode.CodeActionProviderMetadata;
  }[],
  /** Text document content providers registered and not yet disposed, by scheme. */
  contentProviders: new Map<string, vscode.TextDocumentContentProvider>(),
  /** The next progress starts with Cancel already pressed. */
  cancelNextProgress: false,
  /** Status bar items made, each with its text and whether it is shown. */
  statusBarItems: [] as {
    text: string;
    tooltip?: string;
    command?: string;
    visible: boolean;
    disposed: boolean;
  }[],
  /** User settings by full name (`json.validate.enable`); unset ones read as their default. */
  settings: new Map<string, unknown>(),
  /** `workspace.isTrusted`: false is Restricted Mode. */
  trusted: true,
  /** Language-model tools registered and not yet disposed, by name. */
  lmTools: new Map<string, vscode.LanguageModelTool<object>>(),
  /** The names of the diagnostic collections made (each the owner of its problems in the Problems panel). */
  diagnosticOwners(): string[] {
    return diagnosticCollections.map((collection) => collection.name);
  },
  diagnostics(uri: Uri): readonly vscode.Diagnostic[] | undefined {
    for (const collection of diagnosticCollections) {
      const found = collection.get(uri);
      if (found) return found;
    }
    return undefined;
  },
  reset(): void {
    this.files.clear();
    this.bytes.clear();
    this.types.clear();
    this.reads.length = 0;
    this.documents.length = 0;
    this.workspaceFolders.length = 0;
    this.workspaceFile = undefined;
    this.commands.clear();
    this.shown.length = 0;
    this.progress.length = 0;
    this.answers = { inputBox: [], quickPick: [], message: [], saveDialog: [] };
    this.clipboard = "";
    this.appliedEdits.length = 0;
    this.outputs.clear();
    this.logLines.length = 0;
    this.shownOutputs.length = 0;
    this.disposedOutputs.length = 0;
    this.shownDocuments.length = 0;
    this.quickPicks.length = 0;
    this.inputBoxes.length = 0;
    this.dialogs.length = 0;
    this.treeViews.clear();
    this.providers.length = 0;
    this.cancelNextProgress = false;
    this.settings.clear();
    this.statusBarItems.length = 0;
    this.contentProviders.clear();
    this.trusted = true;
    this.lmTools.clear();
    diagnosticCollections.length = 0;
    testControllers.length = 0;
    // Objects a test left behind stop hearing events: each test starts with no listeners.
    for (const emitter of emitters) emitter.dispose();
    emitters.clear();
    for (const emitter of Object.values(events)) emitters.add(emitter);
  },
  writeBytes(path: string, bytes: Uint8Array): Uri {
    const uri = Uri.file(path);
    this.bytes.set(uri.toString(), bytes);
    return uri;
  },
  /** Writes a file on the fake disk; watchers see it created or changed. */
  writeFile(path: string, text: string): Uri {
    const uri = Uri.file(path);
    const existed = this.files.has(uri.toString());
    this.files.set(uri.toString(), text);
    (existed ? events.fsChange : events.fsCreate).fire(uri);
    return uri;
  },
  /** Deletes a file from the fake disk; watchers see it deleted. */
  deleteFile(path: string): void {
    const uri = Uri.file(path);
    if (!this.files.delete(uri.toString())) throw new Error(`no file ${path} to delete`);
    events.fsDelete.fire(uri);
  },
  openDocument(uri: Uri, text?: string, languageId?: string): FakeDocument {
    const document = new FakeDocument(
      uri,
      text ?? this.files.get(uri.toString()) ?? "",
      languageId,
    );
    this.documents.push(document);
    events.open.fire(document);
    return document;
  },
  editDocument(document: FakeDocument, text: string): void {
    document.setText(text);
    events.change.fire({ document, contentChanges: [{ text }] });
  },
  closeDocument(document: FakeDocument): void {
    this.documents.splice(this.documents.indexOf(document), 1);
    events.close.fire(document);
  },
  addWorkspaceFolder(path: string): Uri {
    const uri = Uri.file(path);
    this.workspaceFolders.push({
      uri,
      name: path.split("/").pop()!,
      index: this.workspaceFolders.length,
    });
    return uri;
  },
};
