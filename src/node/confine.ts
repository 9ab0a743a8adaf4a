/**
 * Catalogue confinement, in one place for the CLI and the extension: which folder a fixture
 * may read from, and whether a path lies inside it, on POSIX and Windows paths alike.
 */
import { existsSync, readlinkSync, realpathSync } from "node:fs";
import * as nodePath from "node:path";

/** The path operations confinement needs: node:path, or path.win32 / path.posix in tests. */
export type PathApi = Pick<
  typeof nodePath,
  "relative" | "isAbsolute" | "resolve" | "dirname" | "join" | "sep"
>;

/**
 * True when `file` lies strictly inside `folder`, compared as the platform compares paths
 * (on Windows: either slash, any letter case, and never across drives).
 */
export function isInside(folder: string, file: string, paths: PathApi = nodePath): boolean {
  const rel = paths.relative(folder, file);
  return rel !== "" && rel !== ".." && !rel.startsWith(".." + paths.sep) && !paths.isAbsolute(rel);
}

export interface Boundary {
  readonly folder: string;
  /** How messages name it: "the workspace folder", "the repository /x/y". */
  readonly name: string;
}

/**
 * The folder a fixture may read catalogues from: its workspace folder when it has one (in
 * VS Code), else its repository (the nearest folder above it holding `.git`), else its own folder.
 */
export function fixtureBoundary(
  fixturePath: string,
  workspaceFolder: string | undefined,
  paths: PathApi = nodePath,
  isRepository: (dir: string) => boolean = (dir) => existsSync(paths.join(dir, ".git")),
): Boundary {
  if (workspaceFolder !== undefined)
    return { folder: workspaceFolder, name: "the workspace folder" };
  const start = paths.dirname(paths.resolve(fixturePath));
  for (let dir = start; ; dir = paths.dirname(dir)) {
    if (isRepository(dir)) return { folder: dir, name: `the repository ${dir}` };
    if (paths.dirname(dir) === dir) return { folder: start, name: `the fixture's folder ${start}` };
  }
}

const MAX_LINKS = 40;
export const MAX_PATH_CHARS = 4096;

/**
 * Where a path leads once symbolic links are followed, also when its last parts do not exist
 * (a link to a missing file leads where it points). Iterative: a hostile path of any length.
 */
export function leadsTo(path: string): string {
  const missing: string[] = [];
  let at = path;
  for (let hops = 0; ;) {
    let real: string;
    try {
      real = realpathSync(at);
    } catch {
      const parent = nodePath.dirname(at);
      if (parent === at) return path;
      missing.push(nodePath.basename(at));
      at = parent;
      continue;
    }
    const next = missing.pop();
    if (next === undefined) return real;
    const link = nodePath.join(real, next);
    const target = hops < MAX_LINKS ? linkTarget(link) : null;
    if (target !== null) {
      hops++;
      at = nodePath.resolve(real, target);
      continue;
    }
    return nodePath.join(real, next, ...missing.reverse());
  }
}

/** Where a link points, or null when `path` is no link (or stopped being one meanwhile). */
function linkTarget(path: string): string | null {
  try {
    return readlinkSync(path);
  } catch {
    return null;
  }
}

/**
 * The path a catalogue reference names, or one refusal whether or not the file exists:
 * the path as written is checked first, then where its links lead, so that a fixture cannot
 * learn which files exist outside its boundary.
 */
export function confinedCatalogPath(
  ref: string,
  fixturePath: string,
  boundary: Boundary,
  onDisk = true,
  paths: PathApi = nodePath,
): string {
  // Longer than any file system allows, and a path of many parts costs a look-up per part.
  if (ref.length > MAX_PATH_CHARS)
    throw new Error(
      `catalogue path is ${ref.length} characters long; the limit is ${MAX_PATH_CHARS}`,
    );
  const written = paths.resolve(paths.dirname(fixturePath), ref);
  const outside = () =>
    new Error(
      `catalogue file '${ref}' is outside ${boundary.name}; a fixture may only read files inside it`,
    );
  if (!isInside(boundary.folder, written, paths)) throw outside();
  if (onDisk && !isInside(leadsTo(boundary.folder), leadsTo(written), paths)) throw outside();
  return written;
}
