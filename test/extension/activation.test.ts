// package.json and the code must agree: every name the manifest uses (commands, views, view
// types, context keys, file patterns) is one the code registers or sets, and the reverse.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { minimatch } from "minimatch";
import type * as vscode from "vscode";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { FixtureSchema } from "../../src/core/fixture/schema.js";
import { SCHEMA_FILES } from "../../src/core/fixture/schema-files.js";
import { isCatalog, isFixture } from "../../src/extension/diagnostics.js";
import { LOG_EXTENSIONS } from "../../src/extension/logs/pick-logs.js";
import { activate } from "../../src/extension/main.js";
import { TRACE_VIEW_TYPE } from "../../src/extension/panel/panels.js";
import { STATS_VIEW_TYPE } from "../../src/extension/stats/stats-panels.js";
import {
  OPENED_SETS_KEY,
  PAGE_SIZE,
  type TraceNode,
  type TraceTree,
} from "../../src/extension/logs/trace-tree.js";
import { MISMATCH_CONTEXT } from "../../src/extension/testing/fixture-tests.js";
import {
  CodeActionKind,
  debugFake,
  fake,
  testControllers,
  testRuns,
  Uri,
  webviewFake,
  window,
} from "../fakes/vscode.js";
import { tempDir } from "../helpers/temp.js";

// The workspace is the fake's in-memory disk; the real writer is tested in chosen-file.test.ts.
vi.mock("../../src/extension/chosen-file.js", () => import("../fakes/chosen-file.js"));

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

  it("activates before a Python debug session starts, so that its trackers see the program move", () => {
    // A tracker is created only for a session started after its factory is registered: the
    // extension activated later (by a fixture found, or by Inspect itself) would never mark a
    // value read from that session stale.
    const tracked = [...debugFake.trackers].filter(([, factories]) => factories.length > 0);
    expect(tracked.map(([type]) => type).sort()).toEqual(["debugpy", "python"]);
    for (const [type] of tracked)
      expect(manifest.activationEvents).toContain(`onDebugAdapterProtocolTracker:${type}`);
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
    expect(whens.some((when) => when === `testMessage == ${MISMATCH_CONTEXT}`)).toBe(true);
    const contexts = new Map<string, unknown>();
    fake.commands.set("setContext", (key, value) => contexts.set(key as string, value));
    // A filter applies to the listed logs: one is listed first.
    await fake.commands.get("paletteInspector.inspectLog")!(
      Uri.file(join(process.cwd(), "examples/logs/agent.log")),
    );
    await fake.commands.get("paletteInspector.filterTracesWithErrors")!();
    const filtered = [...contexts].filter(([, value]) => value === true).map(([key]) => key);
    expect(filtered).toHaveLength(1);
    expect(whens.filter((when) => when.includes(filtered[0]!)).length).toBeGreaterThan(0);
    await fake.commands.get("paletteInspector.clearTraceFilter")!();
    expect(contexts.get(filtered[0]!)).toBe(false);
  });
});

describe("quick pick of fixtures", () => {
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

describe("what activation wires up", () => {
  const fixture = (path: string) =>
    fake.writeFile(
      path,
      JSON.stringify({ offered: ["a"], pipeline: [], expect: { names: ["a"] } }, null, 2),
    );
  const run = (command: string, ...args: unknown[]) => fake.commands.get(command)!(...args);
  const titles = () => webviewFake.panels.map((panel) => panel.title);

  it("runs a fixture it is given, else the active editor's, else one picked from the workspace (node_modules left out)", async () => {
    const given = fixture("/ws/given.turn.json");
    fixture("/ws/node_modules/dep/skip.turn.json");
    const picked = fixture("/ws/picked.turn.json");
    await run("paletteInspector.runFixture", given);
    expect(titles()).toEqual(["Selection Trace: given.turn.json"]);
    expect(fake.quickPicks).toEqual([]);
    const editor = window.activeTextEditor;
    try {
      window.activeTextEditor = { document: fake.openDocument(fixture("/ws/active.turn.json")) };
      await run("paletteInspector.runFixture");
      expect(titles().at(-1)).toBe("Selection Trace: active.turn.json");
      expect(fake.quickPicks).toEqual([]);
      window.activeTextEditor = { document: fake.openDocument(Uri.file("/ws/agent.py")) };
      fake.answers.quickPick.push((items: { uri: Uri }[]) =>
        items.find((item) => item.uri.toString() === picked.toString()),
      );
      await run("paletteInspector.runFixture", "not a uri");
    } finally {
      window.activeTextEditor = editor;
    }
    const [pick] = fake.quickPicks;
    expect(pick!.options).toEqual({
      title: "Run Selection on Fixture",
      placeHolder: "Which fixture?",
    });
    expect((pick!.items as { label: string }[]).map((item) => item.label)).toEqual([
      "active.turn.json",
      "given.turn.json",
      "picked.turn.json",
    ]);
    expect(titles().at(-1)).toBe("Selection Trace: picked.turn.json");
    expect(webviewFake.panels).toHaveLength(3);
  });

  it("lists fixtures by their name in the workspace, not by their path on disk", async () => {
    fake.reset();
    fake.addWorkspaceFolder("/a");
    fake.addWorkspaceFolder("/b");
    activate({
      subscriptions: [],
      extensionUri: Uri.file("/ext"),
    } as unknown as vscode.ExtensionContext);
    fixture("/a/z.turn.json");
    fixture("/b/m.turn.json");
    fixture("/a/b.turn.json");
    fake.answers.quickPick.push(undefined);
    await run("paletteInspector.runFixture");
    const labels = (fake.quickPicks[0]!.items as { label: string }[]).map((item) => item.label);
    // In a workspace of several folders VS Code leads with the folder's name.
    expect(labels).toEqual(["a/b.turn.json", "a/z.turn.json", "b/m.turn.json"]);
  });

  it("says how to make a fixture when the workspace has none, and opens nothing", async () => {
    await run("paletteInspector.runFixture");
    await run("paletteInspector.updateExpectation");
    expect(fake.shown.map((shown) => [shown.kind, shown.message])).toEqual(
      Array(2).fill([
        "info",
        "Palette Inspector: no *.turn.json fixture in this workspace. Create one with 'Palette Inspector: New Turn Fixture'.",
      ]),
    );
    expect(fake.quickPicks).toEqual([]);
    expect(webviewFake.panels).toEqual([]);
  });

  it("updates a fixture's expectation, then runs its test", async () => {
    const uri = fake.writeFile(
      "/ws/stale.turn.json",
      JSON.stringify({ offered: ["a"], pipeline: [], expect: { names: ["b"] } }, null, 2),
    );
    fake.answers.message.push("Update Expectation");
    const runs = testRuns.length;
    await run("paletteInspector.updateExpectation", uri);
    expect(JSON.parse(fake.files.get(uri.toString())!).expect).toEqual({ names: ["a"] });
    expect(
      testRuns.slice(runs).map((r) => r.results.map((x) => `${x.item.label}:${x.state}`)),
    ).toEqual([["stale:started", "stale:passed"]]);
  });

  it("creates a new fixture in the folder it was invoked on, else next to the catalogue", async () => {
    fake.writeFile("/ws/agents/tools.catalog.json", JSON.stringify([{ name: "a" }]));
    fake.answers.inputBox.push("here", "there");
    await run("paletteInspector.newFixture", Uri.file("/ws/cases"));
    await run("paletteInspector.newFixture", "not a uri");
    expect([...fake.files.keys()].filter((key) => key.endsWith(".turn.json"))).toEqual([
      "file:///ws/cases/here.turn.json",
      "file:///ws/agents/there.turn.json",
    ]);
  });

  it("shows the waterfall of a failed test's fixture, and nothing for a message without one", async () => {
    const uri = fixture("/ws/failed.turn.json");
    await run("paletteInspector.showTestRun", {});
    await run("paletteInspector.showTestRun");
    expect(webviewFake.panels).toEqual([]);
    await run("paletteInspector.showTestRun", { test: { uri } });
    expect(titles()).toEqual(["Selection Trace: failed.turn.json"]);
  });

  it("opens a failed test's waterfall from its message's link, for a workspace fixture only", async () => {
    fixture("/ws/failed.turn.json");
    fake.writeFile("/elsewhere/x.turn.json", "{}");
    fake.writeFile("/ws/notes.json", "{}");
    for (const arg of ["file:///elsewhere/x.turn.json", "file:///ws/notes.json", "::not a uri", 7])
      await run("paletteInspector.showTestRun", arg);
    expect(webviewFake.panels).toEqual([]);
    await run("paletteInspector.showTestRun", "file:///ws/failed.turn.json");
    expect(titles()).toEqual(["Selection Trace: failed.turn.json"]);
  });

  it("runs the Problems panel's quick fixes and the CodeLenses on fixtures and logs only", () => {
    const selectors = fake.providers.map((p) => [p.kind, p.selector]);
    expect(selectors).toEqual([
      ["codeActions", { pattern: "**/*.turn.json" }],
      ["codeLens", { pattern: "**/*.turn.json" }],
      ["codeLens", LOG_EXTENSIONS.map((extension) => ({ pattern: `**/*.${extension}` }))],
    ]);
    expect(fake.providers[0]!.metadata).toEqual({
      providedCodeActionKinds: [CodeActionKind.QuickFix],
    });
    for (const subscription of context.subscriptions) subscription.dispose();
    expect(fake.providers).toEqual([]);
  });

  it("puts one Run selection lens at the top of a fixture, running it", () => {
    const uri = fixture("/ws/lens.turn.json");
    const provider = fake.providers[1]!.provider as vscode.CodeLensProvider;
    const lenses = provider.provideCodeLenses(
      fake.openDocument(uri) as unknown as vscode.TextDocument,
      {} as vscode.CancellationToken,
    ) as vscode.CodeLens[];
    expect(
      lenses.map((lens) => [lens.range.start.line, lens.range.end.line, lens.command]),
    ).toEqual([
      [
        0,
        0,
        {
          title: "$(play) Run selection",
          command: "paletteInspector.runFixture",
          arguments: [uri],
        },
      ],
    ]);
    expect(fake.commands.has(lenses[0]!.command!.command)).toBe(true);
  });

  it("shows the Selection Traces view with several items selectable and a Collapse All button", () => {
    const view = fake.treeViews.get("paletteInspector.traces")!;
    expect(view.options).toMatchObject({ canSelectMany: true, showCollapseAll: true });
  });

  it("writes what a panel could not use to the Palette Inspector log", async () => {
    await run("paletteInspector.runFixture", fixture("/ws/log.turn.json"));
    webviewFake.panels[0]!.webview.receive({ type: "no such message" });
    expect(fake.outputs.get("Palette Inspector")?.join("\n")).toMatch(/no such message/);
  });
});

describe("the Selection Traces commands", () => {
  const log = Uri.file(join(process.cwd(), "examples/logs/agent.log"));
  const run = (command: string, ...args: unknown[]) => fake.commands.get(command)!(...args);
  const view = () => fake.treeViews.get("paletteInspector.traces")!;
  const tree = () => view().options.treeDataProvider as TraceTree;
  let traces: TraceNode[];
  beforeEach(async () => {
    await run("paletteInspector.inspectLog", log);
    const [set] = tree().getChildren();
    traces = tree()
      .getChildren(set)
      .filter((node) => node.kind === "trace");
  });
  const last = () => webviewFake.panels.at(-1)?.title;

  it("opens a listed trace, and a trace at a line of a log", async () => {
    await run("paletteInspector.openTrace", traces[1]);
    expect(last()).toBe("Selection Trace: #2 agent.log:7");
    // From a CodeLens: the log as the editor holds it.
    fake.writeFile(log.path, readFileSync(log.fsPath, "utf8"));
    await run("paletteInspector.openTrace", log, 3);
    expect(last()).toBe("Selection Trace: #1 agent.log:3");
  });

  it("compares the two traces selected, the view's selection when invoked from the palette", async () => {
    await run("paletteInspector.compareTraces", traces[0], [traces[0], traces[2]]);
    expect(last()).toBe("Selection Trace: agent.log #1 ↔ agent.log #3");
    view().selection = [traces[1], traces[2]];
    await run("paletteInspector.compareTraces");
    expect(last()).toBe("Selection Trace: agent.log #2 ↔ agent.log #3");
    await run("paletteInspector.compareTraces", traces[0]);
    expect(fake.shown.at(-1)?.message).toMatch(/select exactly two traces/);
    expect(webviewFake.panels).toHaveLength(2);
  });

  it("compares a trace with its replay, and turns it into a fixture: the one clicked, else the one selected", async () => {
    await run("paletteInspector.compareWithReplay", traces[0]);
    expect(last()).toBe("Selection Trace: agent.log #1 ↔ replay");
    view().selection = [traces[1]];
    await run("paletteInspector.compareWithReplay");
    expect(last()).toBe("Selection Trace: agent.log #2 ↔ replay");
    fake.answers.saveDialog.push(Uri.file("/ws/one.turn.json"), Uri.file("/ws/two.turn.json"));
    await run("paletteInspector.traceToFixture", traces[2]);
    await run("paletteInspector.traceToFixture");
    const written = (path: string) => JSON.parse(fake.files.get(Uri.file(path).toString())!);
    expect(written("/ws/one.turn.json").description).toMatch(/agent\.log:11/);
    expect(written("/ws/two.turn.json").description).toMatch(/agent\.log:7/);
  });

  it("shows statistics of the explorer's selection, else the item invoked on, else the view's selection", async () => {
    const other = Uri.file(join(process.cwd(), "examples/logs/selection.jsonl"));
    await run("paletteInspector.inspectLog", other);
    const [agentSet] = tree().getChildren();
    view().selection = [agentSet];
    await run("paletteInspector.showStatistics", other, [log, other]);
    await run("paletteInspector.showStatistics", other);
    await run("paletteInspector.showStatistics");
    expect(webviewFake.panels.map((panel) => panel.title)).toEqual([
      "Palette Statistics: 2 logs",
      "Palette Statistics: selection.jsonl",
      "Palette Statistics: agent.log",
    ]);
  });

  it("removes a set from the view, and nothing for any other item", async () => {
    await run("paletteInspector.removeLogSet", traces[0]);
    await run("paletteInspector.removeLogSet");
    expect(tree().getChildren()).toHaveLength(1);
    await run("paletteInspector.removeLogSet", tree().getChildren()[0]);
    expect(tree().getChildren()).toEqual([]);
  });
});

describe("what activation starts", () => {
  const agentLog = join(process.cwd(), "examples/logs/agent.log");

  it("finds the workspace's fixture tests and scans again the logs opened before a reload", async () => {
    fake.reset();
    fake.writeFile(
      "/ws/t/kept.turn.json",
      JSON.stringify({ offered: ["a"], pipeline: [], expect: { names: ["a"] } }),
    );
    const saved = new Map<string, unknown>([[OPENED_SETS_KEY, [[`file://${agentLog}`]]]]);
    const state = {
      get: (key: string) => saved.get(key),
      update: async (key: string, value: unknown) => void saved.set(key, value),
      keys: () => [...saved.keys()],
    };
    const restored = {
      subscriptions: [] as { dispose(): unknown }[],
      extensionUri: Uri.file("/ext"),
    };
    activate({ ...restored, workspaceState: state } as unknown as vscode.ExtensionContext);
    const tree = fake.treeViews.get("paletteInspector.traces")!.options
      .treeDataProvider as TraceTree;
    await vi.waitFor(() => expect(tree.getChildren()).toHaveLength(1), { timeout: 30_000 });
    const ids: string[] = [];
    await vi.waitFor(
      () => {
        ids.length = 0;
        for (const [, group] of testControllers[0]!.items)
          for (const [id] of group.children) ids.push(id);
        expect(ids).toEqual(["file:///ws/t/kept.turn.json"]);
      },
      { timeout: 30_000 },
    );
    for (const subscription of restored.subscriptions) subscription.dispose();
  });

  it("shows the next page of a long set's traces", async () => {
    const line = readFileSync(agentLog, "utf8").split("\n")[2]!;
    const dir = tempDir("pi-activation-");
    const log = join(dir, "long.log");
    writeFileSync(log, Array.from({ length: PAGE_SIZE + 1 }, () => line).join("\n"));
    await fake.commands.get("paletteInspector.inspectLog")!(Uri.file(log));
    const tree = fake.treeViews.get("paletteInspector.traces")!.options
      .treeDataProvider as TraceTree;
    const [set] = tree.getChildren();
    const traces = () => tree.getChildren(set).filter((node) => node.kind === "trace").length;
    expect(traces()).toBe(PAGE_SIZE);
    await fake.commands.get("paletteInspector.showMoreTraces")!((set as { set: unknown }).set);
    expect(traces()).toBe(PAGE_SIZE + 1);
  });
});
