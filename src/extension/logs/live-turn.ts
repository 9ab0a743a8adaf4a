import * as vscode from "vscode";
import { reportFromTrace, reportFromTurn } from "../../core/traces/report.js";
import type { RunReport } from "../../core/report.js";
import type { FoundTrace } from "../../core/traces/scan.js";
import type { TracePanels } from "../panel/panels.js";
import { traceNumber, type TurnNode } from "./trace-tree.js";

/**
 * Opens a live turn, read-only, in the Selection Trace panel as a logged trace is opened: read
 * back from its spool, with its OTel ids and model call. A followed log's turn names its log
 * and line; a received one a place of its own per turn (`otlp://127.0.0.1:4318/3`), so that
 * each has its own panel.
 */
export async function openTurn(
  node: TurnNode,
  panels: TracePanels,
  open: { readonly preview?: boolean } = {},
): Promise<void> {
  const found = await node.group.spool.read(node.number);
  const { file } = node.group;
  const label = `${traceNumber(node.number)} ${node.group.label}${file ? `:${found.line}` : ""}`;
  panels.showReport(turnReport(node, found), label, undefined, open);
}

/** A live turn as the panel shows it: a followed log's at its line, a received one as received. */
export function turnReport(node: TurnNode, found: FoundTrace): RunReport {
  const place = turnPlace(node).toString();
  return node.group.file ? reportFromTrace(found, place) : reportFromTurn(found, place);
}

/** Where a live turn is from: its followed log, or a place of its own under its receiver. */
export function turnPlace(node: TurnNode): vscode.Uri {
  return (
    node.group.file ??
    vscode.Uri.from({ scheme: "otlp", authority: node.group.key, path: `/${node.number + 1}` })
  );
}
