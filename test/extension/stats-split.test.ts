import { resolve } from "node:path";
import type * as vscode from "vscode";
import { beforeEach, describe, expect, it, vi } from "vitest";
import type { TracePanels } from "../../src/extension/panel/panels.js";
import { StatsPanels } from "../../src/extension/stats/stats-panels.js";
import {
  parseFromStatsView,
  parseToStatsView,
  STATS_REQUEST_TIMEOUTS,
  type ComparisonView,
  type ToStatsView,
} from "../../src/stats-protocol.js";
import { cli } from "../cli/helpers.js";
import { fake, Uri, webviewFake, type FakeWebviewPanel } from "../fakes/vscode.js";

const real = (uri: Uri) => uri as unknown as vscode.Uri;
const SET = "examples/before-after";
const traces = { showReport: () => {} } as unknown as TracePanels;

beforeEach(() => {
  fake.reset();
  webviewFake.reset();
  fake.addWorkspaceFolder(resolve("."));
});

function posted(panel: FakeWebviewPanel, type: ToStatsView["type"]) {
  const found = panel.webview.posted.filter((m) => (m as { type: string }).type === type).at(-1);
  return parseToStatsView(found, () => {}) as ToStatsView | null;
}

/** A view of the before-after folder, split at `at` by the page; the host's answer. */
async function split(at: string) {
  const panels = new StatsPanels(real(Uri.file(resolve("."))), traces);
  const session = (await panels.show([real(Uri.file(resolve(SET)))]))!;
  const panel = webviewFake.panels.at(-1)!;
  panel.webview.receive({ type: "ready" });
  panel.webview.receive({ type: "split", requestId: 7, at });
  await vi.waitFor(() =>
    expect(posted(panel, "comparison") ?? posted(panel, "reply")).toMatchObject({ requestId: 7 }),
  );
  return { session, panel, answer: (posted(panel, "comparison") ?? posted(panel, "reply"))! };
}

describe("Palette Statistics: this set split at a time picked on its timeline", () => {
  it("gives the same comparison as `stats LOG --split-at TIME --json`, number for number", async () => {
    const at = "2025-03-11 00:00";
    const { answer } = await split(at);
    if (answer.type !== "comparison") throw new Error(JSON.stringify(answer));
    const view: ComparisonView = answer.view;
    const run = await cli(["stats", SET, "--split-at", at, "--json"]);
    expect(run.code).toBe(0);
    const doc = JSON.parse(run.stdout);
    expect(view.oldTraces).toBe(doc.old.traces);
    expect(view.newTraces).toBe(doc.new.traces);
    expect(view.oldTraces).toBe(40);
    expect(view.empty).toEqual(doc.empty);
    expect(view.split).toEqual({ at, atMs: Date.UTC(2025, 2, 11), untimed: doc.split.untimed });
    expect(view.against).toEqual([`${SET}/after.jsonl`, `${SET}/before.jsonl`]);
    expect(view.tools.length).toBeGreaterThan(0);
    expect(
      view.tools.map((t) => ({
        name: t.name,
        old: t.old,
        new: t.new,
        points: t.points,
        p: t.p,
        stage: t.stage && { stage: t.stage.stage, old: t.stage.old, new: t.stage.new },
      })),
    ).toEqual(
      doc.changes.map((c: Record<string, unknown>) => ({
        name: c.name,
        old: c.old,
        new: c.new,
        points: c.points,
        p: c.p,
        stage: c.stage && {
          stage: (c.stage as { stage: string }).stage,
          old: (c.stage as { old: number }).old,
          new: (c.stage as { new: number }).new,
        },
      })),
    );
    expect(view.onlyOld).toEqual(doc.only_old.map((t: { name: string }) => t.name));
    expect(view.onlyNew).toEqual(doc.only_new.map((t: { name: string }) => t.name));
  });

  it("marks both periods: each side's first and last time, on one timeline of the whole set", async () => {
    const { answer } = await split("2025-03-11 00:00");
    if (answer.type !== "comparison") throw new Error("no comparison");
    expect(answer.view.periods).toEqual({
      old: { from: Date.UTC(2025, 2, 10, 9), to: Date.UTC(2025, 2, 10, 18, 45) },
      new: { from: Date.UTC(2025, 2, 12, 9), to: Date.UTC(2025, 2, 12, 18, 45) },
    });
    const buckets = answer.view.timeline;
    expect(buckets.reduce((n, b) => n + b.traces, 0)).toBe(80);
    expect(buckets[0]!.start).toBeLessThanOrEqual(Date.UTC(2025, 2, 10, 9));
    expect(buckets.at(-1)!.start + buckets.at(-1)!.width).toBeGreaterThan(
      Date.UTC(2025, 2, 12, 18, 45),
    );
  });

  it("lists the traces that lost a tool on each side of the split, from before and from after", async () => {
    const { session } = await split("2025-03-11 00:00");
    const old = session.missing("ask_human", "old");
    const now = session.missing("ask_human", "new");
    expect(old).toEqual([]);
    expect(now.map((g) => [g.stage, g.total])).toEqual([["role", 32]]);
    expect(now[0]!.traces[0]!.file).toBe(`${SET}/after.jsonl`);
    const sql = session.missing("sql", "old");
    expect(sql[0]!.traces.every((t) => String(t.time) < "2025-03-11")).toBe(true);
    // Without a side it is the whole set, both halves.
    expect(session.missing("ask_human").map((g) => g.total)).toEqual([32]);
  });

  it("copies the split comparison as Markdown, naming OLD as the traces before the time", async () => {
    const { panel } = await split("2025-03-11 00:00");
    panel.webview.receive({ type: "copyMarkdown", requestId: 9, tools: [], comparison: true });
    await vi.waitFor(() =>
      expect(posted(panel, "reply")).toMatchObject({ requestId: 9, ok: true }),
    );
    expect(fake.clipboard.split("\n")[0]).toBe(
      "### What changed: this set (NEW, 40 traces) against the traces before 2025-03-11 00:00 (OLD, 40 traces)",
    );
  });

  it("refuses a time outside the set's times, naming its first and last time as the CLI does", async () => {
    const { answer } = await split("2026-01-01");
    expect(answer).toEqual({
      type: "reply",
      requestId: 7,
      ok: false,
      message:
        "A split at 2026-01-01 is outside the set's times: its first trace is at 2025-03-10T09:00:00Z, its last at 2025-03-12T18:45:00Z.",
    });
    const cliRun = await cli(["stats", SET, "--split-at", "2026-01-01"]);
    expect(cliRun.stderr).toContain(
      "its first trace is at 2025-03-10T09:00:00Z, its last at 2025-03-12T18:45:00Z",
    );
  });

  it("refuses a text that is no time, and says what a time looks like", async () => {
    const { answer } = await split("Tuesday");
    expect(answer).toMatchObject({ type: "reply", ok: false });
    expect((answer as { message: string }).message).toMatch(/^The split time must be a date/);
  });

  it("says when the reading again was cancelled, and compares nothing", async () => {
    const panels = new StatsPanels(real(Uri.file(resolve("."))), traces);
    await panels.show([real(Uri.file(resolve(SET)))]);
    const panel = webviewFake.panels.at(-1)!;
    panel.webview.receive({ type: "ready" });
    fake.cancelNextProgress = true;
    panel.webview.receive({ type: "split", requestId: 8, at: "2025-03-11" });
    await vi.waitFor(() => expect(posted(panel, "reply")).toMatchObject({ requestId: 8 }));
    expect(posted(panel, "reply")).toMatchObject({
      ok: false,
      message: "Not compared: the reading was cancelled.",
    });
    expect(posted(panel, "comparison")).toBeNull();
  });
});

describe("the split request on the wire", () => {
  it("is a request id and a time of at most 64 characters, given as long as a dialog", () => {
    const quiet = () => {};
    expect(parseFromStatsView({ type: "split", requestId: 1, at: "2025-03-11" }, quiet)).toEqual({
      type: "split",
      requestId: 1,
      at: "2025-03-11",
    });
    expect(parseFromStatsView({ type: "split", requestId: 1, at: "x".repeat(65) }, quiet)).toBe(
      null,
    );
    expect(parseFromStatsView({ type: "split", requestId: 1, at: 5 }, quiet)).toBe(null);
    expect(parseFromStatsView({ type: "split", at: "2025-03-11" }, quiet)).toBe(null);
    expect(STATS_REQUEST_TIMEOUTS.split).toBe(STATS_REQUEST_TIMEOUTS.compare);
  });

  it("a comparison whose periods or split are malformed is refused by the page", async () => {
    const { answer } = await split("2025-03-11 00:00");
    if (answer.type !== "comparison") throw new Error("no comparison");
    const quiet = () => {};
    const bad = (view: object) =>
      parseToStatsView({ ...answer, view: { ...answer.view, ...view } }, quiet);
    expect(bad({})).not.toBeNull();
    expect(bad({ periods: { old: { from: 2, to: 1 }, new: null } })).toBeNull();
    expect(bad({ periods: { old: null } })).toBeNull();
    expect(bad({ split: { at: "x", atMs: Infinity, untimed: 0 } })).toBeNull();
    expect(bad({ timeline: [{ start: 0 }] })).toBeNull();
  });
});
