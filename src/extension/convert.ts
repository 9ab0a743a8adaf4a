import * as vscode from "vscode";
import type { Range } from "../core/json/positions.js";
import { problemMessage, type Problem } from "../core/fixture/problems.js";

/** The core's plain zero-based range as an editor range. */
export function toRange(range: Range): vscode.Range {
  return new vscode.Range(
    range.start.line,
    range.start.character,
    range.end.line,
    range.end.character,
  );
}

/** A located problem as a Problems-panel entry, with its JSON path in the message. */
export function toDiagnostic(problem: Problem): vscode.Diagnostic {
  const severity =
    problem.severity === "error"
      ? vscode.DiagnosticSeverity.Error
      : vscode.DiagnosticSeverity.Warning;
  const diagnostic = new vscode.Diagnostic(
    toRange(problem.range),
    problemMessage(problem),
    severity,
  );
  diagnostic.source = "palette-inspector";
  return diagnostic;
}
