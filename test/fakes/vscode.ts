/**
 * A small in-memory stand-in for the `vscode` module, enough for host code to run in plain
 * Node. Tests drive it through `fake`: files, open documents, dialog answers, and what was shown.
 */
type Listener<T> = (value: T) => unknown;

export class Disposable {
  constructor(private readonly onDispose: () => void = () => {}) {}
  static from(...items: { dispose(): unknown }[]): Disposable {
    return new Disposable(() => items.forEach((item) => item.dispose()));
  }
  dispose(): void {
    this.onDispose();
  }
}

export class EventEmitter<T> {
  private listeners: Listener<T>[] = [];
  readonly event = (listener: Listener<T>): Disposable => {
    this.listeners.push(listener);
    return new Disposable(() => (this.listeners = this.listeners.filter((l) => l !== listener)));
  };
  fire(value: T): void {
    for (const listener of [...this.listeners]) listener(value);
  }
  dispose(): void {
    this.listeners = [];
  }
}

export class Uri {
  private constructor(
    readonly scheme: string,
    readonly path: string,
  ) {}
  static file(path: string): Uri {
    return new Uri("file", path.startsWith("/") ? path : `/${path}`);
  }
  static parse(value: string): Uri {
    const match = /^([a-z][\w+.-]*):\/\/(.*)$/i.exec(value);
    if (!match) return Uri.file(value);
    return new Uri(match[1]!, decodeURIComponent(match[2]!.replace(/^[^/]*/, "")));
  }
  static joinPath(base: Uri, ...segments: string[]): Uri {
    const parts = base.path.split("/");
    for (const segment of segments.flatMap((s) => s.split("/"))) {
      if (segment === "" || segment === ".") continue;
      if (segment === "..") parts.pop();
      else parts.push(segment);
    }
    return new Uri(base.scheme, parts.join("/") || "/");
  }
  get fsPath(): string {
    return this.path;
  }
  with(change: { path?: string }): Uri {
    return new Uri(this.scheme, change.path ?? this.path);
  }
  toString(): string {
    return `${this.scheme}://${this.path}`;
  }
}

export class Position {
  constructor(
    readonly line: number,
    readonly character: number,
  ) {}
}

export class Range {
  readonly start: Position;
  readonly end: Position;
  constructor(startLine: number | Position, startCharacter: number | Position, endLine?: number, endCharacter?: number) {
    if (startLine instanceof Position && startCharacter instanceof Position) {
      this.start = startLine;
      this.end = startCharacter;
    } else {
      this.start = new Position(startLine as number, startCharacter as number);
      this.end = new Position(endLine!, endCharacter!);
    }
  }
}

export class Selection extends Range {}

export enum DiagnosticSeverity {
  Error = 0,
  Warning = 1,
  Information = 2,
  Hint = 3,
}

export class Diagnostic {
  source?: string;
  constructor(
    readonly range: Range,
    readonly message: string,
    readonly severity: DiagnosticSeverity = DiagnosticSeverity.Error,
  ) {}
}

export class CodeLens {
  constructor(
    readonly range: Range,
    readonly command?: { title: string; command: string; arguments?: unknown[] },
  ) {}
}

export class TextEdit {
  constructor(
    readonly range: Range,
    readonly newText: string,
  ) {}
  static replace(range: Range, newText: string): TextEdit {
    return new TextEdit(range, newText);
  }
}

export class WorkspaceEdit {
  readonly edits: { uri: Uri; edit: TextEdit }[] = [];
  replace(uri: Uri, range: Range, newText: string): void {
    this.edits.push({ uri, edit: new TextEdit(range, newText) });
  }
}

export enum ViewColumn {
  Active = -1,
  Beside = -2,
  One = 1,
  Two = 2,
}

export class ThemeIcon {
  constructor(
    readonly id: string,
    readonly color?: unknown,
  ) {}
}

export class ThemeColor {
  constructor(readonly id: string) {}
}

export enum ProgressLocation {
  SourceControl = 1,
  Window = 10,
  Notification = 15,
}

/** An open document: text that may differ from the disk (unsaved edits). */
export class FakeDocument {
  version = 1;
  constructor(
    readonly uri: Uri,
    private text: string,
  ) {}
  getText(): string {
    return this.text;
  }
  setText(text: string): void {
    this.text = text;
    this.version++;
  }
  get lineCount(): number {
    return this.text.split("\n").length;
  }
  offsetAt(position: Position): number {
    const lines = this.text.split("\n");
    let offset = 0;
    for (let i = 0; i < position.line; i++) offset += lines[i]!.length + 1;
    return offset + position.character;
  }
  positionAt(offset: number): Position {
    const before = this.text.slice(0, offset).split("\n");
    return new Position(before.length - 1, before[before.length - 1]!.length);
  }
}

const events = {
  open: new EventEmitter<FakeDocument>(),
  change: new EventEmitter<{ document: FakeDocument; contentChanges: unknown[] }>(),
  close: new EventEmitter<FakeDocument>(),
  save: new EventEmitter<FakeDocument>(),
  fsChange: new EventEmitter<Uri>(),
  fsCreate: new EventEmitter<Uri>(),
  fsDelete: new EventEmitter<Uri>(),
};

const diagnosticCollections: FakeDiagnosticCollection[] = [];

class FakeDiagnosticCollection {
  readonly entries = new Map<string, Diagnostic[]>();
  constructor(readonly name: string) {}
  set(uri: Uri, diagnostics: Diagnostic[]): void {
    this.entries.set(uri.toString(), diagnostics);
  }
  delete(uri: Uri): void {
    this.entries.delete(uri.toString());
  }
  get(uri: Uri): Diagnostic[] | undefined {
    return this.entries.get(uri.toString());
  }
  clear(): void {
    this.entries.clear();
  }
  dispose(): void {
    this.entries.clear();
  }
}

/** What tests set up and read back. */
export const fake = {
  files: new Map<string, string>(),
  documents: [] as FakeDocument[],
  workspaceFolders: [] as { uri: Uri; name: string; index: number }[],
  commands: new Map<string, (...args: unknown[]) => unknown>(),
  shown: [] as { kind: "info" | "warning" | "error"; message: string }[],
  /** Queued answers for dialogs, taken in order; undefined means the user cancelled. */
  answers: { inputBox: [] as (string | undefined)[], quickPick: [] as unknown[], message: [] as (string | undefined)[], saveDialog: [] as (Uri | undefined)[] },
  clipboard: "",
  appliedEdits: [] as WorkspaceEdit[],
  diagnostics(uri: Uri): Diagnostic[] | undefined {
    for (const collection of diagnosticCollections) {
      const found = collection.get(uri);
      if (found) return found;
    }
    return undefined;
  },
  reset(): void {
    this.files.clear();
    this.documents.length = 0;
    this.workspaceFolders.length = 0;
    this.commands.clear();
    this.shown.length = 0;
    this.answers = { inputBox: [], quickPick: [], message: [], saveDialog: [] };
    this.clipboard = "";
    this.appliedEdits.length = 0;
    diagnosticCollections.length = 0;
  },
  writeFile(path: string, text: string): Uri {
    const uri = Uri.file(path);
    this.files.set(uri.toString(), text);
    events.fsChange.fire(uri);
    return uri;
  },
  openDocument(uri: Uri, text?: string): FakeDocument {
    const document = new FakeDocument(uri, text ?? this.files.get(uri.toString()) ?? "");
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
    this.workspaceFolders.push({ uri, name: path.split("/").pop()!, index: this.workspaceFolders.length });
    return uri;
  },
};

function notFound(uri: Uri): Error {
  return Object.assign(new Error(`EntryNotFound (FileSystemError): ${uri.toString()}`), { code: "FileNotFound" });
}

export const workspace = {
  get textDocuments() {
    return fake.documents;
  },
  get workspaceFolders() {
    return fake.workspaceFolders.length > 0 ? fake.workspaceFolders : undefined;
  },
  getWorkspaceFolder(uri: Uri) {
    return fake.workspaceFolders.find((folder) => uri.path.startsWith(folder.uri.path + "/"));
  },
  asRelativePath(target: Uri | string): string {
    const path = typeof target === "string" ? target : target.path;
    const folder = fake.workspaceFolders.find((f) => path.startsWith(f.uri.path + "/"));
    return folder ? path.slice(folder.uri.path.length + 1) : path;
  },
  async findFiles(include: string): Promise<Uri[]> {
    const suffix = include.replace(/^\*\*\/\*/, "");
    return [...fake.files.keys()].filter((key) => key.endsWith(suffix) && !key.includes("/node_modules/")).sort().map((key) => Uri.parse(key));
  },
  async openTextDocument(uri: Uri): Promise<FakeDocument> {
    return fake.documents.find((doc) => doc.uri.toString() === uri.toString()) ?? fake.openDocument(uri);
  },
  async applyEdit(edit: WorkspaceEdit): Promise<boolean> {
    fake.appliedEdits.push(edit);
    for (const { uri, edit: textEdit } of edit.edits) {
      const document = await workspace.openTextDocument(uri);
      const text = document.getText();
      const next = text.slice(0, document.offsetAt(textEdit.range.start)) + textEdit.newText + text.slice(document.offsetAt(textEdit.range.end));
      fake.editDocument(document, next);
    }
    return true;
  },
  fs: {
    async readFile(uri: Uri): Promise<Uint8Array> {
      const text = fake.files.get(uri.toString());
      if (text === undefined) throw notFound(uri);
      return new TextEncoder().encode(text);
    },
    async writeFile(uri: Uri, content: Uint8Array): Promise<void> {
      const existed = fake.files.has(uri.toString());
      fake.files.set(uri.toString(), new TextDecoder().decode(content));
      (existed ? events.fsChange : events.fsCreate).fire(uri);
    },
    async stat(uri: Uri): Promise<{ type: number; size: number }> {
      const text = fake.files.get(uri.toString());
      if (text === undefined) throw notFound(uri);
      return { type: 1, size: text.length };
    },
  },
  onDidOpenTextDocument: events.open.event,
  onDidChangeTextDocument: events.change.event,
  onDidCloseTextDocument: events.close.event,
  onDidSaveTextDocument: events.save.event,
  createFileSystemWatcher() {
    return {
      onDidChange: events.fsChange.event,
      onDidCreate: events.fsCreate.event,
      onDidDelete: events.fsDelete.event,
      dispose() {},
    };
  },
  getConfiguration() {
    return { get: <T>(_key: string, fallback?: T) => fallback };
  },
};

async function answer<T>(queue: T[]): Promise<T | undefined> {
  return queue.shift();
}

export const window = {
  async showInformationMessage(message: string, ...items: string[]) {
    fake.shown.push({ kind: "info", message });
    return items.length > 0 ? answer(fake.answers.message) : undefined;
  },
  async showWarningMessage(message: string, ...items: unknown[]) {
    fake.shown.push({ kind: "warning", message });
    return items.length > 0 ? answer(fake.answers.message) : undefined;
  },
  async showErrorMessage(message: string, ...items: string[]) {
    fake.shown.push({ kind: "error", message });
    return items.length > 0 ? answer(fake.answers.message) : undefined;
  },
  showInputBox: (_options?: unknown) => answer(fake.answers.inputBox),
  showQuickPick: (_items: unknown, _options?: unknown) => answer(fake.answers.quickPick),
  showSaveDialog: (_options?: unknown) => answer(fake.answers.saveDialog),
  async showTextDocument(target: Uri | FakeDocument) {
    const document = target instanceof FakeDocument ? target : await workspace.openTextDocument(target);
    return { document };
  },
  activeTextEditor: undefined as { document: FakeDocument } | undefined,
  async withProgress<T>(_options: unknown, task: (progress: { report(value: unknown): void }, token: { isCancellationRequested: boolean; onCancellationRequested: EventEmitter<void>["event"] }) => Promise<T>): Promise<T> {
    return task({ report() {} }, { isCancellationRequested: false, onCancellationRequested: new EventEmitter<void>().event });
  },
};

export const languages = {
  createDiagnosticCollection(name: string) {
    const collection = new FakeDiagnosticCollection(name);
    diagnosticCollections.push(collection);
    return collection;
  },
  registerCodeLensProvider(_selector: unknown, _provider: unknown) {
    return new Disposable();
  },
};

export const commands = {
  registerCommand(id: string, handler: (...args: unknown[]) => unknown) {
    fake.commands.set(id, handler);
    return new Disposable(() => fake.commands.delete(id));
  },
  async executeCommand(id: string, ...args: unknown[]) {
    return fake.commands.get(id)?.(...args);
  },
};

export const env = {
  clipboard: {
    async writeText(text: string) {
      fake.clipboard = text;
    },
    async readText() {
      return fake.clipboard;
    },
  },
};
