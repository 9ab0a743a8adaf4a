/**
 * What a scan reads: log files as given, the log files of a folder, or standard input (`-`).
 * A gzip (known by its magic bytes, whatever its name) is inflated as a stream, a chunk at a
 * time: never to disk, never whole in memory.
 */
import { readdir, realpath, stat, type FileHandle } from "node:fs/promises";
import { join } from "node:path";
import { Readable } from "node:stream";
import { pushAll } from "../core/arrays.js";
import { gunzipChunks } from "./gunzip.js";
import { openRegular } from "./safe-file.js";

export const CHUNK_BYTES = 1024 * 1024;
/**
 * Inflated output per chunk: a slice of compressed input inflates to one chunk or two (a chunk
 * of 256 KiB took three or four, each a round trip between zlib in the thread pool and this
 * thread; the gzip layer cost 1.48× the plain scan, 1.15–1.3× with these).
 */
const INFLATE_CHUNK_BYTES = 1024 * 1024;
/** A plain file's reads: few enough that waiting for a thread-pool thread on a busy machine does not show. */
const PLAIN_CHUNK_BYTES = 4 * 1024 * 1024;
/** A NUL in the first bytes makes a file binary, as for grep and git. */
const SNIFF_BYTES = 8 * 1024;

export interface LogInput {
  /** The path as given (or as found in a given folder), or `-` for standard input. */
  readonly name: string;
  /** Absolute path on disk; null for a stream. */
  readonly path: string | null;
  /** Standard input (or any stream) when `path` is null. */
  readonly stream?: NodeJS.ReadableStream;
  /** Text held in memory (an editor's document, a debuggee's string) when `path` is null. */
  readonly text?: string;
  /** The folders the file must lie under once opened (the tools' roots); see openRegular. */
  readonly roots?: readonly string[];
}

/**
 * A file a folder holds that is read as a log: `app.log`, `app.log.1`, `app.log.2.gz`,
 * `app-2025-03-14.jsonl`; not this project's own JSON files (a fixture, a catalogue, a test's
 * expected output), which sit beside logs and are no logs.
 */
export function isLogFileName(name: string): boolean {
  const base = name.replace(/\.gz$/i, "").replace(/([.-]\d+)+$/, "");
  return (
    /\.(log|jsonl|ndjson|json|txt)$/i.test(base) && !/\.(turn|catalog|expected)\.json$/i.test(base)
  );
}

const SKIPPED_FOLDERS = new Set(["node_modules", ".git"]);

let collator: Intl.Collator | undefined;

/** Names compared with their numbers as numbers: app.log, app.log.1, app.log.2.gz, …, app.log.10. */
function byName(a: string, b: string): number {
  // Made on first use: loading ICU's data costs every command tens of ms at start.
  collator ??= new Intl.Collator("en", { numeric: true });
  return collator.compare(a, b);
}

/**
 * The log files of a folder and its subfolders (skipping hidden, `.git` and `node_modules`
 * folders), sorted by path with numbers compared as numbers; each named as the folder was given.
 */
export async function logFilesIn(folder: string, given: string): Promise<LogInput[]> {
  const found: LogInput[] = [];
  const walk = async (dir: string, shown: string) => {
    const entries = await readdir(dir, { withFileTypes: true });
    entries.sort((a, b) => byName(a.name, b.name));
    for (const entry of entries) {
      const path = join(dir, entry.name);
      const name = join(shown, entry.name);
      if (entry.isDirectory()) {
        if (!entry.name.startsWith(".") && !SKIPPED_FOLDERS.has(entry.name)) await walk(path, name);
      } else if (entry.isFile() && isLogFileName(entry.name)) found.push({ name, path });
    }
  };
  await walk(folder, given);
  return found;
}

/**
 * The inputs less any file that an earlier one already names, by its real path (a file given
 * and also found in a given folder, or through a link): each file is read once. A path that
 * cannot be resolved stays, to be reported when read.
 */
export async function distinctInputs(inputs: readonly LogInput[]): Promise<LogInput[]> {
  const seen = new Set<string>();
  const out: LogInput[] = [];
  for (const input of inputs) {
    const key = input.path === null ? null : await realpath(input.path).catch(() => input.path!);
    if (key !== null && seen.has(key)) continue;
    if (key !== null) seen.add(key);
    out.push(input);
  }
  return out;
}

/** Each argument as an input, a folder as its log files; a path that cannot be read stays, to be reported when read. */
export async function expandInputs(
  names: readonly string[],
  resolvePath: (name: string) => string,
  stdin?: NodeJS.ReadableStream,
): Promise<LogInput[]> {
  const inputs: LogInput[] = [];
  for (const name of names) {
    if (name === "-" && stdin) {
      inputs.push({ name, path: null, stream: stdin });
      continue;
    }
    const path = resolvePath(name);
    const folder = await stat(path).then(
      (s) => s.isDirectory(),
      () => false,
    );
    if (folder) pushAll(inputs, await logFilesIn(path, name));
    else inputs.push({ name, path });
  }
  return inputs;
}

/** Why an input could not be read, in words (the file is named by the caller). */
export class LogReadError extends Error {
  override readonly name = "LogReadError";
  constructor(
    message: string,
    /** Nothing of the input could be read (it does not exist, is a folder, is not allowed). */
    readonly unreadable: boolean,
  ) {
    super(message);
  }
}

export function isGzip(bytes: Uint8Array): boolean {
  return bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b;
}

/** A NUL byte among the first bytes of the text. */
export function looksBinary(bytes: Uint8Array): boolean {
  return bytes.subarray(0, SNIFF_BYTES).indexOf(0) !== -1;
}

export interface ChunkEvents {
  /** Bytes read from the disk or the stream so far (compressed, for a gzip). */
  readonly onRead?: (bytes: number) => void;
  /** Something worth a problem that does not stop the reading. */
  readonly onNotice?: (message: string) => void;
  /** The input is a gzip (said before its first chunk). */
  readonly onGzip?: () => void;
  /** A plain file's chunks are at most this long (a look at its head needs no 4 MiB read). */
  readonly chunkBytes?: number;
}

/**
 * The text bytes of an input, chunk by chunk: inflated when it is a gzip. Rejects with a
 * LogReadError that says why, in words; ending the iteration early closes the file.
 */
export async function* logChunks(
  input: LogInput,
  events: ChunkEvents = {},
): AsyncGenerator<Uint8Array, void, undefined> {
  let handle: FileHandle | null = null;
  if (input.path !== null) {
    try {
      // Opened once and checked (see openRegular); a gzip is inflated from this same handle.
      handle = await openRegular(input.path, { roots: input.roots });
    } catch (error) {
      throw new LogReadError(`cannot read the file: ${readReason(error)}`, true);
    }
    const plain = await plainFileChunks(handle, events);
    if (plain !== null) {
      if (/\.gz$/i.test(input.name))
        events.onNotice?.("the file is named .gz but is not gzip; it was read as plain text");
      yield* plain;
      return;
    }
  }
  if (input.text !== undefined) {
    const bytes = Buffer.from(input.text);
    for (let at = 0; at < bytes.length; at += CHUNK_BYTES) {
      events.onRead?.(Math.min(bytes.length, at + CHUNK_BYTES));
      yield bytes.subarray(at, at + CHUNK_BYTES);
    }
    return;
  }
  const raw =
    handle !== null
      ? handle.createReadStream({ start: 0, highWaterMark: CHUNK_BYTES })
      : (input.stream ?? Readable.from([]));
  const iterator = (raw as AsyncIterable<Uint8Array>)[Symbol.asyncIterator]();
  let read = 0;
  const next = async (): Promise<IteratorResult<Uint8Array>> => {
    const result = await iterator.next();
    if (!result.done) events.onRead?.((read += result.value.length));
    return result;
  };
  try {
    let first: IteratorResult<Uint8Array>;
    try {
      first = await next();
    } catch (error) {
      throw new LogReadError(`cannot read the file: ${readReason(error)}`, true);
    }
    if (first.done) return;
    if (!isGzip(first.value)) {
      if (/\.gz$/i.test(input.name))
        events.onNotice?.("the file is named .gz but is not gzip; it was read as plain text");
      yield first.value;
      try {
        for (let result = await next(); !result.done; result = await next()) yield result.value;
      } catch (error) {
        throw new LogReadError(`reading stopped: ${readReason(error)}`, false);
      }
      return;
    }
    events.onGzip?.();
    const compressed = (async function* () {
      yield first.value;
      for (let result = await next(); !result.done; result = await next()) yield result.value;
    })();
    const notice = (message: string) => events.onNotice?.(message);
    try {
      yield* gunzipChunks(compressed, INFLATE_CHUNK_BYTES, notice);
    } catch (error) {
      throw new LogReadError(gzipReason(error), false);
    }
  } finally {
    await iterator.return?.();
    if ("destroy" in raw && handle !== null) raw.destroy();
  }
}

/**
 * A plain file's chunks read into two buffers taken in turn, the next read running while the
 * last chunk is scanned: no fresh buffer per chunk, whose allocation and page faults cost as much
 * as the scan itself. A chunk is only valid until the next one is asked for. Null for a gzip
 * (read by the stream above); rejects with a LogReadError like logChunks.
 */
async function plainFileChunks(
  handle: FileHandle,
  events: ChunkEvents,
): Promise<AsyncGenerator<Uint8Array, void, undefined> | null> {
  const size = Math.min(PLAIN_CHUNK_BYTES, events.chunkBytes ?? PLAIN_CHUNK_BYTES);
  const buffers = [Buffer.allocUnsafe(size), Buffer.allocUnsafe(size)] as const;
  let first: number;
  try {
    first = (await handle.read(buffers[0], 0, size, null)).bytesRead;
  } catch (error) {
    await handle.close();
    throw new LogReadError(`cannot read the file: ${readReason(error)}`, true);
  }
  if (isGzip(buffers[0].subarray(0, first))) return null;
  return (async function* () {
    let read = 0;
    let ahead: Promise<number> | null = null;
    const readInto = (buffer: Buffer) =>
      handle.read(buffer, 0, size, null).then((r) => r.bytesRead);
    try {
      let length = first;
      for (let turn = 0; length > 0; turn ^= 1) {
        events.onRead?.((read += length));
        ahead = readInto(buffers[turn ^ 1]);
        yield buffers[turn].subarray(0, length);
        try {
          length = await ahead;
        } catch (error) {
          throw new LogReadError(`reading stopped: ${readReason(error)}`, false);
        } finally {
          ahead = null;
        }
      }
    } finally {
      // A read still running when the caller stops early is waited for (its failure no longer matters).
      await ahead?.catch(() => 0);
      await handle.close();
    }
  })();
}

function gzipReason(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === "Z_BUF_ERROR")
    return "the gzip data is truncated: the file ends before its compressed data does";
  if (code === "Z_DATA_ERROR")
    return `the gzip data is corrupt (${error instanceof Error ? error.message : String(error)})`;
  return `reading stopped: ${readReason(error)}`;
}

/** A file system error in words. */
export function readReason(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === "ENOENT") return "no such file";
  if (code === "EISDIR") return "it is a folder";
  if (code === "EACCES" || code === "EPERM") return "permission denied";
  return error instanceof Error ? error.message : String(error);
}
