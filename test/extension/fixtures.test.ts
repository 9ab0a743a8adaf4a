import { beforeEach, describe, expect, it } from "vitest";
import type * as vscode from "vscode";
import { fake, Uri } from "../fakes/vscode.js";
import { loadFixtureFromUri, readSource } from "../../src/extension/fixtures.js";

/** The fake stands in for the real module at run time; the compiler sees the real types. */
const real = (uri: Uri) => uri as unknown as vscode.Uri;

const CATALOG = JSON.stringify([{ name: "search" }, { name: "sql", safety_level: "high" }]);

beforeEach(() => {
  fake.reset();
  fake.addWorkspaceFolder("/ws");
  fake.writeFile("/ws/tools.catalog.json", CATALOG);
});

describe("fixtures as the editor shows them", () => {
  it("reads an open document's unsaved text before the disk's", async () => {
    const uri = fake.writeFile("/ws/a.turn.json", '{"offered": ["on-disk"]}');
    fake.openDocument(uri, '{"offered": ["unsaved"]}');
    expect(await readSource(real(uri))).toEqual({
      file: uri.toString(),
      text: '{"offered": ["unsaved"]}',
    });
  });

  it("loads a fixture with its catalogue from the workspace", async () => {
    const uri = fake.writeFile(
      "/ws/a.turn.json",
      '{"catalog": "./tools.catalog.json", "pipeline": [{"kind": "policy", "max_safety_level": "low"}]}',
    );
    const loaded = await loadFixtureFromUri(real(uri));
    expect(loaded.ok).toBe(true);
    if (loaded.ok) expect(loaded.fixture.catalog.names).toEqual(["search", "sql"]);
  });

  it("refuses a catalogue outside the workspace folder, naming the catalog key", async () => {
    const uri = fake.writeFile("/ws/a.turn.json", '{\n  "catalog": "../../home/me/.ssh/id_rsa"\n}');
    const loaded = await loadFixtureFromUri(real(uri));
    expect(loaded.ok).toBe(false);
    expect(loaded.problems[0]!.message).toMatch(/outside the workspace folder/);
    expect(loaded.problems[0]!.range.start).toEqual({ line: 1, character: 13 });
  });

  it("reports a missing catalogue file at the catalog key", async () => {
    const uri = fake.writeFile("/ws/a.turn.json", '{"catalog": "./missing.catalog.json"}');
    const loaded = await loadFixtureFromUri(real(uri));
    expect(loaded.problems.map((p) => p.message)).toEqual([
      expect.stringMatching(/'\.\/missing\.catalog\.json' does not exist/),
    ]);
  });

  it("reports catalogue problems in the catalogue file", async () => {
    fake.writeFile("/ws/bad.catalog.json", '[{"name": "x", "safety_level": "extreme"}]');
    const uri = fake.writeFile("/ws/a.turn.json", '{"catalog": "./bad.catalog.json"}');
    const loaded = await loadFixtureFromUri(real(uri));
    expect(loaded.problems).toHaveLength(1);
    expect(loaded.problems[0]!.file).toBe(Uri.file("/ws/bad.catalog.json").toString());
  });
});
