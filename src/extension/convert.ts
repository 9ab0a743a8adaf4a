import * as vscode from "vscode";
import type { Range } from "../core/json/positions.js";
import type { Problem } from "../core/fixture/problems.js";
import { formatJsonPath } from "../core/json/positions.js";

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
  const where = problem.path.length > 0 ? ` (${formatJsonPath(problem.path)})` : "";
  const diagnostic = new vscode.Diagnostic(
    toRange(problem.range),
    problem.message + where,
    severity,
  );
  diagnostic.source = "palette-inspector";
  return diagnostic;
}
