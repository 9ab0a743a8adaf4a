/** Open text documents and the edits applied to them. */
import type * as vscode from "vscode";
import { type Imitates, Position, type Uri } from "./core.js";
import { fake } from "./state.js";

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
