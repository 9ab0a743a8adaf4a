import * as fs from "node:fs";
import {
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { FileRefused, writeWholeFile } from "../../src/node/safe-file.js";
import { tempDir } from "../helpers/temp.js";

// Made to fail half-way in one test, as a full disk would; every other call is the real one.
vi.mock("node:fs", async (original) => {
  const actual = await original<typeof fs>();
  return { ...actual, writeFileSync: vi.fn(actual.writeFileSync) };
});

describe("writeWholeFile", () => {
  it("creates a file, and replaces a regular file whole, leaving nothing else in its folder", () => {
    const dir = tempDir();
    writeWholeFile(join(dir, "a.csv"), "first");
    writeWholeFile(join(dir, "a.csv"), new TextEncoder().encode("second"));
    expect(readFileSync(join(dir, "a.csv"), "utf8")).toBe("second");
    expect(readdirSync(dir)).toEqual(["a.csv"]);
  });

  it.skipIf(process.platform === "win32")(
    "keeps the permissions of the file it replaces: a private file stays private",
    () => {
      const dir = tempDir();
      writeFileSync(join(dir, "a.csv"), "secret", { mode: 0o600 });
      writeWholeFile(join(dir, "a.csv"), "still secret");
      expect(statSync(join(dir, "a.csv")).mode & 0o777).toBe(0o600);
    },
  );

  it.each([
    ["a link to a file outside", true],
    ["a dangling link", false],
  ])("refuses %s at the name, and changes nothing", (_case, targetExists) => {
    const dir = tempDir();
    const outside = join(tempDir(), "bashrc");
    if (targetExists) writeFileSync(outside, "export PATH=/usr/bin\n");
    symlinkSync(outside, join(dir, "a.csv"));
    expect(() => writeWholeFile(join(dir, "a.csv"), "hostile")).toThrow(
      new FileRefused("a.csv is a symbolic link; nothing is written through a link"),
    );
    expect(lstatSync(join(dir, "a.csv")).isSymbolicLink()).toBe(true);
    expect(readdirSync(dir)).toEqual(["a.csv"]);
    if (targetExists) expect(readFileSync(outside, "utf8")).toBe("export PATH=/usr/bin\n");
    else expect(fs.existsSync(outside)).toBe(false);
  });

  it("refuses a folder that is a link, and a folder at the name", () => {
    const dir = tempDir();
    const outside = tempDir();
    symlinkSync(outside, join(dir, "linked"));
    expect(() => writeWholeFile(join(dir, "linked", "a.csv"), "x")).toThrow(
      new FileRefused("its folder is a symbolic link; give the folder itself"),
    );
    expect(readdirSync(outside)).toEqual([]);
    mkdirSync(join(dir, "a.csv"));
    expect(() => writeWholeFile(join(dir, "a.csv"), "x")).toThrow(
      new FileRefused("a.csv is a folder"),
    );
    expect(readdirSync(join(dir, "a.csv"))).toEqual([]);
  });

  it("leaves the old file as it was, and no partial file, when the write fails", () => {
    const dir = tempDir();
    writeFileSync(join(dir, "a.csv"), "old");
    const full = Object.assign(new Error("ENOSPC: no space left on device, write"), {
      code: "ENOSPC",
    });
    vi.mocked(fs.writeFileSync).mockImplementationOnce((fd, data) => {
      fs.writeSync(fd as number, String(data).slice(0, 3));
      throw full;
    });
    expect(() => writeWholeFile(join(dir, "a.csv"), "new and longer")).toThrow(full);
    expect(readFileSync(join(dir, "a.csv"), "utf8")).toBe("old");
    expect(readdirSync(dir)).toEqual(["a.csv"]);
  });
});
