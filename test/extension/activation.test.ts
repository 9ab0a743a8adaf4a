import { readFileSync } from "node:fs";
import type * as vscode from "vscode";
import { beforeEach, describe, expect, it } from "vitest";
import { activate } from "../../src/extension/main.js";
import { fake, Uri } from "../fakes/vscode.js";

const manifest = JSON.parse(readFileSync("package.json", "utf8"));

beforeEach(() => {
  fake.reset();
  fake.addWorkspaceFolder("/ws");
});

describe("activation", () => {
  it("registers every command the manifest contributes, and nothing it does not", () => {
    const context = {
      subscriptions: [] as { dispose(): unknown }[],
      extensionUri: Uri.file("/ext"),
    };
    activate(context as unknown as vscode.ExtensionContext);
    const contributed = manifest.contributes.commands
      .map((c: { command: string }) => c.command)
      .sort();
    expect([...fake.commands.keys()].sort()).toEqual(contributed);
    expect(fake.treeViews.has("paletteInspector.traces")).toBe(true);
    for (const subscription of context.subscriptions) subscription.dispose();
  });

  it("activates on fixtures, restored panels and the traces view, never on '*'", () => {
    expect(manifest.activationEvents).toEqual([
      "workspaceContains:**/*.turn.json",
      "onWebviewPanel:paletteInspector.trace",
      "onView:paletteInspector.traces",
    ]);
    expect(manifest.capabilities.untrustedWorkspaces).toEqual({ supported: true });
    expect(manifest.engines.vscode).toBe("^1.100.0");
  });

  it("validates fixtures and catalogues with the bundled schemas", () => {
    expect(manifest.contributes.jsonValidation).toEqual([
      { fileMatch: "*.turn.json", url: "./media/schemas/turn-fixture.schema.json" },
      { fileMatch: "*.catalog.json", url: "./media/schemas/catalog.schema.json" },
    ]);
  });
});

describe("17. Quick pick of fixtures", () => {
  it("with no editor open, Run Selection on Fixture lists the workspace's fixtures sorted by path", async () => {
    for (const path of ["/ws/z/last.turn.json", "/ws/a/b.turn.json", "/ws/a.turn.json"])
      fake.writeFile(path, "{}");
    const context = {
      subscriptions: [] as { dispose(): unknown }[],
      extensionUri: Uri.file("/ext"),
    };
    activate(context as unknown as vscode.ExtensionContext);
    fake.answers.quickPick.push(undefined);
    await fake.commands.get("paletteInspector.runFixture")!();
    const labels = (fake.quickPicks.at(-1)!.items as { label: string }[]).map((item) => item.label);
    expect(labels).toEqual(["a.turn.json", "a/b.turn.json", "z/last.turn.json"]);
    for (const subscription of context.subscriptions) subscription.dispose();
  });
});
