/**
 * Issue 8 (findings 2, 8, 9) and issue 14 ("Fixtures") through the CLI: hostile fixtures and
 * catalogues end at once with exit 2 and a located problem, never a stack or a hang.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, truncateSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cli, workspace } from "./helpers.js";

describe("issue 8 finding 2: size limit", () => {
  it("size limit: a 150 MB fixture is refused at line 1 without being read", async () => {
    const root = workspace({});
    const file = join(root, "huge.turn.json");
    writeFileSync(file, "[");
    truncateSync(file, 150 * 1024 * 1024); // sparse: costs no disk, and nothing may read it
    const { code, stdout, stderr } = await cli(["run", file]);
    expect({ code, stdout, stderr }).toEqual({
      code: 2,
      stdout: "",
      stderr: `${file}:1:1: error: fixture is 150 MB; the limit is 10 MB\n`,
    });
  });

  it("size limit: a catalogue over 10 MB is refused in the catalogue, at line 1", async () => {
    const root = workspace({
      "repo/.git/HEAD": "",
      "repo/t.turn.json": { catalog: "./big.catalog.json" },
    });
    const catalog = join(root, "repo/big.catalog.json");
    writeFileSync(catalog, "[");
    truncateSync(catalog, 11 * 1024 * 1024);
    const { code, stderr } = await cli(["run", join(root, "repo/t.turn.json")]);
    expect(code).toBe(2);
    expect(stderr).toBe(`${catalog}:1:1: error: catalogue is 11 MB; the limit is 10 MB\n`);
  });
});

describe("issue 8 finding 9 and issue 14: deep nesting", () => {
  it("deep nesting: run --json on a fixture nested 100,000 levels deep exits 2 with the depth problem", async () => {
    const root = workspace({
      "deep.turn.json": `{\n"offered": ${"[".repeat(100_000)}${"]".repeat(100_000)}\n}`,
    });
    const { code, stdout, stderr } = await cli(["run", "--json", join(root, "deep.turn.json")]);
    expect({ code, stdout }).toEqual({ code: 2, stdout: "" });
    expect(stderr).toBe(
      `${join(root, "deep.turn.json")}:2:${12 + 63}: error: nested deeper than 64 levels; the limit is 64\n`,
    );
  });

  it("deep nesting: check DIR reports 6,000 unclosed brackets (fixture and catalogue) and goes on to the next file", async () => {
    const root = workspace({
      "a-deep.turn.json": "[".repeat(6000),
      "b-deep-catalog.turn.json": { catalog: "./deep.catalog.json", expect: { names: [] } },
      "deep.catalog.json": "[".repeat(6000),
      "c-ok.turn.json": { offered: ["a"], expect: { names: ["a"] } },
    });
    const { code, stdout } = await cli(["check", root]);
    expect(code).toBe(2);
    expect(stdout).toContain(`INVALID ${join(root, "a-deep.turn.json")}\n`);
    expect(stdout).toContain(
      `${join(root, "a-deep.turn.json")}:1:65: error: nested deeper than 64 levels`,
    );
    expect(stdout).toContain(
      `${join(root, "deep.catalog.json")}:1:65: error: nested deeper than 64 levels`,
    );
    expect(stdout).toContain(`PASS ${join(root, "c-ok.turn.json")}\n`);
    expect(stdout).toMatch(/2 invalid\n1 passed, 2 failed\n$/);
  });
});

describe("issue 14: invalid UTF-8 and special files", () => {
  it("invalid UTF-8 in a fixture is an error at the byte's line and column, exit 2", async () => {
    const root = workspace({});
    const file = join(root, "t.turn.json");
    writeFileSync(
      file,
      Buffer.concat([
        Buffer.from('{\n  "offered": ["sé'),
        Buffer.from([0xff]),
        Buffer.from('"]\n}'),
      ]),
    );
    const { code, stderr } = await cli(["run", file]);
    expect(code).toBe(2);
    expect(stderr).toBe(
      `${file}:2:18: error: invalid UTF-8 (byte 0xFF); save the fixture as UTF-8\n`,
    );
  });

  it("special files: /dev/zero, a FIFO and a folder are errors at once (run and check)", async () => {
    const root = workspace({ "ok.turn.json": { offered: ["a"] } });
    const fifo = join(root, "pipe.turn.json");
    execFileSync("mkfifo", [fifo]);
    const folder = join(root, "folder.turn.json");
    mkdirSync(folder);
    for (const [path, reason] of [
      ["/dev/zero", "is not a regular file (a FIFO, a device or a socket)"],
      [fifo, "is not a regular file (a FIFO, a device or a socket)"],
      [folder, "is a folder"],
    ] as const) {
      expect(await cli(["run", path])).toEqual({
        code: 2,
        stdout: "",
        stderr: `palette-inspector: cannot read ${path}: ${reason}\n`,
      });
    }
    const checked = await cli(["check", "/dev/zero", fifo, join(root, "ok.turn.json")]);
    expect(checked.code).toBe(2);
    expect(checked.stdout).toContain(
      "/dev/zero:1:1: error: cannot read /dev/zero: is not a regular file",
    );
    expect(checked.stdout).toContain(`PASS ${join(root, "ok.turn.json")}`);
  }, 10_000);
});

describe("issue 8 finding 8: file-existence oracle", () => {
  it("file-existence oracle: a catalogue path outside the repository gets one answer whether or not the file exists", async () => {
    const root = workspace({
      "secret.json": "[]",
      "repo/.git/HEAD": "",
      "repo/exists.turn.json": { catalog: "../secret.json" },
      "repo/missing.turn.json": { catalog: "../no-such.json" },
    });
    const answer = async (name: string, ref: string) =>
      (await cli(["run", join(root, "repo", name)])).stderr.replace(name, "F").replace(ref, "REF");
    const exists = await answer("exists.turn.json", "../secret.json");
    expect(exists).toBe(await answer("missing.turn.json", "../no-such.json"));
    expect(exists).toMatch(
      /catalogue file 'REF' is outside the repository .*repo; a fixture may only read files inside it/,
    );
    expect(exists).not.toMatch(/does not exist|looked for/);
  });
});
