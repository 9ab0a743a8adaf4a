import {
  copyFileSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { join, resolve } from "node:path";
import { gzipSync } from "node:zlib";
import type * as vscode from "vscode";
import { beforeEach, describe, expect, it, vi } from "vitest";
import type { RunReport } from "../../src/core/report.js";
import { TraceTree, type LogSet } from "../../src/extension/logs/trace-tree.js";
import { isLogFileName } from "../../src/node/log-source.js";
import { TraceIndex } from "../../src/node/trace-index.js";
import { checkpointsOf } from "../../src/node/gzip-checkpoints.js";
import { readLogStats, SAMPLES_PER_STAGE } from "../../src/extension/stats/read-stats.js";
import { statsRows } from "../../src/core/stats/rows.js";
import { inspectLog } from "../../src/extension/logs/log-commands.js";
import { LOG_EXTENSIONS } from "../../src/extension/logs/pick-logs.js";
import { webviewOptions } from "../../src/extension/webview-session.js";
import type { TracePanels } from "../../src/extension/panel/panels.js";
import { showStatistics, statisticsTargets } from "../../src/extension/stats/stats-command.js";
import { STATS_VIEW_TYPE, StatsPanels } from "../../src/extension/stats/stats-panels.js";
import {
  parseFromStatsView,
  parseStatsPanelState,
  parseToStatsView,
  toolColumns,
  type ToStatsView,
} from "../../src/stats-protocol.js";
import { env, fake, Uri, ViewColumn, webviewFake, type FakeWebviewPanel } from "../fakes/vscode.js";
import { tempDir } from "../helpers/temp.js";

// The workspace is the fake's in-memory disk; the real writer is tested in chosen-file.test.ts.
vi.mock("../../src/extension/chosen-file.js", () => import("../fakes/chosen-file.js"));

const real = (uri: Uri) => uri as unknown as vscode.Uri;
const LOGS = Uri.file(resolve("examples/logs"));
let opened: { report: RunReport; tool: string | undefined; open: unknown }[] = [];
const traces = {
  showReport: (report: RunReport, _label?: string, tool?: string, open?: unknown) =>
    opened.push({ report, tool, open }),
} as unknown as TracePanels;

beforeEach(() => {
  fake.reset();
  webviewFake.reset();
  opened = [];
  fake.addWorkspaceFolder(resolve("."));
});

function posted(panel: FakeWebviewPanel, type: ToStatsView["type"]) {
  const found = panel.webview.posted.filter((m) => (m as { type: string }).type === type).at(-1);
  return parseToStatsView(found, () => {}) as ToStatsView;
}

async function openOnExamples() {
  const panels = new StatsPanels(real(Uri.file(resolve("."))), traces);
  const session = await panels.show([real(LOGS)]);
  const panel = webviewFake.panels.at(-1)!;
  panel.webview.receive({ type: "ready" });
  return { panels, session: session!, panel };
}

describe("Palette Statistics view (host)", () => {
  it("reads a folder of logs and sends the statistics its own page shows, after the page is ready", async () => {
    const { panel } = await openOnExamples();
    expect(panel.viewType).toBe(STATS_VIEW_TYPE);
    expect(panel.showOptions).toEqual({ viewColumn: ViewColumn.Active });
    expect(panel.title).toBe("Palette Statistics: logs");
    expect(panel.webview.html).toContain("/dist/stats-webview.js");
    expect(panel.webview.html).toContain("<title>Palette Statistics</title>");
    const message = posted(panel, "stats");
    if (message.type !== "stats") throw new Error("no statistics posted");
    expect(message.view.traces).toBe(42);
    expect(message.view.problems).toBe(4);
    expect(message.view.files).toEqual(
      readdirSync("examples/logs")
        .filter(isLogFileName)
        .sort()
        .map((name) => `examples/logs/${name}`),
    );
    expect(message.view.sources).toEqual([LOGS.toString()]);
    const i = message.view.tools.names.indexOf("ask_human");
    expect([message.view.tools.topStage[i], message.view.tools.topCount[i]]).toEqual(["role", 35]);
  });

  it("lists the traces where a tool went missing by stage, and opens one with that tool selected", async () => {
    const { panel } = await openOnExamples();
    panel.webview.receive({ type: "missing", requestId: 4, tool: "ask_human" });
    await new Promise((r) => setTimeout(r, 0));
    const answer = posted(panel, "missing");
    if (answer.type !== "missing") throw new Error("no answer");
    expect(answer.requestId).toBe(4);
    expect(answer.groups.map((g) => [g.stage, g.total, g.traces.length])).toEqual([
      ["role", 35, SAMPLES_PER_STAGE],
      ["intent", 6, 6],
    ]);
    const trace = answer.groups[1]!.traces[0]!;
    panel.webview.receive({ type: "openTrace", ref: trace.ref, tool: "ask_human" });
    await vi.waitFor(() => expect(opened).toHaveLength(1));
    expect(opened[0]!.tool).toBe("ask_human");
    // In the preview panel, as a click in the Selection Traces view opens one.
    expect(opened[0]!.open).toEqual({ preview: true });
    expect(opened[0]!.report.origin).toMatchObject({ kind: "log", line: trace.line });
    expect(opened[0]!.report.names).not.toContain("ask_human");
    expect(opened[0]!.report.trace.find((r) => r.dropped.includes("ask_human"))?.stage).toBe(
      "intent",
    );
  });

  it("opens a trace of a set whose spans and log records are in separate files with what its model called", async () => {
    const dir = resolve("test/otel-libs/recordings/official-openai");
    const files = ["logs", "spans"].map((signal) =>
      real(Uri.file(join(dir, `chat-separate-files.${signal}.otlp.jsonl`))),
    );
    await new StatsPanels(real(Uri.file(resolve("."))), traces).show(files);
    const panel = webviewFake.panels.at(-1)!;
    panel.webview.receive({ type: "ready" });
    panel.webview.receive({ type: "missing", requestId: 1, tool: "search" });
    await new Promise((r) => setTimeout(r, 0));
    const answer = posted(panel, "missing");
    if (answer.type !== "missing") throw new Error("no answer");
    panel.webview.receive({
      type: "openTrace",
      ref: answer.groups[0]!.traces[0]!.ref,
      tool: "search",
    });
    await vi.waitFor(() => expect(opened).toHaveLength(1));
    expect(opened[0]!.report.model).toMatchObject({ called: ["get_weather"] });
  });

  it("marks the traces that failed before the model was called apart from the stages' drops", async () => {
    const { session } = await openOnExamples();
    expect(session.missing("final_answer").map((g) => [g.stage, g.failed, g.total])).toEqual([
      ["ForcedToolUnavailable", true, 2],
    ]);
    expect(session.missing("ask_human").every((g) => !g.failed)).toBe(true);
  });

  it("compares its set (NEW) with logs the user picks (OLD) and sends the changes, biggest first", async () => {
    const panels = new StatsPanels(real(Uri.file(resolve("."))), traces);
    await panels.show([real(Uri.file(resolve("examples/before-after/after.jsonl")))]);
    const panel = webviewFake.panels.at(-1)!;
    panel.webview.receive({ type: "ready" });
    fake.answers.saveDialog.push(real(Uri.file(resolve("examples/before-after/before.jsonl"))));
    panel.webview.receive({ type: "compare", requestId: 3 });
    await vi.waitFor(() => expect(posted(panel, "comparison")).toBeTruthy());
    const answer = posted(panel, "comparison");
    if (answer.type !== "comparison") throw new Error("no comparison");
    expect([answer.requestId, answer.view.oldTraces, answer.view.newTraces]).toEqual([3, 40, 40]);
    expect(answer.view.against).toEqual(["examples/before-after/before.jsonl"]);
    expect(answer.view.tools[0]).toMatchObject({
      name: "ask_human",
      old: { seen: 40, final: 40, rate: 1 },
      new: { seen: 40, final: 8, rate: 0.2 },
      stage: { stage: "role", failed: false, old: 0, new: 0.8 },
    });
    fake.answers.saveDialog.push(undefined);
    panel.webview.receive({ type: "compare", requestId: 4 });
    await vi.waitFor(() =>
      expect(posted(panel, "reply")).toEqual({
        type: "reply",
        requestId: 4,
        ok: false,
        message: "Not compared.",
      }),
    );
  });

  it("copies the tables as Markdown and saves them as CSV, in the order the view asks", async () => {
    const { panel } = await openOnExamples();
    panel.webview.receive({ type: "copyMarkdown", requestId: 1, tools: ["sql", "ask_human"] });
    await new Promise((r) => setTimeout(r, 0));
    const rows = fake.clipboard.split("\n").filter((line) => line.startsWith("| "));
    expect(rows[0]).toBe("| tool | seen | final | final % | forced | missing | removed by |");
    expect(rows.slice(2, 4).map((row) => row.split(" | ")[0])).toEqual(["| sql", "| ask\\_human"]);
    const target = Uri.file(resolve("stats-out.csv"));
    fake.answers.saveDialog.push(target);
    panel.webview.receive({ type: "saveCsv", requestId: 2, tools: ["ask_human"] });
    await new Promise((r) => setTimeout(r, 0));
    expect(fake.files.get(target.toString())).toMatch(
      /^"tool","seen","final","final %","forced","missing","removed by"\r\n"ask_human","42","1","2%","0","41","role 85%, intent 15%"\r\n\r\n"stage",/,
    );
    expect(posted(panel, "reply")).toEqual({
      type: "reply",
      requestId: 2,
      ok: true,
      message: "Saved stats-out.csv.",
    });
  });

  it("answers a copy or a save that fails, so the page never waits for its reply", async () => {
    const { panel } = await openOnExamples();
    const writeText = vi.spyOn(env.clipboard, "writeText").mockRejectedValueOnce(new Error("busy"));
    panel.webview.receive({ type: "copyMarkdown", requestId: 7, tools: [] });
    await vi.waitFor(() =>
      expect(panel.webview.posted.some((m) => (m as { type: string }).type === "reply")).toBe(true),
    );
    expect(posted(panel, "reply")).toEqual({
      type: "reply",
      requestId: 7,
      ok: false,
      message: "That did not work: busy (details in the Palette Inspector log).",
    });
    writeText.mockRestore();
  });

  it("ignores and logs a malformed message", async () => {
    const { panel } = await openOnExamples();
    const before = panel.webview.posted.length;
    panel.webview.receive({ type: "openTrace", ref: -1, tool: "x" });
    panel.webview.receive({ type: "copyMarkdown", requestId: 1, tools: [3] });
    await new Promise((r) => setTimeout(r, 0));
    expect(panel.webview.posted.length).toBe(before);
    expect(fake.outputs.get("Palette Inspector")?.join("\n")).toContain("ignored a malformed");
  });

  it("a path that cannot be read is an error notification, and no view opens", async () => {
    const panels = new StatsPanels(real(Uri.file(resolve("."))), traces);
    expect(await panels.show([real(Uri.file(resolve("no-such.log")))])).toBeNull();
    expect(fake.outputs.get("Palette Inspector")!.join("\n")).toContain(
      `could not read the logs.\n  ${resolve("no-such.log")}: cannot read the file`,
    );
    expect(webviewFake.panels).toHaveLength(0);
    expect(fake.shown).toEqual([
      {
        kind: "error",
        message: "Palette Inspector: Palette statistics could not read the logs.",
      },
    ]);
  });

  it("a view open before a reload reads its logs again from its state", async () => {
    new StatsPanels(real(Uri.file(resolve("."))), traces);
    const panel = webviewFake.create(STATS_VIEW_TYPE, "Palette Statistics: logs", {});
    await webviewFake.serializers.get(STATS_VIEW_TYPE)!.deserializeWebviewPanel(panel, {
      sources: [LOGS.toString()],
      sort: { column: "name", descending: false },
      filter: "",
      tool: null,
    });
    panel.webview.receive({ type: "ready" });
    const message = posted(panel, "stats");
    expect(message.type === "stats" && message.view.traces).toBe(42);
  });
});

describe("which logs Palette Statistics means", () => {
  it("the explorer's selection, else the item, else the logs the Selection Traces view lists (a set stands for what it was opened on), each once", async () => {
    const tree = new TraceTree();
    const a = real(Uri.file("/w/a.log"));
    const b = real(Uri.file("/w/logs"));
    expect(await statisticsTargets(a, [a, b, a], tree)).toEqual([a, b]);
    expect(await statisticsTargets(a, undefined, tree)).toEqual([a]);
    const set: LogSet = { roots: [b, a], files: [a], index: new TraceIndex(), cancelled: false };
    expect(await statisticsTargets(undefined, [{ kind: "trace", set, index: 0 }], tree)).toEqual([
      b,
      a,
    ]);
    tree.setSet({ ...set, roots: [a] });
    expect(await statisticsTargets(undefined, [], tree)).toEqual([a]);
  });
});

describe("Palette Statistics of a set the Selection Traces view just scanned", () => {
  it("uses that scan's statistics while its files are unchanged, and reads them again once one changed or the scan was cancelled", async () => {
    const dir = tempDir("pi-stats-");
    for (const name of ["agent.log", "selection.jsonl"])
      copyFileSync(join("examples/logs", name), join(dir, name));
    const root = real(Uri.file(dir));
    const tree = new TraceTree();
    await inspectLog(root, tree);
    const panels = new StatsPanels(real(Uri.file(resolve("."))), traces);
    fake.progress.length = 0;
    const viewOf = async (arg: unknown) => {
      await showStatistics(arg, undefined, tree, panels);
      const panel = webviewFake.panels.at(-1)!;
      panel.webview.receive({ type: "ready" });
      const message = posted(panel, "stats");
      return message.type === "stats" ? message.view : null;
    };
    const reused = await viewOf(tree.getChildren()[0]);
    expect(fake.progress).toEqual([]);
    const read = await readLogStats([dir]);
    expect(reused).toMatchObject({ traces: read.stats.traces, problems: 0, cancelled: false });
    expect(reused!.tools).toEqual(toolColumns(statsRows(read.stats).tools));
    // A trace it lists opens from the scan's byte ranges.
    expect(panels.open.at(-1)!.missing("sql")[0]!.traces[0]!.file).toMatch(/\.(log|jsonl)$/);

    writeFileSync(join(dir, "agent.log"), readFileSync("examples/logs/agent.log", "utf8") + "\n");
    const changed = await viewOf(tree.getChildren()[0]);
    expect(fake.progress.map((p) => p.title)).toEqual([
      expect.stringMatching(/^Palette statistics: reading /),
    ]);
    expect(changed!.traces).toBe(read.stats.traces);

    fake.cancelNextProgress = true;
    await inspectLog(root, tree);
    fake.progress.length = 0;
    await viewOf(tree.getChildren()[0]);
    expect(fake.progress).toHaveLength(1);
  });
});

describe("the statistics protocol", () => {
  it.each([
    [{ type: "ready" }],
    [{ type: "missing", requestId: 1, tool: "sql" }],
    [{ type: "openTrace", ref: 0, tool: "sql" }],
    [{ type: "copyMarkdown", requestId: 2, tools: ["a", "b"] }],
    [{ type: "saveCsv", requestId: 3, tools: [] }],
    [{ type: "compare", requestId: 4 }],
  ])("accepts %j from the view", (message) =>
    expect(parseFromStatsView(message, () => {})).toEqual(message),
  );

  it.each([
    ["an unknown type", { type: "eval" }],
    ["a fractional ref", { type: "openTrace", ref: 0.5, tool: "a" }],
    ["tools that are not names", { type: "saveCsv", requestId: 1, tools: [{}] }],
    ["no request id", { type: "missing", tool: "a" }],
  ])("ignores and logs %s", (_why, message) => {
    const logged: string[] = [];
    expect(parseFromStatsView(message, (line) => logged.push(line))).toBeNull();
    expect(logged).toHaveLength(1);
  });

  it("refuses statistics whose tool columns differ in length", () => {
    const view = {
      sources: [],
      files: [],
      traces: 1,
      problems: 0,
      errors: [],
      stages: [],
      timeline: [],
      unreadableTimes: 0,
      cancelled: false,
      tools: {
        names: ["a", "b"],
        seen: [1],
        final: [1, 1],
        forced: [0, 0],
        missing: [0, 0],
        topStage: [null, null],
        topCount: [0, 0],
      },
    };
    expect(parseToStatsView({ type: "stats", view }, () => {})).toBeNull();
    view.tools.seen = [1, 1];
    expect(parseToStatsView({ type: "stats", view }, () => {})).not.toBeNull();
  });

  it("refuses a comparison whose rates are not rates or whose sides are unknown", () => {
    const side = { seen: 4, final: 3, forced: 0, rate: 0.75 };
    const tool = { name: "a", old: side, new: side, points: 0, stage: null, p: 1 };
    const view = {
      against: ["old.log"],
      oldTraces: 4,
      newTraces: 4,
      empty: [] as string[],
      tools: [tool],
      onlyOld: [],
      onlyNew: [],
      split: null,
      timeline: [],
      periods: { old: null, new: null },
    };
    const parse = (v: unknown) =>
      parseToStatsView({ type: "comparison", requestId: 1, view: v }, () => {});
    expect(parse(view)).not.toBeNull();
    expect(parse({ ...view, tools: [{ ...tool, p: 2 }] })).toBeNull();
    expect(parse({ ...view, tools: [{ ...tool, old: { ...side, rate: -1 } }] })).toBeNull();
    expect(parse({ ...view, empty: ["both"] })).toBeNull();
    expect(
      parse({ ...view, tools: [{ ...tool, stage: { stage: "role", old: 0, new: 0.5 } }] }),
    ).toBeNull();
  });

  it("keeps a persisted state only when it has its shape", () => {
    const state = {
      sources: ["file:///a"],
      sort: { column: "seen", descending: true },
      filter: "",
      tool: null,
    };
    expect(parseStatsPanelState(state)).toEqual(state);
    expect(
      parseStatsPanelState({ ...state, sort: { column: "evil", descending: true } }),
    ).toBeNull();
  });
});

describe("Palette Statistics view: what it sends and what it says", () => {
  const ext = () => real(Uri.file(resolve(".")));
  const logged = () => fake.outputs.get("Palette Inspector")?.join("\n") ?? "";
  const settle = () => new Promise((r) => setTimeout(r, 0));

  it("sends the statistics exactly as the core computes them, only once the page is ready", async () => {
    const panels = new StatsPanels(ext(), traces);
    await panels.show([real(LOGS)]);
    const panel = webviewFake.panels[0]!;
    expect(panel.createOptions).toEqual(webviewOptions(ext()));
    expect(panel.webview.options).toEqual(webviewOptions(ext()));
    panel.webview.receive({ type: "missing", requestId: 1, tool: "sql" });
    await settle();
    expect(panel.webview.posted).toEqual([]);
    panel.webview.receive({ type: "ready" });
    const read = await readLogStats([LOGS.fsPath]);
    const rows = statsRows(read.stats);
    expect(panel.webview.posted).toEqual([
      {
        type: "stats",
        view: {
          sources: [LOGS.toString()],
          files: read.files.map((file) => file.slice(resolve(".").length + 1)),
          traces: rows.traces,
          problems: rows.problems,
          errors: rows.errors,
          stages: rows.stages,
          tools: toolColumns(rows.tools),
          timeline: rows.timeline,
          unreadableTimes: read.stats.timeline.unreadable,
          cancelled: false,
        },
      },
    ]);
    expect(fake.progress.map((p) => p.title)).toEqual([
      "Palette statistics: reading examples/logs",
    ]);
    expect(fake.progress[0]!.messages.at(-1)).toBe("100%");
    expect(fake.shown).toEqual([]);
    expect(panel.webview.html).toContain("/media/stats.css");
    expect(panel.webview.html).toContain("/dist/codicons/codicon.css");
  });

  it("names the traces of a missing tool by file, line, time and id; an unknown tool has none", async () => {
    const { panel, session } = await openOnExamples();
    expect(session.missing("no_such_tool")).toEqual([]);
    const [group] = session.missing("ask_human").slice(1);
    const read = await readLogStats([LOGS.fsPath]);
    const refs = read.stats.tools.get("ask_human")!.samples.get("intent")!;
    expect(group!.traces).toEqual(
      refs.map((ref, i) => ({
        ref: i + SAMPLES_PER_STAGE,
        file: ref.path.slice(resolve(".").length + 1),
        line: ref.line,
        time: ref.time,
        id: ref.id,
      })),
    );
    expect(refs[0]).toMatchObject({ id: expect.any(String), time: expect.anything() });
    // Asked again, a trace keeps the ref the view was given.
    expect(session.missing("ask_human")[1]!.traces[0]!.ref).toBe(SAMPLES_PER_STAGE);
    panel.webview.receive({ type: "openTrace", ref: 999, tool: "ask_human" });
    await settle();
    expect(opened).toEqual([]);
    expect(fake.shown).toEqual([]);
  });

  it("a trace whose log is gone since is an error notification, and nothing opens", async () => {
    const dir = tempDir("pi-stats-");
    copyFileSync("examples/logs/agent.log", join(dir, "agent.log"));
    const panels = new StatsPanels(ext(), traces);
    const session = (await panels.show([real(Uri.file(dir))]))!;
    const panel = webviewFake.panels[0]!;
    panel.webview.receive({ type: "ready" });
    const [group] = session.missing("sql");
    rmSync(join(dir, "agent.log"));
    panel.webview.receive({ type: "openTrace", ref: group!.traces[0]!.ref, tool: "sql" });
    await vi.waitFor(() => expect(fake.shown).toHaveLength(1));
    expect(fake.shown[0]).toEqual({
      kind: "error",
      message: "Palette Inspector: The trace could not be opened.",
    });
    expect(logged()).toMatch(/The trace could not be opened\.\n {2}\S/);
    expect(opened).toEqual([]);
  });

  it("says which logs of several could not be read, and titles the view by their number", async () => {
    const panels = new StatsPanels(ext(), traces);
    const gone = real(Uri.file(resolve("no-such.log")));
    const session = await panels.show([real(LOGS), gone]);
    expect(session).not.toBeNull();
    // The logs read, each once: the folder's, not the one that is gone.
    const read = readdirSync("examples/logs").filter(isLogFileName).length;
    expect(webviewFake.panels[0]!.title).toBe(`Palette Statistics: ${read} logs`);
    expect(fake.progress[0]!.title).toBe("Palette statistics: reading 2 logs or folders");
    expect(fake.shown).toEqual([
      {
        kind: "warning",
        message: "Palette Inspector: Palette statistics: 1 of the logs could not be read.",
      },
    ]);
    expect(logged()).toContain(`\n  ${resolve("no-such.log")}: cannot read the file`);
  });

  it("reports the share of the bytes read in percent, as the Selection Traces scan does", async () => {
    const dir = tempDir("pi-stats-");
    const filler = "2025-03-14 09:26:49,000 INFO GET /v1/health status=200\n".repeat(30_000);
    writeFileSync(join(dir, "big.log"), filler + readFileSync("examples/logs/agent.log", "utf8"));
    // A second file as big: the first one read is half of the bytes.
    copyFileSync(join(dir, "big.log"), join(dir, "big2.log"));
    await new StatsPanels(ext(), traces).show([real(Uri.file(dir))]);
    expect(fake.progress.map((p) => [p.messages, p.increments])).toEqual([
      [
        ["50%", "100%"],
        [50, 50],
      ],
    ]);
  });

  it("a folder with no logs is an error naming why, and no view opens", async () => {
    const panels = new StatsPanels(ext(), traces);
    expect(await panels.show([real(Uri.file(tempDir("pi-empty-")))])).toBe(null);
    expect(webviewFake.panels).toEqual([]);
    expect(fake.shown.map((s) => s.kind)).toEqual(["error"]);
    expect(logged()).toContain("could not read the logs.\n  no log files there");
  });

  it("replies to Copy as Markdown, and to a CSV save the user cancels, defaulting to the workspace", async () => {
    const { panel } = await openOnExamples();
    // A tool the logs do not hold (the view's filter is stale) is left out.
    panel.webview.receive({ type: "copyMarkdown", requestId: 1, tools: ["no_such_tool", "sql"] });
    await vi.waitFor(() => expect(fake.clipboard).not.toBe(""));
    expect(fake.clipboard).not.toContain("no_such_tool");
    expect(fake.clipboard).not.toContain("Stryker");
    expect(fake.clipboard.split("\n").filter((line) => line.startsWith("| sql |"))).toHaveLength(1);
    await vi.waitFor(() =>
      expect(posted(panel, "reply")).toEqual({
        type: "reply",
        requestId: 1,
        ok: true,
        message: "Copied the tables as Markdown.",
      }),
    );
    fake.answers.saveDialog.push(undefined);
    panel.webview.receive({ type: "saveCsv", requestId: 2, tools: [] });
    await vi.waitFor(() =>
      expect(posted(panel, "reply")).toEqual({
        type: "reply",
        requestId: 2,
        ok: false,
        message: "Not saved.",
      }),
    );
    expect(fake.dialogs).toEqual([
      {
        defaultUri: Uri.file(resolve("palette-statistics.csv")),
        filters: { CSV: ["csv"] },
        saveLabel: "Save statistics",
        title: "Save the palette statistics as CSV",
      },
    ]);
  });

  it.each([
    ["no workspace open", undefined],
    ["a workspace file with no folders", Uri.file(resolve("empty.code-workspace"))],
  ])("with %s, offers to save the CSV next to the logs", async (_case, workspaceFile) => {
    fake.workspaceFolders.length = 0;
    fake.workspaceFile = workspaceFile;
    const { panel } = await openOnExamples();
    fake.answers.saveDialog.push(undefined);
    panel.webview.receive({ type: "saveCsv", requestId: 2, tools: [] });
    await vi.waitFor(() => expect(fake.dialogs).toHaveLength(1));
    expect((fake.dialogs[0] as { defaultUri: Uri }).defaultUri.path).toBe(
      `${resolve("examples")}/palette-statistics.csv`,
    );
  });

  it("forgets a closed view, and closes every view (and stops restoring) when disposed", async () => {
    const { panels, panel } = await openOnExamples();
    await panels.show([real(LOGS)]);
    expect(panels.open).toHaveLength(2);
    panel.dispose();
    expect(panels.open).toHaveLength(1);
    // A closed view hears nothing more from its page.
    const before = panel.webview.posted.length;
    panel.webview.receive({ type: "ready" });
    await settle();
    expect(panel.webview.posted).toHaveLength(before);
    panels.dispose();
    expect(panels.open).toEqual([]);
    expect(webviewFake.panels.every((p) => p.disposed)).toBe(true);
    expect(webviewFake.serializers.has(STATS_VIEW_TYPE)).toBe(false);
  });

  it("a restored view with no logs in its state is closed without reading anything", async () => {
    new StatsPanels(ext(), traces);
    const panel = webviewFake.create(STATS_VIEW_TYPE, "Palette Statistics: logs", {});
    await webviewFake.serializers.get(STATS_VIEW_TYPE)!.deserializeWebviewPanel(panel, null);
    expect(panel.disposed).toBe(true);
    expect(fake.progress).toEqual([]);
    const unreadable = webviewFake.create(STATS_VIEW_TYPE, "Palette Statistics: x", {});
    await webviewFake.serializers.get(STATS_VIEW_TYPE)!.deserializeWebviewPanel(unreadable, {
      sources: [Uri.file(resolve("no-such.log")).toString()],
      sort: { column: "name", descending: false },
      filter: "",
      tool: null,
    });
    expect(unreadable.disposed).toBe(true);
  });
});

describe("a restored view reads only logs inside the workspace", () => {
  const state = (sources: string[]) => ({
    sources,
    sort: { column: "name", descending: false },
    filter: "",
    tool: null,
  });
  async function restore(sources: string[]) {
    new StatsPanels(real(Uri.file(resolve("."))), traces);
    const panel = webviewFake.create(STATS_VIEW_TYPE, "Palette Statistics: logs", {});
    await webviewFake.serializers
      .get(STATS_VIEW_TYPE)!
      .deserializeWebviewPanel(panel, state(sources));
    return panel;
  }

  it("reads again a folder of logs in the workspace", async () => {
    const panel = await restore([LOGS.toString()]);
    expect(fake.progress).toHaveLength(1);
    expect(panel.disposed).toBe(false);
    expect(panel.title).toBe("Palette Statistics: logs");
  });

  const root = tempDir("pi-stats-restore-");
  mkdirSync(join(root, "ws"));
  mkdirSync(join(root, "outside"));
  copyFileSync("examples/logs/agent.log", join(root, "outside", "agent.log"));
  symlinkSync(join(root, "outside"), join(root, "ws", "linked"));

  it.each([
    [
      "a folder outside the workspace",
      Uri.file(join(root, "outside")).toString(),
      /not in a folder/,
    ],
    [
      "a log file outside the workspace",
      Uri.file(join(root, "outside", "agent.log")).toString(),
      /not in a folder/,
    ],
    ["the file system's root", "file:///", /not in a folder/],
    ["an https: URI", "https://evil.example/agent.log", /not a file on this machine/],
    [
      "a link in the workspace to a folder outside",
      Uri.file(join(root, "ws", "linked")).toString(),
      /a link that leads out/,
    ],
    [
      "a path that climbs out",
      Uri.file(join(root, "ws")).toString() + "/../outside",
      /leaves its folder/,
    ],
  ])("refuses %s: it reads nothing, and the view says why", async (_case, source, reason) => {
    fake.addWorkspaceFolder(join(root, "ws"));
    const panel = await restore([LOGS.toString(), source]);
    expect(fake.progress).toEqual([]);
    expect(panel.disposed).toBe(false);
    expect(panel.title).toBe("Palette Statistics: not restored");
    expect(panel.webview.html).toMatch(reason);
    expect(panel.webview.html).toContain("This view was not restored: its saved source");
  });

  it("a refused view runs no script, loads no file, and says so in the log channel", async () => {
    fake.addWorkspaceFolder(join(root, "ws"));
    const panel = await restore(["x-evil:/<img src=x onerror=alert(1)>"]);
    expect(panel.webview.options).toEqual({ enableScripts: false, localResourceRoots: [] });
    expect(panel.webview.html).not.toContain("<img");
    expect(fake.logLines.at(-1)!.text).toMatch(
      /^palette-inspector: a saved statistics view was not restored: its saved source /,
    );
  });

  it("reads again a workspace folder itself", async () => {
    fake.addWorkspaceFolder(join(root, "ws"));
    const panel = await restore([Uri.file(join(root, "ws")).toString()]);
    expect(fake.progress).toHaveLength(1);
    expect(panel.title).toBe("Palette Statistics: logs");
  });
});

describe("read-stats", () => {
  it("names each problem by its file and line, and keeps the first hundred", async () => {
    const dir = tempDir("pi-stats-");
    writeFileSync(join(dir, "bad.log"), '{"trace": [\n'.repeat(150));
    writeFileSync(join(dir, "core.log"), Buffer.from([0x7f, 0x45, 0, 1]));
    const read = await readLogStats([join(dir, "core.log"), join(dir, "bad.log")]);
    expect(read.scan.problemCount).toBeGreaterThan(100);
    expect(read.problems).toHaveLength(100);
    expect(read.problems[0]).toBe(
      `${join(dir, "core.log")}: binary file (it holds NUL bytes); it was not read`,
    );
    expect(read.problems[1]).toMatch(new RegExp(`^${join(dir, "bad.log")}:1: `));
    expect(read.stats.problems).toBe(read.scan.problemCount);
    expect(read.files).toEqual([join(dir, "core.log"), join(dir, "bad.log")]);
  });
});

describe("the Palette Statistics command", () => {
  it("asks for log files or a folder when nothing is selected or listed; Cancel opens nothing", async () => {
    const tree = new TraceTree();
    const chosen: vscode.Uri[][] = [];
    const statsPanels = { show: async (uris: vscode.Uri[]) => void chosen.push(uris) };
    const pick = real(Uri.file("/w/picked.log"));
    const folder = real(Uri.file("/w/logs"));
    type Kind = { label: string; folders: boolean };
    fake.answers.quickPick.push(
      (items: Kind[]) => items.find((item) => !item.folders),
      (items: Kind[]) => items.find((item) => item.folders),
      (items: Kind[]) => items[0],
      undefined,
    );
    fake.answers.saveDialog.push(pick, folder, undefined);
    for (let i = 0; i < 4; i++)
      await showStatistics(undefined, undefined, tree, statsPanels as unknown as StatsPanels);
    expect(chosen).toEqual([[pick], [folder]]);
    const title = "Palette Statistics: which logs?";
    const files = {
      canSelectMany: true,
      filters: { Logs: [...LOG_EXTENSIONS, "txt", "gz"], "All files": ["*"] },
      title,
    };
    // Windows' and Linux's own dialogs pick files or folders, never both: each kind has its own.
    const folders = { canSelectFiles: false, canSelectFolders: true, canSelectMany: true, title };
    expect(fake.dialogs).toEqual([files, folders, files]);
  });

  it("ignores selected items that are neither logs nor listed sets", async () => {
    const tree = new TraceTree();
    const a = real(Uri.file("/w/a.log"));
    tree.setSet({ roots: [a], files: [a], index: new TraceIndex(), cancelled: false });
    expect(await statisticsTargets(undefined, [null, 3, { kind: "trace" }], tree)).toEqual([a]);
    const set: LogSet = { roots: [a], files: [a], index: new TraceIndex(), cancelled: false };
    expect(await statisticsTargets({ kind: "set", set }, undefined, new TraceTree())).toEqual([a]);
  });
});

describe("Palette Statistics with several sets listed", () => {
  it("asks which set (or all), and counts a log named twice, alone and in its folder, once", async () => {
    const dir = tempDir("pi-stats-");
    mkdirSync(join(dir, "logs"));
    copyFileSync("examples/logs/agent.log", join(dir, "logs", "agent.log"));
    copyFileSync("examples/logs/selection.jsonl", join(dir, "logs", "selection.jsonl"));
    const file = real(Uri.file(join(dir, "logs", "agent.log")));
    const folder = real(Uri.file(join(dir, "logs")));
    const tree = new TraceTree();
    await inspectLog(file, tree);
    await inspectLog(folder, tree);
    const chosen: vscode.Uri[][] = [];
    const statsPanels = { show: async (uris: vscode.Uri[]) => void chosen.push(uris) };
    fake.answers.quickPick.push(
      (items: { label: string }[]) => items.find((item) => item.label.endsWith("agent.log")),
      (items: { label: string }[]) => items.at(-1),
      undefined,
    );
    for (let i = 0; i < 3; i++)
      await showStatistics(undefined, undefined, tree, statsPanels as unknown as StatsPanels);
    expect(fake.quickPicks[0]!.items.map((item) => (item as { label: string }).label)).toEqual([
      expect.stringMatching(/agent\.log$/),
      expect.stringMatching(/logs$/),
      "All 2 sets",
    ]);
    expect(chosen).toEqual([[file], [file, folder]]);
    const all = await readLogStats(chosen[1]!.map((uri) => uri.fsPath));
    const once = await readLogStats([folder.fsPath]);
    expect(all.files).toEqual(once.files);
    expect(all.stats.traces).toBe(once.stats.traces);
  });

  it("says a listed log that is gone, and reads it from nowhere", async () => {
    const dir = tempDir("pi-stats-");
    const path = join(dir, "gone.log");
    copyFileSync("examples/logs/agent.log", path);
    copyFileSync("examples/logs/selection.jsonl", join(dir, "kept.jsonl"));
    const tree = new TraceTree();
    const gone = real(Uri.file(path));
    const kept = real(Uri.file(join(dir, "kept.jsonl")));
    await inspectLog(gone, tree);
    await inspectLog(kept, tree);
    rmSync(path);
    const panels = new StatsPanels(real(Uri.file(resolve("."))), traces);
    fake.answers.quickPick.push((items: unknown[]) => items.at(-1));
    await showStatistics(undefined, undefined, tree, panels);
    const panel = webviewFake.panels.at(-1)!;
    panel.webview.receive({ type: "ready" });
    const message = posted(panel, "stats");
    if (message.type !== "stats") throw new Error("no statistics posted");
    expect(message.view.traces).toBe((await readLogStats([kept.fsPath])).stats.traces);
    expect(fake.shown.map((n) => n.message)).toContainEqual(
      expect.stringMatching(/1 of the logs could not be read/),
    );
    expect(fake.logLines.map((line) => line.text).join("\n")).toContain("gone.log");
    expect(panel.title).toBe("Palette Statistics: 1 log");
  });
});

describe("read-stats on a big gzip", () => {
  it("leaves checkpoints behind, so a trace the view lists opens without inflating from the start", async () => {
    const dir = tempDir("pi-stats-");
    const filler = "2025-03-14 09:26:49,000 INFO GET /v1/health status=200\n".repeat(100_000);
    const path = join(dir, "big.log.gz");
    writeFileSync(path, gzipSync(filler + readFileSync("examples/logs/agent.log", "utf8")));
    const read = await readLogStats([path]);
    expect(read.stats.traces).toBe(6);
    await expect.poll(async () => (await checkpointsOf(path)).length, { timeout: 20_000 }).toBe(1);
  });
});
