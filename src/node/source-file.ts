import { closeSync, constants, fstatSync, openSync, readSync } from "node:fs";
import {
  decodeSource,
  sizeProblem,
  type SourceFile,
  type SourceKind,
  type UnreadableSource,
} from "../core/fixture/source.js";
import { readReason } from "./log-source.js";

/** A file that cannot be read at all: missing, a folder, a FIFO, a device. */
export class NotReadable extends Error {}

// Opening a FIFO for reading waits for a writer; non-blocking, it returns at once (no-op on files).
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);

/**
 * A fixture or catalogue from disk, with its limits: only a regular file is read, nothing
 * above MAX_SOURCE_BYTES is read at all, and its bytes must be UTF-8. `file` is how problems
 * name it.
 */
export function readSourceFile(
  path: string,
  kind: SourceKind,
  file: string = path,
): SourceFile | UnreadableSource {
  let fd: number;
  try {
    fd = openSync(path, OPEN_FLAGS);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new NotReadable(code === "EISDIR" ? "is a folder" : readReason(error), { cause: error });
  }
  try {
    // Checked on the open file itself, so that nothing can swap the file between check and read.
    const stat = fstatSync(fd);
    if (stat.isDirectory()) throw new NotReadable("is a folder");
    if (!stat.isFile())
      throw new NotReadable("is not a regular file (a FIFO, a device or a socket)");
    const tooLarge = sizeProblem(file, kind, stat.size);
    if (tooLarge) return tooLarge;
    // The size it had when opened: a file that grows meanwhile cannot push past the limit.
    const bytes = new Uint8Array(stat.size);
    let length = 0;
    for (let n = 1; length < bytes.length && n > 0; length += n)
      n = readSync(fd, bytes, length, bytes.length - length, null);
    return decodeSource(file, kind, bytes.subarray(0, length));
  } catch (error) {
    if (error instanceof NotReadable) throw error;
    throw new NotReadable(readReason(error), { cause: error });
  } finally {
    closeSync(fd);
  }
}
