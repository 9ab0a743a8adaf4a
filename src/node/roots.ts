/**
 * The folders the assistant tools may read and write under (the MCP server's roots, the
 * extension's workspace folders), and the tools' files read through them.
 */
import { closeSync, existsSync, writeFileSync } from "node:fs";
import { isAbsolute, relative, resolve, sep } from "node:path";
import type { CatalogReader } from "../core/fixture/load.js";
import type { SourceFile, UnreadableSource } from "../core/fixture/source.js";
import {
  confinedCatalogPath,
  fixtureBoundary,
  isInside,
  leadsTo,
  MAX_PATH_CHARS,
} from "./confine.js";
import { displayPath, findFixtures, readCatalogAt } from "./fixture-files.js";
import { expandInputs, readReason, type LogInput } from "./log-source.js";
import { createNewFile } from "./safe-file.js";
import { NotReadable, readSourceFile } from "./source-file.js";

/** An input a tool will not or cannot answer: said to the model as it is, never as a stack. */
export class InputRefused extends Error {
  override readonly name = "InputRefused";
}

const within = (folder: string, path: string) => path === folder || isInside(folder, path);

export class Roots {
  private folders: string[] = [];
  /** Roots added later (an MCP client's), replaced as a whole when the client's list changes. */
  private extra: string[] = [];

  /** `name`: how a refusal names them ("the roots", "the workspace folders"). */
  constructor(
    folders: readonly string[],
    private readonly name = "the roots",
  ) {
    this.folders = folders.map((folder) => resolve(folder));
  }

  get list(): readonly string[] {
    return [...new Set([...this.folders, ...this.extra])];
  }

  setExtra(folders: readonly string[]): void {
    this.extra = folders.map((folder) => resolve(folder));
  }

  /**
   * The absolute path a tool's `path` names. A relative one is taken under each root in turn (the
   * first where it exists); it is refused unless it lies under a root as written and once its
   * links are followed, so that nothing outside is read and a refusal says nothing of what exists.
   */
  resolve(path: string): string {
    if (path === "" || path.includes("\u0000")) throw new InputRefused(`'${path}' is not a path`);
    if (path.length > MAX_PATH_CHARS)
      throw new InputRefused(
        `a path is ${path.length} characters long; the limit is ${MAX_PATH_CHARS}`,
      );
    const roots = this.list;
    const candidates = isAbsolute(path)
      ? [resolve(path)]
      : roots.map((root) => resolve(root, path));
    const allowed = candidates.filter((candidate) =>
      roots.some((root) => within(root, candidate) && within(leadsTo(root), leadsTo(candidate))),
    );
    const chosen = allowed.find((candidate) => existsSync(candidate)) ?? allowed[0];
    if (chosen === undefined)
      throw new InputRefused(
        `'${path}' is outside ${this.name} (${roots.join(", ")}); only files under them are read or written`,
      );
    return chosen;
  }

  /**
   * Why a tool may not write a fixture at `target` (resolved), or null: it must be named
   * `*.turn.json` and lie in no dot-folder under its root, where hooks and settings live.
   */
  fixtureNameRefusal(target: string): string | null {
    const root = this.list.find((folder) => within(folder, target));
    const parts = relative(root ?? resolve(target, ".."), target).split(sep);
    const name = parts[parts.length - 1]!;
    if (!/^[^.].*\.turn\.json$/.test(name)) return "is not named *.turn.json";
    if (parts.some((part) => part.startsWith(".")))
      return "lies in a dot-folder (.git, .vscode, …); fixtures are never written there";
    return null;
  }
}

/** The assistant tools' files on disk, under the roots; fixtures and catalogues are named as the CLI names them. */
export class RootFiles {
  constructor(readonly roots: Roots) {}

  async readFixture(path: string): Promise<SourceFile | UnreadableSource> {
    const target = this.roots.resolve(path);
    try {
      return readSourceFile(target, "fixture", displayPath(target), this.roots.list);
    } catch (error) {
      if (error instanceof NotReadable)
        throw new InputRefused(`cannot read ${path}: ${error.message}`, { cause: error });
      throw error;
    }
  }

  /** As the CLI reads a catalogue (inside the fixture's repository), and under a root too. */
  readonly readCatalog: CatalogReader = async (ref, fixtureFile) => {
    const written = confinedCatalogPath(ref, fixtureFile, fixtureBoundary(fixtureFile, undefined));
    return readCatalogAt(ref, this.roots.resolve(written), this.roots.list);
  };

  /** Every `*.turn.json` under the given paths (default: the roots), as `check` finds them. */
  async findFixtures(paths: readonly string[] | undefined): Promise<string[]> {
    const targets = paths === undefined ? this.roots.list : paths.map((p) => this.roots.resolve(p));
    try {
      return findFixtures(targets);
    } catch (error) {
      const { path } = error as NodeJS.ErrnoException;
      throw new InputRefused(`cannot read ${path ?? "path"}: ${readReason(error)}`);
    }
  }

  /** The logs as `traces` reads them (files, folders of logs, gzip), every name checked before any is read. */
  async logInputs(names: readonly string[]): Promise<LogInput[]> {
    const paths = new Map(names.map((name) => [name, this.roots.resolve(name)]));
    const roots = this.roots.list;
    // Each file is checked again as it is opened: a folder or link swapped meanwhile reads nothing outside.
    const inputs = (await expandInputs(names, (name) => paths.get(name)!)).map((input) => ({
      ...input,
      roots,
    }));
    if (inputs.length === 0)
      throw new InputRefused(
        `no log files (*.log, *.jsonl, *.json, … or .gz) in ${names.join(", ")}`,
      );
    return inputs;
  }

  /**
   * Writes a new fixture under a root: a `*.turn.json` name in no dot-folder, never over an
   * existing file nor through a link, in the folder checked as it was opened; how it is named.
   */
  async writeNewFile(path: string, text: string): Promise<string> {
    const target = this.roots.resolve(path);
    const badName = this.roots.fixtureNameRefusal(target);
    if (badName) throw new InputRefused(`not written: ${path} ${badName}`);
    let fd: number;
    try {
      fd = createNewFile(target, this.roots.list);
    } catch (error) {
      const code = ((error as Error).cause as NodeJS.ErrnoException | undefined)?.code;
      throw new InputRefused(
        code === "EEXIST"
          ? `${path} already exists; it is never overwritten`
          : `cannot write ${path}: ${readReason(error)}`,
      );
    }
    try {
      writeFileSync(fd, text);
    } finally {
      closeSync(fd);
    }
    return displayPath(target);
  }
}
