import { posix } from "node:path";
import * as vscode from "vscode";
import { updatedExpectation } from "../core/expect.js";
import { checkedCatalog, checkedFixture } from "../node/fixture-check.js";
import { runFixture } from "../core/run-fixture.js";
import { writeChosenFile } from "./chosen-file.js";
import { readSource, readWorkspaceCatalog } from "./fixtures.js";
import { notice, announce, pickLabel } from "./notify.js";
import { exists } from "./workspace-files.js";

/** A starter fixture over a catalogue: every catalogued tool offered, a typical pipeline to edit. */
export function starterFixture(catalogRef: string | null, names: readonly string[]): string {
  const finalTool = names.find((name) => /final|answer/.test(name));
  const fixture = {
    description: "Describe the turn and what the pipeline should decide.",
    ...(catalogRef ? { catalog: catalogRef } : {}),
    turn: { query: "", role: "", state: {}, messages: [] },
    pipeline: [
      {
        kind: "intent",
        verdict: { label: "action", matched_tool_keywords: [] },
        always_include: finalTool ? [finalTool] : [],
      },
      { kind: "forced", resolver: null },
      { kind: "policy", max_safety_level: null, budget_usd: null },
      { kind: "allowlist", always_include: finalTool ? [finalTool] : [] },
    ],
  };
  return JSON.stringify(fixture, null, 2) + "\n";
}

/** A name the user typed, as a fixture file name: `my-case` and `my-case.json` become `my-case.turn.json`. */
export function fixtureFileName(typed: string): string {
  const name = typed.trim();
  if (/\.turn\.json$/i.test(name)) return name;
  return `${name.replace(/\.json$/i, "")}.turn.json`;
}

/** The catalogue nearest a folder: in it, else in the closest folder above it. */
function nearestCatalog(
  catalogs: readonly vscode.Uri[],
  folder: vscode.Uri,
): vscode.Uri | undefined {
  return catalogs
    .filter((catalog) => {
      const dir = posix.dirname(catalog.path);
      return folder.path === dir || folder.path.startsWith(dir.endsWith("/") ? dir : `${dir}/`);
    })
    .sort((a, b) => b.path.length - a.path.length)[0];
}

/** Which catalogue: the one there is, or the one the user picks (undefined: cancelled). */
async function chooseCatalog(
  catalogs: readonly vscode.Uri[],
): Promise<{ catalog: vscode.Uri | null } | undefined> {
  if (catalogs.length <= 1) return { catalog: catalogs[0] ?? null };
  const picked = await vscode.window.showQuickPick(
    [...catalogs]
      .sort((a, b) => a.path.localeCompare(b.path))
      .map((uri) => ({ label: pickLabel(vscode.workspace.asRelativePath(uri)), uri })),
    { title: "New Turn Fixture: which catalogue?", placeHolder: "The fixture lists its tools" },
  );
  return picked ? { catalog: picked.uri } : undefined;
}

/**
 * `paletteInspector.newFixture`: in the folder it was invoked on (explorer context menu), else
 * next to the catalogue; asks the name, never overwrites, writes a starter that already expects
 * what it decides (so it is a test in the Testing view), and opens it.
 */
export async function newFixture(inFolder?: vscode.Uri): Promise<vscode.Uri | undefined> {
  const catalogs = await vscode.workspace.findFiles("**/*.catalog.json", "**/node_modules/**", 50);
  const near = inFolder ? nearestCatalog(catalogs, inFolder) : undefined;
  const chosen = near ? { catalog: near } : await chooseCatalog(catalogs);
  if (!chosen) return undefined;
  const catalog = chosen.catalog;
  const folder =
    inFolder ??
    (catalog ? vscode.Uri.joinPath(catalog, "..") : vscode.workspace.workspaceFolders?.[0]?.uri);
  if (!folder) {
    announce("error", notice`open a folder first; a fixture lives in a workspace.`);
    return undefined;
  }
  const suggested = "new-turn";
  const typed = await vscode.window.showInputBox({
    title: "New Turn Fixture",
    prompt: `File name in ${vscode.workspace.asRelativePath(folder)} (.turn.json is added)`,
    value: `${suggested}.turn.json`,
    // Only the name is selected: typing replaces it and keeps the suffix.
    valueSelection: [0, suggested.length],
    validateInput: (value) =>
      value.trim() === "" || /[/\\]/.test(value) ? "A file name, without folders" : undefined,
  });
  if (!typed) return undefined;
  const target = vscode.Uri.joinPath(folder, fixtureFileName(typed));
  if (await exists(target)) {
    announce(
      "error",
      notice`${vscode.workspace.asRelativePath(target)} already exists; choose another name.`,
    );
    return undefined;
  }
  let names: string[] = [];
  if (catalog) {
    const source = await readSource(catalog, "catalogue");
    const loaded = "problems" in source ? source : await checkedCatalog(source);
    names = "catalog" in loaded ? loaded.catalog.names : [];
  }
  const ref = catalog ? relativeRef(folder.path, catalog.path) : null;
  let text = starterFixture(ref, names);
  const loaded = await checkedFixture({ file: target.toString(), text }, readWorkspaceCatalog);
  if (loaded.ok) {
    const expect = updatedExpectation(undefined, runFixture(loaded.fixture)).expect;
    text = JSON.stringify({ ...JSON.parse(text), expect }, null, 2) + "\n";
  }
  if (!(await writeChosenFile(target, text))) return undefined;
  await vscode.window.showTextDocument(target);
  return target;
}

/** `./tools.catalog.json` or `../agents/tools.catalog.json`: the catalogue as seen from the folder. */
function relativeRef(folder: string, catalog: string): string {
  const relative = posix.relative(folder, catalog);
  return relative.startsWith(".") ? relative : `./${relative}`;
}
