import { copyFileSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type * as vscode from "vscode";
import { beforeEach, describe, expect, it } from "vitest";
import { loadFixture } from "../../src/core/fixture/load.js";
import { runFixture } from "../../src/core/run-fixture.js";
import { scanText } from "../../src/core/traces/scan.js";
import type { TraceSummary } from "../../src/core/traces/summary.js";
import { readWorkspaceCatalog } from "../../src/extension/fixtures.js";
import { matchesFilter } from "../../src/extension/logs/filter.js";
import { registerTraceFilters } from "../../src/extension/logs/filter-commands.js";
import { LogTraceCodeLens } from "../../src/extension/logs/log-codelens.js";
import {
  compareWithReplay,
  inspectLog,
  openTrace,
  suggestedFixturePath,
  turnIntoFixture,
} from "../../src/extension/logs/log-commands.js";
import { compareReports } from "../../src/core/compare.js";
import { PAGE_SIZE, TraceTree, type TraceNode } from "../../src/extension/logs/trace-tree.js";
import type { TracePanels } from "../../src/extension/panel/panels.js";
import type { RunReport } from "../../src/core/report.js";
import type { LogScan } from "../../src/node/log-file.js";
import { fake, Uri } from "../fakes/vscode.js";

const real = (uri: Uri) => uri as unknown as vscode.Uri;
const shown: { reports: RunReport[]; fixtures: string[] } = { reports: [], fixtures: [] };
const panels = {
  showReport: (report: RunReport) => shown.reports.push(report),
  showFixture: async (uri: vscode.Uri) => void shown.fixtures.push(uri.toString()),
} as unknown as TracePanels;

/** A copy of an example log on disk (the scanner streams real files). */
function exampleLog(name: string): Uri {
  const dir = mkdtempSync(join(tmpdir(), "pi-logs-"));
  copyFileSync(join("examples/logs", name), join(dir, name));
  return Uri.file(join(dir, name));
}

function summary(stages: TraceSummary["stages"], extra: Partial<TraceSummary> = {}): TraceSummary {
  return {
    index: 0,
    line: 1,
    offset: 0,
    length: 1,
    ordinal: 0,
    time: null,
    id: null,
    stages,
    names: [],
    forcedChoice: null,
    error: false,
    degraded: false,
    ...extra,
  };
}

beforeEach(() => {
  fake.reset();
  shown.reports.length = 0;
  shown.fixtures.length = 0;
});

describe("Selection Traces view", () => {
  it("filters: a tool dropped, a stage's action, errors", () => {
    const s = summary([{ stage: "policy", action: "select", dropped: ["sql"] }]);
    expect(matchesFilter(s, { kind: "dropped", tool: "sql" })).toBe(true);
    expect(matchesFilter(s, { kind: "dropped", tool: "search" })).toBe(false);
    expect(matchesFilter(s, { kind: "stageAction", stage: "policy", action: "select" })).toBe(true);
    expect(matchesFilter(s, { kind: "stageAction", stage: "policy", action: "abstain" })).toBe(
      false,
    );
    expect(matchesFilter(s, { kind: "errors" })).toBe(false);
    expect(matchesFilter({ ...s, degraded: true }, { kind: "errors" })).toBe(true);
  });

  it("lists traces a page at a time, with the problems last", () => {
    const tree = new TraceTree();
    const uri = real(Uri.file("/logs/big.log"));
    const traces = Array.from({ length: PAGE_SIZE * 2 + 3 }, (_, index) =>
      summary([], { index, line: index + 1 }),
    );
    const scan: LogScan = {
      traces,
      problems: [{ line: 7, message: "broken JSON" }],
      problemCount: 1,
      traceCount: traces.length,
      bytes: 1,
      cancelled: false,
    };
    tree.setScan(uri, scan);
    const [log] = tree.getChildren();
    let children = tree.getChildren(log);
    expect(children).toHaveLength(PAGE_SIZE + 2);
    expect(children.at(-2)).toMatchObject({ kind: "more", remaining: PAGE_SIZE + 3 });
    expect(tree.getTreeItem(children.at(-1)!).label).toBe("Problems (1)");
    tree.showMore(uri);
    children = tree.getChildren(log);
    expect(children.filter((c) => c.kind === "trace")).toHaveLength(PAGE_SIZE * 2);
    tree.setFilter({ kind: "errors" });
    expect(tree.getChildren(log).map((c) => c.kind)).toEqual(["problems"]);
    expect(tree.getTreeItem(log!).description).toBe(
      `with errors or degraded stages: 0 of ${traces.length} traces`,
    );
  });

  it("finds the traces of an example log with progress and lists them", async () => {
    const uri = exampleLog("broken.log");
    const tree = new TraceTree();
    await inspectLog(real(uri), tree);
    const [log] = tree.getChildren();
    const kinds = tree.getChildren(log).map((node) => node.kind);
    expect(kinds.filter((k) => k === "trace").length).toBeGreaterThan(0);
    expect(kinds.at(-1)).toBe("problems");
    expect(fake.shown.at(-1)!.message).toMatch(
      /^Palette Inspector: \d+ selection trace\(s\) in .*broken\.log, \d+ broken line\(s\)\.$/,
    );
  });

  it("reports an unreadable file and lists nothing", async () => {
    const tree = new TraceTree();
    await inspectLog(real(Uri.file("/nowhere/app.log")), tree);
    expect(tree.getChildren()).toEqual([]);
    expect(fake.shown.at(-1)).toEqual({
      kind: "error",
      message: "Palette Inspector: cannot read /nowhere/app.log.",
    });
  });

  it("opens a listed trace read-only in the panel, with its file and line", async () => {
    const uri = exampleLog("selection.jsonl");
    const tree = new TraceTree();
    await inspectLog(real(uri), tree);
    const node = tree.getChildren(tree.getChildren()[0]).find((n) => n.kind === "trace")!;
    await openTrace(node, undefined, panels);
    expect(shown.reports[0]!.origin).toMatchObject({
      kind: "log",
      line: (node as Extract<TraceNode, { kind: "trace" }>).summary.line,
    });
    expect(shown.reports[0]!.file).toBe(uri.toString());
  });

  it("puts a CodeLens on every line holding a trace, which opens that trace", async () => {
    const uri = exampleLog("agent.log");
    const text =
      fake.files.get(uri.toString()) ?? (await import("node:fs")).readFileSync(uri.fsPath, "utf8");
    const document = fake.openDocument(uri, text);
    const lenses = new LogTraceCodeLens().provideCodeLenses(
      document as unknown as vscode.TextDocument,
      { isCancellationRequested: false } as vscode.CancellationToken,
    );
    const lines = scanText(text).traces.map((t) => t.line - 1);
    expect(lenses.map((lens) => lens.range.start.line)).toEqual(lines);
    expect(lenses[0]!.command!.title).toBe("$(type-hierarchy) Inspect selection trace");
    await openTrace(
      lenses[1]!.command!.arguments![0],
      lenses[1]!.command!.arguments![1] as number,
      panels,
    );
    expect(shown.reports[0]!.origin).toMatchObject({ line: lines[1]! + 1 });
  });

  it("turns a trace into a fixture next to the log that reproduces it when run", async () => {
    const uri = exampleLog("selection.jsonl");
    fake.addWorkspaceFolder(uri.path.slice(0, uri.path.lastIndexOf("/")));
    const tree = new TraceTree();
    await inspectLog(real(uri), tree);
    const node = tree.getChildren(tree.getChildren()[0]).find((n) => n.kind === "trace") as Extract<
      TraceNode,
      { kind: "trace" }
    >;
    const target = Uri.file(suggestedFixturePath(uri.path, node.summary));
    expect(target.path).toMatch(/selection\.trace-0\.turn\.json$/);
    fake.answers.saveDialog.push(target);
    const written = await turnIntoFixture(node, panels);
    expect(written?.toString()).toBe(target.toString());
    expect(shown.fixtures).toEqual([target.toString()]);
    const loaded = await loadFixture(
      { file: target.toString(), text: fake.files.get(target.toString())! },
      readWorkspaceCatalog,
    );
    if (!loaded.ok) throw new Error(JSON.stringify(loaded.problems));
    expect(runFixture(loaded.fixture).names).toEqual(node.summary.names);
  });

  it("never overwrites an existing file without asking", async () => {
    const uri = exampleLog("selection.jsonl");
    const tree = new TraceTree();
    await inspectLog(real(uri), tree);
    const node = tree.getChildren(tree.getChildren()[0]).find((n) => n.kind === "trace") as Extract<
      TraceNode,
      { kind: "trace" }
    >;
    const target = fake.writeFile("/elsewhere/mine.turn.json", '{"description": "keep me"}');
    fake.answers.saveDialog.push(target);
    fake.answers.message.push(undefined);
    expect(await turnIntoFixture(node, panels)).toBeUndefined();
    expect(fake.files.get(target.toString())).toBe('{"description": "keep me"}');
  });
});

describe("Compare with Replay", () => {
  it("shows a logged trace against the run of the fixture that replays it, with no difference", async () => {
    const uri = exampleLog("agent.log");
    const tree = new TraceTree();
    await inspectLog(real(uri), tree);
    const node = tree.getChildren(tree.getChildren()[0]).filter((n) => n.kind === "trace")[2]!;
    const compared: [RunReport, RunReport][] = [];
    const spy = {
      showComparison: (a: RunReport, b: RunReport) => compared.push([a, b]),
    } as unknown as TracePanels;
    await compareWithReplay(node, spy);
    const [[logged, replay]] = compared as [[RunReport, RunReport]];
    expect(logged.origin.kind).toBe("log");
    expect(replay.origin.kind).toBe("fixture");
    expect(replay.trace).toEqual(logged.trace);
    expect(compareReports(logged, replay).stages.every((stage) => !stage.actionChanged)).toBe(true);
    // The replay names the log it replays, never a fixture file that does not exist.
    expect(replay.file).toBe(uri.toString());
  });
});

describe("15. Traces view", () => {
  it("filter pickers list the log's own dropped tools and stages (with counts), and the picks filter", async () => {
    const uri = exampleLog("agent.log");
    const tree = new TraceTree();
    await inspectLog(real(uri), tree);
    const choices = tree.filterChoices();
    expect(choices.dropped.size).toBeGreaterThan(0);
    const disposables = registerTraceFilters(tree);
    try {
      const [tool] = [...choices.dropped].sort(([a, m], [b, n]) => n - m || a.localeCompare(b))[0]!;
      fake.answers.quickPick.push({ label: tool });
      await fake.commands.get("paletteInspector.filterTracesByDroppedTool")!();
      const toolPick = fake.quickPicks.at(-1)!.items as { label: string; description: string }[];
      expect(toolPick.map((item) => item.label).sort()).toEqual([...choices.dropped.keys()].sort());
      expect(toolPick[0]!.description).toMatch(/^dropped in \d+ traces?$/);
      expect(tree.filter).toEqual({ kind: "dropped", tool });

      const [stage, actions] = [...choices.stages][0]!;
      const [action] = [...actions][0]!;
      fake.answers.quickPick.push({ label: stage }, { label: action });
      await fake.commands.get("paletteInspector.filterTracesByStageAction")!();
      const [stagePick, actionPick] = fake.quickPicks
        .slice(-2)
        .map((p) => p.items as { label: string }[]);
      expect(stagePick!.map((item) => item.label).sort()).toEqual(
        [...choices.stages.keys()].sort(),
      );
      expect(actionPick!.map((item) => item.label).sort()).toEqual([...actions.keys()].sort());
      expect(tree.filter).toEqual({ kind: "stageAction", stage, action });
    } finally {
      for (const d of disposables) d.dispose();
    }
  });

  it("with no log listed, the pickers say what to do first instead of asking to type", async () => {
    const disposables = registerTraceFilters(new TraceTree());
    try {
      await fake.commands.get("paletteInspector.filterTracesByDroppedTool")!();
      expect(fake.quickPicks).toHaveLength(0);
      expect(fake.inputBoxes).toHaveLength(0);
      expect(fake.shown.at(-1)!.message).toMatch(/find the selection traces in a log first/);
    } finally {
      for (const d of disposables) d.dispose();
    }
  });
});
