import { readdirSync } from "node:fs";
import { resolve } from "node:path";
import type * as vscode from "vscode";
import { beforeEach, describe, expect, it, vi } from "vitest";
import type { RunReport } from "../../src/core/report.js";
import { TraceTree, type LogSet } from "../../src/extension/logs/trace-tree.js";
import { isLogFileName } from "../../src/node/log-source.js";
import { TraceIndex } from "../../src/node/trace-index.js";
import { SAMPLES_PER_STAGE } from "../../src/extension/stats/read-stats.js";
import type { TracePanels } from "../../src/extension/panel/panels.js";
import { statisticsTargets } from "../../src/extension/stats/stats-command.js";
import { STATS_VIEW_TYPE, StatsPanels } from "../../src/extension/stats/stats-panels.js";
import {
  parseFromStatsView,
  parseStatsPanelState,
  parseToStatsView,
  type ToStatsView,
} from "../../src/stats-protocol.js";
import { fake, Uri, webviewFake, type FakeWebviewPanel } from "../fakes/vscode.js";

const real = (uri: Uri) => uri as unknown as vscode.Uri;
const LOGS = Uri.file(resolve("examples/logs"));
let opened: { report: RunReport; tool: string | undefined }[] = [];
const traces = {
  showReport: (report: RunReport, _label?: string, tool?: string) => opened.push({ report, tool }),
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
    expect(opened[0]!.report.origin).toMatchObject({ kind: "log", line: trace.line });
    expect(opened[0]!.report.names).not.toContain("ask_human");
    expect(opened[0]!.report.trace.find((r) => r.dropped.includes("ask_human"))?.stage).toBe(
      "intent",
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
      /^tool,seen,final,final %,forced,missing,removed by\r\nask_human,42,1,2%,0,41,"role 85%, intent 15%"\r\n\r\nstage,/,
    );
    expect(posted(panel, "reply")).toEqual({
      type: "reply",
      requestId: 2,
      ok: true,
      message: "Saved stats-out.csv.",
    });
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

describe("the statistics protocol", () => {
  it.each([
    [{ type: "ready" }],
    [{ type: "missing", requestId: 1, tool: "sql" }],
    [{ type: "openTrace", ref: 0, tool: "sql" }],
    [{ type: "copyMarkdown", requestId: 2, tools: ["a", "b"] }],
    [{ type: "saveCsv", requestId: 3, tools: [] }],
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
