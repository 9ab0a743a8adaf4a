/** The `vscode` module's plain types: disposables, events, URIs, positions and ranges, enums. */
import type * as vscode from "vscode";

/**
 * The members of a real `vscode` API this fake imitates. `satisfies Imitates<typeof vscode.x, …>`
 * makes the type-checker hold each imitation to the real signature, so a fake cannot drift from
 * what the host code is compiled against.
 */
export type Imitates<T, K extends keyof T> = Pick<T, K>;
/** A namespace's fake: the members it imitates, checked, plus the fake's own helpers. */
export type ImitatesNamespace<T, K extends keyof T> = Pick<T, K> & Record<string, unknown>;

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
export const emitters = new Set<{ dispose(): void }>();

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

export class CancellationTokenSource {
  private readonly emitter = new EventEmitter<void>();
  readonly token = { isCancellationRequested: false, onCancellationRequested: this.emitter.event };
  cancel(): void {
    this.token.isCancellationRequested = true;
    this.emitter.fire();
  }
  dispose(): void {}
}

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
