// package.json and the code must agree: every name the manifest uses (commands, views, view
// types, context keys, file patterns) is one the code registers or sets, and the reverse.
import { readFileSync } from "node:fs";
import { minimatch } from "minimatch";
import type * as vscode from "vscode";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { FixtureSchema } from "../../src/core/fixture/schema.js";
import { SCHEMA_FILES } from "../../src/core/fixture/schema-files.js";
import { isCatalog, isFixture } from "../../src/extension/diagnostics.js";
import { LOG_EXTENSIONS } from "../../src/extension/logs/log-commands.js";
import { activate } from "../../src/extension/main.js";
import { TRACE_VIEW_TYPE } from "../../src/extension/panel/panels.js";
import { STATS_VIEW_TYPE } from "../../src/extension/stats/stats-panels.js";
import { FAILURE_CONTEXT } from "../../src/extension/testing/fixture-tests.js";
import { fake, Uri, webviewFake } from "../fakes/vscode.js";

interface Menu {
  command: string;
  when?: string;
}
const manifest = JSON.parse(readFileSync("package.json", "utf8")) as {
  activationEvents: string[];
  contributes: {
    commands: { command: string }[];
    menus: Record<string, Menu[]>;
    views: Record<string, { id: string }[]>;
    jsonValidation: { fileMatch: string; url: string }[];
  };
};
const menus = Object.entries(manifest.contributes.menus);
const whens = menus.flatMap(([, items]) => items.map((item) => item.when ?? ""));

let context: { subscriptions: { dispose(): unknown }[]; extensionUri: Uri };
beforeEach(() => {
  fake.reset();
  webviewFake.reset();
  fake.addWorkspaceFolder("/ws");
  context = { subscriptions: [], extensionUri: Uri.file("/ext") };
  activate(context as unknown as vscode.ExtensionContext);
});
afterEach(() => {
  for (const subscription of context.subscriptions) subscription.dispose();
});

describe("the manifest and the code agree", () => {
  it("registers every command the manifest contributes, and nothing it does not", () => {
    const contributed = manifest.contributes.commands.map((c) => c.command).sort();
    expect([...fake.commands.keys()].sort()).toEqual(contributed);
  });

  it("menus name only contributed commands", () => {
    const contributed = new Set(manifest.contributes.commands.map((c) => c.command));
    const unknown = menus.flatMap(([menu, items]) =>
      items
        .filter((item) => !contributed.has(item.command))
        .map((item) => `${menu}: ${item.command}`),
    );
    expect(unknown).toEqual([]);
  });

  it("the views and view types it activates on are the ones the code creates", () => {
    const views = Object.values(manifest.contributes.views).flatMap((list) =>
      list.map((v) => v.id),
    );
    expect(views).toEqual([...fake.treeViews.keys()]);
    for (const view of views) expect(manifest.activationEvents).toContain(`onView:${view}`);
    for (const viewType of [TRACE_VIEW_TYPE, STATS_VIEW_TYPE]) {
      expect(webviewFake.serializers.has(viewType)).toBe(true);
      expect(manifest.activationEvents).toContain(`onWebviewPanel:${viewType}`);
    }
    expect(manifest.activationEvents).not.toContain("*");
  });

  it("activates on the files the code treats as fixtures", () => {
    const [pattern] = manifest.activationEvents
      .filter((event) => event.startsWith("workspaceContains:"))
      .map((event) => event.slice("workspaceContains:".length));
    for (const path of ["a.turn.json", "deep/er/b.turn.json", "tools.catalog.json", "x.json"])
      expect(minimatch(path, pattern!), path).toBe(isFixture(Uri.file(`/ws/${path}`)));
  });

  it("validates with the generated schemas the files the code validates", () => {
    const schemaFor = (file: string) => {
      const rule = manifest.contributes.jsonValidation.find((r) => minimatch(file, r.fileMatch));
      return rule && JSON.parse(readFileSync(rule.url, "utf8"));
    };
    // The editor's variant of the one definition: every key, no constraint (ours report them).
    expect(schemaFor("a.turn.json")).toEqual(SCHEMA_FILES["turn-fixture.editor.schema.json"]);
    expect(Object.keys(schemaFor("a.turn.json").properties)).toEqual(
      Object.keys(FixtureSchema.properties),
    );
    expect(isCatalog(Uri.file("/ws/tools.catalog.json"))).toBe(true);
    expect(schemaFor("tools.catalog.json")).toBeDefined();
    expect(schemaFor("tools.catalog.json")).not.toEqual(schemaFor("a.turn.json"));
    expect(schemaFor("package.json")).toBeUndefined();
  });

  it("menus offer log commands on the file types the code reads as logs", () => {
    const patterns = menus
      .flatMap(([, items]) => items)
      .filter((item) =>
        ["paletteInspector.inspectLog", "paletteInspector.showStatistics"].includes(item.command),
      )
      .map((item) => /resource(?:Filename|Extname) =~ \/(.+)\/(?:$|\s)/.exec(item.when ?? ""))
      .filter((match) => match !== null)
      .map((match) => new RegExp(match[1]!));
    expect(patterns.length).toBeGreaterThan(0);
    for (const pattern of patterns) {
      for (const extension of LOG_EXTENSIONS) expect(pattern.test(`app.${extension}`)).toBe(true);
      expect(pattern.test("app.py")).toBe(false);
    }
  });

  it("the context values its when clauses test are the ones the code sets", async () => {
    expect(whens).toContain(`testMessage == ${FAILURE_CONTEXT}`);
    const contexts = new Map<string, unknown>();
    fake.commands.set("setContext", (key, value) => contexts.set(key as string, value));
    await fake.commands.get("paletteInspector.filterTracesWithErrors")!();
    const filtered = [...contexts].filter(([, value]) => value === true).map(([key]) => key);
    expect(filtered).toHaveLength(1);
    expect(whens.filter((when) => when.includes(filtered[0]!)).length).toBeGreaterThan(0);
    await fake.commands.get("paletteInspector.clearTraceFilter")!();
    expect(contexts.get(filtered[0]!)).toBe(false);
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
