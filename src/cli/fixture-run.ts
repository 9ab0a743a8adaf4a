import { runFixtureSource, type FixtureOutcome } from "../core/fixture-outcome.js";
import { NotReadable, readSourceFile } from "../node/source-file.js";
import { displayPath, readCatalogFile } from "./files.js";
import { UsageError } from "./io.js";

export { formatMismatch, type FixtureOutcome } from "../core/fixture-outcome.js";

/**
 * Loads, runs and checks one fixture file, as both `run` and `check` do. A file that cannot be
 * read at all (missing, a folder, a FIFO, a device) is a UsageError, at once.
 */
export async function runFixtureFile(path: string): Promise<FixtureOutcome> {
  let source;
  try {
    source = readSourceFile(path, "fixture", displayPath(path));
  } catch (error) {
    if (error instanceof NotReadable)
      throw new UsageError(`cannot read ${path}: ${error.message}`, { cause: error });
    throw error;
  }
  return runFixtureSource(source, readCatalogFile);
}
