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
    readonly query = "",
    readonly fragment = "",
  ) {}
  static file(path: string): Uri {
    return new Uri("file", path.startsWith("/") ? path : `/${path}`);
  }
  static parse(value: string, strict = false): Uri {
    const match = /^([a-z][\w+.-]*):\/\/([^?#]*)(?:\?([^#]*))?(?:#(.*))?$/i.exec(value);
    if (!match) {
      if (strict) throw new Error(`[UriError]: Scheme is missing: ${value}`);
      return Uri.file(value);
    }
    const path = decodeURIComponent(match[2]!.replace(/^[^/]*/, ""));
    return new Uri(match[1]!, path, match[3] ?? "", match[4] ?? "");
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
  isEqual(other: Range): boolean {
    return (
      this.start.line === other.start.line &&
      this.start.character === other.start.character &&
      this.end.line === other.end.line &&
      this.end.character === other.end.character
    );
  }
  constructor(
    startLine: number | Position,
    startCharacter: number | Position,
    endLine?: number,
    endCharacter?: number,
  ) {
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

export enum FileType {
  Unknown = 0,
  File = 1,
  Directory = 2,
  SymbolicLink = 64,
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

export class CodeActionKind {
  static readonly QuickFix = new CodeActionKind("quickfix");
  constructor(readonly value: string) {}
}

export class CodeAction {
  diagnostics?: Diagnostic[];
  isPreferred?: boolean;
  edit?: WorkspaceEdit;
  constructor(
    readonly title: string,
    readonly kind?: CodeActionKind,
  ) {}
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
  /** Writes the text to the fake disk, as saving an editor does. */
  async save(): Promise<boolean> {
    fake.writeFile(this.uri.path, this.text);
    events.save.fire(this);
    return true;
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

export interface FakeInputBoxOptions {
  readonly value?: string;
  readonly valueSelection?: [number, number];
  readonly prompt?: string;
  readonly validateInput?: (value: string) => string | undefined;
}

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
  commands: new Map<string, (...args: unknown[]) => unknown>(),
  /** Notifications and modal dialogs, with a modal's detail text. */
  shown: [] as {
    kind: "info" | "warning" | "error";
    message: string;
    modal?: boolean;
    detail?: string;
  }[],
  /** Progress notifications: their titles and every message reported. */
  progress: [] as { title: string; messages: string[] }[],
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
  shownDocuments: [] as { uri: Uri; selection: Range | undefined }[],
  /** The items and options of every quick pick shown. */
  quickPicks: [] as { items: unknown[]; options: unknown }[],
  /** The options of every input box shown. */
  inputBoxes: [] as FakeInputBoxOptions[],
  treeViews: new Map<string, unknown>(),
  /** The next progress starts with Cancel already pressed. */
  cancelNextProgress: false,
  diagnostics(uri: Uri): Diagnostic[] | undefined {
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
    this.commands.clear();
    this.shown.length = 0;
    this.progress.length = 0;
    this.answers = { inputBox: [], quickPick: [], message: [], saveDialog: [] };
    this.clipboard = "";
    this.appliedEdits.length = 0;
    this.outputs.clear();
    this.shownDocuments.length = 0;
    this.inputBoxes.length = 0;
    this.quickPicks.length = 0;
    this.treeViews.clear();
    this.cancelNextProgress = false;
    diagnosticCollections.length = 0;
  },
  writeBytes(path: string, bytes: Uint8Array): Uri {
    const uri = Uri.file(path);
    this.bytes.set(uri.toString(), bytes);
    return uri;
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
    this.workspaceFolders.push({
      uri,
      name: path.split("/").pop()!,
      index: this.workspaceFolders.length,
    });
    return uri;
  },
};

function notFound(uri: Uri): Error {
  return Object.assign(new Error(`EntryNotFound (FileSystemError): ${uri.toString()}`), {
    code: "FileNotFound",
  });
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
    return [...fake.files.keys()]
      .filter((key) => key.endsWith(suffix) && !key.includes("/node_modules/"))
      .sort()
      .map((key) => Uri.parse(key));
  },
  async openTextDocument(uri: Uri): Promise<FakeDocument> {
    return (
      fake.documents.find((doc) => doc.uri.toString() === uri.toString()) ?? fake.openDocument(uri)
    );
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
    async readFile(uri: Uri): Promise<Uint8Array> {
      fake.reads.push(uri.toString());
      const bytes = fake.bytes.get(uri.toString());
      if (bytes) return bytes;
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
      const type = fake.types.get(uri.toString());
      if (type !== undefined) return { type, size: 0 };
      const bytes = fake.bytes.get(uri.toString());
      if (bytes) return { type: FileType.File, size: bytes.length };
      const text = fake.files.get(uri.toString());
      if (text === undefined) throw notFound(uri);
      return { type: FileType.File, size: new TextEncoder().encode(text).length };
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

/** Records a notification; answers from the queue only when it offers choices. */
async function show(
  kind: "info" | "warning" | "error",
  message: string,
  items: unknown[],
): Promise<string | undefined> {
  const first = items[0];
  const options =
    typeof first === "object" && first !== null
      ? (items.shift() as { modal?: boolean; detail?: string })
      : undefined;
  fake.shown.push({
    kind,
    message,
    ...(options?.modal ? { modal: true } : {}),
    ...(options?.detail !== undefined ? { detail: options.detail } : {}),
  });
  return items.length > 0 ? answer(fake.answers.message) : undefined;
}

export const window = {
  showInformationMessage: (message: string, ...items: unknown[]) => show("info", message, items),
  showWarningMessage: (message: string, ...items: unknown[]) => show("warning", message, items),
  showErrorMessage: (message: string, ...items: unknown[]) => show("error", message, items),
  showInputBox: (options?: unknown) => {
    fake.inputBoxes.push(options as FakeInputBoxOptions);
    return answer(fake.answers.inputBox);
  },
  showQuickPick: async (items: unknown, options?: unknown) => {
    fake.quickPicks.push({ items: (await items) as unknown[], options });
    return answer(fake.answers.quickPick);
  },
  showSaveDialog: (_options?: unknown) => answer(fake.answers.saveDialog),
  showOpenDialog: async (_options?: unknown) => {
    const picked = await answer(fake.answers.saveDialog);
    return picked ? [picked] : undefined;
  },
  async showTextDocument(target: Uri | FakeDocument, options?: { selection?: Range }) {
    const document =
      target instanceof FakeDocument ? target : await workspace.openTextDocument(target);
    fake.shownDocuments.push({ uri: document.uri, selection: options?.selection });
    return { document };
  },
  activeTextEditor: undefined as { document: FakeDocument } | undefined,
  createOutputChannel(name: string) {
    // Looked up on every write, so a channel cached across tests still records after `fake.reset()`.
    const lines = () => {
      if (!fake.outputs.has(name)) fake.outputs.set(name, []);
      return fake.outputs.get(name)!;
    };
    lines();
    const log = (line: string) => void lines().push(line);
    return {
      name,
      appendLine: log,
      info: log,
      warn: log,
      error: log,
      debug: log,
      trace: log,
      show() {},
      dispose() {},
    };
  },
  createTreeView(id: string, options: { treeDataProvider: unknown }) {
    fake.treeViews.set(id, options.treeDataProvider);
    return { selection: [] as unknown[], reveal: async () => {}, dispose() {} };
  },
  createWebviewPanel: (viewType: string, title: string, _column?: unknown, options?: unknown) =>
    webviewFake.create(viewType, title, options),
  registerWebviewPanelSerializer: (
    viewType: string,
    serializer: { deserializeWebviewPanel(panel: FakeWebviewPanel, state: unknown): Promise<void> },
  ) => {
    webviewFake.serializers.set(viewType, serializer);
    return new Disposable(() => webviewFake.serializers.delete(viewType));
  },
  async withProgress<T>(
    options: { title?: string },
    task: (
      progress: { report(value: { message?: string; increment?: number }): void },
      token: {
        isCancellationRequested: boolean;
        onCancellationRequested: EventEmitter<void>["event"];
      },
    ) => Promise<T>,
  ): Promise<T> {
    const record = { title: options.title ?? "", messages: [] as string[] };
    fake.progress.push(record);
    const cancelled = fake.cancelNextProgress;
    fake.cancelNextProgress = false;
    return task(
      {
        report(value) {
          if (value.message !== undefined) record.messages.push(value.message);
        },
      },
      {
        isCancellationRequested: cancelled,
        onCancellationRequested: new EventEmitter<void>().event,
      },
    );
  },
};

export const languages = {
  createDiagnosticCollection(name: string) {
    const collection = new FakeDiagnosticCollection(name);
    diagnosticCollections.push(collection);
    return collection;
  },
  registerCodeActionsProvider(_selector: unknown, _provider: unknown, _metadata?: unknown) {
    return { dispose() {} };
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

export class Location {
  constructor(
    readonly uri: Uri,
    readonly range: Range,
  ) {}
}

export class TestMessage {
  expectedOutput?: string;
  actualOutput?: string;
  location?: Location;
  contextValue?: string;
  constructor(readonly message: string) {}
  static diff(message: string, expected: string, actual: string): TestMessage {
    const result = new TestMessage(message);
    result.expectedOutput = expected;
    result.actualOutput = actual;
    return result;
  }
}

export enum TestRunProfileKind {
  Run = 1,
  Debug = 2,
  Coverage = 3,
}

export class CancellationTokenSource {
  private readonly emitter = new EventEmitter<void>();
  readonly token = { isCancellationRequested: false, onCancellationRequested: this.emitter.event };
  cancel(): void {
    this.token.isCancellationRequested = true;
    this.emitter.fire();
  }
  dispose(): void {}
}

export class TestRunRequest {
  constructor(
    readonly include?: readonly FakeTestItem[],
    readonly exclude?: readonly FakeTestItem[],
    readonly profile?: unknown,
    readonly continuous?: boolean,
  ) {}
}

export class FakeTestItem {
  readonly children = new FakeTestItemCollection(this);
  parent: FakeTestItem | undefined;
  description?: string;
  range?: Range;
  error?: string;
  constructor(
    readonly id: string,
    public label: string,
    readonly uri?: Uri,
  ) {}
}

class FakeTestItemCollection {
  private readonly items = new Map<string, FakeTestItem>();
  constructor(private readonly owner: FakeTestItem | null) {}
  get size(): number {
    return this.items.size;
  }
  add(item: FakeTestItem): void {
    item.parent = this.owner ?? undefined;
    this.items.set(item.id, item);
  }
  delete(id: string): void {
    this.items.delete(id);
  }
  get(id: string): FakeTestItem | undefined {
    return this.items.get(id);
  }
  replace(items: readonly FakeTestItem[]): void {
    this.items.clear();
    for (const item of items) this.add(item);
  }
  forEach(callback: (item: FakeTestItem) => void): void {
    [...this.items.values()].forEach(callback);
  }
  [Symbol.iterator](): Iterator<[string, FakeTestItem]> {
    return this.items[Symbol.iterator]();
  }
}

/** One recorded test run: what each item ended as, with its messages. */
export interface FakeTestRun {
  readonly request: TestRunRequest;
  readonly results: {
    item: FakeTestItem;
    state: "started" | "passed" | "failed" | "errored" | "skipped";
    messages: TestMessage[];
  }[];
  readonly output: { output: string; item?: FakeTestItem }[];
  ended: boolean;
}

export const testRuns: FakeTestRun[] = [];

export const tests = {
  createTestController(id: string, label: string) {
    const controller = {
      id,
      label,
      items: new FakeTestItemCollection(null),
      profiles: [] as {
        kind: TestRunProfileKind;
        runHandler: (request: TestRunRequest, token: unknown) => unknown;
        supportsContinuousRun: boolean;
      }[],
      invalidated: [] as (FakeTestItem | undefined)[],
      refreshHandler: undefined as (() => unknown) | undefined,
      createTestItem: (itemId: string, itemLabel: string, uri?: Uri) =>
        new FakeTestItem(itemId, itemLabel, uri),
      createRunProfile(
        _label: string,
        kind: TestRunProfileKind,
        runHandler: (request: TestRunRequest, token: unknown) => unknown,
        _isDefault?: boolean,
        _tag?: unknown,
        supportsContinuousRun = false,
      ) {
        const profile = { kind, runHandler, supportsContinuousRun, dispose() {} };
        controller.profiles.push(profile);
        return profile;
      },
      createTestRun(request: TestRunRequest) {
        const record: FakeTestRun = { request, results: [], output: [], ended: false };
        testRuns.push(record);
        const set =
          (state: FakeTestRun["results"][number]["state"]) =>
          (item: FakeTestItem, message?: TestMessage | TestMessage[]) => {
            record.results.push({
              item,
              state,
              messages: message === undefined ? [] : Array.isArray(message) ? message : [message],
            });
          };
        return {
          started: set("started"),
          passed: set("passed"),
          failed: set("failed"),
          errored: set("errored"),
          skipped: set("skipped"),
          appendOutput(output: string, _location?: unknown, item?: FakeTestItem) {
            record.output.push({ output, item });
          },
          end() {
            record.ended = true;
          },
        };
      },
      invalidateTestResults(item?: FakeTestItem) {
        controller.invalidated.push(item);
      },
      dispose() {},
    };
    return controller;
  },
};

export class RelativePattern {
  constructor(
    readonly base: Uri,
    readonly pattern: string,
  ) {}
}

/** A webview: what the host set and posted, and `receive` to play the page posting to the host. */
export class FakeWebview {
  html = "";
  options: unknown = {};
  readonly cspSource = "https://webview.fake";
  readonly posted: unknown[] = [];
  /** Every html the host set, so tests can see a fresh nonce per render. */
  readonly htmls: string[] = [];
  private readonly received = new EventEmitter<unknown>();
  readonly onDidReceiveMessage = this.received.event;
  asWebviewUri(uri: Uri): Uri {
    return Uri.parse(`https://webview.fake${uri.path}`);
  }
  async postMessage(message: unknown): Promise<boolean> {
    this.posted.push(JSON.parse(JSON.stringify(message)));
    return true;
  }
  receive(message: unknown): void {
    this.received.fire(message);
  }
}

export class FakeWebviewPanel {
  readonly webview = new FakeWebview();
  disposed = false;
  revealed = 0;
  private readonly disposeEmitter = new EventEmitter<void>();
  readonly onDidDispose = this.disposeEmitter.event;
  constructor(
    readonly viewType: string,
    public title: string,
    readonly createOptions: unknown,
  ) {
    let html = "";
    Object.defineProperty(this.webview, "html", {
      get: () => html,
      set: (value: string) => {
        html = value;
        this.webview.htmls.push(value);
      },
    });
  }
  reveal(): void {
    this.revealed++;
  }
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.disposeEmitter.fire();
  }
}

/** Panels the host created and serializers it registered. */
export const webviewFake = {
  panels: [] as FakeWebviewPanel[],
  serializers: new Map<
    string,
    { deserializeWebviewPanel(panel: FakeWebviewPanel, state: unknown): Promise<void> }
  >(),
  create(viewType: string, title: string, options: unknown): FakeWebviewPanel {
    const panel = new FakeWebviewPanel(viewType, title, options);
    this.panels.push(panel);
    return panel;
  },
  reset(): void {
    this.panels.length = 0;
    this.serializers.clear();
  },
};

export enum TreeItemCollapsibleState {
  None = 0,
  Collapsed = 1,
  Expanded = 2,
}

export class TreeItem {
  description?: string;
  tooltip?: string;
  iconPath?: unknown;
  contextValue?: string;
  resourceUri?: Uri;
  command?: { command: string; title: string; arguments?: unknown[] };
  accessibilityInformation?: { label: string };
  constructor(
    readonly label: string,
    readonly collapsibleState: TreeItemCollapsibleState = TreeItemCollapsibleState.None,
  ) {}
}
