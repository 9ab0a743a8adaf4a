import { join } from "node:path";
import { readFileSync } from "node:fs";
import type * as vscode from "vscode";
import { beforeEach, describe, expect, it } from "vitest";
import { reportFromTrace } from "../../src/core/traces/report.js";
import { scanText } from "../../src/core/traces/scan.js";
import { loadFixtureFromUri as load } from "../../src/extension/fixtures.js";
import { inspectLog, openTrace } from "../../src/extension/logs/log-commands.js";
import { TraceTree, type TraceItemNode } from "../../src/extension/logs/trace-tree.js";
import { TracePanels } from "../../src/extension/panel/panels.js";
import type { ToWebview } from "../../src/protocol.js";
import { fake, Uri, ViewColumn, webviewFake } from "../fakes/vscode.js";

const AGENT = join(process.cwd(), "examples/logs/agent.log");
const found = scanText(readFileSync(AGENT)).traces;
const report = (i: number) => reportFromTrace(found[i]!, Uri.file(AGENT).toString());
let panels: TracePanels;

beforeEach(() => {
  fake.reset();
  webviewFake.reset();
  panels = new TracePanels(Uri.file("/ext") as unknown as vscode.Uri, load, () => {});
});

const titles = () =>
  webviewFake.panels.filter((panel) => !panel.disposed).map((panel) => panel.title);

describe("where logged traces and comparisons open", () => {
  it("traces looked at share one preview panel; opened again, the preview is kept and the next gets its own", () => {
    panels.showReport(report(0), undefined, undefined, { preview: true });
    panels.showReport(report(1), undefined, undefined, { preview: true });
    expect(webviewFake.panels).toHaveLength(1);
    expect(titles()).toEqual(["Selection Trace: #2 agent.log:7"]);
    expect(panels.open).toHaveLength(1);
    const [panel] = webviewFake.panels;
    // The reused panel shows the new trace once its page is ready.
    panel!.webview.receive({ type: "ready", edit: {} });
    const shown = (panel!.webview.posted as ToWebview[]).find((m) => m.type === "show");
    expect(shown?.type === "show" && shown.view.report.origin).toEqual({
      kind: "log",
      line: found[1]!.line,
      index: 1,
    });
    expect(panel!.reveals).toEqual([{ viewColumn: undefined, preserveFocus: true }]);
    // Opened again: kept, so the next trace looked at opens a preview of its own.
    panels.showReport(report(1), undefined, undefined, { preview: true });
    panels.showReport(report(2), undefined, undefined, { preview: true });
    panels.showReport(report(3), undefined, undefined, { preview: true });
    expect(titles()).toEqual([
      "Selection Trace: #2 agent.log:7",
      "Selection Trace: #4 agent.log:15",
    ]);
    // Closed, the preview is gone: the next look opens a new one.
    webviewFake.panels[1]!.dispose();
    panels.showReport(report(4), undefined, undefined, { preview: true });
    expect(titles()).toHaveLength(2);
    // Without `preview` (Open to the Side), a panel of its own beside the editor, never reused.
    panels.showReport(report(5));
    panels.showReport(report(0), undefined, undefined, { preview: true });
    expect(titles()).toEqual([
      "Selection Trace: #2 agent.log:7",
      "Selection Trace: #1 agent.log:3",
      "Selection Trace: #6 agent.log:24",
    ]);
    expect(webviewFake.panels.at(-1)!.showOptions).toEqual({
      viewColumn: ViewColumn.Beside,
      preserveFocus: true,
    });
  });

  it("a comparison opens in the active group, not in a new one beside it", () => {
    panels.showComparison(report(0), report(1));
    expect(webviewFake.panels[0]!.showOptions).toEqual({
      viewColumn: ViewColumn.Active,
      preserveFocus: true,
    });
  });

  it("the Selection Traces view opens a trace in the preview, and Open to the Side in a panel of its own", async () => {
    const tree = new TraceTree();
    await inspectLog(Uri.file(AGENT) as unknown as vscode.Uri, tree);
    const nodes = tree
      .getChildren(tree.getChildren()[0])
      .filter((node): node is TraceItemNode => node.kind === "trace");
    await openTrace(nodes[0], undefined, panels, tree);
    await openTrace(nodes[1], undefined, panels, tree);
    await openTrace(nodes[2], undefined, panels, tree, true);
    await openTrace(nodes[3], undefined, panels, tree);
    expect(titles()).toEqual([
      "Selection Trace: #4 agent.log:15",
      "Selection Trace: #3 agent.log:11",
    ]);
  });
});
