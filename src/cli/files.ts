import { existsSync, readdirSync, readFileSync, realpathSync, statSync } from "node:fs";
import { dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import type { CatalogReader, SourceFile } from "../core/fixture/load.js";

/** The folder a fixture may read from: its repository (nearest folder above holding `.git`), else its own folder. */
export function fixtureBoundary(fixtureFile: string): string {
  const start = dirname(realpathSync(fixtureFile));
  for (let dir = start; ; dir = dirname(dir)) {
    if (existsSync(join(dir, ".git"))) return dir;
    if (dirname(dir) === dir) return start;
  }
}

/** True when `file` (after links are followed) lies inside `folder`. */
export function isInside(folder: string, file: string): boolean {
  const rel = relative(folder, file);
  return rel !== "" && !rel.startsWith(".." + sep) && rel !== ".." && !isAbsolute(rel);
}

/** Reads a catalogue a fixture names, refusing anything outside the fixture's repository. */
export const readCatalogFile: CatalogReader = async (ref, fixtureFile) => {
  const boundary = fixtureBoundary(fixtureFile);
  const target = resolve(dirname(fixtureFile), ref);
  if (!existsSync(target))
    throw new Error(`catalogue file '${ref}' does not exist (looked for ${target})`);
  const real = realpathSync(target);
  if (!isInside(boundary, real)) {
    throw new Error(
      `catalogue file '${ref}' is outside ${boundary}; a fixture may only read files in its own repository`,
    );
  }
  if (!statSync(real).isFile()) throw new Error(`catalogue '${ref}' is not a file`);
  try {
    return { file: displayPath(real), text: readFileSync(real, "utf8") };
  } catch (error) {
    throw new Error(
      `catalogue file '${ref}' cannot be read: ${(error as NodeJS.ErrnoException).code ?? String(error)}`,
      { cause: error },
    );
  }
};

export function readSource(file: string): SourceFile {
  return { file: displayPath(file), text: readFileSync(file, "utf8") };
}

/** Paths as the user typed them, relative to the working directory when inside it. */
export function displayPath(file: string): string {
  const rel = relative(process.cwd(), file);
  return rel && !rel.startsWith("..") && !isAbsolute(rel) ? rel : file;
}

const SKIPPED = new Set(["node_modules", ".git", "dist", "out", ".vscode-test"]);

/** Every `*.turn.json` under the given files and folders, sorted, skipping dependency and build folders. */
export function findFixtures(paths: readonly string[]): string[] {
  const found = new Set<string>();
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory() && !SKIPPED.has(entry.name)) walk(join(dir, entry.name));
      else if (entry.isFile() && entry.name.endsWith(".turn.json"))
        found.add(join(dir, entry.name));
    }
  };
  for (const path of paths) {
    const stat = statSync(path);
    if (stat.isDirectory()) walk(path);
    else found.add(path);
  }
  return [...found].sort();
}
