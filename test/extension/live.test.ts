import { appendFileSync, readdirSync, renameSync, statSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { join } from "node:path";
import type * as vscode from "vscode";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { RunReport } from "../../src/core/report.js";
import type { LoggedTrace } from "../../src/core/traces/trace.js";
import { FollowedLogs } from "../../src/extension/logs/follow-log.js";
import { LiveTraces } from "../../src/extension/logs/live-traces.js";
import {
  compareTraces,
  compareWithReplay,
  openTrace,
  turnIntoFixture,
} from "../../src/extension/logs/log-commands.js";
import { PAGE_SIZE, TraceTree, type TraceNode } from "../../src/extension/logs/trace-tree.js";
import type { TracePanels } from "../../src/extension/panel/panels.js";
import { TurnSpool } from "../../src/node/turn-spool.js";
import {
  chatSpan,
  request,
  selectionTrace,
  turnSpan,
  TRACE_A,
  TRACE_B,
} from "../core/otel/otlp.js";
import { fake, Uri, window, type TreeItem } from "../fakes/vscode.js";
import { endingReceiverScript } from "../helpers/ending-receiver.js";
import { tempDir } from "../helpers/temp.js";

// The workspace is the fake's in-memory disk; the real writer is tested in chosen-file.test.ts.
vi.mock("../../src/extension/chosen-file.js", () => import("../fakes/chosen-file.js"));

const shown: { report: RunReport; label: string | undefined }[] = [];
const compared: { base: RunReport; variant: RunReport; replay: boolean }[] = [];
const panels = {
  showReport: (report: RunReport, label?: string) => shown.push({ report, label }),
  showComparison: (base: RunReport, variant: RunReport, replay = false) =>
    compared.push({ base, variant, replay }),
  showFixture: () => Promise.resolve(),
} as unknown as TracePanels;

let live: LiveTraces | null = null;
let followed: FollowedLogs | null = null;

beforeEach(() => {
  fake.reset();
  shown.length = 0;
  compared.length = 0;
  // Any free port: the tests run beside others that may hold 4318.
  fake.settings.set("paletteInspector.live.port", 0);
});

afterEach(async () => {
  await live?.stop();
  await followed?.stop();
  live = followed = null;
});

function setUp(): { tree: TraceTree; view: ReturnType<typeof window.createTreeView> } {
  const tree = new TraceTree();
  const view = window.createTreeView("paletteInspector.traces", { treeDataProvider: tree });
  live = new LiveTraces(tree, view as unknown as vscode.TreeView<TraceNode>, panels);
  return { tree, view };
}

const status = () => fake.statusBarItems[0]!;
const port = () => Number(/:(\d+) ·/.exec(status().text)![1]);

async function post(body: unknown, to = port()): Promise<Response> {
  return fetch(`http://127.0.0.1:${to}/v1/traces`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
}

function liveTurns(tree: TraceTree, group = 0): TraceNode[] {
  return tree.getChildren(tree.getChildren()[group]).filter((node) => node.kind === "turn");
}
const label = (tree: TraceTree, node: TraceNode | undefined) =>
  (tree.getTreeItem(node!) as unknown as TreeItem).label;
const description = (tree: TraceTree, node: TraceNode | undefined) =>
  (tree.getTreeItem(node!) as unknown as TreeItem).description;

/** A port some other program holds, as AI Toolkit holds 4318. */
async function taken(): Promise<{ server: Server; port: number }> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, port: (server.address() as { port: number }).port };
}

describe("Start Live Traces", () => {
  it("listens only when started; the status bar counts the turns and stops it on a click", async () => {
    const { tree } = setUp();
    expect(live!.running).toBe(false);
    expect(status().visible).toBe(false);
    await live!.start();
    expect(live!.running).toBe(true);
    expect(status()).toMatchObject({ visible: true, command: "paletteInspector.stopLiveTraces" });
    expect(status().text).toMatch(/^\$\(broadcast\) OTLP :\d+ · 0 turns$/);
    expect(fake.shown.at(-1)!.message).toBe(
      `Palette Inspector: receiving OpenTelemetry traces at http://127.0.0.1:${port()}/v1/traces.`,
    );
    const response = await post(
      request([
        turnSpan(TRACE_A, 1000, selectionTrace("t-1", ["search", "calendar"])),
        chatSpan(TRACE_A, 1001, { offered: ["search"], model: "m" }),
        turnSpan(TRACE_B, 2000, selectionTrace("t-2", ["search"])),
      ]),
    );
    expect(response.status).toBe(200);
    await vi.waitFor(() => expect(status().text).toMatch(/ · 2 turns$/));
    const turns = liveTurns(tree);
    expect(turns.map((node) => label(tree, node))).toEqual([
      "#1 · t-1 · 2 tools",
      "#2 · t-2 · 1 tool",
    ]);
    expect(description(tree, turns[0])).toBe("1970-01-01T00:00:01.000Z");
    // Each turn's tooltip and screen-reader label is its own, before the stages they share.
    const items = turns.map((node) => tree.getTreeItem(node!));
    expect(String(items[0]!.tooltip).split("\n")[0]).toBe("#1 · t-1 · 1970-01-01T00:00:01.000Z");
    expect(String(items[1]!.tooltip).split("\n")[0]).toMatch(/^#2 · t-2 · /);
    expect(items[1]!.accessibilityInformation!.label).toMatch(
      /^Trace #2, turn t-2, 1 tool, .*1 stage$/,
    );
    expect(description(tree, tree.getChildren()[0])).toMatch(
      /^listening on 127\.0\.0\.1:\d+ · 2 turns$/,
    );

    await openTrace(turns[0], undefined, panels, tree);
    expect(shown[0]!.label).toBe("#1 Live (OpenTelemetry)");
    // Received, not logged: no line of a log to go back to.
    expect(shown[0]!.report.origin).toEqual({ kind: "received", index: 0 });
    expect(shown[0]!.report.file).toBe("otlp://live/1");
    expect(shown[0]!.report.description).toBe("#1 · id t-1 · 1970-01-01T00:00:01.000Z");
    expect(shown[0]!.report.names).toEqual(["search", "calendar"]);

    const was = port();
    await live!.stop();
    expect(status().visible).toBe(false);
    expect(description(tree, tree.getChildren()[0])).toBe("stopped · 2 turns");
    // The port is free again.
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(was, "127.0.0.1", resolve));
    server.close();
  });

  it("a received turn turns into a fixture that replays it, compares with its replay and with another turn", async () => {
    const { tree } = setUp();
    fake.addWorkspaceFolder("/ws");
    await live!.start();
    await post(
      request([
        turnSpan(TRACE_A, 1000, selectionTrace("t-1", ["search", "calendar"])),
        turnSpan(TRACE_B, 2000, selectionTrace("t-2", ["search"])),
      ]),
    );
    await vi.waitFor(() => expect(liveTurns(tree)).toHaveLength(2));
    const [first, second] = liveTurns(tree);
    fake.answers.saveDialog.push(Uri.file("/ws/t-1.turn.json"));
    const written = await turnIntoFixture(first, panels);
    expect(written?.toString()).toBe(Uri.file("/ws/t-1.turn.json").toString());
    // Proposed in the workspace, named as received, never after the receiver's place.
    expect((fake.dialogs.at(-1) as vscode.SaveDialogOptions).defaultUri!.path).toBe(
      "/ws/live.trace-1.turn.json",
    );
    const fixture = JSON.parse(fake.files.get(written!.toString())!) as {
      description: string;
      offered: string[];
    };
    expect(fixture.description).toBe(
      "replay of the selection trace received at otlp://live/1 (id t-1)",
    );
    expect(fixture.offered).toEqual(["search", "calendar"]);

    await compareWithReplay(first, panels);
    expect(compared[0]!.replay).toBe(true);
    expect(compared[0]!.base.origin).toEqual({ kind: "received", index: 0 });
    expect(compared[0]!.variant.names).toEqual(compared[0]!.base.names);
    await compareTraces([first!, second!], panels);
    expect(compared[1]!.base.names).toEqual(["search", "calendar"]);
    expect(compared[1]!.variant.names).toEqual(["search"]);
  });

  it("a receiver whose worker ends stops and says why, its group listed as stopped", async () => {
    const script = endingReceiverScript(50);
    const tree = new TraceTree();
    const view = window.createTreeView("paletteInspector.traces", { treeDataProvider: tree });
    live = new LiveTraces(tree, view as unknown as vscode.TreeView<TraceNode>, panels, script);
    await live.start();
    await vi.waitFor(() =>
      expect(fake.shown.at(-1)!.message).toBe(
        "Palette Inspector: live traces stopped: the receiver's worker thread ended.",
      ),
    );
    expect(fake.logLines.map((line) => line.text)).toContain(
      "live traces stopped: the receiver's worker thread ended.\n  its worker thread ended (exit code 3)",
    );
    expect(live.running).toBe(false);
    expect(status().visible).toBe(false);
    expect(description(tree, tree.getChildren()[0])).toBe("stopped · 0 turns");
  });

  it("says a receiver's budget is full in one fixed line, the receiver's words whole in the log", async () => {
    const words =
      "the 128 MiB of spans kept for joins are full: the oldest are let go, and the model calls of turns received before them are no longer updated";
    const script = endingReceiverScript(200, [words]);
    const tree = new TraceTree();
    const view = window.createTreeView("paletteInspector.traces", { treeDataProvider: tree });
    live = new LiveTraces(tree, view as unknown as vscode.TreeView<TraceNode>, panels, script);
    await live.start();
    const warning =
      "live traces are over a memory budget: the oldest turns' model calls are no longer updated.";
    await vi.waitFor(() =>
      expect(fake.shown.map((shown) => shown.message)).toContain(`Palette Inspector: ${warning}`),
    );
    expect(fake.logLines.map((line) => line.text)).toContain(`${warning}\n  ${words}`);
    await vi.waitFor(() => expect(live!.running).toBe(false));
  });

  it("neutralises a hostile turn id in the tree; the status bar holds only the port and the count", async () => {
    const { tree } = setUp();
    await live!.start();
    await post(
      request([turnSpan(TRACE_A, 1, selectionTrace("[run](command:x) $(zap)\u202e", ["a"]))]),
    );
    await vi.waitFor(() => expect(liveTurns(tree)).toHaveLength(1));
    expect(label(tree, liveTurns(tree)[0])).toBe("#1 · ［run］(command:x) ＄(zap) · 1 tool");
    await vi.waitFor(() => expect(status().text).toMatch(/^\$\(broadcast\) OTLP :\d+ · 1 turn$/));
  });

  it("when the port is taken says so and receives on a free port in one step, or on one typed", async () => {
    const other = await taken();
    try {
      fake.settings.set("paletteInspector.live.port", other.port);
      const { tree } = setUp();
      fake.answers.message.push("Use a Free Port");
      await live!.start();
      expect(fake.shown[0]).toEqual({
        kind: "warning",
        message: `Palette Inspector: port ${other.port} is taken by another program, so live traces cannot be received there. Receive them on another port (then point the agent's OTLP exporter at it), or set paletteInspector.live.port.`,
      });
      expect(live!.running).toBe(true);
      expect(port()).not.toBe(other.port);
      expect((await post(request([]))).status).toBe(200);
      await live!.stop();

      const free = await taken();
      free.server.close();
      fake.answers.message.push("Choose Port…");
      fake.answers.inputBox.push(String(free.port));
      await live!.start();
      expect(fake.inputBoxes[0]!.value).toBe(String(other.port + 1));
      expect(fake.inputBoxes[0]!.validateInput!("70000")).toBe("A port number from 0 to 65535.");
      expect(fake.inputBoxes[0]!.validateInput!("4319")).toBeUndefined();
      expect(port()).toBe(free.port);
      await live!.stop();

      // Dismissed: nothing listens, and no empty group is listed.
      await live!.start();
      expect(live!.running).toBe(false);
      expect(tree.getChildren()).toEqual([]);
    } finally {
      other.server.close();
    }
  });

  it("with follow newest, opens and reveals each new turn as it comes", async () => {
    fake.settings.set("paletteInspector.live.followNewest", true);
    const { tree, view } = setUp();
    await live!.start();
    await post(request([turnSpan(TRACE_A, 1, selectionTrace("t-1", ["a"]))]));
    await vi.waitFor(() => expect(shown).toHaveLength(1));
    await post(request([turnSpan(TRACE_B, 2, selectionTrace("t-2", ["b"]))]));
    await vi.waitFor(() => expect(shown).toHaveLength(2));
    expect(shown.map(({ label }) => label)).toEqual([
      "#1 Live (OpenTelemetry)",
      "#2 Live (OpenTelemetry)",
    ]);
    expect(view.revealed.map(({ element }) => (element as { number: number }).number)).toEqual([
      0, 1,
    ]);
    expect(label(tree, liveTurns(tree)[1])).toBe("#2 · t-2 · 1 tool");
  });

  it("badges the hidden view with the turns it has not shown, and reveals the newest in a shown one", async () => {
    const { view } = setUp();
    await live!.start();
    view.setVisible(false);
    await post(request([turnSpan(TRACE_A, 1, selectionTrace("t-1", ["a"]))]));
    await vi.waitFor(() => expect(view.badge).toEqual({ value: 1, tooltip: "1 new live turn" }));
    await post(request([2, 3].map((n) => turnSpan(TRACE_B, n, selectionTrace(`t-${n}`, ["a"])))));
    await vi.waitFor(() => expect(view.badge).toEqual({ value: 3, tooltip: "3 new live turns" }));
    expect(view.revealed).toEqual([]);
    view.setVisible(true);
    expect(view.badge).toBeUndefined();
    await post(request([turnSpan(TRACE_A, 4, selectionTrace("t-4", ["a"]))]));
    await vi.waitFor(() => expect(view.revealed).toHaveLength(1));
    expect(view.revealed[0]).toMatchObject({
      element: { kind: "turn", number: 3 },
      options: { select: false, focus: false },
    });
    expect(view.badge).toBeUndefined();
  });

  it("without follow newest, opens nothing by itself", async () => {
    setUp();
    await live!.start();
    await post(request([turnSpan(TRACE_A, 1, selectionTrace("t-1", ["a"]))]));
    await vi.waitFor(() => expect(status().text).toMatch(/1 turn$/));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(shown).toEqual([]);
  });

  it("keeps the newest maxTurns, listing the newest page and an entry for the older ones", async () => {
    fake.settings.set("paletteInspector.live.maxTurns", 2);
    const { tree } = setUp();
    await live!.start();
    await post(
      request([1, 2, 3].map((n) => turnSpan(TRACE_A, n * 10, selectionTrace(`t-${n}`, ["a"])))),
    );
    await vi.waitFor(() => expect(status().text).toMatch(/3 turns$/));
    expect(liveTurns(tree).map((node) => label(tree, node))).toEqual([
      "#2 · t-2 · 1 tool",
      "#3 · t-3 · 1 tool",
    ]);
    expect(description(tree, tree.getChildren()[0])).toMatch(/· 3 turns · the newest 2 kept$/);
  });
});

describe("the live turns kept", () => {
  const trace = (n: number): LoggedTrace => ({
    records: [],
    tools: [{ name: "a" }, { name: "b" }] as unknown as LoggedTrace["tools"],
    error: null,
    offered: null,
    turn: null,
    time: null,
    id: `t-${n}`,
  });

  it("reads back a kept turn in full, its newer version after a change, and none dropped", async () => {
    const spool = new TurnSpool(tempDir(), 3);
    for (let n = 0; n < 10; n++) spool.add(trace(n));
    expect([spool.received, spool.count, spool.first]).toEqual([10, 3, 7]);
    expect(spool.row(6)).toBeUndefined();
    expect(spool.row(9)!.id).toBe("t-9");
    expect((await spool.read(8)).trace).toMatchObject({ id: "t-8" });
    spool.replace(8, { ...trace(8), model: { span_id: "s" } as LoggedTrace["model"] });
    expect((await spool.read(8)).trace).toMatchObject({ id: "t-8", model: { span_id: "s" } });
    await expect(spool.read(2)).rejects.toThrow("turn 3 is no longer kept (only the newest 3 are)");
    await spool.close();
  });

  it("keeps no more than its bytes of turns: past them the oldest are dropped, fewer than maxTurns listed", async () => {
    const folder = tempDir();
    const big = (n: number) => ({ ...trace(n), id: `t-${n}-${"x".repeat(100_000)}` });
    const spool = new TurnSpool(folder, 1_000, 1_000_000);
    for (let n = 0; n < 40; n++) spool.add(big(n));
    await spool.read(39);
    const onDisk = readdirSync(folder).reduce(
      (sum, name) => sum + statSync(join(folder, name)).size,
      0,
    );
    expect(onDisk).toBeLessThanOrEqual(1_000_000 + 2 * 100_500);
    expect(spool.count).toBeLessThan(20);
    expect(spool.first).toBe(40 - spool.count);
    expect(spool.row(spool.first - 1)).toBeUndefined();
    expect((await spool.read(39)).trace.id).toBe(big(39).id);
    await expect(spool.read(0)).rejects.toThrow(
      `turn 1 is no longer kept (only the newest ${spool.count} are)`,
    );
    await spool.close();
  });

  it("holds memory and disk flat at 100,000 turns received with 10,000 kept", async () => {
    const { setFlagsFromString } = await import("node:v8");
    const { runInNewContext } = await import("node:vm");
    setFlagsFromString("--expose-gc");
    const gc = runInNewContext("gc") as () => void;
    const folder = tempDir();
    const spool = new TurnSpool(folder, 10_000);
    const tree = new TraceTree();
    const group = { key: "live", label: "Live", spool, file: null, state: "" };
    tree.setLive(group);
    const used = async () => {
      await spool.read(spool.received - 1);
      gc();
      gc();
      const { heapUsed, arrayBuffers } = process.memoryUsage();
      return heapUsed + arrayBuffers;
    };
    for (let n = 0; n < 20_000; n++) spool.add(trace(n));
    const at20k = await used();
    for (let n = 20_000; n < 100_000; n++) spool.add(trace(n));
    const at100k = await used();
    expect(spool.count).toBe(10_000);
    expect(tree.getChildren(tree.getChildren()[0])).toHaveLength(PAGE_SIZE + 1);
    expect(at100k - at20k).toBeLessThan(4 * 1024 * 1024);
    expect(readdirSync(folder).length).toBeLessThanOrEqual(2);
    await spool.close();
    expect(readdirSync(folder)).toEqual([]);
  });
});

describe("Follow Log", () => {
  const line = (id: string) =>
    `${JSON.stringify({ ts: "2025-03-14", ...selectionTrace(id, ["a"]) })}\n`;

  it("lists a log's traces as it grows, across a rotation, asks the lenses again, and stops", async () => {
    const dir = tempDir();
    const log = join(dir, "agent.log");
    writeFileSync(log, `start\n${line("t-1")}`);
    const tree = new TraceTree();
    followed = new FollowedLogs(tree);
    let lensChanges = 0;
    followed.onDidChangeCodeLenses(() => lensChanges++);
    const uri = Uri.file(log) as unknown as vscode.Uri;
    await followed.follow(uri);
    expect(followed.isFollowing(uri)).toBe(true);
    const labels = () => liveTurns(tree).map((node) => label(tree, node));
    await vi.waitFor(() => expect(labels()).toEqual(["#1 · t-1 · 1 tool"]));
    expect(label(tree, tree.getChildren()[0])).toBe("Following /" + log.slice(1));
    appendFileSync(log, line("t-2"));
    await vi.waitFor(() => expect(labels()).toEqual(["#1 · t-1 · 1 tool", "#2 · t-2 · 1 tool"]));
    expect(description(tree, liveTurns(tree)[1])).toBe("2025-03-14 · line 3");
    const before = lensChanges;
    renameSync(log, `${log}.1`);
    writeFileSync(log, line("t-3"));
    await vi.waitFor(() =>
      expect(labels()).toEqual(["#1 · t-1 · 1 tool", "#2 · t-2 · 1 tool", "#3 · t-3 · 1 tool"]),
    );
    await vi.waitFor(() => expect(lensChanges).toBeGreaterThan(before));
    expect(description(tree, liveTurns(tree)[2])).toBe("2025-03-14 · line 1");
    // A trace read before the rotation still opens: it is kept, not read again from its moved log.
    await openTrace(liveTurns(tree)[1], undefined, panels, tree);
    expect(shown[0]!.report).toMatchObject({
      file: String(uri),
      origin: { kind: "log", line: 3, index: 1 },
    });
    await followed.stop({ kind: "live", group: tree.liveGroup(String(uri))! });
    expect(followed.isFollowing(uri)).toBe(false);
    expect(tree.getChildren()).toEqual([]);
  });

  it("with no log open or picked, asks for one to follow; Cancel follows nothing", async () => {
    const log = join(tempDir(), "agent.log");
    writeFileSync(log, "");
    const tree = new TraceTree();
    followed = new FollowedLogs(tree);
    fake.answers.saveDialog.push(undefined, Uri.file(log));
    await followed.follow();
    expect(tree.getChildren()).toEqual([]);
    await followed.follow();
    expect(fake.dialogs).toHaveLength(2);
    expect(fake.dialogs[0]).toMatchObject({ canSelectMany: false, title: "Follow Log" });
    expect(followed.isFollowing(Uri.file(log) as unknown as vscode.Uri)).toBe(true);
  });

  it("says so when the log cannot be read, and lists nothing", async () => {
    const tree = new TraceTree();
    followed = new FollowedLogs(tree);
    await followed.follow(Uri.file(join(tempDir(), "missing.log")) as unknown as vscode.Uri);
    expect(fake.shown[0]!.message).toMatch(
      /^Palette Inspector: cannot follow \/.*\/missing\.log\.$/,
    );
    expect(fake.logLines.at(-1)!.text).toMatch(/ENOENT/);
    expect(tree.getChildren()).toEqual([]);
  });
});
