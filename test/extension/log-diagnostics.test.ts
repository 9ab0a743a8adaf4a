import { resolve } from "node:path";
import type * as vscode from "vscode";
import { beforeEach, describe, expect, it } from "vitest";
import { inspectLog } from "../../src/extension/logs/log-commands.js";
import { LogDiagnostics } from "../../src/extension/logs/log-diagnostics.js";
import { TraceTree } from "../../src/extension/logs/trace-tree.js";
import { fake, Uri } from "../fakes/vscode.js";

const real = (uri: Uri) => uri as unknown as vscode.Uri;
const broken = Uri.file(resolve("examples/logs/broken.log"));

beforeEach(() => {
  fake.reset();
  fake.addWorkspaceFolder(resolve("."));
});

describe("a log's problems in the Problems panel", () => {
  it("lists each broken trace of a listed log at its line, once however many sets list the log", async () => {
    const tree = new TraceTree();
    const diagnostics = new LogDiagnostics(tree);
    await inspectLog(real(broken), tree);
    const problems = tree.getChildren(tree.getChildren()[0]).at(-1)!;
    const listed = tree.getChildren(problems);
    const shown = fake.diagnostics(broken)!;
    expect(shown).toHaveLength(listed.length);
    expect(shown.map((d) => [d.range.start.line + 1, d.message, d.source])).toEqual(
      listed.map((node) => {
        if (node.kind !== "problem") throw new Error(node.kind);
        return [node.problem.line, node.problem.message, "Palette Inspector"];
      }),
    );
    await inspectLog(real(Uri.file(resolve("examples/logs"))), tree);
    expect(fake.diagnostics(broken)).toHaveLength(listed.length);
    // Removing every set takes its problems away.
    for (const node of tree.getChildren()) if (node.kind === "set") tree.removeSet(node.set);
    expect(fake.diagnostics(broken) ?? []).toEqual([]);
    diagnostics.dispose();
  });

  it("lists none when the setting is off", async () => {
    fake.settings.set("paletteInspector.logs.problemsPanel", false);
    const tree = new TraceTree();
    const diagnostics = new LogDiagnostics(tree);
    await inspectLog(real(broken), tree);
    expect(fake.diagnostics(broken) ?? []).toEqual([]);
    diagnostics.dispose();
  });
});
