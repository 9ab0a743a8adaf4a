// The four saves of a file the user chose, on a real disk: a link a repository planted at the
// name is refused and its destination left as it was, a plain save writes the file, and a write
// that fails leaves no partial file.
import * as fs from "node:fs";
import { lstatSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import type * as vscode from "vscode";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { loadFixtureFromUri } from "../../src/extension/fixtures.js";
import type { FixtureJson } from "../../src/core/fixture/schema.js";
import { writeChosenFile } from "../../src/extension/chosen-file.js";
import { newFixture } from "../../src/extension/new-fixture.js";
import { TracePanels } from "../../src/extension/panel/panels.js";
import { saveNewFixture } from "../../src/extension/save-fixture.js";
import { StatsPanels } from "../../src/extension/stats/stats-panels.js";
import { fake, Uri, webviewFake, type FakeWebviewPanel } from "../fakes/vscode.js";
import { tempDir } from "../helpers/temp.js";

// Made to fail half-way in one test, as a full disk would; every other call is the real one.
vi.mock("node:fs", async (original) => {
  const actual = await original<typeof fs>();
  return { ...actual, writeFileSync: vi.fn(actual.writeFileSync) };
});

const real = (uri: Uri) => uri as unknown as vscode.Uri;
const FIXTURE: FixtureJson = {
  description: "two stages",
  catalog: "./tools.catalog.json",
  turn: { role: "analyst" },
  pipeline: [
    { kind: "forced", resolver: { kind: "fixed", tool: "search" } },
    { kind: "policy", max_safety_level: "medium" },
  ],
};
const CATALOG = [
  { name: "search", summary: "Search." },
  { name: "sql", summary: "SQL.", safety_level: "high" },
];

let dir: string;
let closing: { dispose(): void }[];
beforeEach(() => {
  fake.reset();
  webviewFake.reset();
  closing = [];
  dir = tempDir("pi-save-");
  fake.addWorkspaceFolder(dir);
});
afterEach(() => {
  for (const open of closing.splice(0)) open.dispose();
});

/** The page's reply to a request, once it is posted. */
async function reply(panel: FakeWebviewPanel, message: Record<string, unknown>): Promise<unknown> {
  const isReply = (m: unknown) => (m as { type: string }).type === "reply";
  panel.webview.receive(message);
  await vi.waitFor(() => expect(panel.webview.posted.some(isReply)).toBe(true), {
    timeout: 30_000,
  });
  return panel.webview.posted.find(isReply);
}

/** What the save gave back: the file it names, the page's reply, or why it failed. */
const outcome = (saving: Promise<unknown>) =>
  saving.then(
    (done) => (done instanceof Uri ? done.fsPath : done),
    (error: Error) => ({ failed: error.message }),
  );

interface Place {
  readonly what: string;
  /** The file's name in `dir`: the dialog's answer, or what the user types. */
  readonly name: string;
  /** Saves it into `dir` the way the user does. */
  save(): Promise<unknown>;
  /** What the save gives back when the file was written, and when it was refused. */
  readonly saved: () => unknown;
  readonly refused: unknown;
  /** The text a plain save writes. */
  readonly text: RegExp;
}

const PLACES: Place[] = [
  {
    what: "a trace or a debug value saved as a fixture",
    name: "replay.turn.json",
    save() {
      const target = Uri.file(join(dir, this.name));
      fake.answers.saveDialog.push(target);
      const panels = { showFixture: async () => {} } as unknown as TracePanels;
      return outcome(
        saveNewFixture(FIXTURE, { defaultUri: real(target), title: "Save the fixture" }, panels),
      );
    },
    saved: () => join(dir, "replay.turn.json"),
    refused: undefined,
    text: /^\{\n {2}"description": "two stages",/,
  },
  {
    what: "New Turn Fixture",
    name: "mine.turn.json",
    save() {
      fake.answers.inputBox.push("mine");
      return outcome(newFixture(real(Uri.file(dir))));
    },
    saved: () => join(dir, "mine.turn.json"),
    refused: undefined,
    text: /"kind": "intent"/,
  },
  {
    what: "a what-if saved as a fixture",
    name: "high.turn.json",
    async save() {
      fake.writeFile(join(dir, "tools.catalog.json"), JSON.stringify(CATALOG));
      const fixture = fake.writeFile(join(dir, "weather.turn.json"), JSON.stringify(FIXTURE));
      const panels = new TracePanels(real(Uri.file("/ext")), loadFixtureFromUri, () => {});
      closing.push(panels);
      await panels.showFixture(real(fixture));
      const panel = webviewFake.panels.at(-1)!;
      panel.webview.receive({ type: "ready", edit: {} });
      await vi.waitFor(() => expect(panel.webview.posted).toHaveLength(1), { timeout: 30_000 });
      fake.answers.saveDialog.push(Uri.file(join(dir, this.name)));
      const edit = { policies: { policy: { maxSafetyLevel: "high" } } };
      return reply(panel, { type: "saveVariant", requestId: 5, edit });
    },
    saved: () => ({ type: "reply", requestId: 5, ok: true, message: "Saved high.turn.json." }),
    refused: { type: "reply", requestId: 5, ok: false, message: "Not saved." },
    text: /"max_safety_level": "high"/,
  },
  {
    what: "the palette statistics saved as CSV",
    name: "palette-statistics.csv",
    async save() {
      const panels = new StatsPanels(real(Uri.file(resolve("."))), {} as TracePanels);
      closing.push(panels);
      await panels.show([real(Uri.file(resolve("examples/logs")))]);
      const panel = webviewFake.panels.at(-1)!;
      panel.webview.receive({ type: "ready" });
      fake.answers.saveDialog.push(Uri.file(join(dir, this.name)));
      return reply(panel, { type: "saveCsv", requestId: 2, tools: ["sql"] });
    },
    saved: () => ({
      type: "reply",
      requestId: 2,
      ok: true,
      message: "Saved palette-statistics.csv.",
    }),
    refused: { type: "reply", requestId: 2, ok: false, message: "Not saved." },
    text: /^"tool","seen","final",.*\r\n"sql",/,
  },
];

describe.each(PLACES)("$what", (place) => {
  it("writes the file the user chose", async () => {
    expect(await place.save()).toEqual(place.saved());
    expect(readFileSync(join(dir, place.name), "utf8")).toMatch(place.text);
    expect(readdirSync(dir).filter((name) => name.startsWith("."))).toEqual([]);
    expect(fake.shown.filter((shown) => shown.kind === "error")).toEqual([]);
  });

  it("refuses a link planted at the name: the file it points to is left byte for byte, and the user is told", async () => {
    const outside = join(tempDir("pi-home-"), ".bashrc");
    const bashrc = Buffer.from("export PATH=/usr/bin\n\u00e9\u0000\n");
    writeFileSync(outside, bashrc);
    symlinkSync(outside, join(dir, place.name));
    expect(await place.save()).toEqual(place.refused);
    expect(readFileSync(outside).equals(bashrc)).toBe(true);
    expect(lstatSync(join(dir, place.name)).isSymbolicLink()).toBe(true);
    expect(fake.shown).toContainEqual({
      kind: "error",
      message: `Palette Inspector: ${place.name} was not saved: nothing is written through a symbolic link, nor over a folder or a special file.`,
    });
    expect(fake.shownDocuments.map((shown) => shown.uri.fsPath)).not.toContain(
      join(dir, place.name),
    );
  });

  it("leaves no partial file when the write fails", async () => {
    const full = Object.assign(new Error("ENOSPC: no space left on device, write"), {
      code: "ENOSPC",
    });
    vi.mocked(fs.writeFileSync).mockImplementationOnce((fd, data) => {
      fs.writeSync(fd as number, (data as Uint8Array).subarray(0, 8));
      throw full;
    });
    const before = readdirSync(dir);
    // Said as the save's failure: an error, or the page's reply that it did not work.
    expect(JSON.stringify(await place.save())).toContain("no space left on device");
    expect(readdirSync(dir)).toEqual(before);
  });
});

describe("writeChosenFile", () => {
  it("writes a file of a remote or virtual file system through VS Code's", async () => {
    const remote = Uri.parse("vscode-remote://ssh-remote+box/ws/out.csv");
    expect(await writeChosenFile(real(remote), "a,b\r\n")).toBe(true);
    expect(fake.files.get(remote.toString())).toBe("a,b\r\n");
  });

  it("names a hostile file in its refusal only neutralised, as no link", async () => {
    const name = "[run](command:workbench.action.terminal.new).csv";
    symlinkSync(join(tempDir("pi-home-"), "gone"), join(dir, name));
    expect(await writeChosenFile(real(Uri.file(join(dir, name))), "x")).toBe(false);
    const shown = fake.shown.at(-1)!.message;
    expect(shown).toMatch(/^Palette Inspector: \uff3brun\uff3d\(command:/);
    expect(shown).not.toContain("[");
  });
});
