import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("..", import.meta.url));

/** A circle rotated to start at its member that sorts first, so one circle has one name. */
function named(circle: readonly string[]): string {
  const first = circle.indexOf([...circle].sort()[0]!);
  return [...circle.slice(first), ...circle.slice(0, first)].join(" > ");
}

/** The circles madge finds among the modules of `src` (`npm run circles` prints them). */
function circles(): string[] {
  const madge = spawnSync(
    process.execPath,
    [
      "node_modules/madge/bin/cli.js",
      "--circular",
      "--json",
      "--no-spinner",
      "--extensions",
      "ts",
      "--ts-config",
      "tsconfig.json",
      "src",
    ],
    { cwd: ROOT, encoding: "utf8" },
  );
  // madge exits 1 when it finds a circle; anything else is a failure to read the sources.
  if (madge.status !== 0 && madge.status !== 1) throw new Error(madge.stderr);
  return (JSON.parse(madge.stdout) as string[][]).map(named);
}

describe("import circles", () => {
  it("src has no import circle: the import graph is a tree", () => {
    expect(circles()).toEqual([]);
  }, 120_000);

  it("names a circle the same whichever member madge starts it from", () => {
    expect(named(["b.ts", "c.ts", "a.ts"])).toBe("a.ts > b.ts > c.ts");
    expect(named(["a.ts", "b.ts", "c.ts"])).toBe("a.ts > b.ts > c.ts");
  });
});
