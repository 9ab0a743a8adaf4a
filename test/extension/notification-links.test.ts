// Text from a file or a log never reaches a notification, a modal or a
// progress title as a `[label](command:…)` link VS Code would render and run.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type * as vscode from "vscode";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { loadFixtureFromUri } from "../../src/extension/fixtures.js";
import {
  compareWithReplay,
  inspectLog,
  openTrace,
  turnIntoFixture,
} from "../../src/extension/logs/log-commands.js";
import { TraceTree, type TraceNode } from "../../src/extension/logs/trace-tree.js";
import { newFixture } from "../../src/extension/new-fixture.js";
import { TracePanels } from "../../src/extension/panel/panels.js";
import { updateExpectation } from "../../src/extension/testing/update-expectation.js";
import { fake, Uri, webviewFake } from "../fakes/vscode.js";
import { tempDir } from "../helpers/temp.js";
import { writtenRecord } from "../builders/logged.js";

// The workspace is the fake's in-memory disk; the real writer is tested in chosen-file.test.ts.
vi.mock("../../src/extension/chosen-file.js", () => import("../fakes/chosen-file.js"));

const LINK = "[x](command:workbench.action.openSettings?%22PWNED%22)";
/** Markdown link syntax, as VS Code's notification renderer reads it. */
const LINK_SYNTAX = /\[[^\]]*\]\(/;

const real = (uri: Uri) => uri as unknown as vscode.Uri;
const panelsStub = {
  showReport() {},
  showComparison() {},
  showFixture: async () => {},
} as unknown as TracePanels;

/** Every piece of text the user saw in a notification, a modal or a progress notification. */
function everythingShown(): string[] {
  return [
    ...fake.shown.flatMap((shown) => [shown.message, shown.detail ?? ""]),
    ...fake.progress.flatMap((progress) => [progress.title, ...progress.messages]),
  ];
}

function expectNoLinks(): void {
  const texts = everythingShown();
  expect(texts.length).toBeGreaterThan(0);
  for (const text of texts) {
    expect(text).not.toMatch(LINK_SYNTAX);
    expect(text).not.toContain("](command:");
  }
}

/** A hostile log on disk: a command-link file name, stage name, tool names and problem message. */
function hostileLog(): Uri {
  const dir = tempDir("pi-links-");
  const file = join(dir, `${LINK}.log`);
  const trace = {
    offered: [LINK, "b"],
    trace: [
      // An abstain that drops a tool: the replay cannot play it back, so turnIntoFixture warns.
      writtenRecord(LINK, "abstain", { kept: ["b"], dropped: [LINK], detail: LINK }),
    ],
  };
  const broken = { trace: [{ stage: LINK, action: LINK }] };
  writeFileSync(file, `${JSON.stringify(trace)}\n${JSON.stringify(broken)}\n`);
  return Uri.file(file);
}

async function firstTrace(tree: TraceTree): Promise<Extract<TraceNode, { kind: "trace" }>> {
  const node = tree.getChildren(tree.getChildren()[0]).find((n) => n.kind === "trace");
  if (node?.kind !== "trace") throw new Error("no trace listed");
  return node;
}

beforeEach(() => {
  fake.reset();
  webviewFake.reset();
  fake.addWorkspaceFolder("/ws");
});

describe("command links in notifications", () => {
  it("Find Selection Traces: progress title, result and problems of a hostile log", async () => {
    const tree = new TraceTree();
    await inspectLog(real(hostileLog()), tree);
    expect(fake.progress[0]!.title).toMatch(
      /^Finding selection traces in \/tmp\/.*PWNED%22\)\.log$/,
    );
    expect(fake.shown.at(-1)!.message).toMatch(/1 selection trace in .*, 1 problem\b/);
    // The details went to the log channel, whole.
    expect(fake.outputs.get("Palette Inspector")!.join("\n")).toContain(`'action' must be one of`);
    expectNoLinks();
  });

  it("Find Selection Traces: a file that cannot be read", async () => {
    await inspectLog(real(Uri.file(`/nowhere/${LINK}.log`)), new TraceTree());
    expect(fake.shown.at(-1)!.kind).toBe("error");
    expectNoLinks();
  });

  it("Turn into Fixture: replay warnings naming hostile stages, and the replace-file modal", async () => {
    const tree = new TraceTree();
    const log = hostileLog();
    await inspectLog(real(log), tree);
    const node = await firstTrace(tree);
    // The user picks an existing file whose name is the payload: the modal asks first.
    const existing = fake.writeFile(`/ws/${LINK}.turn.json`, "{}");
    fake.answers.saveDialog.push(existing);
    fake.answers.message.push("Replace");
    expect(await turnIntoFixture(node, panelsStub)).toBeDefined();
    expect(fake.shown.some((s) => s.modal && /already exists/.test(s.message))).toBe(true);
    expect(fake.shown.at(-1)!.message).toMatch(/the replay differs from the log/);
    expectNoLinks();
  });

  it("Turn into Fixture, Open and Compare: a trace that is gone from its log", async () => {
    const tree = new TraceTree();
    const log = hostileLog();
    await inspectLog(real(log), tree);
    const node = await firstTrace(tree);
    writeFileSync(log.fsPath, `${LINK}\n`);
    await turnIntoFixture(node, panelsStub);
    await openTrace(node, undefined, panelsStub);
    await compareWithReplay(node, panelsStub);
    await openTrace(real(log), 7, panelsStub);
    expect(fake.shown.filter((s) => s.kind === "error")).toHaveLength(4);
    expectNoLinks();
  });

  it("Update Expectation: an invalid fixture with a hostile name and problem", async () => {
    const uri = fake.writeFile(
      `/ws/${LINK}.turn.json`,
      JSON.stringify({ pipeline: [{ kind: LINK }] }),
    );
    expect(await updateExpectation(real(uri))).toBe(false);
    expect(fake.outputs.get("Palette Inspector")!.join("\n")).toContain(`unknown stage kind`);
    expectNoLinks();
  });

  it("Update Expectation: the confirmation modal lists hostile tool names", async () => {
    const uri = fake.writeFile(
      `/ws/${LINK}.turn.json`,
      JSON.stringify({ offered: [LINK], pipeline: [{ kind: "lazy", allowed_names: [LINK] }] }),
    );
    fake.answers.message.push(undefined);
    await updateExpectation(real(uri));
    const modal = fake.shown.at(-1)!;
    expect(modal.modal).toBe(true);
    expect(modal.detail).toContain("command:workbench.action.openSettings");
    expectNoLinks();
  });

  it("New Turn Fixture: an existing file with a hostile name", async () => {
    fake.writeFile(`/ws/${LINK}.turn.json`, "{}");
    fake.answers.inputBox.push(`${LINK}.turn.json`);
    expect(await newFixture()).toBeUndefined();
    expect(fake.shown.at(-1)!.message).toMatch(/already exists/);
    expectNoLinks();
  });

  it("the panel's Reveal in fixture for a tool the catalogue names", async () => {
    fake.writeFile("/ws/tools.catalog.json", JSON.stringify([{ name: LINK }]));
    const fixture = fake.writeFile(
      "/ws/f.turn.json",
      JSON.stringify({ catalog: "./tools.catalog.json", pipeline: [] }),
    );
    const panels = new TracePanels(Uri.file("/ext"), loadFixtureFromUri, () => {});
    await panels.showFixture(real(fixture));
    const panel = webviewFake.panels[0]!;
    panel.webview.receive({ type: "ready", edit: {} });
    panel.webview.receive({ type: "revealTool", tool: LINK });
    await vi.waitFor(() => expect(fake.shown.at(-1)?.message).toMatch(/does not name/));
    expectNoLinks();
    panels.dispose();
  });
});
