import * as vscode from "vscode";
import { notice, reportError } from "./notify.js";

/** Every command the extension registers; a test holds it equal to package.json's `contributes.commands`. */
export const COMMAND_IDS = [
  "paletteInspector.runFixture",
  "paletteInspector.newFixture",
  "paletteInspector.updateExpectation",
  "paletteInspector.showTestRun",
  "paletteInspector.inspectLog",
  "paletteInspector.openTrace",
  "paletteInspector.openTraceToSide",
  "paletteInspector.showMoreTraces",
  "paletteInspector.removeLogSet",
  "paletteInspector.traceToFixture",
  "paletteInspector.compareTraces",
  "paletteInspector.compareWithReplay",
  "paletteInspector.filterTracesByDroppedTool",
  "paletteInspector.filterTracesByStageAction",
  "paletteInspector.filterTracesWithErrors",
  "paletteInspector.filterTracesByText",
  "paletteInspector.filterTracesByTime",
  "paletteInspector.goToTrace",
  "paletteInspector.clearTraceFilter",
  "paletteInspector.inspectVariable",
  "paletteInspector.inspectExpression",
  "paletteInspector.captureTurnFixture",
  "paletteInspector.showStatistics",
  "paletteInspector.startLiveTraces",
  "paletteInspector.stopLiveTraces",
  "paletteInspector.followLog",
  "paletteInspector.stopFollowingLog",
] as const;

export type CommandId = (typeof COMMAND_IDS)[number];

/**
 * Registers a command whose failure is never lost: what it throws or rejects with is logged with
 * its stack and reported in a notification, instead of vanishing into VS Code's own log.
 */
export function registerCommand<A extends unknown[]>(
  id: CommandId,
  run: (...args: A) => unknown,
): vscode.Disposable {
  return vscode.commands.registerCommand(id, async (...args: A) => {
    try {
      return await run(...args);
    } catch (error) {
      await reportError(notice`${id} failed unexpectedly`, error);
      return undefined;
    }
  });
}
