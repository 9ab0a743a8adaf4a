/**
 * A gzip stream (RFC 1952) inflated member by member, each by a raw inflater, instead of by
 * Node's gunzip: that one drops the output of the zlib call that fails, so an error lost up to a
 * chunk inflated before it, and bytes after the last member were an error where `gzip -d` ignores
 * them. Here what was inflated before an error is kept, and trailing bytes that do not start
 * another member are ignored with a notice.
 */
import { crc32, createInflateRaw } from "node:zlib";
import { memberHeaderEnd } from "./gzip-blocks.js";

/** Compressed bytes given to zlib at a time: an error loses at most what these inflate to. */
const SLICE_BYTES = 64 * 1024;
/** Inflated chunks waiting for the scan, at most, before zlib is given no more. */
const AHEAD = 4;
/** A member header longer than this (its name or comment) is not read. */
const MAX_HEADER_BYTES = 64 * 1024;

/** An error with zlib's codes, so that it is worded as zlib's own are. */
function zlibError(code: "Z_BUF_ERROR" | "Z_DATA_ERROR", message: string): Error {
  return Object.assign(new Error(message), { code });
}

const truncated = () => zlibError("Z_BUF_ERROR", "unexpected end of file");

/** The compressed input, read forward: `rest` holds what is not consumed yet. */
class Compressed {
  rest: Buffer = Buffer.alloc(0);
  ended = false;

  constructor(private readonly chunks: AsyncIterator<Uint8Array>) {}

  /** Reads one more chunk into `rest`; false at the end of the input. */
  async more(): Promise<boolean> {
    if (this.ended) return false;
    const next = await this.chunks.next();
    if (next.done) {
      this.ended = true;
      return false;
    }
    this.rest =
      this.rest.length === 0 ? Buffer.from(next.value) : Buffer.concat([this.rest, next.value]);
    return true;
  }

  /** At least `n` bytes in `rest`, unless the input ends first. */
  async need(n: number): Promise<Buffer> {
    while (this.rest.length < n && (await this.more()));
    return this.rest;
  }
}

/**
 * The inflated bytes of a gzip stream, chunk by chunk. Rejects with an error whose `code` is
 * Z_BUF_ERROR (truncated) or Z_DATA_ERROR (corrupt), after yielding what was inflated before.
 */
export async function* gunzipChunks(
  chunks: AsyncIterator<Uint8Array>,
  chunkSize: number,
  onNotice: (message: string) => void,
): AsyncGenerator<Uint8Array, void, undefined> {
  const input = new Compressed(chunks);
  for (let member = 0; ; member++) {
    const head = await input.need(10);
    if (head.length === 0 && member > 0) return;
    let end = memberHeaderEnd(head);
    // 1f 8b starts a member: its header may go on in the next chunk.
    while (end === -1 && input.rest[0] === 0x1f && input.rest[1] === 0x8b) {
      if (input.rest.length >= MAX_HEADER_BYTES) break;
      if (!(await input.more())) throw truncated();
      end = memberHeaderEnd(input.rest);
    }
    if (end === -1) {
      if (member === 0) throw zlibError("Z_DATA_ERROR", "incorrect header check");
      // As gzip -d: zeros after the last member are padding, anything else is worth a word.
      if (input.rest.some((byte) => byte !== 0))
        onNotice("the bytes after the gzip data are not gzip; they were ignored");
      return;
    }
    input.rest = input.rest.subarray(end);
    let crc = 0;
    let size = 0;
    for await (const out of inflateMember(input, chunkSize)) {
      crc = crc32(out, crc);
      size += out.length;
      yield out;
    }
    const trailer = await input.need(8);
    if (trailer.length < 8) throw truncated();
    if (trailer.readUInt32LE(0) !== crc >>> 0)
      throw zlibError("Z_DATA_ERROR", "incorrect data check");
    if (trailer.readUInt32LE(4) !== size % 2 ** 32)
      throw zlibError("Z_DATA_ERROR", "incorrect length check");
    input.rest = input.rest.subarray(8);
  }
}

/**
 * One member's deflate data, from `input.rest` on; leaves in `rest` what follows it. zlib
 * inflates a slice in the thread pool a chunk at a time and starts the next chunk only in a turn
 * of this thread's loop; here the next slice of what was read is given to zlib as soon as it has
 * taken the last, while fewer than AHEAD chunks wait, so zlib inflates while the scan reads (given
 * only when the scan asked for more, zlib and the scan took turns: a gzip took 1.5× the plain log).
 */
async function* inflateMember(
  input: Compressed,
  chunkSize: number,
): AsyncGenerator<Buffer, void, undefined> {
  const inflater = createInflateRaw({ chunkSize });
  const ready: Buffer[] = [];
  let failed: Error | null = null;
  /** zlib has a slice ("busy"), has taken it and waits for more ("fed"), or found the data's end. */
  const zlib = { state: "fed" as "busy" | "fed" | "ended" };
  let slice: Buffer = Buffer.alloc(0);
  let before = 0;
  let wake: (() => void) | null = null;
  const woken = () => new Promise<void>((resolve) => (wake = resolve));
  const signal = () => {
    const resolve = wake;
    wake = null;
    resolve?.();
  };
  inflater.on("data", (out: Buffer) => {
    ready.push(out);
    signal();
  });
  inflater.on("error", (error: Error) => {
    failed ??= error;
    signal();
  });
  const give = () => {
    slice = input.rest.subarray(0, SLICE_BYTES);
    before = inflater.bytesWritten;
    zlib.state = "busy";
    inflater.write(slice, taken);
  };
  /** zlib has taken the slice: what it did not take follows the member; else it gets the next. */
  const taken = (error?: Error | null) => {
    if (error) failed ??= error;
    if (failed === null) {
      const took = inflater.bytesWritten - before;
      input.rest = input.rest.subarray(took);
      zlib.state = took < slice.length ? "ended" : "fed";
      if (zlib.state === "fed" && input.rest.length > 0 && ready.length < AHEAD) give();
    }
    signal();
  };
  try {
    give();
    for (;;) {
      if (zlib.state === "fed" && failed === null && ready.length < AHEAD) {
        if (input.rest.length > 0) give();
        else if (!(await input.more())) return yield* ended(inflater, ready, () => failed);
        else give();
      }
      if (ready.length > 0) {
        yield ready.shift()!;
        continue;
      }
      if (failed) throw failed;
      if (zlib.state === "ended") return;
      await woken();
    }
  } finally {
    inflater.destroy();
  }
}

/** The input has ended: so must the member's data, or zlib says it is truncated. */
async function* ended(
  inflater: ReturnType<typeof createInflateRaw>,
  ready: Buffer[],
  failed: () => Error | null,
): AsyncGenerator<Buffer, void, undefined> {
  await new Promise<void>((resolve) => inflater.end(() => resolve()));
  yield* ready.splice(0);
  const error = failed();
  if (error) throw error;
}
