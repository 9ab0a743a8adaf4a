import { copyFileSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync, gzipSync } from "node:zlib";
import type * as vscode from "vscode";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { runFixture } from "../../src/core/run-fixture.js";
import { scanText } from "../../src/core/traces/scan.js";
import { loadFixtureFromUri } from "../../src/extension/fixtures.js";
import { summarizeTrace } from "../../src/core/traces/summary.js";
import { registerTraceFilters } from "../../src/extension/logs/filter-commands.js";
import { LogTraceCodeLens, MAX_LENS_CHARS } from "../../src/extension/logs/log-codelens.js";
import {
  compareTraces,
  compareWithReplay,
  inspectLog,
  openTrace,
  restoreLogSets,
  suggestedFixturePath,
  throttled,
  turnIntoFixture,
} from "../../src/extension/logs/log-commands.js";
import { parseTimeRange } from "../../src/extension/logs/filter.js";
import { goToTrace } from "../../src/extension/logs/go-to-trace.js";
import {
  LOG_EXCERPT_SCHEME,
  LogExcerpts,
  MAX_EDITOR_BYTES,
  openLogLine,
  opensInEditor,
} from "../../src/extension/logs/log-excerpts.js";
import { CONTEXT_LINES, readExcerpt } from "../../src/node/log-excerpt.js";
import { compareReports } from "../../src/core/compare.js";
import {
  OPENED_SETS_KEY,
  PAGE_SIZE,
  TraceTree,
  type LogSet,
  type TraceItemNode,
  type TraceNode,
} from "../../src/extension/logs/trace-tree.js";
import type { TracePanels } from "../../src/extension/panel/panels.js";
import type { RunReport } from "../../src/core/report.js";
import { TraceIndex } from "../../src/node/trace-index.js";
import { checkpointsOf } from "../../src/node/gzip-checkpoints.js";
import {
  fake,
  Range,
  ThemeColor,
  ThemeIcon,
  TreeItemCollapsibleState,
  Uri,
  ViewColumn,
  window,
  workspace,
} from "../fakes/vscode.js";
import { loggedRecord } from "../core/traces/engine.js";
import { tempDir } from "../helpers/temp.js";
import { writtenRecord } from "../builders/logged.js";

// The workspace is the fake's in-memory disk; the real writer is tested in chosen-file.test.ts.
vi.mock("../../src/extension/chosen-file.js", () => import("../fakes/chosen-file.js"));

const real = (uri: Uri) => uri as unknown as vscode.Uri;
const shown: { reports: RunReport[]; fixtures: string[] } = { reports: [], fixtures: [] };
const panels = {
  showReport: (report: RunReport) => shown.reports.push(report),
  showFixture: async (uri: vscode.Uri) => void shown.fixtures.push(uri.toString()),
} as unknown as TracePanels;

/** A folder holding copies of example logs (the scanner streams real files); `.gz` names are gzipped. */
function logFolder(files: Record<string, string>): string {
  const dir = tempDir("pi-logs-");
  for (const [name, example] of Object.entries(files)) {
    const source = join("examples/logs", example);
    if (name.endsWith(".gz")) writeFileSync(join(dir, name), gzipSync(readFileSync(source)));
    else copyFileSync(source, join(dir, name));
  }
  return dir;
}

function exampleLog(name: string): Uri {
  return Uri.file(join(logFolder({ [name]: name }), name));
}

/** workspaceState as VS Code keeps it: survives the TraceTree that wrote it. */
function memento() {
  const values = new Map<string, unknown>();
  return {
    values,
    get: <T>(key: string) => values.get(key) as T | undefined,
    update: async (key: string, value: unknown) => void values.set(key, value),
    keys: () => [...values.keys()],
  } as unknown as vscode.Memento & { values: Map<string, unknown> };
}

function traceNodes(tree: TraceTree, set = 0): TraceItemNode[] {
  return tree
    .getChildren(tree.getChildren()[set])
    .filter((node): node is TraceItemNode => node.kind === "trace");
}

/** An index over generated traces, as a scan would build it. */
function indexOf(text: string): TraceIndex {
  const index = new TraceIndex();
  for (const found of scanText(text).traces) index.add(found, 0);
  index.finish();
  return index;
}

beforeEach(() => {
  fake.reset();
  shown.reports.length = 0;
  shown.fixtures.length = 0;
});

describe("the compact index of traces", () => {
  it("gives back, row by row, what a full summary of each trace says", () => {
    for (const file of ["agent.log", "selection.jsonl", "traces.json.gz", "broken.log"]) {
      const bytes = readFileSync(join("examples/logs", file));
      const found = scanText(file.endsWith(".gz") ? gunzipSync(bytes) : bytes).traces;
      const index = new TraceIndex();
      for (const trace of found) index.add(trace, 3);
      index.finish();
      expect(index.count).toBe(found.length);
      for (const [i, trace] of found.entries()) {
        const summary = summarizeTrace(trace);
        expect(index.row(i)).toEqual({
          index: i,
          line: trace.line,
          offset: trace.offset,
          length: trace.length,
          ordinal: trace.ordinal,
          file: 3,
          id: summary.id === null ? null : String(summary.id),
          time: summary.time === null ? null : String(summary.time),
          finalCount: summary.names.length,
          forcedChoice: summary.forcedChoice,
          error: summary.error,
          degraded: summary.degraded,
          stageCount: summary.stages.length,
        });
        expect(index.stagesOf(i)).toEqual(
          summary.stages.map(({ stage, action }) => ({ stage, action })),
        );
      }
    }
  });

  it("filters as the summaries would: a tool dropped, a stage's action, errors", () => {
    const text = readFileSync("examples/logs/agent.log", "utf8");
    const summaries = scanText(text).traces.map(summarizeTrace);
    const index = indexOf(text);
    const expected = (keep: (s: (typeof summaries)[number]) => boolean) =>
      summaries.flatMap((s, i) => (keep(s) ? [i] : []));
    const dropped = index.matching({ kind: "dropped", tool: "sql" });
    expect([...dropped]).toEqual(expected((s) => s.stages.some((r) => r.dropped.includes("sql"))));
    expect(dropped.length).toBeGreaterThan(0);
    expect([...index.matching({ kind: "stageAction", stage: "forced", action: "force" })]).toEqual(
      expected((s) => s.stages.some((r) => r.stage === "forced" && r.action === "force")),
    );
    expect([...index.matching({ kind: "errors" })]).toEqual([4, 5]);
    expect([...index.matching({ kind: "dropped", tool: "no_such_tool" })]).toEqual([]);
    expect([...index.matching(null)]).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it("cuts ids and times to 80 characters and keeps an absent one absent", () => {
    const long = "x".repeat(500);
    const index = indexOf(
      `${JSON.stringify({ turn_id: long, ts: 1710408410, trace: [] })}\n${JSON.stringify({ trace: [] })}\n`,
    );
    expect(index.row(0)).toMatchObject({ id: "x".repeat(80), time: "1710408410" });
    expect(index.row(1)).toMatchObject({ id: null, time: null });
  });
});

describe("Selection Traces view", () => {
  it("labels lead with the number, then turn id, final palette size and forced tool; time and line describe", async () => {
    const uri = exampleLog("agent.log");
    const tree = new TraceTree();
    await inspectLog(real(uri), tree);
    const items = traceNodes(tree).map((node) => tree.getTreeItem(node));
    expect(items.map((item) => item.label)).toEqual([
      "#1 · t-4f1c2a · 2 tools · forced get_weather",
      "#2 · t-4f1c31 · 1 tool",
      "#3 · t-4f1c77 · 2 tools · forced calendar_lookup",
      "#4 · t-4f1c60 · 1 tool",
      "#5 · t-4f1c8b · 1 tool · forced delete_rows",
      "#6 · t-4f1c9d · 7 tools",
    ]);
    expect(items[2]!.description).toBe("2025-03-14 09:27:04,633 · line 11");
    expect(items[2]!.accessibilityInformation!.label).toBe(
      "Trace #3, turn t-4f1c77, 2 tools, forced calendar_lookup, line 11, 2025-03-14 09:27:04,633, 5 stages",
    );
    expect(items[4]!.accessibilityInformation!.label).toMatch(/, failed$/);
    expect(items[5]!.accessibilityInformation!.label).toMatch(/, degraded$/);
    expect(items[2]!.tooltip).toBe(
      `#3 · ${uri.path}:11\nintent: select\nforced: force\nrole: select\npolicy: select\nallowlist: select`,
    );
  });

  it("lists traces a page at a time, with the problems last", () => {
    const tree = new TraceTree();
    const line = (i: number) => JSON.stringify({ turn_id: `t-${i}`, trace: [] });
    const index = indexOf(Array.from({ length: PAGE_SIZE * 2 + 3 }, (_, i) => line(i)).join("\n"));
    index.addProblem({ file: 0, line: 7, message: "broken JSON" });
    const set: LogSet = {
      roots: [real(Uri.file("/logs/big.log"))],
      files: [real(Uri.file("/logs/big.log"))],
      index,
      cancelled: false,
    };
    tree.setSet(set);
    const [root] = tree.getChildren();
    let children = tree.getChildren(root);
    expect(children).toHaveLength(PAGE_SIZE + 2);
    expect(children.at(-2)).toMatchObject({ kind: "more", remaining: PAGE_SIZE + 3 });
    expect(tree.getTreeItem(children.at(-1)!).label).toBe("Problems (1)");
    expect(tree.getChildren(children.at(-1)).map((n) => tree.getTreeItem(n).label)).toEqual([
      "line 7: broken JSON",
    ]);
    tree.showMore(set);
    children = tree.getChildren(root);
    expect(children.filter((c) => c.kind === "trace")).toHaveLength(PAGE_SIZE * 2);
    tree.setFilter({ kind: "errors" });
    expect(tree.getChildren(root).map((c) => c.kind)).toEqual(["problems"]);
    expect(tree.getTreeItem(root!).description).toBe(
      `with errors or degraded stages: 0 of ${index.count} traces`,
    );
  });

  it("finds the traces of a log with progress, says how many and lists the problems", async () => {
    const uri = exampleLog("broken.log");
    const tree = new TraceTree();
    await inspectLog(real(uri), tree);
    const [root] = tree.getChildren();
    const kinds = tree.getChildren(root).map((node) => node.kind);
    expect(kinds).toEqual(["trace", "trace", "problems"]);
    expect(fake.progress.map((p) => p.title)).toEqual([`Finding selection traces in ${uri.path}`]);
    expect(fake.shown.at(-1)).toEqual({
      kind: "warning",
      message: `Palette Inspector: 2 selection traces in ${uri.path}, 4 problems.`,
    });
  });

  it("opens several files as one set, numbered across them; each trace and problem names its file", async () => {
    const dir = logFolder({ "app.log": "agent.log", "app.log.1.gz": "broken.log" });
    const files = ["app.log", "app.log.1.gz"].map((name) => real(Uri.file(join(dir, name))));
    const tree = new TraceTree();
    // The explorer passes the clicked item, then every selected one.
    await inspectLog(files[0], tree, files);
    expect(tree.getChildren()).toHaveLength(1);
    const [root] = tree.getChildren();
    expect(tree.getTreeItem(root!)).toMatchObject({
      label: `${files[0]!.path} + 1 more`,
      description: "8 traces in 2 files",
    });
    const nodes = traceNodes(tree);
    expect(tree.getTreeItem(nodes[6]!).description).toBe(
      "2025-03-14 09:26:50,011 · app.log.1.gz:1",
    );
    const problems = tree.getChildren(tree.getChildren(root).at(-1));
    expect(tree.getTreeItem(problems[0]!).label).toBe(
      "app.log.1.gz line 2: truncated JSON: the object opened at column 75 is not closed",
    );
    // A gzip cannot be opened at a line in the editor.
    expect(tree.getTreeItem(problems[0]!).command).toBeUndefined();
    // From the plain log a trace is read at once, with no progress to show.
    const scans = fake.progress.length;
    await openTrace(nodes[0], undefined, panels);
    expect(fake.progress).toHaveLength(scans);
    shown.reports.length = 0;
    // Opened from the gzip, re-read from its range (inflated again, with progress): #7 too.
    await openTrace(nodes[6], undefined, panels);
    expect(fake.progress.at(-1)!.title).toBe(`Reading trace #7 from ${files[1]!.path}`);
    expect(shown.reports[0]!.origin).toEqual({ kind: "log", line: 1, index: 6 });
    expect(shown.reports[0]!.file).toBe(files[1]!.toString());
    expect(shown.reports[0]!.description).toBe(
      "#7 · line 1 · id t-4f1c2a · 2025-03-14 09:26:50,011",
    );
  });

  it("opens a set whose spans and log records are in separate files: a trace opens with what its model called", async () => {
    const dir = "test/otel-libs/recordings/official-openai";
    const files = ["logs", "spans"].map((signal) =>
      real(Uri.file(join(process.cwd(), dir, `chat-separate-files.${signal}.otlp.jsonl`))),
    );
    const tree = new TraceTree();
    await inspectLog(files[0], tree, files);
    const [node] = traceNodes(tree);
    await openTrace(node, undefined, panels);
    expect(shown.reports[0]!.model).toMatchObject({
      called: ["get_weather"],
      convention: "gen_ai_logs",
    });
  });

  it("Cancel while a gzip is inflated up to a trace opens nothing and says nothing", async () => {
    const dir = logFolder({ "app.log.gz": "agent.log" });
    const tree = new TraceTree();
    await inspectLog(real(Uri.file(join(dir, "app.log.gz"))), tree);
    const shownBefore = fake.shown.length;
    fake.cancelNextProgress = true;
    await openTrace(traceNodes(tree)[5], undefined, panels);
    expect(shown.reports).toEqual([]);
    expect(fake.shown.length).toBe(shownBefore);
  });

  it("a big gzip gets checkpoints while its traces are listed, and its last trace opens as logged", async () => {
    const dir = tempDir("pi-logs-");
    const agent = readFileSync("examples/logs/agent.log", "utf8");
    // 5 MB of request lines, then the example's traces: the first checkpoint comes before them.
    const filler = "2025-03-14 09:26:49,000 INFO GET /v1/health status=200\n".repeat(100_000);
    const path = join(dir, "big.log.gz");
    writeFileSync(path, gzipSync(filler + agent));
    const tree = new TraceTree();
    await inspectLog(real(Uri.file(path)), tree);
    await expect.poll(async () => (await checkpointsOf(path)).length, { timeout: 20_000 }).toBe(1);
    const nodes = traceNodes(tree);
    await openTrace(nodes.at(-1), undefined, panels);
    const expected = scanText(agent).traces.at(-1)!;
    const report = shown.reports.at(-1)!;
    expect(report.origin).toEqual({
      kind: "log",
      line: 100_000 + expected.line,
      index: nodes.length - 1,
    });
    expect(report.names).toEqual(summarizeTrace(expected).names);
    expect(report.trace.map((r) => r.stage)).toEqual(expected.trace.records.map((r) => r.stage));
  });

  it("opens a folder: its logs (.gz included) in name order, numbers as numbers, and no fixture or expected output as a log", async () => {
    const dir = logFolder({
      "app.log": "agent.log",
      "app.log.2.gz": "selection.jsonl",
      "app.log.10": "agent.log",
      // Traces in them, so that reading either as a log would show.
      "app.trace-5.turn.json": "agent.log",
      "python-logs.expected.json": "agent.log",
    });
    writeFileSync(join(dir, "README.md"), "not a log");
    const tree = new TraceTree();
    await inspectLog(real(Uri.file(dir)), tree);
    const [root] = tree.getChildren();
    const set = (root as Extract<TraceNode, { kind: "set" }>).set;
    expect(set.files.map((uri) => uri.path.slice(dir.length + 1))).toEqual([
      "app.log",
      "app.log.2.gz",
      "app.log.10",
    ]);
    expect(tree.getTreeItem(root!).description).toBe("18 traces in 3 files");
  });

  it("survives a window reload: the opened sets are kept in workspaceState and scanned again", async () => {
    const state = memento();
    const dir = logFolder({ "a.log": "agent.log", "b.jsonl": "selection.jsonl" });
    const first = new TraceTree(state);
    await inspectLog(real(Uri.file(join(dir, "a.log"))), first);
    await inspectLog(real(Uri.file(dir)), first);
    expect(state.values.get(OPENED_SETS_KEY)).toEqual([[`file://${dir}/a.log`], [`file://${dir}`]]);
    const labels = (tree: TraceTree) =>
      tree
        .getChildren()
        .flatMap((root) => [
          String(tree.getTreeItem(root).label),
          ...tree.getChildren(root).map((node) => String(tree.getTreeItem(node).label)),
        ]);
    const shownBefore = fake.shown.length;
    const reloaded = new TraceTree(state);
    await restoreLogSets(reloaded);
    expect(labels(reloaded)).toEqual(labels(first));
    expect(fake.shown.length).toBe(shownBefore); // restored quietly
    reloaded.removeSet((reloaded.getChildren()[0] as Extract<TraceNode, { kind: "set" }>).set);
    expect(state.values.get(OPENED_SETS_KEY)).toEqual([[`file://${dir}`]]);
  });

  it("forgets, quietly, a saved set whose logs are gone by the next session", async () => {
    const state = memento();
    const kept = logFolder({ "a.log": "agent.log" });
    state.values.set(OPENED_SETS_KEY, [["file:///gone/app.log"], [`file://${kept}/a.log`]]);
    const tree = new TraceTree(state);
    await restoreLogSets(tree);
    expect(tree.getChildren()).toHaveLength(1);
    expect(state.values.get(OPENED_SETS_KEY)).toEqual([[`file://${kept}/a.log`]]);
    expect(fake.shown).toEqual([]);
    expect(fake.outputs.get("Palette Inspector")!.join("\n")).toContain(
      "Selection traces of /gone/app.log are no longer listed:",
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
    expect(fake.outputs.get("Palette Inspector")!.join("\n")).toContain(
      "cannot read /nowhere/app.log.\n  /nowhere/app.log: cannot read the file",
    );
  });

  it("reads the rest of a set past a binary file, a truncated gzip and a missing file", async () => {
    const dir = logFolder({ "ok.log": "agent.log" });
    writeFileSync(join(dir, "core.log"), Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0, 1, 2]));
    const gz = gzipSync(readFileSync("examples/logs/agent.log"));
    writeFileSync(join(dir, "cut.log.gz"), gz.subarray(0, gz.length >> 1));
    const names = ["core.log", "cut.log.gz", "gone.log", "ok.log"];
    const files = names.map((name) => real(Uri.file(join(dir, name))));
    const tree = new TraceTree();
    await inspectLog(files[0], tree, files);
    const [root] = tree.getChildren();
    const problems = tree
      .getChildren(tree.getChildren(root).at(-1))
      .map((node) => String(tree.getTreeItem(node).label));
    expect(problems).toEqual([
      "core.log: binary file (it holds NUL bytes); it was not read",
      expect.stringMatching(
        /^cut\.log\.gz line \d+: the gzip data is truncated: the file ends before its compressed data does$/,
      ),
      "gone.log: cannot read the file: no such file",
    ]);
    const nodes = traceNodes(tree);
    expect(nodes.filter((node) => node.set.index.fileOf(node.index) === 3)).toHaveLength(6);
  });

  it("Cancel stops the scan and keeps what it found, marked as partial", async () => {
    const tree = new TraceTree();
    fake.cancelNextProgress = true;
    await inspectLog(real(exampleLog("agent.log")), tree);
    const [root] = tree.getChildren();
    expect(tree.getTreeItem(root!).description).toBe(
      "0 traces (scan cancelled at 0%: partial list)",
    );
    expect(fake.shown.at(-1)).toMatchObject({
      kind: "warning",
      message: expect.stringMatching(
        /scan of .*agent\.log cancelled at 0%: 0 selection traces and 0 problems in what was read; the list is partial\.$/,
      ),
    });
  });

  it("opens a listed trace read-only in the panel, with its file, line and number", async () => {
    const uri = exampleLog("selection.jsonl");
    const tree = new TraceTree();
    await inspectLog(real(uri), tree);
    const node = traceNodes(tree)[1]!;
    await openTrace(node, undefined, panels);
    expect(shown.reports[0]!.origin).toEqual({ kind: "log", line: 5, index: 1 });
    expect(shown.reports[0]!.file).toBe(uri.toString());
    expect(shown.reports[0]!.description).toMatch(/^#2 · line 5 · id t-4f1c31 · /);
  });

  it("puts a CodeLens on every line holding a trace, which opens that trace with the view's number", async () => {
    const dir = logFolder({ "a.log": "selection.jsonl", "b.log": "agent.log" });
    const uri = Uri.file(join(dir, "b.log"));
    const tree = new TraceTree();
    await inspectLog(real(Uri.file(dir)), tree);
    const text = readFileSync(uri.fsPath, "utf8");
    const document = fake.openDocument(uri, text);
    const lenses = await new LogTraceCodeLens().provideCodeLenses(
      document as unknown as vscode.TextDocument,
      { isCancellationRequested: false } as vscode.CancellationToken,
    );
    const lines = scanText(text).traces.map((t) => t.line - 1);
    expect(lenses.map((lens) => lens.range.start.line)).toEqual(lines);
    expect(lenses[0]!.command!.title).toBe("$(type-hierarchy) Inspect selection trace");
    const [target, line] = lenses[1]!.command!.arguments! as [vscode.Uri, number];
    await openTrace(target, line, panels, tree);
    // The second trace of b.log is #8 of the set (a.log holds six).
    expect(shown.reports[0]!.origin).toEqual({ kind: "log", line: lines[1]! + 1, index: 7 });
    await openTrace(target, line, panels);
    expect(shown.reports[1]!.origin).toMatchObject({ index: 1 });
  });

  it("reads only the first 1 MB of a document for its lenses, and says on the line where it stopped", async () => {
    const trace = (id: string) => JSON.stringify({ turn_id: id, trace: [] });
    const filler = "x".repeat(99);
    const lines = [
      trace("first"),
      ...Array<string>(Math.ceil(MAX_LENS_CHARS / 100)).fill(filler),
      trace("late"),
    ];
    const uri = Uri.file("/logs/big.log");
    const document = fake.openDocument(uri, lines.join("\n"));
    const lenses = await new LogTraceCodeLens().provideCodeLenses(
      document as unknown as vscode.TextDocument,
      { isCancellationRequested: false } as vscode.CancellationToken,
    );
    // Line 1 holds the first trace; the line holding the 1,048,576th character is not read.
    const stop = Math.floor((MAX_LENS_CHARS - trace("first").length - 1) / 100) + 1;
    expect(lenses.map((lens) => [lens.range.start.line, lens.command!.command])).toEqual([
      [0, "paletteInspector.openTrace"],
      [stop, "paletteInspector.inspectLog"],
    ]);
    expect(lenses[1]!.command!.title).toBe(
      `$(warning) Traces from line ${stop + 1} on are not marked here (the file is over 1 MB): Find Selection Traces in Files`,
    );
    expect(lenses[1]!.command!.arguments).toEqual([uri]);
  });

  it("turns a trace into a fixture named by its number (at the root of a workspace with none yet) that reproduces it when run", async () => {
    const uri = exampleLog("selection.jsonl");
    fake.addWorkspaceFolder(uri.path.slice(0, uri.path.lastIndexOf("/")));
    const tree = new TraceTree();
    await inspectLog(real(uri), tree);
    const node = traceNodes(tree)[0]!;
    const target = Uri.file(suggestedFixturePath(uri.path, node.index));
    expect(target.path).toMatch(/selection\.trace-1\.turn\.json$/);
    expect(suggestedFixturePath("/l/app.log.2.gz", 4)).toBe("/l/app.log.2.trace-5.turn.json");
    fake.answers.saveDialog.push(target);
    const written = await turnIntoFixture(node, panels);
    expect(written?.toString()).toBe(target.toString());
    expect(shown.fixtures).toEqual([target.toString()]);
    const loaded = await loadFixtureFromUri(target);
    if (!loaded.ok) throw new Error(JSON.stringify(loaded.problems));
    expect(runFixture(loaded.fixture).names).toEqual(
      summarizeTrace(scanText(readFileSync(uri.fsPath)).traces[0]!).names,
    );
  });

  it("Turn into Fixture proposes the folder holding most of the workspace's fixtures, else the workspace's root", async () => {
    const uri = exampleLog("agent.log");
    const logs = uri.path.slice(0, uri.path.lastIndexOf("/"));
    const root = logs.slice(0, logs.lastIndexOf("/"));
    fake.addWorkspaceFolder(root);
    const tree = new TraceTree();
    await inspectLog(real(uri), tree);
    const node = traceNodes(tree)[4]!;
    const proposed = async () => {
      fake.answers.saveDialog.push(undefined);
      await turnIntoFixture(node, panels);
      return (fake.dialogs.at(-1) as vscode.SaveDialogOptions).defaultUri!.path;
    };
    expect(await proposed()).toBe(`${root}/agent.trace-5.turn.json`);
    fake.writeFile(`${logs}/agent.trace-1.turn.json`, "{}");
    for (const name of ["a", "b"]) fake.writeFile(`${root}/test/fixtures/${name}.turn.json`, "{}");
    fake.writeFile(`${root}/node_modules/x/c.turn.json`, "{}");
    fake.writeFile(`${root}/node_modules/x/d.turn.json`, "{}");
    fake.writeFile(`${root}/node_modules/x/e.turn.json`, "{}");
    expect(await proposed()).toBe(`${root}/test/fixtures/agent.trace-5.turn.json`);
    // A tie goes to the shallower folder.
    fake.writeFile(`${logs}/agent.trace-2.turn.json`, "{}");
    expect(await proposed()).toBe(`${logs}/agent.trace-5.turn.json`);
    fake.writeFile(`${root}/test/fixtures/c.turn.json`, "{}");
    expect(await proposed()).toBe(`${root}/test/fixtures/agent.trace-5.turn.json`);
  });

  it("never overwrites an existing file without asking", async () => {
    const uri = exampleLog("selection.jsonl");
    const tree = new TraceTree();
    await inspectLog(real(uri), tree);
    const node = traceNodes(tree)[0]!;
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
    const node = traceNodes(tree)[2]!;
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

describe("the Selection Traces view's filter pickers", () => {
  it("filter pickers list the log's own dropped tools and stages (with counts), and the picks filter", async () => {
    const uri = exampleLog("agent.log");
    const tree = new TraceTree();
    await inspectLog(real(uri), tree);
    const choices = tree.filterChoices();
    expect(choices.dropped.size).toBeGreaterThan(0);
    const disposables = registerTraceFilters(tree);
    try {
      const [tool] = [...choices.dropped].sort(([a, m], [b, n]) => n - m || a.localeCompare(b))[0]!;
      fake.answers.quickPick.push({ label: tool, name: tool });
      await fake.commands.get("paletteInspector.filterTracesByDroppedTool")!();
      const toolPick = fake.quickPicks.at(-1)!.items as { label: string; description: string }[];
      expect(toolPick.map((item) => item.label).sort()).toEqual([...choices.dropped.keys()].sort());
      expect(toolPick[0]!.description).toMatch(/^dropped in \d+ traces?$/);
      expect(tree.filter).toEqual({ kind: "dropped", tool });

      const [stage, actions] = [...choices.stages][0]!;
      const [action] = [...actions][0]!;
      fake.answers.quickPick.push({ label: stage, name: stage }, { label: action, name: action });
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

describe("the explorer's menu", () => {
  it("offers Find Selection Traces on folders and on logs, rotated and gzipped ones too", () => {
    const manifest = JSON.parse(readFileSync("package.json", "utf8"));
    const entry = manifest.contributes.menus["explorer/context"].find(
      (item: { command: string }) => item.command === "paletteInspector.inspectLog",
    );
    const [folder, pattern] = entry.when.split(" || ");
    expect(folder).toBe("explorerResourceIsFolder");
    const regex = new RegExp(/^resourceFilename =~ \/(.*)\/$/.exec(pattern)![1]!);
    for (const name of ["app.log", "app.log.1", "app.log.2.gz", "a.jsonl", "t.json", "x.txt"])
      expect(regex.test(name), name).toBe(true);
    for (const name of ["app.ts", "image.png", "archive.tar.gz"])
      expect(regex.test(name), name).toBe(false);
  });
});

describe("two traces on one line", () => {
  it("each says which value of its line it is, so neither looks like the other's duplicate", async () => {
    const uri = exampleLog("python-repr.log");
    const tree = new TraceTree();
    await inspectLog(real(uri), tree);
    const descriptions = traceNodes(tree).map((node) => String(tree.getTreeItem(node).description));
    const line11 = descriptions.filter((d) => /line 11\b/.test(d));
    expect(line11).toEqual([
      expect.stringMatching(/line 11, value 1$/),
      expect.stringMatching(/line 11, value 2$/),
    ]);
    // A line with one trace says only its line.
    const alone = descriptions.filter((d) => !/value/.test(d));
    expect(alone.length).toBeGreaterThan(0);
    for (const d of alone) expect(d).toMatch(/line \d+$/);
  });
});

describe("hostile text from a log in the view", () => {
  it("a turn id, time or tool name with controls or bidi overrides shows as one plain line", async () => {
    const dir = tempDir("pi-logs-");
    const evil = "t-1\u202e\nfake [link](command:x)";
    writeFileSync(
      join(dir, "evil.log"),
      JSON.stringify({ turn_id: evil, ts: "12:00\u0007", trace: [], forced_choice: "a\u0000b" }) +
        "\n",
    );
    const tree = new TraceTree();
    await inspectLog(real(Uri.file(join(dir, "evil.log"))), tree);
    const item = tree.getTreeItem(traceNodes(tree)[0]!);
    expect(item.label).toBe("#1 · t-1 fake ［link］(command:x) · 0 tools · forced a b");
    expect(item.description).toBe("12:00 · line 1");
  });
});

/** A logged trace line: each stage `[name, action, dropped]`, keeping whatever it did not drop. */
function traceLine(id: string, stages: [string, string, string[]][]): string {
  return JSON.stringify({
    turn_id: id,
    trace: stages.map(([stage, action, dropped]) =>
      writtenRecord(stage, action, { kept: ["keep"], dropped, degraded: false, reasons: {} }),
    ),
  });
}

/** A tree listing one set made of the given lines, as if scanned from /logs/set.log. */
function treeOf(lines: string[]): TraceTree {
  const tree = new TraceTree();
  const file = real(Uri.file("/logs/set.log"));
  tree.setSet({ roots: [file], files: [file], index: indexOf(lines.join("\n")), cancelled: false });
  return tree;
}

/** The filter commands registered on a tree, with the context keys they set; disposed after each test. */
function filterCommands() {
  const contexts = new Map<string, unknown>();
  const run = (id: string) => fake.commands.get(`paletteInspector.${id}`)!() as Promise<void>;
  let disposables: vscode.Disposable[] = [];
  const register = (tree: TraceTree) => {
    disposables = registerTraceFilters(tree);
    fake.commands.set("setContext", (key, value) => contexts.set(key as string, value));
  };
  beforeEach(() => contexts.clear());
  afterEach(() => disposables.forEach((d) => d.dispose()));
  return { contexts, run, register };
}

describe("the trace filter commands", () => {
  const { contexts, run, register } = filterCommands();

  // Listed in neither order: "c" before "b" (a tie), "z" most dropped; stage "role" first.
  const lines = [
    traceLine("t-1", [
      ["role", "abstain", []],
      ["intent", "select", ["c", "z"]],
    ]),
    traceLine("t-2", [["intent", "select", ["z"]]]),
    traceLine("t-3", [
      ["intent", "abstain", []],
      ["role", "select", ["b"]],
    ]),
  ];

  it("lists dropped tools most dropped first (ties by name), with counts, and filters by the pick", async () => {
    const tree = treeOf(lines);
    register(tree);
    fake.answers.quickPick.push({ label: "b", name: "b" });
    await run("filterTracesByDroppedTool");
    const { items, options } = fake.quickPicks[0]!;
    expect(items).toEqual([
      { label: "z", description: "dropped in 2 traces", name: "z" },
      { label: "b", description: "dropped in 1 trace", name: "b" },
      { label: "c", description: "dropped in 1 trace", name: "c" },
    ]);
    expect(options).toEqual({
      title: "Traces where a tool was dropped",
      placeHolder: "Which tool?",
      matchOnDescription: false,
    });
    expect(tree.filter).toEqual({ kind: "dropped", tool: "b" });
    expect(contexts.get("paletteInspector.tracesFiltered")).toBe(true);
    const [root] = tree.getChildren();
    expect(tree.getTreeItem(root!).description).toBe("where 'b' was dropped: 1 of 3 traces");
  });

  it("picks a stage (by name, its actions counted) then one of its actions (most frequent first)", async () => {
    const tree = treeOf([
      ...lines,
      traceLine("t-4", [
        ["intent", "abstain", []],
        ["allow", "select", []],
      ]),
      traceLine("t-5", [["role", "select", []]]),
    ]);
    register(tree);
    fake.answers.quickPick.push(
      { label: "intent", name: "intent" },
      { label: "abstain", name: "abstain" },
    );
    await run("filterTracesByStageAction");
    const [stages, actions] = fake.quickPicks;
    expect(stages!.items).toEqual([
      { label: "allow", description: "select 1×", name: "allow" },
      { label: "intent", description: "abstain 2×, select 2×", name: "intent" },
      { label: "role", description: "select 2×, abstain 1×", name: "role" },
    ]);
    expect(stages!.options).toEqual({
      title: "Traces where a stage did an action",
      placeHolder: "Which stage?",
    });
    expect(actions!.items).toEqual([
      { label: "abstain", description: "in 2 traces", name: "abstain" },
      { label: "select", description: "in 2 traces", name: "select" },
    ]);
    expect(actions!.options).toEqual({ title: "What did 'intent' do?" });
    expect(tree.filter).toEqual({ kind: "stageAction", stage: "intent", action: "abstain" });
    const [root] = tree.getChildren();
    expect(tree.getTreeItem(root!).description).toBe("where 'intent' did abstain: 2 of 5 traces");
    fake.answers.quickPick.push(
      { label: "role", name: "role" },
      { label: "abstain", name: "abstain" },
    );
    await run("filterTracesByStageAction");
    expect(fake.quickPicks[3]!.items).toEqual([
      { label: "select", description: "in 2 traces", name: "select" },
      { label: "abstain", description: "in 1 trace", name: "abstain" },
    ]);
  });

  it("shows a log's names in pickers and labels neutralised ($( as text, no invisible characters), and filters by the name itself", async () => {
    const tool = "$(zap)\u200bevil\u061c";
    const stage = "st\u2060age\u200d";
    const tree = treeOf([traceLine("t\u200b-1", [[stage, "select", [tool]]])]);
    register(tree);
    fake.answers.quickPick.push((items: { name: string }[]) => items[0]);
    await run("filterTracesByDroppedTool");
    const [toolPick] = fake.quickPicks[0]!.items as { label: string; name: string }[];
    expect([toolPick!.label, toolPick!.name]).toEqual(["\uff04(zap) evil", tool]);
    expect(tree.filter).toEqual({ kind: "dropped", tool });
    fake.answers.quickPick.push(
      (items: { name: string }[]) => items[0],
      (items: { name: string }[]) => items[0],
    );
    await run("filterTracesByStageAction");
    expect((fake.quickPicks[1]!.items as { label: string }[])[0]!.label).toBe("st age");
    expect((fake.quickPicks[2]!.options as { title: string }).title).toBe("What did 'st age' do?");
    expect(tree.filter).toEqual({ kind: "stageAction", stage, action: "select" });
    const [root] = tree.getChildren();
    const [trace] = tree.getChildren(root);
    const item = tree.getTreeItem(trace!);
    expect(item.label).toBe("#1 · t -1 · 1 tool");
    expect(item.tooltip).toContain("st age: select");
    expect(item.accessibilityInformation!.label).toContain("turn t -1");
  });

  it("a pick left open (Escape) changes no filter", async () => {
    const tree = treeOf(lines);
    tree.setFilter({ kind: "errors" });
    register(tree);
    fake.answers.quickPick.push(undefined);
    await run("filterTracesByDroppedTool");
    fake.answers.quickPick.push(undefined);
    await run("filterTracesByStageAction");
    fake.answers.quickPick.push({ label: "role", name: "role" }, undefined);
    await run("filterTracesByStageAction");
    expect(fake.quickPicks).toHaveLength(4);
    expect(tree.filter).toEqual({ kind: "errors" });
    expect(contexts.size).toBe(0);
  });

  it("filters to the traces with errors, and clears the filter", async () => {
    const tree = treeOf(lines);
    register(tree);
    await run("filterTracesWithErrors");
    expect(tree.filter).toEqual({ kind: "errors" });
    expect(contexts.get("paletteInspector.tracesFiltered")).toBe(true);
    await run("clearTraceFilter");
    expect(tree.filter).toBeNull();
    expect(contexts.get("paletteInspector.tracesFiltered")).toBe(false);
    const [root] = tree.getChildren();
    expect(tree.getTreeItem(root!).description).toBe("3 traces");
  });

  it("when no listed trace drops a tool, says so rather than offering an empty pick", async () => {
    register(treeOf([traceLine("t-1", [["role", "abstain", []]])]));
    await run("filterTracesByDroppedTool");
    expect(fake.quickPicks).toHaveLength(0);
    expect(fake.shown).toEqual([
      { kind: "info", message: "Palette Inspector: no listed trace drops a tool." },
    ]);
    register(new TraceTree());
    await run("filterTracesByStageAction");
    expect(fake.quickPicks).toHaveLength(0);
    expect(fake.shown.at(-1)!.message).toMatch(/find the selection traces in a log first/);
  });
});

describe("the Inspect CodeLens", () => {
  const lensesOf = (text: string, cancelled = false) =>
    new LogTraceCodeLens().provideCodeLenses(
      fake.openDocument(Uri.file("/logs/a.log"), text) as unknown as vscode.TextDocument,
      { isCancellationRequested: cancelled } as vscode.CancellationToken,
    );
  const text = `noise\n${traceLine("t-1", [["role", "abstain", []]])}\n`;

  it("sits at the start of the trace's line and opens it", async () => {
    const [lens, ...rest] = await lensesOf(text);
    expect(rest).toEqual([]);
    expect([lens!.range.start, lens!.range.end].map((p) => [p.line, p.character])).toEqual([
      [1, 0],
      [1, 0],
    ]);
    expect(lens!.command).toMatchObject({
      command: "paletteInspector.openTrace",
      arguments: [expect.objectContaining({ path: "/logs/a.log" }), 2],
    });
  });

  it("reads a megabyte of trace lines in slices, the event loop turning between them", async () => {
    const line = JSON.stringify({ turn_id: "t", trace: [] });
    const log = `${Array<string>(Math.floor(MAX_LENS_CHARS / (line.length + 1)))
      .fill(line)
      .join("\n")}\n`;
    let turns = 0;
    let reading = true;
    const tick = () => {
      turns++;
      if (reading) setImmediate(tick);
    };
    setImmediate(tick);
    const lenses = await lensesOf(log);
    reading = false;
    expect(lenses).toHaveLength(Math.floor(MAX_LENS_CHARS / (line.length + 1)));
    expect(turns).toBeGreaterThan(0);
  });

  it("offers nothing while cancelled, nor past 1 MB; a line cut there gets the lens that says so", async () => {
    expect(await lensesOf(text, true)).toEqual([]);
    expect(await lensesOf(text.padEnd(MAX_LENS_CHARS))).toHaveLength(1);
    const cut = await lensesOf(text.padEnd(MAX_LENS_CHARS + 1));
    expect(cut.map((lens) => [lens.range.start.line, lens.command!.command])).toEqual([
      [1, "paletteInspector.openTrace"],
      [2, "paletteInspector.inspectLog"],
    ]);
    // A first line over 1 MB is not read: only the lens that says so.
    const long = await lensesOf(`${"x".repeat(MAX_LENS_CHARS)}\n${text}`);
    expect(long.map((lens) => [lens.range.start.line, lens.command!.command])).toEqual([
      [0, "paletteInspector.inspectLog"],
    ]);
    expect(await lensesOf(`${"x".repeat(MAX_LENS_CHARS)}\nno trace key`)).toEqual([]);
  });
});

describe("the log commands' edges", () => {
  const logged = () => fake.outputs.get("Palette Inspector")?.join("\n") ?? "";
  /** A folder with the given logs written as text. */
  function written(files: Record<string, string>): string {
    const dir = tempDir("pi-logs-");
    for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
    return dir;
  }
  const spyPanels = () => {
    const compared: [RunReport, RunReport][] = [];
    const spy = {
      ...panels,
      showReport: panels.showReport,
      showComparison: (a: RunReport, b: RunReport) => compared.push([a, b]),
    } as unknown as TracePanels;
    return { compared, spy };
  };

  it("a clean log is an info with the count, and the view is focused", async () => {
    const focused: unknown[] = [];
    fake.commands.set("paletteInspector.traces.focus", () => focused.push(true));
    const dir = written({ "a.log": `${traceLine("t-1", [["role", "select", []]])}\n` });
    await inspectLog(real(Uri.file(join(dir, "a.log"))), new TraceTree());
    expect(fake.shown).toEqual([
      {
        kind: "info",
        message: `Palette Inspector: 1 selection trace in ${dir}/a.log, 0 problems.`,
      },
    ]);
    expect(focused).toEqual([true]);
    expect(fake.progress[0]!.messages).toEqual(["100%"]);
  });

  it("names a set of several by its first and how many more, and logs each problem's place", async () => {
    const dir = written({
      "a.log": "{ not json\n",
      "b.log": '{"trace": [\n',
      "c.log": `${traceLine("t-1", [["role", "select", []]])}\n`,
    });
    const files = ["a.log", "b.log", "c.log"].map((name) => real(Uri.file(join(dir, name))));
    await inspectLog(undefined, new TraceTree(), files);
    expect(fake.progress[0]!.title).toBe(`Finding selection traces in ${dir}/a.log and 2 more`);
    expect(fake.shown[0]!.message).toBe(
      `Palette Inspector: 1 selection trace in ${dir}/a.log and 2 more, 1 problem.`,
    );
    expect(logged()).toMatch(new RegExp(`\\n {2}${dir}/b\\.log:1: `));
  });

  it("a folder with no logs is a warning, and nothing is listed", async () => {
    const tree = new TraceTree();
    await inspectLog(real(Uri.file(written({ "notes.md": "x" }))), tree);
    expect(tree.getChildren()).toEqual([]);
    expect(fake.shown).toEqual([
      {
        kind: "warning",
        message: expect.stringMatching(
          /^Palette Inspector: no log files \(\*\.log, \*\.jsonl, \*\.json, \.gz, …\) in \//,
        ),
      },
    ]);
  });

  it("a restored set logs its problems quietly; one with no logs left is forgotten", async () => {
    const state = memento();
    const dir = written({
      "a.log": `{"trace": [\n${traceLine("t-1", [["role", "select", []]])}\n`,
    });
    const empty = written({});
    state.values.set(OPENED_SETS_KEY, [[`file://${dir}/a.log`], [`file://${empty}`], []]);
    const tree = new TraceTree(state);
    await restoreLogSets(tree);
    expect(fake.shown).toEqual([]);
    expect(logged()).toContain(`Selection traces of ${dir}/a.log:\n  ${dir}/a.log:1: `);
    expect(state.values.get(OPENED_SETS_KEY)).toEqual([[`file://${dir}/a.log`]]);
  });

  it("the active editor's log, else the logs or folder picked in a dialog; Cancel scans nothing", async () => {
    const dir = written({ "a.log": `${traceLine("t-1", [["role", "select", []]])}\n` });
    const file = Uri.file(join(dir, "a.log"));
    const tree = new TraceTree();
    window.activeTextEditor = { document: fake.openDocument(Uri.parse("untitled:x"), "") };
    const files = (items: { folders: boolean }[]) => items.find((item) => !item.folders);
    fake.answers.quickPick.push(files);
    fake.answers.saveDialog.push(undefined);
    await inspectLog(undefined, tree, [{ not: "a uri" }]);
    expect(fake.dialogs).toEqual([
      {
        canSelectMany: true,
        filters: { Logs: ["log", "jsonl", "ndjson", "json", "txt", "gz"], "All files": ["*"] },
        title: "Find Selection Traces in Files",
      },
    ]);
    expect(fake.progress).toEqual([]);
    window.activeTextEditor = { document: fake.openDocument(file, "") };
    try {
      await inspectLog(undefined, tree);
    } finally {
      window.activeTextEditor = undefined;
    }
    expect(fake.dialogs).toHaveLength(1);
    expect(tree.getChildren()).toHaveLength(1);
    // With no editor open at all, the dialog asks too; a folder is as good as files.
    fake.answers.quickPick.push((items: { folders: boolean }[]) => items.find((i) => i.folders));
    fake.answers.saveDialog.push(Uri.file(dir));
    await inspectLog(undefined, tree);
    expect(fake.dialogs).toHaveLength(2);
    expect(fake.dialogs[1]).toMatchObject({ canSelectFiles: false, canSelectFolders: true });
    expect(tree.getChildren()).toHaveLength(2);
  });

  it("reports progress as the share of the bytes on disk read, chunk by chunk, up to 100%", async () => {
    const dir = written({
      "big.log": "2025-03-14 09:26:49,000 INFO GET /v1/health\n".repeat(120_000),
    });
    // A file that cannot be read counts no bytes: the others still make up the whole.
    const files = ["gone.log", "big.log"].map((name) => real(Uri.file(join(dir, name))));
    await inspectLog(undefined, new TraceTree(), files);
    const percents = fake.progress[0]!.messages.map((message) => parseInt(message, 10));
    expect(percents.length).toBeGreaterThan(1);
    expect(percents[0]).toBeGreaterThan(0);
    expect(percents[0]).toBeLessThan(100);
    expect(percents.at(-1)).toBe(100);
    expect(fake.progress[0]!.messages.at(-1)).toBe("100%");
  });

  it("says each whole percent once, and fills the bar by the step since the last", async () => {
    const dir = written({
      "a.log": "x".repeat(4_000_000),
      "b.log": "y".repeat(10),
      "c.log": "z".repeat(50_000),
    });
    const files = ["a.log", "b.log", "c.log"].map((name) => real(Uri.file(join(dir, name))));
    await inspectLog(undefined, new TraceTree(), files);
    // The files are read at once, so which percents are said depends on which ends first.
    const { messages, increments } = fake.progress[0]!;
    const percents = messages.map((message) => parseInt(message, 10));
    expect(messages.at(-1)).toBe("100%");
    expect(percents).toEqual([...new Set(percents)].sort((x, y) => x - y));
    expect(increments).toEqual(percents.map((percent, k) => percent - (percents[k - 1] ?? 0)));
  });

  it("describes a trace with no id or time by its number and line", async () => {
    const dir = written({ "a.log": `x\n${JSON.stringify({ trace: [] })}\n` });
    const tree = new TraceTree();
    await inspectLog(real(Uri.file(join(dir, "a.log"))), tree);
    await openTrace(traceNodes(tree)[0], undefined, panels);
    expect(shown.reports[0]!.description).toBe("#1 · line 2");
  });

  it("a CodeLens whose trace is gone says so; a node that is no trace opens nothing", async () => {
    const uri = fake.writeFile("/logs/a.log", "no traces now\n");
    await openTrace(real(uri), 3, panels);
    expect(fake.shown).toEqual([
      { kind: "error", message: "Palette Inspector: cannot open the selection trace." },
    ]);
    expect(logged()).toContain("\n  no selection trace starts at line 3 any more");
    await openTrace({ kind: "problems" }, undefined, panels);
    await openTrace(undefined, undefined, panels);
    expect(shown.reports).toEqual([]);
    expect(fake.shown).toHaveLength(1);
  });

  it("names the replay fixture after the log, whatever the log's extension", () => {
    expect(suggestedFixturePath("/l/a.jsonl", 0)).toBe("/l/a.trace-1.turn.json");
    expect(suggestedFixturePath("/l/a.NDJSON", 1)).toBe("/l/a.trace-2.turn.json");
    expect(suggestedFixturePath("/l/a.json.GZ", 2)).toBe("/l/a.trace-3.turn.json");
    expect(suggestedFixturePath("/l/a.txt", 3)).toBe("/l/a.trace-4.turn.json");
    expect(suggestedFixturePath("/l/a.log.txt.gz.x", 4)).toBe(
      "/l/a.log.txt.gz.x.trace-5.turn.json",
    );
    expect(suggestedFixturePath("app.log", 0)).toBe("app.trace-1.turn.json");
  });

  it("Turn into Fixture warns when the replay cannot match the log, and offers the file next to it", async () => {
    const dir = written({ "a.log": `${traceLine("t-1", [["role", "abstain", ["x"]]])}\n` });
    const tree = new TraceTree();
    await inspectLog(real(Uri.file(join(dir, "a.log"))), tree);
    fake.shown.length = 0;
    fake.answers.saveDialog.push(Uri.file(join(dir, "out.turn.json")));
    expect(await turnIntoFixture(traceNodes(tree)[0], panels)).toBeDefined();
    expect(fake.shown).toEqual([
      {
        kind: "warning",
        message:
          "Palette Inspector: the replay differs from the log in 1 way; see the log for how.",
      },
    ]);
    expect(logged()).toMatch(/see the log for how\.\n {2}stage 'role' \(abstain\) dropped/);
    expect(await turnIntoFixture({ kind: "problems" } as TraceNode, panels)).toBeUndefined();
  });

  it("Turn into Fixture and the comparisons say when the log cannot be read again", async () => {
    const dir = written({ "a.log": `${traceLine("t-1", [["role", "select", []]])}\n` });
    const tree = new TraceTree();
    await inspectLog(real(Uri.file(join(dir, "a.log"))), tree);
    const [node] = traceNodes(tree);
    writeFileSync(join(dir, "a.log"), "");
    fake.shown.length = 0;
    const { compared, spy } = spyPanels();
    expect(await turnIntoFixture(node, spy)).toBeUndefined();
    await compareWithReplay(node, spy);
    await compareTraces([node!, node!], spy);
    expect(fake.shown.map((s) => s.message)).toEqual([
      "Palette Inspector: cannot read the selection trace.",
      "Palette Inspector: cannot compare the trace with its replay.",
      "Palette Inspector: cannot compare the traces.",
    ]);
    expect(compared).toEqual([]);
    await compareWithReplay(undefined, spy);
    expect(fake.shown).toHaveLength(3);
  });

  it("Compare Traces compares exactly two selected traces, in order", async () => {
    const tree = new TraceTree();
    await inspectLog(real(exampleLog("agent.log")), tree);
    fake.shown.length = 0;
    const nodes = traceNodes(tree);
    const { compared, spy } = spyPanels();
    await compareTraces([nodes[3]!, tree.getChildren()[0]!, nodes[1]!], spy);
    expect(compared.map(([a, b]) => [a.origin, b.origin])).toEqual([
      [
        { kind: "log", line: expect.any(Number), index: 3 },
        { kind: "log", line: expect.any(Number), index: 1 },
      ],
    ]);
    await compareTraces([nodes[0]!], spy);
    await compareTraces(undefined, spy);
    expect(fake.shown.map((s) => s.message)).toEqual([
      "Palette Inspector: select exactly two traces (Ctrl/Cmd+click) to compare them.",
      "Palette Inspector: select exactly two traces (Ctrl/Cmd+click) to compare them.",
    ]);
    expect(compared).toHaveLength(1);
  });
});

describe("the Selection Traces view's items", () => {
  /** A set of two files: a.log holds the given lines, b.log.gz one plain trace; problems in both. */
  function twoFiles(lines: string[]): LogSet {
    const index = new TraceIndex();
    for (const found of scanText(lines.join("\n")).traces) index.add(found, 0);
    for (const found of scanText(traceLine("t-b", [])).traces) index.add(found, 1);
    index.addProblem({ file: 0, line: 4, message: "broken JSON" });
    index.addProblem({ file: 1, line: 2, message: "truncated" });
    index.addProblem({ file: 0, line: null, message: "binary" });
    index.finish();
    const files = [real(Uri.file("/logs/a.log")), real(Uri.file("/logs/b.log.gz"))];
    return { roots: [real(Uri.file("/logs"))], files, index, cancelled: false };
  }
  const plainLine = JSON.stringify({ trace: [] });
  const failed = JSON.stringify({
    turn_id: "t-e",
    ts: "09:00",
    forced_choice: "f",
    error: "x",
    trace: [],
  });

  it("keeps the opened sets under a key that stays the same across versions", () => {
    expect(OPENED_SETS_KEY).toBe("paletteInspector.openedLogSets");
  });

  it("describes a set of several files, a trace of each kind and each problem, in full", () => {
    const set = twoFiles([plainLine, failed]);
    const tree = new TraceTree();
    tree.setSet(set);
    const [root] = tree.getChildren();
    const setItem = tree.getTreeItem(root!);
    expect({ ...setItem }).toEqual({
      label: "/logs",
      id: "file:///logs",
      collapsibleState: TreeItemCollapsibleState.Expanded,
      description: "3 traces in 2 files",
      tooltip: "/logs/a.log\n/logs/b.log.gz",
      iconPath: new ThemeIcon("files"),
      resourceUri: Uri.file("/logs"),
      contextValue: "paletteInspector.logSet",
    });
    const children = tree.getChildren(root);
    expect(children.map((node) => node.kind)).toEqual(["trace", "trace", "trace", "problems"]);
    const [plain, error, other] = children.map((node) => tree.getTreeItem(node));
    expect({ ...plain }).toEqual({
      label: "#1 · 0 tools",
      id: "file:///logs\n#0",
      collapsibleState: TreeItemCollapsibleState.None,
      description: "a.log:1",
      tooltip: "#1 · /logs/a.log:1",
      iconPath: new ThemeIcon("type-hierarchy"),
      contextValue: "paletteInspector.trace",
      command: {
        command: "paletteInspector.openTrace",
        title: "Open Selection Trace",
        arguments: [children[0]],
      },
      accessibilityInformation: { label: "Trace #1, 0 tools, line 1 of a.log, 0 stages" },
    });
    expect(error!.iconPath).toEqual(new ThemeIcon("error", new ThemeColor("errorForeground")));
    expect(error!.accessibilityInformation!.label).toBe(
      "Trace #2, turn t-e, 0 tools, forced f, line 2 of a.log, 09:00, 0 stages, failed",
    );
    expect(other!.description).toBe("b.log.gz:1");
    const problems = tree.getChildren(children[3]);
    expect(tree.getTreeItem(children[3]!)).toMatchObject({
      label: "Problems (3)",
      collapsibleState: TreeItemCollapsibleState.Collapsed,
      iconPath: new ThemeIcon("warning"),
    });
    const [broken, truncated, binary] = problems.map((node) => tree.getTreeItem(node));
    expect({ ...broken }).toEqual({
      label: "a.log line 4: broken JSON",
      collapsibleState: TreeItemCollapsibleState.None,
      command: {
        command: "vscode.open",
        title: "Go to line",
        arguments: [set.files[0], { selection: new Range(3, 0, 3, 0) }],
      },
    });
    expect(truncated!.label).toBe("b.log.gz line 2: truncated");
    expect(truncated!.command).toBeUndefined();
    expect(binary!.label).toBe("a.log: binary");
    expect(binary!.command).toBeUndefined();
    // Leaves have no children.
    expect(tree.getChildren(children[0])).toEqual([]);
    expect(tree.getChildren(problems[0])).toEqual([]);
  });

  it("a set of one log: its own icon and resource, no file names, a degraded trace, a problem with no place", () => {
    const degraded = JSON.stringify({
      trace: [loggedRecord("role", "select", { degraded: true, reasons: {} })],
    });
    const index = indexOf([plainLine, degraded].join("\n"));
    index.addProblem({ file: 0, line: null, message: "binary" });
    const file = real(Uri.file("/logs/a.log"));
    const tree = new TraceTree();
    tree.setSet({ roots: [file], files: [file], index, cancelled: false });
    const [root] = tree.getChildren();
    expect(tree.getTreeItem(root!)).toMatchObject({
      label: "/logs/a.log",
      description: "2 traces",
      tooltip: "/logs/a.log",
      iconPath: new ThemeIcon("output"),
      resourceUri: file,
    });
    const children = tree.getChildren(root);
    const items = children.map((node) => tree.getTreeItem(node));
    expect(items[0]!.accessibilityInformation!.label).toBe("Trace #1, 0 tools, line 1, 0 stages");
    expect(items[1]!.iconPath).toEqual(
      new ThemeIcon("warning", new ThemeColor("list.warningForeground")),
    );
    expect(tree.getChildren(children[2]).map((node) => tree.getTreeItem(node).label)).toEqual([
      "binary",
    ]);
  });

  it("an id-less, time-less trace is labelled by its number, which its description does not repeat", () => {
    const tree = treeOf([plainLine]);
    const [root] = tree.getChildren();
    const children = tree.getChildren(root);
    expect(children.map((node) => node.kind)).toEqual(["trace"]);
    expect(tree.getTreeItem(children[0]!)).toMatchObject({
      label: "#1 · 0 tools",
      description: "line 1",
    });
  });

  it("a several-roots set is named by its first and how many more, with no resource", () => {
    const a = real(Uri.file("/logs/a.log"));
    const b = real(Uri.file("/logs/b.log"));
    const tree = new TraceTree();
    tree.setSet({ roots: [a, b], files: [a, b], index: indexOf(plainLine), cancelled: false });
    const item = tree.getTreeItem(tree.getChildren()[0]!);
    expect(item).toMatchObject({ label: "/logs/a.log + 1 more" });
    expect(item.resourceUri).toBeUndefined();
  });

  it("the last page's Show More names how many remain", () => {
    const tree = new TraceTree();
    const index = indexOf(Array.from({ length: PAGE_SIZE + 3 }, () => plainLine).join("\n"));
    const file = real(Uri.file("/logs/a.log"));
    const set: LogSet = { roots: [file], files: [file], index, cancelled: false };
    tree.setSet(set);
    const more = tree.getChildren(tree.getChildren()[0]).at(-1)!;
    expect({ ...tree.getTreeItem(more) }).toEqual({
      label: "Show 3 more (3 not shown)",
      collapsibleState: TreeItemCollapsibleState.None,
      command: { command: "paletteInspector.showMoreTraces", title: "Show more", arguments: [set] },
      iconPath: new ThemeIcon("ellipsis"),
    });
    // A set no longer listed shows its first page and cannot be paged.
    tree.removeSet(set);
    expect(() => tree.showMore(set)).not.toThrow();
    expect(tree.getChildren({ kind: "set", set })).toHaveLength(PAGE_SIZE + 1);
  });

  it("counts the filter choices over every listed set, and finds a line's trace in whichever set lists it", () => {
    const tree = treeOf([traceLine("t-1", [["role", "select", ["x"]]])]);
    const b = real(Uri.file("/logs/b.log"));
    const index = indexOf([plainLine, traceLine("t-2", [["role", "select", ["x"]]])].join("\n"));
    tree.setSet({ roots: [b], files: [b], index, cancelled: false });
    const choices = tree.filterChoices();
    expect(choices.dropped).toEqual(new Map([["x", 2]]));
    expect(choices.stages).toEqual(new Map([["role", new Map([["select", 2]])]]));
    expect(tree.listedIndex(b, 2)).toBe(1);
    expect(tree.listedIndex(b, 3)).toBeUndefined();
    expect(tree.listedIndex(real(Uri.file("/logs/c.log")), 1)).toBeUndefined();
  });

  it("remembers only well-formed saved sets, and forgets one without touching the others", () => {
    const state = memento();
    state.values.set(OPENED_SETS_KEY, [
      ["file:///a.log"],
      "junk",
      [1, "file:///b.log"],
      ["file:///c.log", "file:///d.log"],
    ]);
    const tree = new TraceTree(state);
    expect(tree.savedSets().map((roots) => roots.map(String))).toEqual([
      ["file:///a.log"],
      ["file:///c.log", "file:///d.log"],
    ]);
    tree.forget([real(Uri.parse("file:///a.log"))]);
    expect(state.values.get(OPENED_SETS_KEY)).toEqual([["file:///c.log", "file:///d.log"]]);
    state.values.set(OPENED_SETS_KEY, { not: "a list" });
    expect(tree.savedSets()).toEqual([]);
    expect(() => new TraceTree().forget([real(Uri.parse("file:///a.log"))])).not.toThrow();
  });

  it("tells the view of every change until it is disposed", () => {
    const tree = treeOf([plainLine]);
    let changes = 0;
    tree.onDidChangeTreeData(() => changes++);
    tree.setFilter({ kind: "errors" });
    expect(changes).toBe(1);
    tree.dispose();
    tree.setFilter(null);
    expect(changes).toBe(1);
  });
});

describe("the Selection Traces view at scale", () => {
  const { contexts, run, register } = filterCommands();
  afterEach(() => {
    vi.useRealTimers();
  });
  const timed = (id: string, ts: string, tool = "x") =>
    JSON.stringify({
      turn_id: id,
      ts,
      trace: [loggedRecord("intent", "select", { dropped: [tool] })],
    });
  const lines = [
    timed("t-alpha", "2025-03-14 09:00:00", "calendar_lookup"),
    timed("t-beta", "2025-03-14 10:30:00"),
    timed("t-gamma", "2025-03-15 08:00:00"),
  ];
  const description = (tree: TraceTree, set = 0) =>
    tree.getTreeItem(tree.getChildren()[set]!).description;

  it("a filter belongs to the sets listed when it was set: a set scanned later shows all its traces", async () => {
    const tree = treeOf(lines);
    register(tree);
    tree.setFilter({ kind: "dropped", tool: "calendar_lookup" });
    expect(description(tree)).toBe("where 'calendar_lookup' was dropped: 1 of 3 traces");
    const big = real(Uri.file("/logs/big.log"));
    tree.setSet({
      roots: [big],
      files: [big],
      index: indexOf(lines.slice(1).join("\n")),
      cancelled: false,
    });
    expect(description(tree, 1)).toBe("2 traces");
    expect(traceNodes(tree, 1)).toHaveLength(2);
    expect(description(tree)).toBe("where 'calendar_lookup' was dropped: 1 of 3 traces");
    expect(contexts.get("paletteInspector.tracesFiltered")).toBe(true);
    // Scanned again, the filtered set comes back unfiltered, and nothing is filtered any more.
    const set = real(Uri.file("/logs/set.log"));
    tree.setSet({ roots: [set], files: [set], index: indexOf(lines.join("\n")), cancelled: false });
    expect(description(tree)).toBe("3 traces");
    expect(tree.filter).toBeNull();
    expect(contexts.get("paletteInspector.tracesFiltered")).toBe(false);
  });

  it("filters by a text in the turn id, the time, a stage or a dropped tool, in any case", async () => {
    const tree = treeOf(lines);
    register(tree);
    const matching = (text: string) => {
      tree.setFilter({ kind: "text", text });
      return [...tree.visible((tree.getChildren()[0] as { set: LogSet }).set)];
    };
    expect(matching("BETA")).toEqual([1]);
    expect(matching("03-15")).toEqual([2]);
    expect(matching("calendar")).toEqual([0]);
    expect(matching("inTent")).toEqual([0, 1, 2]);
    expect(matching("nowhere")).toEqual([]);
    fake.answers.inputBox.push("  ALPHA ");
    await run("filterTracesByText");
    expect(tree.filter).toEqual({ kind: "text", text: "ALPHA" });
    expect(description(tree)).toBe("matching 'ALPHA': 1 of 3 traces");
    const validate = fake.inputBoxes[0]!.validateInput!;
    expect(validate("  ")).toBe("Type some text to look for.");
    expect(validate("x".repeat(201))).toBe("At most 200 characters.");
    expect(validate("t-1")).toBeUndefined();
  });

  it("filters by a time range, either end open, a date standing for the whole day", async () => {
    const tree = treeOf([...lines, timed("t-epoch", "1741946400"), JSON.stringify({ trace: [] })]);
    register(tree);
    fake.answers.inputBox.push("2025-03-14 09:30 .. 2025-03-14");
    await run("filterTracesByTime");
    expect(tree.filter).toMatchObject({ kind: "time" });
    // t-epoch is 2025-03-14 10:00:00 UTC in epoch seconds; the trace with no time is left out.
    expect([...tree.visible((tree.getChildren()[0] as { set: LogSet }).set)]).toEqual([1, 3]);
    expect(description(tree)).toBe(
      "from 2025-03-14 09:30:00 UTC to 2025-03-14 23:59:59.999 UTC: 2 of 5 traces",
    );
    expect(parseTimeRange("2025-03-15 ..")).toEqual({
      kind: "time",
      from: Date.UTC(2025, 2, 15),
      to: null,
    });
    expect(parseTimeRange(".. 2025-03-14 09:00+01:00")).toEqual({
      kind: "time",
      from: null,
      to: Date.UTC(2025, 2, 14, 8),
    });
    expect(parseTimeRange("2025-03-14")).toBe(
      "write the range as FROM .. TO (either end may be left out)",
    );
    expect(parseTimeRange("yesterday ..")).toBe(
      "'yesterday' is not a time (2025-03-14 09:27:04, a date, or epoch seconds)",
    );
    expect(parseTimeRange(" .. ")).toBe("give at least one end of the range");
    expect(parseTimeRange("2025-03-15 .. 2025-03-14")).toBe("the range ends before it starts");
    const validate = fake.inputBoxes[0]!.validateInput!;
    expect(validate("2025-03-14 ..")).toBeUndefined();
    expect(validate("soon")).toBe("write the range as FROM .. TO (either end may be left out)");
  });

  it("the text, time and error filters ask to find traces first when nothing is listed", async () => {
    register(new TraceTree());
    await run("filterTracesByText");
    await run("filterTracesByTime");
    await run("filterTracesWithErrors");
    expect(fake.inputBoxes).toHaveLength(0);
    expect(contexts.size).toBe(0);
    expect(fake.shown.map((s) => s.message)).toEqual(
      Array(3).fill(expect.stringMatching(/find the selection traces in a log first/i)),
    );
  });

  it("Go to Trace #N lists enough pages, clears a filter that hides it, reveals, selects and opens it", async () => {
    const many = Array.from({ length: PAGE_SIZE * 2 + 10 }, (_, i) =>
      traceLine(`t-${i}`, [["intent", "select", i === 7 ? ["x"] : []]]),
    );
    const tree = treeOf(many);
    tree.setFilter({ kind: "dropped", tool: "x" });
    const revealed: { node: TraceNode; options: unknown }[] = [];
    const opened: TraceItemNode[] = [];
    const view = {
      reveal: async (node: TraceNode, options: unknown) => void revealed.push({ node, options }),
    };
    fake.answers.inputBox.push(" #1001 ");
    await goToTrace(tree, view, async (node) => void opened.push(node));
    expect(fake.inputBoxes[0]!.prompt).toBe("The trace's number, as the view shows it (1–1,010)");
    const validate = fake.inputBoxes[0]!.validateInput!;
    expect(validate("0")).toBe("A trace number from 1 to 1,010.");
    expect(validate("1011")).toBe("A trace number from 1 to 1,010.");
    expect(validate("12a")).toBe("A trace number from 1 to 1,010.");
    expect(fake.progress.map((p) => p.title)).toContain("Opening trace #1,001");
    expect(validate("#26")).toBeUndefined();
    expect(tree.filter).toBeNull();
    expect(opened.map((node) => node.index)).toEqual([1000]);
    expect(revealed).toEqual([{ node: opened[0], options: { select: true, focus: true } }]);
    // The revealed trace is listed (the third page), under its set, with the id reveal finds it by.
    const listed = traceNodes(tree);
    expect(listed).toHaveLength(1010);
    const item = tree.getTreeItem(opened[0]!);
    expect(item.id).toBe(tree.getTreeItem(listed[1000]!).id);
    expect(tree.getParent(opened[0]!)).toEqual({ kind: "set", set: opened[0]!.set });
  });

  it("Go to Trace asks the number first, then which of the sets that hold it, and says what to do when none is listed", async () => {
    const opened: number[] = [];
    await goToTrace(
      new TraceTree(),
      { reveal: async () => {} },
      async (node) => void opened.push(node.index),
    );
    expect(fake.shown.at(-1)!.message).toMatch(/find the selection traces in a log first/i);
    const tree = treeOf(lines);
    const other = real(Uri.file("/logs/other.log"));
    tree.setSet({ roots: [other], files: [other], index: indexOf(lines[0]!), cancelled: false });
    fake.answers.quickPick.push((items: { set: LogSet }[]) => items[1]);
    fake.answers.inputBox.push("#1");
    await goToTrace(tree, { reveal: async () => {} }, async (node) => void opened.push(node.index));
    expect((fake.quickPicks[0]!.items as { label: string }[]).map((i) => i.label)).toEqual([
      "/logs/set.log",
      "/logs/other.log",
    ]);
    expect((fake.quickPicks[0]!.options as { title: string }).title).toBe(
      "Go to Trace #1: in which logs?",
    );
    expect(opened).toEqual([0]);
    // A number only one set holds goes there without asking.
    fake.answers.inputBox.push(String(lines.length));
    await goToTrace(tree, { reveal: async () => {} }, async (node) => void opened.push(node.index));
    expect(fake.quickPicks).toHaveLength(1);
    expect(opened).toEqual([0, lines.length - 1]);
  });

  it("lists traces as they are found: at once, then at most every 250 ms, and all at the end", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    const calls: number[] = [];
    let n = 0;
    const refresh = throttled(() => calls.push(n), 250);
    n = 1;
    refresh.call();
    n = 2;
    refresh.call();
    n = 3;
    refresh.call();
    expect(calls).toEqual([1]);
    vi.advanceTimersByTime(250);
    expect(calls).toEqual([1, 3]);
    vi.advanceTimersByTime(1000);
    expect(calls).toEqual([1, 3]);
    refresh.call();
    refresh.cancel();
    vi.advanceTimersByTime(1000);
    expect(calls).toEqual([1, 3, 3]);

    // A scan: the set is listed before it ends, marked as scanning.
    const dir = tempDir("pi-logs-");
    writeFileSync(join(dir, "a.log"), lines.join("\n") + "\n");
    const tree = new TraceTree();
    const seen: string[] = [];
    tree.onDidChangeTreeData(() => {
      const [root] = tree.getChildren();
      if (root) seen.push(String(tree.getTreeItem(root).description));
    });
    await inspectLog(real(Uri.file(join(dir, "a.log"))), tree);
    expect(seen[0]).toBe("0 traces so far (scanning, 0%)");
    expect(seen).toContainEqual(expect.stringMatching(/^1 trace so far \(scanning, \d+%\)$/));
    expect(seen).toHaveLength(3);
    expect(seen.at(-1)).toBe("3 traces");
  });
});

describe("Open log at line N for a log no editor opens", () => {
  const gzLog = () => Uri.file(join(logFolder({ "agent.log.gz": "agent.log" }), "agent.log.gz"));
  const excerptOf = async () => {
    const shownDoc = fake.shownDocuments.at(-1)!;
    const document = await workspace.openTextDocument(shownDoc.uri);
    return { shownDoc, lines: document.getText().split("\n") };
  };

  it("a .gz opens the lines around the trace's line, read-only, titled by file and line, the line selected", async () => {
    fake.contentProviders.set(LOG_EXCERPT_SCHEME, new LogExcerpts());
    const uri = gzLog();
    const tree = new TraceTree();
    await inspectLog(real(uri), tree);
    const node = traceNodes(tree)[4]!;
    await openTrace(node, undefined, panels);
    const line = shown.reports[0]!.origin.kind === "log" ? shown.reports[0]!.origin.line : 0;
    const text = readFileSync("examples/logs/agent.log", "utf8").split("\n");
    await openLogLine(real(uri), line);
    const { shownDoc, lines } = await excerptOf();
    expect(shownDoc.uri.scheme).toBe(LOG_EXCERPT_SCHEME);
    expect(shownDoc.uri.path).toBe(`/agent.log.gz:${line}`);
    expect(lines[0]).toBe(
      `${uri.fsPath}, lines 1–${text.length - 1}: a read-only excerpt (a .gz, or a file over 50 MB, does not open in an editor); ▶ marks line ${line}`,
    );
    const at = shownDoc.selection!.start.line;
    expect(lines[at]).toBe(`▶ ${line}  ${text[line - 1]}`);
    expect(lines[at - 1]).toBe(`  ${line - 1}  ${text[line - 2]}`);
    expect(lines[2]).toBe(`  1  ${text[0]}`);
    expect(shownDoc.options).toMatchObject({ viewColumn: ViewColumn.One, preserveFocus: false });
  });

  it("a line no trace starts at is found by counting lines; a line past the end says so", async () => {
    fake.contentProviders.set(LOG_EXCERPT_SCHEME, new LogExcerpts());
    const uri = gzLog();
    const text = readFileSync("examples/logs/agent.log", "utf8").split("\n");
    await openLogLine(real(uri), 2);
    const { shownDoc, lines } = await excerptOf();
    expect(lines[shownDoc.selection!.start.line]).toBe(`▶ 2  ${text[1]}`);
    await openLogLine(real(uri), 9999);
    expect(fake.shown.at(-1)).toMatchObject({
      kind: "error",
      message: expect.stringMatching(/cannot show line 9999 of .*agent\.log\.gz/),
    });
  });

  it("a big plain file is read at the recorded offset, with a long line cut and the lines around it", async () => {
    const dir = tempDir("pi-logs-");
    const before = Array.from({ length: 100 }, (_, i) => `line ${i + 1}`);
    const long = "x".repeat(70_000);
    const path = join(dir, "big.log");
    writeFileSync(path, [...before, long, "after"].join("\n") + "\n");
    const offset = before.join("\n").length + 1;
    const excerpt = await readExcerpt(path, 101, { offset });
    expect(excerpt.firstLine).toBe(101 - CONTEXT_LINES);
    expect(excerpt.lines[excerpt.at]).toBe(`${"x".repeat(2000)}…`);
    expect(excerpt.lines[0]).toBe(`line ${101 - CONTEXT_LINES}`);
    // The range ends inside the long line: nothing after it is made up.
    expect(excerpt.lines).toHaveLength(CONTEXT_LINES + 1);
    expect((await readExcerpt(path, 3)).lines.slice(0, 3)).toEqual(["line 1", "line 2", "line 3"]);
  });

  it("opens an ordinary log in the editor; only a .gz or a file over 50 MB gets an excerpt", async () => {
    expect(opensInEditor("/l/a.log", MAX_EDITOR_BYTES)).toBe(true);
    expect(opensInEditor("/l/a.log", MAX_EDITOR_BYTES + 1)).toBe(false);
    expect(opensInEditor("/l/a.log.GZ", 10)).toBe(false);
    const uri = exampleLog("agent.log");
    await openLogLine(real(uri), 7);
    expect(fake.shownDocuments.at(-1)).toMatchObject({
      uri,
      selection: new Range(6, 0, 6, 0),
    });
  });

  it("an excerpt URI this window did not open shows nothing of any file, whatever it names", async () => {
    const provider = new LogExcerpts();
    const token = { isCancellationRequested: false } as vscode.CancellationToken;
    for (const hostile of [
      "palette-inspector-log:/passwd:1?0",
      "palette-inspector-log:/etc/passwd:1?../../etc/passwd",
      "palette-inspector-log:/x:1?99999999999",
    ])
      expect(await provider.provideTextDocumentContent(real(Uri.parse(hostile)), token)).toBe(
        "This excerpt of a log is no longer available: open it again from its Selection Trace panel.\n",
      );
    // An opened excerpt's number with another title is refused too.
    fake.contentProviders.set(LOG_EXCERPT_SCHEME, provider);
    await openLogLine(real(gzLog()), 1);
    const { query } = fake.shownDocuments.at(-1)!.uri;
    const forged = Uri.from({ scheme: LOG_EXCERPT_SCHEME, path: "/shadow:1", query });
    expect(await provider.provideTextDocumentContent(real(forged), token)).toMatch(
      /no longer available/,
    );
  });
});
