import * as vscode from "vscode";
import { loadCatalog } from "../core/fixture/load.js";
import { readSource } from "./fixtures.js";
import { notice, notify } from "./notify.js";
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

/** `paletteInspector.newFixture`: asks where, never overwrites, opens the new file. */
export async function newFixture(): Promise<vscode.Uri | undefined> {
  const catalogs = await vscode.workspace.findFiles("**/*.catalog.json", "**/node_modules/**", 50);
  let catalog: vscode.Uri | undefined = catalogs[0];
  if (catalogs.length > 1) {
    const picked = await vscode.window.showQuickPick(
      catalogs.map((uri) => ({ label: vscode.workspace.asRelativePath(uri), uri })),
      {
        title: "New Turn Fixture: which catalogue?",
        placeHolder: "The fixture is written next to it",
      },
    );
    if (!picked) return undefined;
    catalog = picked.uri;
  }
  const folder = catalog
    ? vscode.Uri.joinPath(catalog, "..")
    : vscode.workspace.workspaceFolders?.[0]?.uri;
  if (!folder) {
    void notify("error", notice`open a folder first; a fixture lives in a workspace.`);
    return undefined;
  }
  const name = await vscode.window.showInputBox({
    title: "New Turn Fixture",
    prompt: `File name in ${vscode.workspace.asRelativePath(folder)}`,
    value: "new-turn.turn.json",
    validateInput: (value) =>
      /^[^/\\]+\.turn\.json$/.test(value) ? undefined : "A file name ending in .turn.json",
  });
  if (!name) return undefined;
  const target = vscode.Uri.joinPath(folder, name);
  if (await exists(target)) {
    void notify(
      "error",
      notice`${vscode.workspace.asRelativePath(target)} already exists; choose another name.`,
    );
    return undefined;
  }
  let names: string[] = [];
  if (catalog) {
    const source = await readSource(catalog, "catalogue");
    const loaded = "problems" in source ? source : loadCatalog(source);
    names = "catalog" in loaded ? loaded.catalog.names : [];
  }
  const ref = catalog ? `./${catalog.path.split("/").pop()}` : null;
  await vscode.workspace.fs.writeFile(target, new TextEncoder().encode(starterFixture(ref, names)));
  await vscode.window.showTextDocument(target);
  return target;
}
