// Restored panels read only workspace fixtures, the clipboard gets only host-built text, and every request gets a reply.
import type * as vscode from "vscode";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { LoadResult } from "../../src/core/fixture/load.js";
import { loadFixtureFromUri } from "../../src/extension/fixtures.js";
import { TracePanels, TRACE_VIEW_TYPE } from "../../src/extension/panel/panels.js";
import type { ToWebview } from "../../src/protocol.js";
import { env, fake, Uri, webviewFake, type FakeWebviewPanel } from "../fakes/vscode.js";
import { tempDir } from "../helpers/temp.js";

const FIXTURE = JSON.stringify({
  offered: ["search", "sql"],
  pipeline: [{ kind: "lazy", allowed_names: ["search"] }],
});

let loads: string[];
let logged: string[];
let panels: TracePanels;

/** The real loader, recording what it was asked to read. */
function load(uri: vscode.Uri): Promise<LoadResult> {
  loads.push(uri.toString());
  return loadFixtureFromUri(uri);
}

const posted = (panel: FakeWebviewPanel) => panel.webview.posted as ToWebview[];
const state = (source: string) => ({
  source,
  selectedTool: null,
  scrollY: 0,
  matrix: false,
  edit: {},
});

async function restore(source: string): Promise<FakeWebviewPanel> {
  const panel = webviewFake.create(TRACE_VIEW_TYPE, "old", {});
  await webviewFake.serializers.get(TRACE_VIEW_TYPE)!.deserializeWebviewPanel(panel, state(source));
  panel.webview.receive({ type: "ready", edit: {} });
  await vi.waitFor(() => expect(posted(panel).length).toBeGreaterThan(0));
  return panel;
}

async function openReady(): Promise<FakeWebviewPanel> {
  await panels.showFixture(Uri.file("/ws/turns/a.turn.json"));
  const panel = webviewFake.panels.at(-1)!;
  panel.webview.receive({ type: "ready", edit: {} });
  await vi.waitFor(() => expect(posted(panel)[0]?.type).toBe("show"));
  return panel;
}

async function request(panel: FakeWebviewPanel, message: Record<string, unknown>) {
  const before = panel.webview.posted.length;
  panel.webview.receive(message);
  await vi.waitFor(() => expect(panel.webview.posted.length).toBeGreaterThan(before));
  return posted(panel).at(-1)!;
}

beforeEach(() => {
  fake.reset();
  webviewFake.reset();
  loads = [];
  logged = [];
  fake.addWorkspaceFolder("/ws");
  fake.writeFile("/ws/turns/a.turn.json", FIXTURE);
  fake.writeFile("/outside/b.turn.json", FIXTURE);
  fake.writeFile("/etc/passwd", "root:x:0:0");
  panels = new TracePanels(Uri.file("/ext"), load, (line) => logged.push(line));
});
afterEach(() => {
  panels.dispose();
  vi.restoreAllMocks();
});

describe("restored panels", () => {
  it("restores a *.turn.json file inside a workspace folder", async () => {
    const panel = await restore("file:///ws/turns/a.turn.json");
    expect(posted(panel)[0]!.type).toBe("show");
    expect(loads).toEqual(["file:///ws/turns/a.turn.json"]);
  });

  it.each([
    ["a file outside the workspace", "file:///etc/passwd", /not a \*\.turn\.json/],
    ["a fixture outside the workspace", "file:///outside/b.turn.json", /not in a folder/],
    ["a path that climbs out", "file:///ws/../outside/b.turn.json", /leaves its folder/],
    ["another scheme", "https://evil.example/a.turn.json", /not a file on this machine/],
    ["a query", "file:///ws/turns/a.turn.json?x=1", /not a plain file URI/],
    ["a fragment", "file:///ws/turns/a.turn.json#x", /not a plain file URI/],
    ["no URI at all", "/ws/turns/a.turn.json", /not a URI/],
  ])("refuses %s: an empty panel says why, and nothing is read", async (_why, source, reason) => {
    const panel = await restore(source);
    const [message] = posted(panel);
    if (message?.type !== "problems") throw new Error(`expected problems, got ${message?.type}`);
    expect(message).toEqual({
      type: "problems",
      file: "not restored",
      source: null,
      problems: [
        {
          severity: "error",
          file: "saved panel",
          line: 1,
          column: 1,
          message: expect.stringMatching(/^This panel was not restored: /),
        },
      ],
    });
    expect(message.problems[0]!.message).toMatch(reason);
    expect(panel.title).toBe("Selection Trace: not restored");
    expect(loads).toEqual([]);
    expect(logged.join("\n")).toMatch(reason);
  });
});

describe("restored panels and links", () => {
  it("refuses a fixture in the workspace that is a link to a file outside it", async () => {
    const root = tempDir("pi-restore-");
    mkdirSync(join(root, "ws"));
    mkdirSync(join(root, "outside"));
    writeFileSync(join(root, "outside", "secret.turn.json"), FIXTURE);
    symlinkSync(join(root, "outside", "secret.turn.json"), join(root, "ws", "link.turn.json"));
    fake.addWorkspaceFolder(join(root, "ws"));
    const panel = await restore(Uri.file(join(root, "ws", "link.turn.json")).toString());
    const [message] = posted(panel);
    if (message?.type !== "problems") throw new Error(`expected problems, got ${message?.type}`);
    expect(message.problems[0]!.message).toMatch(/a link that leads out of the workspace/);
    expect(loads).toEqual([]);
  });
});

describe("clipboard", () => {
  it("copies only a run the host holds, built by the host, on a message naming the run", async () => {
    const panel = await openReady();
    // The webview cannot hand the host text to put on the clipboard.
    panel.webview.receive({ type: "copyMarkdown", requestId: 1, text: "[x](command:y)" });
    panel.webview.receive({ type: "copyMarkdown", requestId: 2, edit: null });
    // No what-if has run: there is no what-if run to copy. Its reply is the first after the show,
    // so the two refused messages above got none.
    expect(await request(panel, { type: "copyMarkdown", requestId: 3, run: "whatIf" })).toEqual({
      type: "reply",
      requestId: 3,
      ok: false,
      message: "The what-if has no run to copy.",
    });
    expect(posted(panel)).toHaveLength(2);
    expect(fake.clipboard).toBe("");
    await request(panel, { type: "copyMarkdown", requestId: 4, run: "shown" });
    expect(fake.clipboard).toMatch(/^### Selection trace: turns\/a\.turn\.json\n/);
    expect(fake.clipboard).not.toContain("file://");
  });
});

describe("a reply to every request", () => {
  it("answers a request whose handler throws with one failed reply the webview shows", async () => {
    const panel = await openReady();
    vi.spyOn(env.clipboard, "writeText").mockRejectedValue(new Error("clipboard unavailable"));
    const reply = await request(panel, { type: "copyMarkdown", requestId: 9, run: "shown" });
    expect(reply).toEqual({
      type: "reply",
      requestId: 9,
      ok: false,
      message: "That did not work: clipboard unavailable (details in the Palette Inspector log).",
    });
    // A later request's reply: had the failed one been answered twice, both replies came before it.
    expect(
      await request(panel, { type: "copyMarkdown", requestId: 10, run: "whatIf" }),
    ).toMatchObject({
      requestId: 10,
    });
    expect(posted(panel).filter((m) => "requestId" in m && m.requestId === 9)).toHaveLength(1);
    expect(logged.at(-1)).toMatch(/'copyMarkdown' request failed: clipboard unavailable/);
  });
});
