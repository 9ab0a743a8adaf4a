import { posix } from "node:path";
import * as vscode from "vscode";
import type { RunReport } from "../../core/report.js";
import { runFixture } from "../../core/run-fixture.js";
import { fixtureLabel, findWorkspaceFixtures } from "../fixture-pick.js";
import { notice, announce, pickLabel } from "../notify.js";
import type { FixtureLoader } from "./session.js";
import { runName } from "./sides.js";
import { suggestedVariantPath } from "./variant-file.js";

type Choice = vscode.QuickPickItem & { readonly run: () => Promise<RunReport | undefined> };

/**
 * "Compare…" on a panel: which run to show against `base`, picked from the runs of the other open
 * panels, the fixture's saved what-ifs, and the workspace's other fixtures (run when picked).
 * Undefined when the user picks nothing or the fixture picked cannot run (which is said).
 */
export async function pickComparison(
  base: RunReport,
  baseFixture: vscode.Uri | null,
  others: readonly RunReport[],
  load: FixtureLoader,
): Promise<RunReport | undefined> {
  const own = baseFixture?.toString();
  const variantPath = baseFixture ? suggestedVariantPath(baseFixture.path) : null;
  const found = await findWorkspaceFixtures();
  const fixtures = found
    .filter((uri) => uri.toString() !== own)
    .map((uri) => ({ uri, whatIf: isWhatIfOf(uri.path, variantPath) }))
    // A what-if of this fixture first, then the rest by path: findFiles promises no order.
    .sort((a, b) => Number(b.whatIf) - Number(a.whatIf) || a.uri.path.localeCompare(b.uri.path));
  const choices: Choice[] = [
    ...others.map((report) => ({
      // Names from a log, a debuggee or a workspace path are hostile: shown neutralised.
      label: pickLabel(runName(report)),
      detail: "open in another panel",
      run: async () => report,
    })),
    ...fixtures.map(({ uri, whatIf }) => ({
      label: fixtureLabel(uri),
      detail: whatIf ? "a saved what-if of this fixture" : "a fixture of this workspace, run now",
      run: () => runOf(uri, load),
    })),
  ];
  if (choices.length === 0) {
    announce("info", notice`nothing to compare with: open another run or add a fixture.`);
    return undefined;
  }
  const picked = await vscode.window.showQuickPick(choices, {
    title: notice`Compare ${runName(base)} with…`.text,
    placeHolder: "Another open run, a saved what-if or a fixture",
  });
  return picked?.run();
}

/** `weather.whatif.turn.json`, or `weather.whatif-2.turn.json` as a user may rename it, beside `weather.turn.json`. */
function isWhatIfOf(path: string, variantPath: string | null): boolean {
  if (variantPath === null || posix.dirname(path) !== posix.dirname(variantPath)) return false;
  const stem = posix.basename(variantPath).replace(/\.turn\.json$/i, "");
  return posix.basename(path).startsWith(stem);
}

async function runOf(uri: vscode.Uri, load: FixtureLoader): Promise<RunReport | undefined> {
  const loaded = await load(uri);
  if (loaded.ok) return runFixture(loaded.fixture);
  announce(
    "error",
    notice`the fixture ${vscode.workspace.asRelativePath(uri)} has problems; fix them to compare it.`,
    { details: loaded.problems.map((problem) => problem.message) },
  );
  return undefined;
}
