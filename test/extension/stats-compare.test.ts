import { resolve } from "node:path";
import type * as vscode from "vscode";
import { beforeEach, describe, expect, it, vi } from "vitest";
import type { RunReport } from "../../src/core/report.js";
import type { TracePanels } from "../../src/extension/panel/panels.js";
import { StatsPanels } from "../../src/extension/stats/stats-panels.js";
import { parseToStatsView, type ToStatsView } from "../../src/stats-protocol.js";
import { fake, Uri, webviewFake, type FakeWebviewPanel } from "../fakes/vscode.js";

// The workspace is the fake's in-memory disk; the real writer is tested in chosen-file.test.ts.
vi.mock("../../src/extension/chosen-file.js", () => import("../fakes/chosen-file.js"));

const real = (uri: Uri) => uri as unknown as vscode.Uri;
const example = (name: string) => real(Uri.file(resolve(`examples/before-after/${name}.jsonl`)));
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

/** A view of after.jsonl (NEW) compared with before.jsonl (OLD). */
async function compared() {
  const panels = new StatsPanels(real(Uri.file(resolve("."))), traces);
  const session = (await panels.show([example("after")]))!;
  const panel = webviewFake.panels.at(-1)!;
  panel.webview.receive({ type: "ready" });
  fake.answers.saveDialog.push(example("before"));
  panel.webview.receive({ type: "compare", requestId: 1 });
  await vi.waitFor(() => expect(posted(panel, "comparison")).toBeTruthy());
  return { session, panel };
}

describe("Palette Statistics: exporting a comparison", () => {
  it("copies the comparison first, then this set's tables, when the page shows it", async () => {
    const { panel } = await compared();
    panel.webview.receive({
      type: "copyMarkdown",
      requestId: 2,
      tools: ["ask_human"],
      comparison: true,
    });
    await vi.waitFor(() => expect(posted(panel, "reply")).toMatchObject({ requestId: 2 }));
    expect(posted(panel, "reply")).toMatchObject({
      ok: true,
      message: "Copied the comparison and the tables as Markdown.",
    });
    const lines = fake.clipboard.split("\n");
    expect(lines[0]).toBe(
      "### What changed: this set (NEW, 40 traces) against examples/before-after/before.jsonl (OLD, 40 traces)",
    );
    expect(lines[4]).toMatch(
      /^\| ask\\_human \| 100% of 40 turns \| 20% of 40 turns \| −80\.0 pts \| <0\.001 \| role 0% → 80% \|$/,
    );
    expect(lines.indexOf("### Palette statistics: 40 traces, 0 problems")).toBeGreaterThan(4);
  });

  it("saves the comparison's rows before the set's tables as CSV", async () => {
    const { panel } = await compared();
    const target = Uri.file(resolve("compare-out.csv"));
    fake.answers.saveDialog.push(target);
    panel.webview.receive({
      type: "saveCsv",
      requestId: 2,
      tools: ["ask_human"],
      comparison: true,
    });
    await vi.waitFor(() =>
      expect(posted(panel, "reply")).toMatchObject({ requestId: 2, ok: true }),
    );
    const lines = fake.files.get(target.toString())!.split("\r\n");
    expect(lines[0]).toMatch(/^"tool","seen OLD",.*"missing % NEW"$/);
    expect(lines[1]).toMatch(/^"ask_human","40","40","100%","0","40","8","20%","0","-80\.0",/);
    expect(lines).toContain('"tool","seen","final","final %","forced","missing","removed by"');
  });

  it("exports only this set's tables when the page shows no comparison (a reloaded page)", async () => {
    const { panel } = await compared();
    panel.webview.receive({ type: "copyMarkdown", requestId: 2, tools: [] });
    await vi.waitFor(() => expect(posted(panel, "reply")).toMatchObject({ requestId: 2 }));
    expect(fake.clipboard).not.toContain("What changed");
    expect(posted(panel, "reply")).toMatchObject({ message: "Copied the tables as Markdown." });
  });
});

describe("Palette Statistics: the two periods of a comparison with another set", () => {
  it("marks when each set's traces are, on one timeline of both, with no split", async () => {
    const { panel } = await compared();
    const answer = posted(panel, "comparison");
    if (answer.type !== "comparison") throw new Error("no comparison");
    expect(answer.view.split).toBeNull();
    expect(answer.view.periods).toEqual({
      old: { from: Date.UTC(2025, 2, 10, 9), to: Date.UTC(2025, 2, 10, 18, 45) },
      new: { from: Date.UTC(2025, 2, 12, 9), to: Date.UTC(2025, 2, 12, 18, 45) },
    });
    expect(answer.view.timeline.reduce((n, b) => n + b.traces, 0)).toBe(80);
  });
});

describe("Palette Statistics: the traces that lost a compared tool", () => {
  it("lists them for each side, each from its own logs, and opens one of either side", async () => {
    const { session, panel } = await compared();
    for (const [requestId, side] of [
      [5, "old"],
      [6, "new"],
    ] as const) {
      panel.webview.receive({ type: "missing", requestId, tool: "sql", side });
      await vi.waitFor(() => expect(posted(panel, "missing")).toMatchObject({ requestId }));
      const answer = posted(panel, "missing");
      if (answer.type !== "missing") throw new Error("no answer");
      expect(answer.groups.reduce((n, g) => n + g.total, 0)).toBe(24);
      expect(answer.groups[0]!.traces[0]!.file).toBe(
        `examples/before-after/${side === "old" ? "before" : "after"}.jsonl`,
      );
      panel.webview.receive({
        type: "openTrace",
        ref: answer.groups[0]!.traces[0]!.ref,
        tool: "sql",
      });
      await vi.waitFor(() => expect(opened).toHaveLength(side === "old" ? 1 : 2));
      expect(opened.at(-1)!.report.names).not.toContain("sql");
    }
    // Without a side it is this set, NEW; ask_human was never lost in OLD.
    expect(session.missing("ask_human").map((g) => [g.stage, g.total])).toEqual([["role", 32]]);
    expect(session.missing("ask_human", "old")).toEqual([]);
  });

  it("has no OLD traces before a comparison was made", async () => {
    const panels = new StatsPanels(real(Uri.file(resolve("."))), traces);
    const session = (await panels.show([example("after")]))!;
    expect(session.missing("sql", "old")).toEqual([]);
    expect(session.missing("sql")).not.toEqual([]);
  });
});
