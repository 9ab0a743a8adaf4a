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
 * of this thread's loop, so each chunk is handed on as it comes: the scan reads it while zlib
 * inflates the next (held until the slice was done, zlib and the scan mostly took turns).
 */
async function* inflateMember(
  input: Compressed,
  chunkSize: number,
): AsyncGenerator<Buffer, void, undefined> {
  const inflater = createInflateRaw({ chunkSize });
  const ready: Buffer[] = [];
  const state: { failed: Error | null } = { failed: null };
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
    state.failed = error;
    signal();
  });
  /** Gives zlib a slice (or the end); `taken` is set once zlib has taken all of it. */
  const give = (slice: Buffer | null) => {
    const step = { taken: false };
    const done = (error?: Error | null) => {
      if (error) state.failed ??= error;
      step.taken = true;
      signal();
    };
    if (slice === null) inflater.end(done);
    else inflater.write(slice, done);
    return step;
  };
  /** Until zlib has taken the slice or failed: each chunk it inflates meanwhile. */
  async function* during(step: { taken: boolean }): AsyncGenerator<Buffer, void, undefined> {
    while (!step.taken && state.failed === null) {
      if (ready.length === 0) await woken();
      else yield* ready.splice(0);
    }
  }
  try {
    let slice = input.rest.subarray(0, SLICE_BYTES);
    let before = 0;
    let step = give(slice);
    for (;;) {
      yield* during(step);
      const out = ready.splice(0);
      const taken = inflater.bytesWritten - before;
      if (state.failed) {
        yield* out;
        throw state.failed;
      }
      input.rest = input.rest.subarray(taken);
      // zlib took less than it was given: the member's deflate data ended inside the slice.
      if (taken < slice.length) return yield* out;
      if (input.rest.length === 0 && !(await input.more())) {
        // The input ends: so must the member's data, or zlib says it is truncated.
        const end = give(null);
        yield* out;
        yield* during(end);
        yield* ready.splice(0);
        if (state.failed) throw state.failed;
        return;
      }
      slice = input.rest.subarray(0, SLICE_BYTES);
      before = inflater.bytesWritten;
      step = give(slice);
      yield* out;
    }
  } finally {
    inflater.destroy();
  }
}
