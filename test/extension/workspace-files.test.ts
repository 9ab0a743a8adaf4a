import { readFileSync } from "node:fs";
import { join } from "node:path";
import type * as vscode from "vscode";
import { beforeEach, describe, expect, it } from "vitest";
import { toDiagnostic } from "../../src/extension/convert.js";
import type { TracePanels } from "../../src/extension/panel/panels.js";
import { saveNewFixture } from "../../src/extension/save-fixture.js";
import { chooseNewFile, exists, FIXTURE_FILTERS } from "../../src/extension/workspace-files.js";
import { DiagnosticSeverity, fake, FileType, Uri } from "../fakes/vscode.js";
import { tempDir } from "../helpers/temp.js";

const real = (uri: Uri) => uri as unknown as vscode.Uri;
const dialog = { defaultUri: real(Uri.file("/ws/new.turn.json")), title: "Where?" };

beforeEach(() => {
  fake.reset();
  fake.addWorkspaceFolder("/ws");
});

describe("exists", () => {
  it("says whether anything is at a URI: a file or a folder, not a missing name", async () => {
    fake.writeFile("/ws/a.json", "{}");
    fake.types.set(Uri.file("/ws/dir").toString(), FileType.Directory);
    expect(await exists(real(Uri.file("/ws/a.json")))).toBe(true);
    expect(await exists(real(Uri.file("/ws/dir")))).toBe(true);
    expect(await exists(real(Uri.file("/ws/missing.json")))).toBe(false);
  });
});

describe("chooseNewFile", () => {
  const options = { ...dialog, saveLabel: "Save", filters: FIXTURE_FILTERS };

  it("takes a new name as chosen, and nothing when the dialog is cancelled", async () => {
    fake.answers.saveDialog.push(Uri.file("/ws/fresh.turn.json"), undefined);
    expect((await chooseNewFile(options))?.toString()).toBe("file:///ws/fresh.turn.json");
    expect(await chooseNewFile(options)).toBeUndefined();
    expect(fake.shown).toEqual([]);
  });

  it("replaces an existing file only when the user says Replace", async () => {
    fake.writeFile("/ws/taken.turn.json", "{}");
    const taken = Uri.file("/ws/taken.turn.json");
    fake.answers.saveDialog.push(taken, taken);
    fake.answers.message.push("Replace", undefined);
    expect((await chooseNewFile(options))?.toString()).toBe(taken.toString());
    expect(await chooseNewFile(options)).toBeUndefined();
    expect(fake.shown[0]).toEqual({
      kind: "warning",
      message: "taken.turn.json already exists. Replace it?",
      modal: true,
      detail: "",
    });
  });

  it("filters on the last extension only, so the dialog keeps a .turn.json name as typed", () => {
    expect(FIXTURE_FILTERS).toEqual({ "Turn fixture": ["json"] });
  });
});

describe("saveNewFixture", () => {
  const opened: string[] = [];
  const panels = {
    showFixture: async (uri: vscode.Uri) => void opened.push(uri.toString()),
  } as unknown as TracePanels;
  beforeEach(() => void (opened.length = 0));

  it("writes the fixture as indented JSON, opens it as a kept editor and runs it", async () => {
    const saved = Uri.file(join(tempDir(), "saved.turn.json"));
    fake.answers.saveDialog.push(saved);
    const target = await saveNewFixture({ description: "d", pipeline: [] }, dialog, panels);
    expect(target?.toString()).toBe(saved.toString());
    expect(readFileSync(saved.fsPath, "utf8")).toBe(
      '{\n  "description": "d",\n  "pipeline": []\n}\n',
    );
    expect(fake.shownDocuments.map((d) => [d.uri.toString(), d.options])).toEqual([
      [saved.toString(), { preview: false }],
    ]);
    expect(opened).toEqual([saved.toString()]);
    expect(fake.dialogs).toEqual([
      { ...dialog, filters: FIXTURE_FILTERS, saveLabel: "Save fixture" },
    ]);
  });

  it("writes nothing, opens nothing, when the dialog is cancelled", async () => {
    fake.answers.saveDialog.push(undefined);
    expect(await saveNewFixture({ pipeline: [] }, dialog, panels)).toBeUndefined();
    expect([...fake.files.keys()]).toEqual([]);
    expect(fake.shownDocuments).toEqual([]);
    expect(opened).toEqual([]);
  });
});

describe("toDiagnostic", () => {
  const range = { start: { line: 1, character: 2 }, end: { line: 3, character: 4 } };

  it("places a problem at its range with its JSON path, as an error or a warning, from this extension", () => {
    const error = toDiagnostic({
      severity: "error",
      file: "f",
      range,
      path: ["pipeline", 0],
      message: "bad",
    });
    expect(error.severity).toBe(DiagnosticSeverity.Error);
    expect(error.source).toBe("palette-inspector");
    expect(error.message).toMatch(/bad/);
    expect(error.message).toMatch(/pipeline/);
    expect([error.range.start, error.range.end].map((p) => [p.line, p.character])).toEqual([
      [1, 2],
      [3, 4],
    ]);
    const warning = toDiagnostic({
      severity: "warning",
      file: "f",
      range,
      path: [],
      message: "hm",
    });
    expect(warning.severity).toBe(DiagnosticSeverity.Warning);
  });
});
