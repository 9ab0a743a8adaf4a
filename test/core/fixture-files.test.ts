import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { minimatch } from "minimatch";
import { afterEach, describe, expect, it } from "vitest";
import {
  FIXTURE_GLOB,
  isFixturePath,
  SKIPPED_FOLDERS,
  SKIPPED_GLOB,
} from "../../src/core/fixture/files.js";
import { findFixtures } from "../../src/node/fixture-files.js";

const SKIPPED = ["node_modules", ".git", "dist", "out", ".vscode-test"];

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

describe("which files are fixtures", () => {
  it("a file ending in .turn.json, at any depth", () => {
    expect(isFixturePath("/ws/cases/weather.turn.json")).toBe(true);
    expect(isFixturePath("weather.json")).toBe(false);
    expect(isFixturePath("/ws/weather.turn.json.bak")).toBe(false);
    expect(minimatch("cases/deep/weather.turn.json", FIXTURE_GLOB)).toBe(true);
    expect(minimatch("weather.expected.json", FIXTURE_GLOB)).toBe(false);
  });

  it("the workspace search skips dependencies, version control, build output and VS Code test downloads", () => {
    expect([...SKIPPED_FOLDERS]).toEqual(SKIPPED);
    for (const folder of SKIPPED)
      expect(minimatch(`a/${folder}/b/x.turn.json`, SKIPPED_GLOB, { dot: true })).toBe(true);
    expect(minimatch("cases/output/x.turn.json", SKIPPED_GLOB, { dot: true })).toBe(false);
  });

  it("the CLI's walk skips the same folders", () => {
    dir = mkdtempSync(join(tmpdir(), "fixture-files-"));
    for (const folder of [...SKIPPED, "cases"]) {
      mkdirSync(join(dir, folder));
      writeFileSync(join(dir, folder, "x.turn.json"), "{}");
    }
    expect(findFixtures([dir])).toEqual([join(dir, "cases", "x.turn.json")]);
  });
});
