import type { CatalogReader } from "../core/fixture/load.js";
import type { SourceFile, UnreadableSource } from "../core/fixture/source.js";
import type { LogInput } from "../node/log-source.js";

/**
 * What the tools read and write, and only under their roots: the MCP server's on disk
 * (src/node/roots.ts), the extension's through its workspace folders and open editors. Every
 * method rejects with an InputRefused (src/node/roots.ts) whose message the model is given.
 */
export interface ToolFiles {
  /** A fixture's text as the user sees it, named as problems name it. */
  readFixture(path: string): Promise<SourceFile | UnreadableSource>;
  /** The catalogue a fixture names, confined as the fixture's reader confines it. */
  readonly readCatalog: CatalogReader;
  /** Every `*.turn.json` under the paths (default: every root), each a path `readFixture` takes. */
  findFixtures(paths: readonly string[] | undefined): Promise<string[]>;
  /** The logs named (files, folders of logs), each name checked before any is read. */
  logInputs(names: readonly string[]): Promise<LogInput[]>;
  /** Writes a new file, never over an existing one; how the written file is named. */
  writeNewFile(path: string, text: string): Promise<string>;
}
