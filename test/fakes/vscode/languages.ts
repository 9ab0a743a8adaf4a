/** `vscode.languages`: diagnostics, code lenses and code actions. */
import type * as vscode from "vscode";
import { Disposable, type ImitatesNamespace } from "./core.js";
import type { WorkspaceEdit } from "./documents.js";
import { fake } from "./state.js";

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

export const diagnosticCollections: FakeDiagnosticCollection[] = [];

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
