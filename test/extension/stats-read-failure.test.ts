// A folder that cannot be listed (permission denied for a user who is not root) fails the whole
// read: the test makes `readdir` refuse, as the file system would, since tests may run as root.
import * as fs from "node:fs/promises";
import type * as vscode from "vscode";
import { beforeEach, expect, it, vi } from "vitest";
import { readWithProgress } from "../../src/extension/stats/stats-panels.js";
import { fake, Uri } from "../fakes/vscode.js";
import { tempDir } from "../helpers/temp.js";

vi.mock("node:fs/promises", async (original) => {
  const actual = await original<typeof fs>();
  return { ...actual, readdir: vi.fn(actual.readdir) };
});

beforeEach(() => fake.reset());

it.each([
  ["an error", Object.assign(new Error("EACCES: permission denied, scandir"), { code: "EACCES" })],
  ["a value that is not an error", "EACCES"],
])(
  "a folder that cannot be listed (%s) is an error notification naming why",
  async (_case, thrown) => {
    const dir = tempDir("pi-stats-");
    vi.mocked(fs.readdir).mockRejectedValueOnce(thrown);
    expect(await readWithProgress([Uri.file(dir) as unknown as vscode.Uri])).toBeNull();
    expect(fake.shown).toEqual([
      { kind: "error", message: "Palette Inspector: Palette statistics could not read the logs." },
    ]);
    expect(fake.outputs.get("Palette Inspector")!.join("\n")).toContain(
      "Palette statistics could not read the logs.\n  EACCES",
    );
  },
);
