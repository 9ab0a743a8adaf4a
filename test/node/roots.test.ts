import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { RootFiles, Roots } from "../../src/node/roots.js";
import { tempDir } from "../helpers/temp.js";

describe("RootFiles refusals", () => {
  it("says a missing path is no such file when fixtures are looked for in it", async () => {
    const root = tempDir();
    const files = new RootFiles(new Roots([root]));
    await expect(files.findFixtures([join(root, "gone")])).rejects.toThrow(
      `cannot read ${join(root, "gone")}: no such file`,
    );
  });

  it("says a new file cannot be written into a missing folder in words, not as an error code", async () => {
    const root = tempDir();
    const files = new RootFiles(new Roots([root]));
    await expect(files.writeNewFile(join(root, "no", "a.turn.json"), "{}")).rejects.toThrow(
      `cannot write ${join(root, "no", "a.turn.json")}: no such file`,
    );
    writeFileSync(join(root, "b.turn.json"), "{}");
    await expect(files.writeNewFile(join(root, "b.turn.json"), "{}")).rejects.toThrow(
      "already exists; it is never overwritten",
    );
  });
});
