/**
 * An in-memory stand-in for the `vscode` module, enough for host code to run in plain
 * Node, one module per API area it imitates. Tests drive it through `fake`: files, open
 * documents, dialog answers, and what was shown.
 */
export {
  Disposable,
  EventEmitter,
  Uri,
  Position,
  Range,
  Selection,
  FileType,
  ViewColumn,
  ThemeIcon,
  ThemeColor,
  ProgressLocation,
  Location,
  CancellationTokenSource,
  RelativePattern,
  MarkdownString,
} from "./vscode/core.js";
export type { Imitates } from "./vscode/core.js";
export {
  DiagnosticSeverity,
  Diagnostic,
  CodeLens,
  languages,
  CodeActionKind,
  CodeAction,
} from "./vscode/languages.js";
export { TextEdit, WorkspaceEdit, FakeDocument } from "./vscode/documents.js";
export { fake } from "./vscode/state.js";
export { workspace } from "./vscode/workspace.js";
export { window, TreeItemCollapsibleState, TreeItem, StatusBarAlignment } from "./vscode/window.js";
export type { FakeInputBoxOptions } from "./vscode/window.js";
export { commands, env } from "./vscode/commands.js";
export {
  TestMessage,
  TestRunProfileKind,
  TestRunRequest,
  FakeTestItem,
  testRuns,
  testControllers,
  tests,
} from "./vscode/testing.js";
export type { FakeTestRun } from "./vscode/testing.js";
export { FakeWebview, FakeWebviewPanel, webviewFake } from "./vscode/webview.js";
export {
  DebugStackFrame,
  DebugThread,
  FakeDebugSession,
  debugFake,
  debug,
} from "./vscode/debug.js";
export { LanguageModelTextPart, LanguageModelToolResult, lm } from "./vscode/lm.js";
