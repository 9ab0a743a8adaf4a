import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import type * as vscode from "vscode";
import { fake, FileType, Uri } from "../fakes/vscode.js";
import { loadFixtureFromUri, readSource, readText } from "../../src/extension/fixtures.js";
import { tempDir } from "../helpers/temp.js";

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

describe("hostile fixture files in the editor's reading", () => {
  it("invalid UTF-8 in a fixture not open in an editor is an error at the byte's line and column", async () => {
    const uri = fake.writeBytes(
      "/ws/bad.turn.json",
      new Uint8Array([
        ...new TextEncoder().encode('{\n  "offered": ["s\u00e9'),
        0xc3,
        0x28,
        0x22,
        0x5d,
        0x7d,
      ]),
    );
    const loaded = await loadFixtureFromUri(real(uri));
    expect(loaded.ok).toBe(false);
    expect(loaded.problems.map((p) => [p.file, p.range.start, p.message])).toEqual([
      [
        uri.toString(),
        { line: 1, character: 17 },
        "invalid UTF-8 (byte 0xC3); save the fixture as UTF-8",
      ],
    ]);
  });

  it("size limit: a fixture over 10 MB is refused at line 1 without reading it; so is a catalogue", async () => {
    const big = fake.writeFile("/ws/big.turn.json", " ".repeat(10 * 1024 * 1024 + 1));
    const loaded = await loadFixtureFromUri(real(big));
    expect(loaded.problems.map((p) => [p.range.start.line, p.message])).toEqual([
      [0, "fixture is 10.1 MB; the limit is 10 MB"],
    ]);
    fake.writeFile("/ws/big.catalog.json", " ".repeat(12 * 1024 * 1024));
    const uri = fake.writeFile("/ws/c.turn.json", '{"catalog": "./big.catalog.json"}');
    const withCatalog = await loadFixtureFromUri(real(uri));
    expect(withCatalog.problems.map((p) => [p.file, p.message])).toEqual([
      ["file:///ws/big.catalog.json", "catalogue is 12 MB; the limit is 10 MB"],
    ]);
    expect(fake.reads.filter((read) => read.includes("big."))).toEqual([]);
  });

  it("special files: a folder or a FIFO given as a fixture is an error at once", async () => {
    fake.types.set("file:///ws/dir.turn.json", FileType.Directory);
    fake.types.set("file:///ws/pipe.turn.json", FileType.Unknown);
    const folder = await loadFixtureFromUri(real(Uri.file("/ws/dir.turn.json")));
    const fifo = await loadFixtureFromUri(real(Uri.file("/ws/pipe.turn.json")));
    expect([...folder.problems, ...fifo.problems].map((p) => p.message)).toEqual([
      "the fixture is a folder",
      "the fixture is not a regular file (a FIFO, a device or a socket)",
    ]);
    expect(fake.reads).toEqual([]);
  });

  it("file-existence oracle: a catalogue outside the workspace folder gets one answer whether or not it exists", async () => {
    fake.writeFile("/home/me/secret.json", "[]");
    const answer = async (ref: string) => {
      const uri = fake.writeFile("/ws/o.turn.json", JSON.stringify({ catalog: ref }));
      const loaded = await loadFixtureFromUri(real(uri));
      return loaded.problems.map((p) => p.message.replace(ref, "REF"));
    };
    expect(await answer("../home/me/secret.json")).toEqual(await answer("../home/me/none.json"));
    expect(fake.reads).not.toContain("file:///home/me/secret.json");
  });
});

describe("a fixture on disk outside every workspace folder", () => {
  it("may name a catalogue anywhere in its git repository, found on the disk", async () => {
    const repo = tempDir("pi-repo-");
    mkdirSync(join(repo, ".git"));
    fake.writeFile(join(repo, "tools.catalog.json"), CATALOG);
    const uri = fake.writeFile(
      join(repo, "cases", "a.turn.json"),
      '{"catalog": "../tools.catalog.json"}',
    );
    const loaded = await loadFixtureFromUri(real(uri));
    expect(loaded.problems).toEqual([]);
    if (loaded.ok) expect(loaded.fixture.catalog.names).toEqual(["search", "sql"]);
  });
});

describe("fixtures in a virtual workspace (no disk, no links)", () => {
  const vfs = (path: string) => Uri.parse(`vscode-vfs://github/o/r${path}`);
  const put = (uri: Uri, text: string) => fake.files.set(uri.toString(), text);

  it("reads the catalogue beside the fixture in the same file system, by the path as written", async () => {
    put(vfs("/agents/tools.catalog.json"), CATALOG);
    const fixture = vfs("/agents/a.turn.json");
    put(fixture, '{"catalog": "./tools.catalog.json"}');
    const loaded = await loadFixtureFromUri(real(fixture));
    expect(loaded.problems).toEqual([]);
    if (loaded.ok) expect(loaded.fixture.catalog.names).toEqual(["search", "sql"]);
    expect(fake.reads).toContain(vfs("/agents/tools.catalog.json").toString());
  });

  it("keeps the catalogue inside the fixture's own folder when no workspace folder holds it", async () => {
    put(vfs("/tools.catalog.json"), CATALOG);
    const fixture = vfs("/agents/a.turn.json");
    put(fixture, '{"catalog": "../tools.catalog.json"}');
    const loaded = await loadFixtureFromUri(real(fixture));
    expect(loaded.problems.map((p) => p.message)).toEqual([
      expect.stringMatching(/outside the fixture's folder \/o\/r\/agents;/),
    ]);
  });

  it("names the path it looked for when the catalogue is missing", async () => {
    const fixture = vfs("/agents/a.turn.json");
    put(fixture, '{"catalog": "./none.catalog.json"}');
    const loaded = await loadFixtureFromUri(real(fixture));
    expect(loaded.problems.map((p) => p.message)).toEqual([
      expect.stringContaining(
        "catalogue file './none.catalog.json' does not exist or cannot be read (looked for /o/r/agents/none.catalog.json)",
      ),
    ]);
  });
});

describe("readText", () => {
  it("reads an open document's text, else the file's, without the fixture limits", async () => {
    const uri = fake.writeFile("/ws/app.log", "on disk é");
    expect(await readText(real(uri))).toBe("on disk é");
    fake.openDocument(uri, "unsaved");
    expect(await readText(real(uri))).toBe("unsaved");
  });
});
