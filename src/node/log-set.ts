/**
 * Several logs read as one set, in the order given; a folder stands for the logs under it and
 * `-` for standard input. This is the one loop over files that `stats` and the Palette
 * Statistics view share; the multi-file reading of `traces` (gzip, a `file` on every trace)
 * replaces it when it lands.
 */
import { readdir, stat } from "node:fs/promises";
import { isAbsolute, join, resolve } from "node:path";
import type { Cancellation, FoundTrace, ScanProblem } from "../core/traces/scan.js";
import { MAX_PROBLEMS, scanLogFile, scanLogStream, type LogScanOptions } from "./log-file.js";

/** What a folder contributes: log files by their extension (a rotated `app.log.1` too). */
export const LOG_FILE = /\.(log|jsonl|ndjson|json|txt)(\.\d+)?$/i;
const SKIPPED = new Set(["node_modules", ".git", "dist", "out", ".vscode-test"]);

export interface SetProblem extends ScanProblem {
  /** The file as given (or as found under a folder given). */
  readonly file: string;
}

export interface LogSetScan {
  /** Every file read, in order. */
  readonly files: readonly string[];
  readonly traceCount: number;
  readonly problems: readonly SetProblem[];
  readonly problemCount: number;
  readonly cancelled: boolean;
}

export interface LogSetOptions {
  /** Relative paths are read from here. */
  readonly cwd: string;
  readonly onFound: (file: string, found: FoundTrace) => void;
  readonly signal?: Cancellation;
  /** After each chunk: the file being read and its bytes read so far. */
  readonly onProgress?: (file: string, bytes: number) => void;
}

/** The files a list of paths stands for; rejects naming the first path that cannot be read. */
export async function logFiles(paths: readonly string[], cwd: string): Promise<string[]> {
  const files: string[] = [];
  for (const path of paths) {
    if (path === "-") {
      files.push(path);
      continue;
    }
    let info;
    try {
      info = await stat(absolute(path, cwd));
    } catch {
      throw new Error(`cannot read ${path}: no such file or folder`);
    }
    if (info.isDirectory()) files.push(...(await logsUnder(path, cwd)));
    else files.push(path);
  }
  return files;
}

/** Reads every file of the set through the trace scanner, one after another. */
export async function scanLogSet(
  paths: readonly string[],
  options: LogSetOptions,
): Promise<LogSetScan> {
  const files = await logFiles(paths, options.cwd);
  const problems: SetProblem[] = [];
  let problemCount = 0;
  let traceCount = 0;
  for (const file of files) {
    const scanOptions: LogScanOptions = {
      keep: false,
      signal: options.signal,
      onFound: (found) => options.onFound(file, found),
      onProgress: options.onProgress && ((bytes) => options.onProgress!(file, bytes)),
    };
    const scan =
      file === "-"
        ? await scanLogStream(process.stdin, "standard input", scanOptions)
        : await scanLogFile(absolute(file, options.cwd), scanOptions);
    traceCount += scan.traceCount;
    problemCount += scan.problemCount;
    for (const problem of scan.problems)
      if (problems.length < MAX_PROBLEMS) problems.push({ file, ...problem });
    if (scan.cancelled) return { files, traceCount, problems, problemCount, cancelled: true };
  }
  return { files, traceCount, problems, problemCount, cancelled: false };
}

async function logsUnder(folder: string, cwd: string): Promise<string[]> {
  const found: string[] = [];
  const walk = async (dir: string) => {
    const entries = await readdir(absolute(dir, cwd), { withFileTypes: true });
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      const path = join(dir, entry.name);
      if (entry.isDirectory() && !SKIPPED.has(entry.name)) await walk(path);
      else if (entry.isFile() && LOG_FILE.test(entry.name)) found.push(path);
    }
  };
  await walk(folder);
  return found;
}

function absolute(path: string, cwd: string): string {
  return isAbsolute(path) ? path : resolve(cwd, path);
}
