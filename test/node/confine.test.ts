import { mkdirSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import { join, posix, win32 } from "node:path";
import { describe, expect, it } from "vitest";
import { confinedCatalogPath, fixtureBoundary, isInside, leadsTo } from "../../src/node/confine.js";
import { tempDir } from "../helpers/temp.js";

describe("catalogue containment, one implementation for the CLI and the extension", () => {
  it.each([
    ["C:\\repo", "C:\\repo\\tools.catalog.json", true],
    ["C:\\repo", "c:\\REPO\\sub\\tools.catalog.json", true],
    ["C:\\repo\\", "C:/repo/sub/tools.catalog.json", true],
    ["c:/Repo", "C:\\repo\\a\\..\\b.json", true],
    ["C:\\repo", "C:\\repo", false],
    ["C:\\repo", "C:\\repo2\\tools.catalog.json", false],
    ["C:\\repo", "C:\\repo\\..\\secret.json", false],
    ["C:\\repo", "D:\\repo\\tools.catalog.json", false],
    ["C:\\repo", "\\\\server\\share\\repo\\x.json", false],
    ["\\\\server\\share\\repo", "\\\\SERVER\\share\\repo\\x.json", true],
    ["C:\\repo", "C:\\repo\\..foo\\x.json", true],
  ])("Windows paths (path.win32): %s contains %s: %s", (folder, file, inside) => {
    expect(isInside(folder, file, win32)).toBe(inside);
  });

  it.each([
    ["/ws", "/ws/a/tools.catalog.json", true],
    ["/ws/", "/ws/tools.catalog.json", true],
    ["/ws", "/ws", false],
    ["/ws", "/ws2/tools.catalog.json", false],
    ["/ws", "/ws/../etc/passwd", false],
    ["/ws", "/WS/tools.catalog.json", false],
  ])("POSIX paths: %s contains %s: %s", (folder, file, inside) => {
    expect(isInside(folder, file, posix)).toBe(inside);
  });

  it("the boundary is the workspace folder when there is one, else the repository, else the fixture's folder", () => {
    expect(fixtureBoundary("/ws/a/t.turn.json", "/ws", posix).folder).toBe("/ws");
    const repo = (dir: string) => dir === "/r";
    expect(fixtureBoundary("/r/a/b/t.turn.json", undefined, posix, repo)).toEqual({
      folder: "/r",
      name: "the repository /r",
    });
    expect(fixtureBoundary("/x/a/t.turn.json", undefined, posix, () => false).folder).toBe("/x/a");
    expect(
      fixtureBoundary("C:\\r\\a\\t.turn.json", undefined, win32, (d) => d === "C:\\r").folder,
    ).toBe("C:\\r");
  });
});

describe("file-existence oracle: a path outside the repository gets one answer whether or not it exists", () => {
  const root = tempDir("pi-confine-");
  mkdirSync(join(root, "repo/.git"), { recursive: true });
  writeFileSync(join(root, "secret.json"), "[]");
  writeFileSync(join(root, "repo/tools.catalog.json"), "[]");
  symlinkSync(join(root, "secret.json"), join(root, "repo/to-existing.json"));
  symlinkSync(join(root, "missing.json"), join(root, "repo/to-missing.json"));
  const fixture = join(root, "repo/t.turn.json");
  const boundary = fixtureBoundary(fixture, undefined);
  const refusal = (ref: string) => {
    try {
      confinedCatalogPath(ref, fixture, boundary);
      return "accepted";
    } catch (error) {
      return (error as Error).message.replace(ref, "REF");
    }
  };

  it("file-existence oracle: a path outside gets one answer whether or not the file exists", () => {
    expect(refusal("../secret.json")).toBe(refusal("../missing.json"));
    expect(refusal("/etc/passwd")).toBe(refusal("/etc/no-such-file"));
    expect(refusal("../secret.json")).toMatch(/is outside the repository .*repo/);
  });

  it("file-existence oracle: a link inside leading outside gets one answer whether or not its target exists", () => {
    expect(refusal("to-existing.json")).toBe(refusal("to-missing.json"));
    expect(refusal("to-existing.json")).toMatch(/is outside/);
  });

  it("a hostile catalogue path of 100,000 parts is refused by its length, before any look-up", () => {
    const ref = "a/".repeat(100_000) + "x.catalog.json";
    expect(refusal(ref)).toBe("catalogue path is 200014 characters long; the limit is 4096");
    const deep = join(root, "repo", "a/".repeat(2000), "x.catalog.json");
    expect(leadsTo(deep)).toBe(
      join(realpathSync(root), "repo", "a/".repeat(2000), "x.catalog.json"),
    );
  });

  it("a path inside is accepted as written", () => {
    expect(confinedCatalogPath("./tools.catalog.json", fixture, boundary)).toBe(
      join(root, "repo/tools.catalog.json"),
    );
    expect(confinedCatalogPath("./not-yet.catalog.json", fixture, boundary)).toBe(
      join(root, "repo/not-yet.catalog.json"),
    );
  });
});
