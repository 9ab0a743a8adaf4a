/** Fixtures and catalogues on disk, as the CLI and the assistant tools find and name them. */
import { readdirSync, statSync } from "node:fs";
import { isFixturePath, SKIPPED_FOLDERS } from "../core/fixture/files.js";
import { isAbsolute, join, relative } from "node:path";
import type { SourceFile, UnreadableSource } from "../core/fixture/source.js";
import { NotReadable, readSourceFile } from "./source-file.js";

/** Paths as the user typed them, relative to the working directory when inside it. */
export function displayPath(file: string): string {
  const rel = relative(process.cwd(), file);
  return rel && !rel.startsWith("..") && !isAbsolute(rel) ? rel : file;
}

/** Every `*.turn.json` under the given files and folders, sorted, skipping dependency and build folders. */
export function findFixtures(paths: readonly string[]): string[] {
  const found = new Set<string>();
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory() && !SKIPPED_FOLDERS.has(entry.name)) walk(join(dir, entry.name));
      else if (entry.isFile() && isFixturePath(entry.name)) found.add(join(dir, entry.name));
    }
  };
  for (const path of paths) {
    const stat = statSync(path);
    if (stat.isDirectory()) walk(path);
    else found.add(path);
  }
  return [...found].sort();
}

/** The catalogue a fixture names as `ref`, at a path already confined; a sentence when it cannot be read. */
export function readCatalogAt(
  ref: string,
  target: string,
  roots?: readonly string[],
): SourceFile | UnreadableSource {
  try {
    return readSourceFile(target, "catalogue", displayPath(target), roots);
  } catch (error) {
    if (!(error instanceof NotReadable)) throw error;
    const missing = (error.cause as NodeJS.ErrnoException | undefined)?.code === "ENOENT";
    const reason = missing ? "does not exist" : `cannot be read: ${error.message}`;
    throw new Error(`catalogue file '${ref}' ${reason} (looked for ${displayPath(target)})`, {
      cause: error,
    });
  }
}
