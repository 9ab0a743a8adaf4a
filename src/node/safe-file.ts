/**
 * Files opened safely in a folder someone else may control: read through the handle that was
 * checked (a regular file, under the roots once its links are followed, never waiting on a FIFO),
 * and created only as new files (or written whole in a new one renamed over a regular file),
 * never through a link, in a folder opened once.
 */
import {
  closeSync,
  constants,
  existsSync,
  fchmodSync,
  fstatSync,
  lstatSync,
  openSync,
  readdirSync,
  readlinkSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  unlinkSync,
  writeFileSync,
  type Stats,
} from "node:fs";
import { randomBytes } from "node:crypto";
import { open, type FileHandle } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { isInside } from "./confine.js";

/** Why a file was not opened, in words (the caller names the file). */
export class FileRefused extends Error {
  override readonly name = "FileRefused";
}

// Windows has neither flag: there the checks after opening stand alone.
const NO_FOLLOW = constants.O_NOFOLLOW ?? 0;
const NO_BLOCK = constants.O_NONBLOCK ?? 0;
const FOLDER = constants.O_DIRECTORY ?? 0;
/** Linux names an open handle's file, and resolves a name relative to an open folder (an openat). */
const PROC_FD = process.platform === "linux" && existsSync("/proc/self/fd");

export interface ReadOptions {
  /** The folders the file must lie under once its links are followed; then a last link, and a file with hard links, is refused. */
  readonly roots?: readonly string[];
}

/** Opens a regular file for reading without waiting on a FIFO; rejects with a FileRefused. */
export async function openRegular(path: string, options: ReadOptions = {}): Promise<FileHandle> {
  const handle = await open(path, readFlags(options)).catch((error: unknown) => {
    throw openRefusal(error, options);
  });
  try {
    checkOpened(handle.fd, path, await handle.stat(), options.roots);
    return handle;
  } catch (error) {
    await handle.close();
    throw error;
  }
}

/** openRegular's synchronous twin for small files (fixtures, catalogues): a descriptor. */
export function openRegularSync(path: string, options: ReadOptions = {}): number {
  let fd: number;
  try {
    fd = openSync(path, readFlags(options));
  } catch (error) {
    throw openRefusal(error, options);
  }
  try {
    checkOpened(fd, path, fstatSync(fd), options.roots);
    return fd;
  } catch (error) {
    closeSync(fd);
    throw error;
  }
}

function readFlags({ roots }: ReadOptions): number {
  return constants.O_RDONLY | NO_BLOCK | (roots === undefined ? 0 : NO_FOLLOW);
}

function openRefusal(error: unknown, { roots }: ReadOptions): unknown {
  const code = (error as NodeJS.ErrnoException).code;
  // O_NOFOLLOW on a link: ELOOP on Linux and macOS, EMLINK on FreeBSD.
  if (roots !== undefined && (code === "ELOOP" || code === "EMLINK"))
    return new FileRefused("it is a symbolic link, which the tools do not follow", {
      cause: error,
    });
  return error;
}

/** Refuses what was opened unless it is a regular file, under a root and of one name when roots are given. */
function checkOpened(fd: number, path: string, stat: Stats, roots?: readonly string[]): void {
  if (stat.isDirectory()) throw new FileRefused("it is a folder");
  if (!stat.isFile())
    throw new FileRefused("it is not a regular file (a FIFO, a device or a socket)");
  // A hard link is the file itself under a second name, which may lie outside every root.
  if (roots && stat.nlink > 1)
    throw new FileRefused(
      `it has ${stat.nlink} names (hard links), and another may lie outside the roots; the tools read only a file with one name`,
    );
  const outside = roots && outsideRoots(realPathOf(fd, path, stat), roots);
  if (outside) throw new FileRefused(`it ${outside}`);
}

/** Why a file or folder at `real` (null: it changed while opened) is not under a root, or null. */
function outsideRoots(real: string | null, roots: readonly string[]): string | null {
  if (real === null) return "was moved or replaced while it was opened";
  const under = (root: string) => real === root || isInside(root, real);
  if (!roots.map(realRoot).some(under)) return "lies outside the roots once its links are followed";
  return null;
}

function realRoot(root: string): string {
  try {
    return realpathSync(root);
  } catch {
    return root;
  }
}

/**
 * Where an open handle's file is: on Linux, what the kernel says of the handle; elsewhere where
 * the path leads now, if that is still the file opened (else null).
 */
function realPathOf(fd: number, path: string, opened: Stats): string | null {
  if (PROC_FD) return readlinkSync(`/proc/self/fd/${fd}`);
  try {
    const real = realpathSync(path);
    return sameFile(statSync(real), opened) ? real : null;
  } catch {
    return null;
  }
}

const sameFile = (a: Stats, b: Stats) => a.dev === b.dev && a.ino === b.ino;

/** A folder opened once: names in it are created and removed there, whatever its path becomes. */
export class OpenFolder {
  private constructor(
    readonly path: string,
    /** Null where a folder cannot be opened (Windows): its identity is checked after each step. */
    private readonly fd: number | null,
    private readonly stat: Stats,
  ) {}

  /**
   * Opens the folder at `path`, whose last part must not be a link; under a root when roots are
   * given. A FileRefused says why with the folder as its subject ("is a symbolic link; …").
   */
  static open(path: string, roots?: readonly string[]): OpenFolder {
    const stat = lstatSync(path);
    if (stat.isSymbolicLink()) throw new FileRefused("is a symbolic link; give the folder itself");
    if (!stat.isDirectory()) throw new FileRefused("exists and is not a folder");
    if (process.platform === "win32") {
      const outside = roots && outsideRoots(realPathOf(-1, path, stat), roots);
      if (outside) throw new FileRefused(outside);
      return new OpenFolder(path, null, stat);
    }
    const fd = openSync(path, constants.O_RDONLY | FOLDER | NO_FOLLOW);
    try {
      const opened = fstatSync(fd);
      if (!opened.isDirectory()) throw new FileRefused("is not a folder");
      const outside = roots && outsideRoots(realPathOf(fd, path, opened), roots);
      if (outside) throw new FileRefused(outside);
      return new OpenFolder(path, fd, opened);
    } catch (error) {
      closeSync(fd);
      throw error;
    }
  }

  /** The names the folder holds. */
  names(): string[] {
    return readdirSync(this.entry(""));
  }

  /** Creates `name` as a new file for writing (never over anything, never through a link): a descriptor. */
  create(name: string): number {
    let fd: number;
    try {
      fd = openSync(
        this.entry(name),
        constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | NO_FOLLOW,
        0o666,
      );
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "EEXIST")
        throw new FileRefused(`${name} already exists; it is never overwritten`, { cause: error });
      throw error;
    }
    try {
      this.stillHolds(name, fstatSync(fd));
      return fd;
    } catch (error) {
      closeSync(fd);
      throw error;
    }
  }

  /** Whether `name` is a regular file (false: nothing by that name); refuses a link or anything else. */
  holdsFile(name: string): boolean {
    return this.regularFile(name) !== null;
  }

  /** The regular file `name`'s own stat (null: nothing by that name); refuses a link or anything else. */
  private regularFile(name: string): Stats | null {
    let stat: Stats;
    try {
      stat = lstatSync(this.entry(name));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
      throw error;
    }
    if (stat.isSymbolicLink())
      throw new FileRefused(`${name} is a symbolic link; nothing is written through a link`);
    if (stat.isDirectory()) throw new FileRefused(`${name} is a folder`);
    if (!stat.isFile()) throw new FileRefused(`${name} is not a regular file`);
    return stat;
  }

  /** Removes the regular file `name`, if there, before it is created anew (see holdsFile). */
  removeFile(name: string): void {
    if (this.holdsFile(name)) unlinkSync(this.entry(name));
  }

  /** Creates `name` afresh, removing a regular file of that name first; a link or anything else is refused. */
  replace(name: string): number {
    this.removeFile(name);
    // A name planted between the removal and the creation is refused by create, never written through.
    return this.create(name);
  }

  /**
   * Writes `name` whole: into a new file beside it, then renamed over it, so that a failed write
   * leaves what was there; a link or anything but a regular file at `name` is refused.
   */
  writeWhole(name: string, data: string | Uint8Array): void {
    const old = this.regularFile(name);
    // A fixed short name, not one from `name`: a long name must not make the temporary one too long.
    const temp = `.palette-inspector-${randomBytes(6).toString("hex")}.tmp`;
    const fd = this.create(temp);
    try {
      try {
        // The file replaced keeps its permissions: a private file stays private.
        if (old) fchmodSync(fd, old.mode & 0o777);
        writeFileSync(fd, data);
      } finally {
        closeSync(fd);
      }
      // A rename replaces the name itself: a link planted since the check is replaced, never followed.
      renameSync(this.entry(temp), this.entry(name));
    } catch (error) {
      rmSync(this.entry(temp), { force: true });
      throw error;
    }
  }

  close(): void {
    if (this.fd !== null) closeSync(this.fd);
  }

  /** The name relative to the open folder: on Linux through its handle, elsewhere by path. */
  private entry(name: string): string {
    return PROC_FD && this.fd !== null
      ? join(`/proc/self/fd/${this.fd}`, name)
      : join(this.path, name);
  }

  /** Without an openat, the folder's path may have been swapped meanwhile: the file made must be in the folder opened. */
  private stillHolds(name: string, made: Stats): void {
    if (PROC_FD && this.fd !== null) return;
    const now = statSync(this.path);
    if (!sameFile(now, this.stat) || !sameFile(lstatSync(join(this.path, name)), made))
      throw new FileRefused(`the folder ${this.path} was moved or replaced while ${name} was made`);
  }
}

/**
 * Opens `path` to append to, made if missing: never through a last link, never waiting on a FIFO,
 * and only a regular file; a descriptor, or a FileRefused.
 */
export function openAppendSync(path: string): number {
  let fd: number;
  try {
    const flags = constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT;
    fd = openSync(path, flags | NO_FOLLOW | NO_BLOCK, 0o644);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ELOOP" || code === "EMLINK")
      throw new FileRefused("it is a symbolic link; nothing is written through a link", {
        cause: error,
      });
    // A FIFO without a reader cannot be opened to write without waiting.
    if (code === "ENXIO")
      throw new FileRefused("it is not a regular file (a FIFO, a device or a socket)", {
        cause: error,
      });
    throw error;
  }
  try {
    checkOpened(fd, path, fstatSync(fd));
    return fd;
  } catch (error) {
    closeSync(fd);
    throw error;
  }
}

/** Creates the new file `path` (never over anything, never through a link), in a folder under a root when roots are given. */
export function createNewFile(path: string, roots?: readonly string[]): number {
  return inFolderOf(path, roots, (folder, name) => folder.create(name));
}

/**
 * Writes `path` whole (see OpenFolder.writeWhole): never through a link at `path` or a folder that
 * is a link, never over anything but a regular file; a failed write leaves what was there.
 */
export function writeWholeFile(path: string, data: string | Uint8Array): void {
  inFolderOf(path, undefined, (folder, name) => folder.writeWhole(name, data));
}

function inFolderOf<T>(
  path: string,
  roots: readonly string[] | undefined,
  make: (folder: OpenFolder, name: string) => T,
): T {
  let folder: OpenFolder;
  try {
    folder = OpenFolder.open(dirname(path), roots);
  } catch (error) {
    if (error instanceof FileRefused)
      throw new FileRefused(`its folder ${error.message}`, { cause: error });
    throw error;
  }
  try {
    return make(folder, basename(path));
  } finally {
    folder.close();
  }
}
