import { closeSync, fstatSync, readSync } from "node:fs";
import {
  decodeSource,
  sizeProblem,
  type SourceFile,
  type SourceKind,
  type UnreadableSource,
} from "../core/fixture/source.js";
import { readReason } from "./log-source.js";
import { openRegularSync } from "./safe-file.js";

/** A file that cannot be read at all: missing, a folder, a FIFO, a device. */
export class NotReadable extends Error {}

/**
 * A fixture or catalogue from disk, with its limits: only a regular file is read, nothing
 * above MAX_SOURCE_BYTES is read at all, and its bytes must be UTF-8. `file` is how problems
 * name it; `roots`, the folders it must lie under (see openRegular).
 */
export function readSourceFile(
  path: string,
  kind: SourceKind,
  file: string = path,
  roots?: readonly string[],
): SourceFile | UnreadableSource {
  let fd: number;
  try {
    // Checked on the open file itself, so that nothing can swap the file between check and read.
    fd = openRegularSync(path, { roots });
  } catch (error) {
    throw new NotReadable(readReason(error), { cause: error });
  }
  try {
    const stat = fstatSync(fd);
    const tooLarge = sizeProblem(file, kind, stat.size);
    if (tooLarge) return tooLarge;
    // The size it had when opened: a file that grows meanwhile cannot push past the limit.
    const bytes = new Uint8Array(stat.size);
    let length = 0;
    for (let n = 1; length < bytes.length && n > 0; length += n)
      n = readSync(fd, bytes, length, bytes.length - length, null);
    return decodeSource(file, kind, bytes.subarray(0, length));
  } catch (error) {
    throw new NotReadable(readReason(error), { cause: error });
  } finally {
    closeSync(fd);
  }
}
