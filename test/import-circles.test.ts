import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("..", import.meta.url));

/**
 * The import circles of `src` that exist today, each as madge names it (paths under `src/`),
 * written from the member that sorts first. The list only shrinks: a new circle fails the test,
 * and so does an entry whose circle is gone, until it is struck from the list.
 */
const ALLOWED = new Set([
  "core/fixture/issues.ts > core/fixture/problems.ts",
  "core/otel/scanner.ts > core/traces/scan.ts",
  "core/forced-unavailable.ts > core/lineage.ts",
  "core/stats/fold.ts > core/stats/rows.ts",
]);

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
  it("src has no import circle beyond the listed ones, and each listed one still exists", () => {
    const found = circles();
    expect(found.filter((circle) => !ALLOWED.has(circle))).toEqual([]);
    expect([...ALLOWED].filter((circle) => !found.includes(circle))).toEqual([]);
  }, 120_000);

  it("names a circle the same whichever member madge starts it from", () => {
    expect(named(["b.ts", "c.ts", "a.ts"])).toBe("a.ts > b.ts > c.ts");
    expect(named(["a.ts", "b.ts", "c.ts"])).toBe("a.ts > b.ts > c.ts");
  });
});
