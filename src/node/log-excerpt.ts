/**
 * The lines around one line of a log, for a log no editor opens (a gzip, or a file over VS Code's
 * limit for extensions): read from the byte offset a scan recorded (inflated from the nearest
 * checkpoint in a gzip), else found by counting lines from the start.
 */
import { ScanCancelled, type Cancellation } from "../core/traces/scan.js";
import { isCancelled, readRange } from "./log-file.js";
import { logChunks } from "./log-source.js";

/** Lines shown before and after the line asked for. */
export const CONTEXT_LINES = 40;
/** Bytes read before the line and after it (a long line is cut there). */
const CONTEXT_BYTES = 64 * 1024;
/** Characters of one line shown; the rest is cut with "…". */
const LINE_CHARS = 2000;

export interface Excerpt {
  /** The 1-based line of the log the excerpt's first line is. */
  readonly firstLine: number;
  readonly lines: readonly string[];
  /** The line asked for, 0-based in `lines`. */
  readonly at: number;
}

/** The byte offset where a line starts, counting line feeds from the start of the (inflated) file. */
async function offsetOfLine(path: string, line: number, signal?: Cancellation): Promise<number> {
  if (line === 1) return 0;
  let feeds = 0;
  let at = 0;
  for await (const chunk of logChunks({ name: path, path })) {
    if (isCancelled(signal)) throw new ScanCancelled();
    for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1))
      if (++feeds === line - 1) return at + i + 1;
    at += chunk.length;
  }
  throw new Error(`${path} has no line ${line} (it holds ${feeds + 1})`);
}

/**
 * The CONTEXT_LINES lines before `line` and after it, as text (invalid UTF-8 replaced, each line
 * cut at LINE_CHARS). `offset`: where the line starts, when a scan recorded it.
 */
export async function readExcerpt(
  path: string,
  line: number,
  options: { readonly offset?: number; readonly signal?: Cancellation } = {},
): Promise<Excerpt> {
  const offset = options.offset ?? (await offsetOfLine(path, line, options.signal));
  const start = Math.max(0, offset - CONTEXT_BYTES);
  // No hash vouches for a neighbourhood's bytes, so a gzip's is inflated from its start.
  const bytes = await readRange(
    path,
    { offset: start, length: offset - start + CONTEXT_BYTES },
    { signal: options.signal },
  );
  const decoder = new TextDecoder();
  const before = decoder.decode(bytes.subarray(0, offset - start)).split("\n");
  before.pop();
  // Read from inside a line: its start is not shown.
  if (start > 0) before.shift();
  const after = decoder.decode(bytes.subarray(offset - start)).split("\n");
  // The last line may be cut by the range: shown only at the file's end (or when it is the line
  // asked for); at the end, a final line feed ends the last line and starts none.
  const atEnd = bytes.length < offset - start + CONTEXT_BYTES;
  if ((!atEnd || after.at(-1) === "") && after.length > 1) after.pop();
  const shown = before.slice(-CONTEXT_LINES);
  const lines = [...shown, ...after.slice(0, CONTEXT_LINES + 1)].map((text) => {
    const plain = text.replace(/\r$/, "");
    return plain.length > LINE_CHARS ? `${plain.slice(0, LINE_CHARS)}…` : plain;
  });
  return { firstLine: line - shown.length, lines, at: shown.length };
}
