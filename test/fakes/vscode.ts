/**
 * A small in-memory stand-in for the `vscode` module, enough for host code to run in plain
 * Node. Tests drive it through `fake`: files, open documents, dialog answers, and what was shown.
 */
import type * as vscode from "vscode";
import { minimatch } from "minimatch";

/**
 * The members of a real `vscode` API this fake imitates. `satisfies Imitates<typeof vscode.x, …>`
 * makes the type-checker hold each imitation to the real signature, so a fake cannot drift from
 * what the host code is compiled against.
 */
export type Imitates<T, K extends keyof T> = Pick<T, K>;
/** A namespace's fake: the members it imitates, checked, plus the fake's own helpers. */
type ImitatesNamespace<T, K extends keyof T> = Pick<T, K> & Record<string, unknown>;

export class Disposable implements vscode.Disposable {
  constructor(private readonly onDispose: () => void = () => {}) {}
  static from(...items: { dispose(): unknown }[]): Disposable {
    return new Disposable(() => items.forEach((item) => item.dispose()));
  }
  dispose(): void {
    this.onDispose();
  }
}
Disposable satisfies Imitates<typeof vscode.Disposable, "from">;

/** Every emitter the fake creates, so `fake.reset()` can drop the listeners a test left behind. */
const emitters = new Set<{ dispose(): void }>();

export class EventEmitter<T> implements vscode.EventEmitter<T> {
  private listeners: ((value: T) => unknown)[] = [];
  constructor() {
    emitters.add(this);
  }
  readonly event: vscode.Event<T> = (listener, thisArgs?, disposables?) => {
    const bound = (value: T) => listener.call(thisArgs, value);
    this.listeners.push(bound);
    const subscription = new Disposable(
      () => (this.listeners = this.listeners.filter((l) => l !== bound)),
    );
    disposables?.push(subscription);
    return subscription;
  };
  fire(value: T): void {
    for (const listener of [...this.listeners]) listener(value);
  }
  /** How many listeners are subscribed now (a test can see that a host object unsubscribed). */
  get listenerCount(): number {
    return this.listeners.length;
  }
  dispose(): void {
    this.listeners = [];
  }
}

/** Characters a URI keeps as they are; everything else is percent-encoded, as VS Code does. */
const UNRESERVED = /[A-Za-z0-9\-._~/]/;

function encodePath(path: string): string {
  let out = "";
  for (const char of path)
    out += UNRESERVED.test(char)
      ? char
      : [...new TextEncoder().encode(char)]
          .map((byte) => `%${byte.toString(16).toUpperCase().padStart(2, "0")}`)
          .join("");
  return out;
}

/** VS Code's Uri: `file` URIs from POSIX or Windows paths (drive letters, UNC shares, backslashes). */
export class Uri implements vscode.Uri {
  private constructor(
    readonly scheme: string,
    readonly authority: string,
    readonly path: string,
    readonly query = "",
    readonly fragment = "",
  ) {}
  static file(path: string): Uri {
    let authority = "";
    let normal = path.replace(/\\/g, "/");
    const unc = /^\/\/([^/]+)(\/.*)?$/.exec(normal);
    if (unc) {
      authority = unc[1]!;
      normal = unc[2] ?? "/";
    }
    return new Uri("file", authority, normal.startsWith("/") ? normal : `/${normal}`);
  }
  static parse(value: string, strict = false): Uri {
    const match = /^([a-z][\w+.-]*):(?:\/\/([^/?#]*))?([^?#]*)(?:\?([^#]*))?(?:#(.*))?$/i.exec(
      value,
    );
    if (!match) {
      if (strict) throw new Error(`[UriError]: Scheme is missing: ${value}`);
      return Uri.file(value);
    }
    const [, scheme, authority = "", path = "", query = "", fragment = ""] = match;
    return new Uri(
      scheme!.toLowerCase(),
      decodeURIComponent(authority),
      decodeURIComponent(path),
      decodeURIComponent(query),
      decodeURIComponent(fragment),
    );
  }
  static from(components: {
    readonly scheme: string;
    readonly authority?: string;
    readonly path?: string;
    readonly query?: string;
    readonly fragment?: string;
  }): Uri {
    const { scheme, authority = "", path = "", query = "", fragment = "" } = components;
    return new Uri(scheme, authority, path, query, fragment);
  }
  static joinPath(base: vscode.Uri, ...segments: string[]): Uri {
    // As path.posix.join: empty segments (a root's or a trailing slash's) vanish.
    const parts = base.path.split("/").filter((part, i) => i === 0 || part !== "");
    for (const segment of segments.flatMap((s) => s.split("/"))) {
      if (segment === "" || segment === ".") continue;
      if (segment === "..") parts.pop();
      else parts.push(segment);
    }
    return new Uri(base.scheme, base.authority, parts.join("/") || "/", base.query, base.fragment);
  }
  /** As VS Code computes it on Windows for drive letters and shares; a POSIX path is the path. */
  get fsPath(): string {
    const drive = /^\/([A-Za-z]):(\/.*)?$/.exec(this.path);
    if (drive) return `${drive[1]!.toLowerCase()}:${(drive[2] ?? "\\").replace(/\//g, "\\")}`;
    if (this.authority && this.scheme === "file")
      return `\\\\${this.authority}${this.path.replace(/\//g, "\\")}`;
    return this.path;
  }
  with(change: {
    scheme?: string;
    authority?: string;
    path?: string;
    query?: string;
    fragment?: string;
  }): Uri {
    return new Uri(
      change.scheme ?? this.scheme,
      change.authority ?? this.authority,
      change.path ?? this.path,
      change.query ?? this.query,
      change.fragment ?? this.fragment,
    );
  }
  toString(skipEncoding = false): string {
    const encode = skipEncoding ? (text: string) => text : encodePath;
    // VS Code writes a drive letter in lower case.
    const path = this.path.replace(
      /^\/([A-Z]):/,
      (_, letter: string) => `/${letter.toLowerCase()}:`,
    );
    let text = `${this.scheme}:`;
    if (this.authority || this.scheme === "file") text += `//${encode(this.authority)}`;
    text += encode(path);
    if (this.query) text += `?${encode(this.query)}`;
    if (this.fragment) text += `#${encode(this.fragment)}`;
    return text;
  }
  toJSON(): unknown {
    return { $mid: 1, scheme: this.scheme, authority: this.authority, path: this.path };
  }
}
Uri satisfies Imitates<typeof vscode.Uri, "file" | "parse" | "from" | "joinPath">;

export class Position implements vscode.Position {
  constructor(
    readonly line: number,
    readonly character: number,
  ) {}
  compareTo(other: vscode.Position): number {
    return this.line - other.line || this.character - other.character;
  }
  isBefore(other: vscode.Position): boolean {
    return this.compareTo(other) < 0;
  }
  isBeforeOrEqual(other: vscode.Position): boolean {
    return this.compareTo(other) <= 0;
  }
  isAfter(other: vscode.Position): boolean {
    return this.compareTo(other) > 0;
  }
  isAfterOrEqual(other: vscode.Position): boolean {
    return this.compareTo(other) >= 0;
  }
  isEqual(other: vscode.Position): boolean {
    return this.compareTo(other) === 0;
  }
  translate(
    lineDelta?: number | { lineDelta?: number; characterDelta?: number },
    characterDelta?: number,
  ): Position {
    const change =
      typeof lineDelta === "object" ? lineDelta : { lineDelta, characterDelta: characterDelta };
    return new Position(
      this.line + (change.lineDelta ?? 0),
      this.character + (change.characterDelta ?? 0),
    );
  }
  with(line?: number | { line?: number; character?: number }, character?: number): Position {
    const change = typeof line === "object" ? line : { line, character };
    return new Position(change.line ?? this.line, change.character ?? this.character);
  }
}

export class Range implements vscode.Range {
  readonly start: Position;
  readonly end: Position;
  constructor(start: vscode.Position, end: vscode.Position);
  constructor(startLine: number, startCharacter: number, endLine: number, endCharacter: number);
  constructor(
    startLine: number | vscode.Position,
    startCharacter: number | vscode.Position,
    endLine?: number,
    endCharacter?: number,
  ) {
    const [a, b] =
      typeof startLine === "number"
        ? [new Position(startLine, startCharacter as number), new Position(endLine!, endCharacter!)]
        : [
            new Position(startLine.line, startLine.character),
            new Position(
              (startCharacter as vscode.Position).line,
              (startCharacter as vscode.Position).character,
            ),
          ];
    // VS Code orders the two ends.
    [this.start, this.end] = a.isAfter(b) ? [b, a] : [a, b];
  }
  get isEmpty(): boolean {
    return this.start.isEqual(this.end);
  }
  get isSingleLine(): boolean {
    return this.start.line === this.end.line;
  }
  contains(positionOrRange: vscode.Position | vscode.Range): boolean {
    const [from, to] =
      positionOrRange instanceof Position
        ? [positionOrRange, positionOrRange]
        : "start" in positionOrRange
          ? [positionOrRange.start, positionOrRange.end]
          : [positionOrRange, positionOrRange];
    return this.start.isBeforeOrEqual(from) && this.end.isAfterOrEqual(to);
  }
  isEqual(other: vscode.Range): boolean {
    return this.start.isEqual(other.start) && this.end.isEqual(other.end);
  }
  intersection(other: vscode.Range): Range | undefined {
    const start = this.start.isAfter(other.start) ? this.start : other.start;
    const end = this.end.isBefore(other.end) ? this.end : other.end;
    return start.isAfter(end) ? undefined : new Range(start, end);
  }
  union(other: vscode.Range): Range {
    const start = this.start.isBefore(other.start) ? this.start : other.start;
    const end = this.end.isAfter(other.end) ? this.end : other.end;
    return new Range(start, end);
  }
  with(
    start?: vscode.Position | { start?: vscode.Position; end?: vscode.Position },
    end?: vscode.Position,
  ): Range {
    const change = start !== undefined && !("line" in start) ? start : { start, end };
    return new Range(change.start ?? this.start, change.end ?? this.end);
  }
}

export class Selection extends Range implements vscode.Selection {
  readonly anchor: Position;
  readonly active: Position;
  constructor(anchor: vscode.Position, active: vscode.Position);
  constructor(
    anchorLine: number,
    anchorCharacter: number,
    activeLine: number,
    activeCharacter: number,
  );
  constructor(
    anchorLine: number | vscode.Position,
    anchorCharacter: number | vscode.Position,
    activeLine?: number,
    activeCharacter?: number,
  ) {
    const anchor =
      typeof anchorLine === "number"
        ? new Position(anchorLine, anchorCharacter as number)
        : new Position(anchorLine.line, anchorLine.character);
    const active =
      typeof anchorLine === "number"
        ? new Position(activeLine!, activeCharacter!)
        : new Position(
            (anchorCharacter as vscode.Position).line,
            (anchorCharacter as vscode.Position).character,
          );
    super(anchor, active);
    this.anchor = anchor;
    this.active = active;
  }
  get isReversed(): boolean {
    return this.anchor.isAfter(this.active);
  }
}

export enum DiagnosticSeverity {
  Error = 0,
  Warning = 1,
  Information = 2,
  Hint = 3,
}

export class Diagnostic implements vscode.Diagnostic {
  source?: string;
  constructor(
    readonly range: vscode.Range,
    readonly message: string,
    readonly severity: DiagnosticSeverity = DiagnosticSeverity.Error,
  ) {}
}

export class CodeLens implements vscode.CodeLens {
  constructor(
    readonly range: vscode.Range,
    readonly command?: vscode.Command,
  ) {}
  get isResolved(): boolean {
    return this.command !== undefined;
  }
}

export class TextEdit implements vscode.TextEdit {
  constructor(
    readonly range: vscode.Range,
    readonly newText: string,
  ) {}
  static replace(range: vscode.Range, newText: string): TextEdit {
    return new TextEdit(range, newText);
  }
}
TextEdit satisfies Imitates<typeof vscode.TextEdit, "replace">;

export class WorkspaceEdit implements Imitates<vscode.WorkspaceEdit, "replace" | "size"> {
  readonly edits: { uri: vscode.Uri; edit: TextEdit }[] = [];
  get size(): number {
    return new Set(this.edits.map(({ uri }) => uri.toString())).size;
  }
  replace(uri: vscode.Uri, range: vscode.Range, newText: string): void {
    this.edits.push({ uri, edit: new TextEdit(range, newText) });
  }
}

export enum FileType {
  Unknown = 0,
  File = 1,
  Directory = 2,
  SymbolicLink = 64,
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
export class FakeDocument implements Imitates<
  vscode.TextDocument,
  "uri" | "languageId" | "version" | "getText" | "lineCount" | "offsetAt" | "positionAt"
> {
  version = 1;
  constructor(
    readonly uri: Uri,
    private text: string,
    /** As VS Code picks it by default: `json` for a `.json` file. */
    readonly languageId = uri.path.endsWith(".json") ? "json" : "plaintext",
  ) {}
  getText(range?: vscode.Range): string {
    if (!range) return this.text;
    return this.text.slice(this.offsetAt(range.start), this.offsetAt(range.end));
  }
  setText(text: string): void {
    this.text = text;
    this.version++;
  }
  /** Writes the text to the fake disk, as saving an editor does. */
  async save(): Promise<boolean> {
    fake.writeFile(this.uri.path, this.text);
    return true;
  }
  get lineCount(): number {
    return this.text.split("\n").length;
  }
  offsetAt(position: vscode.Position): number {
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

class FakeDiagnosticCollection implements vscode.DiagnosticCollection {
  readonly entries = new Map<string, [vscode.Uri, readonly vscode.Diagnostic[]]>();
  constructor(readonly name: string) {}
  set(uri: vscode.Uri, diagnostics: readonly vscode.Diagnostic[] | undefined): void;
  set(entries: ReadonlyArray<[vscode.Uri, readonly vscode.Diagnostic[] | undefined]>): void;
  set(
    target: vscode.Uri | ReadonlyArray<[vscode.Uri, readonly vscode.Diagnostic[] | undefined]>,
    diagnostics?: readonly vscode.Diagnostic[],
  ): void {
    const pairs = Array.isArray(target) ? target : [[target as vscode.Uri, diagnostics] as const];
    for (const [uri, list] of pairs) {
      if (list === undefined) this.entries.delete(uri.toString());
      else this.entries.set(uri.toString(), [uri, list]);
    }
  }
  delete(uri: vscode.Uri): void {
    this.entries.delete(uri.toString());
  }
  get(uri: vscode.Uri): readonly vscode.Diagnostic[] | undefined {
    return this.entries.get(uri.toString())?.[1];
  }
  has(uri: vscode.Uri): boolean {
    return this.entries.has(uri.toString());
  }
  forEach(
    callback: (
      uri: vscode.Uri,
      diagnostics: readonly vscode.Diagnostic[],
      collection: vscode.DiagnosticCollection,
    ) => unknown,
    thisArg?: unknown,
  ): void {
    for (const [uri, list] of this.entries.values()) callback.call(thisArg, uri, list, this);
  }
  *[Symbol.iterator](): Iterator<[uri: vscode.Uri, diagnostics: readonly vscode.Diagnostic[]]> {
    yield* this.entries.values();
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
  if (items.length === 0) return undefined;
  const chosen = await answer(fake.answers.message);
  // VS Code answers with one of the offered buttons or undefined: a test answering otherwise is wrong.
  if (chosen !== undefined && !items.includes(chosen))
    throw new Error(
      `the test answered '${chosen}', but the message offers ${JSON.stringify(items)}`,
    );
  return chosen;
}

export const window = {
  showInformationMessage: (message: string, ...items: unknown[]) => show("info", message, items),
  showWarningMessage: (message: string, ...items: unknown[]) => show("warning", message, items),
  showErrorMessage: (message: string, ...items: unknown[]) => show("error", message, items),
  showInputBox: (options?: unknown) => {
    fake.inputBoxes.push(options as FakeInputBoxOptions);
    return answer(fake.answers.inputBox);
  },
  /** A queued function answers by picking from the items it is given. */
  showQuickPick: async (items: unknown, options?: unknown) => {
    fake.quickPicks.push({ items: (await items) as unknown[], options });
    const picked = await answer(fake.answers.quickPick);
    return typeof picked === "function" ? picked(await items) : picked;
  },
  showSaveDialog: (options?: vscode.SaveDialogOptions) => {
    fake.dialogs.push(options);
    return answer(fake.answers.saveDialog);
  },
  showOpenDialog: async (options?: vscode.OpenDialogOptions) => {
    fake.dialogs.push(options);
    const picked = await answer(fake.answers.saveDialog);
    return picked ? [picked] : undefined;
  },
  async showTextDocument(target: Uri | FakeDocument, options?: vscode.TextDocumentShowOptions) {
    const document =
      target instanceof FakeDocument ? target : await workspace.openTextDocument(target);
    fake.shownDocuments.push({
      uri: document.uri,
      selection: options?.selection as Range | undefined,
      options,
    });
    return { document };
  },
  activeTextEditor: undefined as { document: FakeDocument } | undefined,
  createOutputChannel(name: string, options?: string | { log: true }) {
    // Looked up on every write, so a channel cached across tests still records after `fake.reset()`.
    const lines = () => {
      if (!fake.outputs.has(name)) fake.outputs.set(name, []);
      return fake.outputs.get(name)!;
    };
    lines();
    const at = (level: (typeof fake.logLines)[number]["level"]) => (text: string) => {
      lines().push(text);
      fake.logLines.push({ channel: name, level, text });
    };
    const channel = {
      name,
      appendLine: at("line"),
      show(preserveFocus?: boolean) {
        fake.shownOutputs.push({ name, preserveFocus });
      },
      dispose() {
        fake.disposedOutputs.push(name);
      },
    };
    // As in VS Code, only a channel created with `{ log: true }` has a method per log level.
    if (typeof options !== "object" || options.log !== true) return channel;
    return {
      ...channel,
      info: at("info"),
      warn: at("warn"),
      error: at("error"),
      debug: at("debug"),
      trace: at("trace"),
    };
  },
  createTreeView(id: string, options: vscode.TreeViewOptions<unknown>) {
    const revealed: { element: unknown; options: unknown }[] = [];
    const view = {
      options,
      selection: [] as unknown[],
      revealed,
      reveal: async (element: unknown, options?: unknown) =>
        void revealed.push({ element, options }),
      dispose() {},
    };
    fake.treeViews.set(id, view);
    return view;
  },
  createWebviewPanel: (viewType: string, title: string, column?: unknown, options?: unknown) =>
    webviewFake.create(viewType, title, options, column),
  registerWebviewPanelSerializer: (
    viewType: string,
    serializer: { deserializeWebviewPanel(panel: FakeWebviewPanel, state: unknown): Promise<void> },
  ) => {
    webviewFake.serializers.set(viewType, serializer);
    return new Disposable(() => webviewFake.serializers.delete(viewType));
  },
  async withProgress<T>(
    options: { title?: string; cancellable?: boolean; location: unknown },
    task: (
      progress: { report(value: { message?: string; increment?: number }): void },
      token: {
        isCancellationRequested: boolean;
        onCancellationRequested: EventEmitter<void>["event"];
      },
    ) => Promise<T>,
  ): Promise<T> {
    const cancel = new EventEmitter<void>();
    const record = {
      title: options.title ?? "",
      cancellable: options.cancellable ?? false,
      location: options.location,
      messages: [] as string[],
      increments: [] as number[],
      cancel: () => cancel.fire(),
      get cancelListeners() {
        return cancel.listenerCount;
      },
    };
    fake.progress.push(record);
    const cancelled = fake.cancelNextProgress;
    fake.cancelNextProgress = false;
    return task(
      {
        report(value) {
          if (value.message !== undefined) record.messages.push(value.message);
          if (value.increment !== undefined) record.increments.push(value.increment);
        },
      },
      { isCancellationRequested: cancelled, onCancellationRequested: cancel.event },
    );
  },
};

/** A provider stays registered until its registration is disposed, as in VS Code. */
function registered(entry: (typeof fake.providers)[number]): Disposable {
  fake.providers.push(entry);
  return new Disposable(() => fake.providers.splice(fake.providers.indexOf(entry), 1));
}

export const languages = {
  createDiagnosticCollection(name = "") {
    const collection = new FakeDiagnosticCollection(name);
    diagnosticCollections.push(collection);
    return collection;
  },
  registerCodeLensProvider(selector: vscode.DocumentSelector, provider: vscode.CodeLensProvider) {
    return registered({ kind: "codeLens", selector, provider });
  },
  registerCodeActionsProvider(
    selector: vscode.DocumentSelector,
    provider: vscode.CodeActionProvider,
    metadata?: vscode.CodeActionProviderMetadata,
  ) {
    return registered({ kind: "codeActions", selector, provider, ...(metadata && { metadata }) });
  },
} satisfies ImitatesNamespace<
  typeof vscode.languages,
  "createDiagnosticCollection" | "registerCodeLensProvider" | "registerCodeActionsProvider"
>;

export const commands = {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- VS Code's own signature
  registerCommand(id: string, handler: (...args: any[]) => unknown) {
    fake.commands.set(id, handler);
    return new Disposable(() => fake.commands.delete(id));
  },
  async executeCommand<T = unknown>(id: string, ...args: unknown[]): Promise<T> {
    return (await fake.commands.get(id)?.(...args)) as T;
  },
} satisfies ImitatesNamespace<typeof vscode.commands, "registerCommand" | "executeCommand">;

export const env = {
  clipboard: {
    async writeText(text: string) {
      fake.clipboard = text;
    },
    async readText() {
      return fake.clipboard;
    },
  },
} satisfies ImitatesNamespace<typeof vscode.env, "clipboard">;

export class Location {
  constructor(
    readonly uri: Uri,
    readonly range: Range,
  ) {}
}

/** Markdown as VS Code renders it: command links run only when `isTrusted` enables them. */
export class MarkdownString {
  isTrusted?: boolean | { readonly enabledCommands: readonly string[] };
  constructor(readonly value = "") {}
}

export class TestMessage {
  expectedOutput?: string;
  actualOutput?: string;
  location?: Location;
  contextValue?: string;
  constructor(readonly message: string | MarkdownString) {}
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

export interface FakeInputBoxOptions {
  readonly title?: string;
  readonly value?: string;
  readonly valueSelection?: [number, number];
  readonly prompt?: string;
  readonly validateInput?: (value: string) => string | undefined;
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

/** Every test controller the host created, in order (cleared by `fake.reset()`). */
export const testControllers: { id: string; items: FakeTestItemCollection }[] = [];

export const tests = {
  createTestController(id: string, label: string) {
    const controller = {
      id,
      label,
      items: new FakeTestItemCollection(null),
      profiles: [] as {
        label: string;
        kind: TestRunProfileKind;
        isDefault: boolean;
        runHandler: (request: TestRunRequest, token: unknown) => unknown;
        supportsContinuousRun: boolean;
      }[],
      invalidated: [] as (FakeTestItem | undefined)[],
      refreshHandler: undefined as (() => unknown) | undefined,
      createTestItem: (itemId: string, itemLabel: string, uri?: Uri) =>
        new FakeTestItem(itemId, itemLabel, uri),
      createRunProfile(
        label: string,
        kind: TestRunProfileKind,
        runHandler: (request: TestRunRequest, token: unknown) => unknown,
        isDefault = false,
        _tag?: unknown,
        supportsContinuousRun = false,
      ) {
        const profile = {
          label,
          kind,
          runHandler,
          isDefault,
          supportsContinuousRun,
          dispose() {},
        };
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
    testControllers.push(controller);
    return controller;
  },
};

export class RelativePattern implements vscode.RelativePattern {
  baseUri: vscode.Uri;
  constructor(
    base: vscode.WorkspaceFolder | vscode.Uri | string,
    public pattern: string,
  ) {
    this.baseUri =
      typeof base === "string" ? Uri.file(base) : "uri" in base ? base.uri : (base as vscode.Uri);
  }
  get base(): string {
    return this.baseUri.fsPath;
  }
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
  /** The column and focus asked for on each reveal. */
  readonly reveals: { viewColumn: unknown; preserveFocus: boolean | undefined }[] = [];
  private readonly disposeEmitter = new EventEmitter<void>();
  readonly onDidDispose = this.disposeEmitter.event;
  constructor(
    readonly viewType: string,
    public title: string,
    readonly createOptions: unknown,
    /** Where it was opened: a column, or `{ viewColumn, preserveFocus }`. */
    readonly showOptions?: unknown,
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
  reveal(viewColumn?: unknown, preserveFocus?: boolean): void {
    this.revealed++;
    this.reveals.push({ viewColumn, preserveFocus });
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
  create(
    viewType: string,
    title: string,
    options: unknown,
    showOptions?: unknown,
  ): FakeWebviewPanel {
    const panel = new FakeWebviewPanel(viewType, title, options, showOptions);
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
  id?: string;
  command?: { command: string; title: string; arguments?: unknown[] };
  accessibilityInformation?: { label: string };
  constructor(
    readonly label: string,
    readonly collapsibleState: TreeItemCollapsibleState = TreeItemCollapsibleState.None,
  ) {}
}

/** A paused frame, as `debug.activeStackItem` holds it. */
export class DebugStackFrame {
  constructor(
    readonly session: FakeDebugSession,
    readonly threadId: number,
    readonly frameId: number,
  ) {}
}

/** A running thread: what `debug.activeStackItem` holds after Continue. */
export class DebugThread {
  constructor(
    readonly session: FakeDebugSession,
    readonly threadId: number,
  ) {}
}

/** A debug session whose adapter answers `customRequest` with `answer` (a never-settling promise plays a hung adapter). */
export class FakeDebugSession {
  readonly requests: { command: string; args: unknown }[] = [];
  constructor(
    readonly id: string,
    readonly name: string,
    readonly type: string,
    public answer: (command: string, args: unknown) => Promise<unknown>,
  ) {}
  customRequest(command: string, args: unknown): Promise<unknown> {
    this.requests.push({ command, args });
    return this.answer(command, args);
  }
}

type TrackerFactory = {
  createDebugAdapterTracker(session: FakeDebugSession): {
    onWillReceiveMessage?(message: unknown): void;
    onDidSendMessage?(message: unknown): void;
  };
};

/** The debugger as tests drive it: the focused item, and the DAP messages trackers see. */
export const debugFake = {
  trackers: new Map<string, TrackerFactory[]>(),
  stackItem: new EventEmitter<DebugStackFrame | DebugThread | undefined>(),
  terminated: new EventEmitter<FakeDebugSession>(),
  /** Focuses an item, as pausing or continuing does. */
  focus(item: DebugStackFrame | DebugThread | undefined): void {
    debug.activeStackItem = item;
    debug.activeDebugSession = item?.session;
    this.stackItem.fire(item);
  },
  /**
   * A DAP message from VS Code to the adapter or back. Each way carries any type (VS Code answers
   * the adapter's reverse requests), so the direction defaults to the usual one of the type.
   */
  message(
    session: FakeDebugSession,
    message: { type: string; [key: string]: unknown },
    toAdapter = message.type === "request",
  ): void {
    for (const factory of this.trackers.get(session.type) ?? []) {
      const tracker = factory.createDebugAdapterTracker(session);
      if (toAdapter) tracker.onWillReceiveMessage?.(message);
      else tracker.onDidSendMessage?.(message);
    }
  },
  reset(): void {
    this.trackers.clear();
    debug.activeStackItem = undefined;
    debug.activeDebugSession = undefined;
  },
};

export const debug = {
  activeStackItem: undefined as DebugStackFrame | DebugThread | undefined,
  activeDebugSession: undefined as FakeDebugSession | undefined,
  onDidChangeActiveStackItem: debugFake.stackItem.event,
  onDidTerminateDebugSession: debugFake.terminated.event,
  registerDebugAdapterTrackerFactory(type: string, factory: TrackerFactory) {
    debugFake.trackers.set(type, [...(debugFake.trackers.get(type) ?? []), factory]);
    return new Disposable(() =>
      debugFake.trackers.set(
        type,
        (debugFake.trackers.get(type) ?? []).filter((known) => known !== factory),
      ),
    );
  },
};

export class LanguageModelTextPart implements vscode.LanguageModelTextPart {
  constructor(public value: string) {}
}

export class LanguageModelToolResult implements vscode.LanguageModelToolResult {
  constructor(public content: (LanguageModelTextPart | vscode.LanguageModelPromptTsxPart)[]) {}
}

export const lm = {
  /** The last one registered under a name answers, as for commands here. */
  registerTool<T>(name: string, tool: vscode.LanguageModelTool<T>) {
    fake.lmTools.set(name, tool as vscode.LanguageModelTool<object>);
    return new Disposable(() => fake.lmTools.delete(name));
  },
  /** Invokes a registered tool as a chat would, once the user confirmed what prepareInvocation asked. */
  async invokeTool(
    name: string,
    options: vscode.LanguageModelToolInvocationOptions<object>,
    token: vscode.CancellationToken = new CancellationTokenSource().token,
  ) {
    const tool = fake.lmTools.get(name);
    if (!tool) throw new Error(`no tool named ${name}`);
    const result = await tool.invoke(options, token);
    if (!result) throw new Error(`tool ${name} answered nothing`);
    return result;
  },
} satisfies ImitatesNamespace<typeof vscode.lm, "registerTool" | "invokeTool">;
