/**
 * A gzip file read deflate block by deflate block, so that reading can stop at a block boundary
 * and later resume there (RFC 1951 §3.2.3: a block may start at any bit). Node's zlib streams
 * cannot stop at a block, and no zlib API tells the bit where one ends: each block is inflated
 * on its own with Z_BLOCK (which stops after it) from a copy of the input shifted to its first
 * bit, with the 32 KiB before it as the dictionary; zlib then says how many bytes it took, and of
 * the 8 bits the block may end at in the last one, the one where the next block can start is
 * found by trying each (a wrong one fails in its block header).
 */
import type { FileHandle } from "node:fs/promises";
import { constants, crc32, createInflateRaw, inflateRawSync } from "node:zlib";

export const WINDOW_BYTES = 32 * 1024;
/** Input tried at a candidate block start: enough for any block header and its first symbols. */
const TRIAL_BYTES = 4 * 1024;
/** Input given to a block first (twice what the one before took); doubled until it ends inside. */
const MIN_INPUT_BYTES = 16 * 1024;
/** Input given to a candidate block when several could start: a whole block of zlib's. */
const CANDIDATE_INPUT_BYTES = 256 * 1024;
/** zlib's blocks inflate to at most 16 Ki symbols of 258 bytes; more is a crafted file. */
const MAX_BLOCK_OUTPUT_BYTES = 64 * 1024 * 1024;
/**
 * A deflate block's compressed bytes: zlib's are under 100 KiB, other encoders' a few hundred;
 * a longer one is crafted and reading by blocks stops (each try copies its input shifted, on the
 * host thread, so this also bounds that copy to a few milliseconds).
 */
export const MAX_BLOCK_INPUT_BYTES = 4 * 1024 * 1024;

/** Where a block starts: its first bit in the file, the inflated bytes before it, the window then. */
export interface BlockStart {
  readonly bit: number;
  readonly out: number;
  /** The last (up to) 32 KiB inflated before the block, in this gzip member. */
  readonly window: Uint8Array;
}

export interface Block extends BlockStart {
  readonly data: Buffer;
  /** The first block of a gzip member (a checkpoint there needs no window). */
  readonly memberStart: boolean;
}

/** Why the file cannot be read by blocks (it is then inflated as a stream, from its start). */
export class BlockReadError extends Error {
  override readonly name = "BlockReadError";
}

/** The file's bytes, read forward through one buffer that slides and grows as needed. */
class Input {
  private start = 0;
  private bytes = Buffer.alloc(0);

  constructor(
    private readonly file: FileHandle,
    readonly size: number,
  ) {}

  /** Bytes from `at`, at least `length` of them unless the file ends first. */
  async at(at: number, length: number): Promise<Buffer> {
    const end = Math.min(this.size, at + length);
    if (at < this.start || end > this.start + this.bytes.length) {
      const size = Math.max(end - at, 4 * 1024 * 1024);
      const buffer = Buffer.allocUnsafe(Math.min(size, this.size - at));
      const { bytesRead } = await this.file.read(buffer, 0, buffer.length, at);
      this.start = at;
      this.bytes = buffer.subarray(0, bytesRead);
    }
    return this.bytes.subarray(at - this.start, end - this.start);
  }
}

/** The index after a gzip member header that starts at `at`; -1 if it is not one. */
export function memberHeaderEnd(bytes: Uint8Array): number {
  if (bytes.length < 10 || bytes[0] !== 0x1f || bytes[1] !== 0x8b || bytes[2] !== 8) return -1;
  const flags = bytes[3]!;
  let i = 10;
  if (flags & 4) i += 2 + (bytes[i]! | (bytes[i + 1]! << 8));
  for (const flag of [8, 16]) {
    if (!(flags & flag)) continue;
    const zero = bytes.indexOf(0, i);
    if (zero === -1) return -1;
    i = zero + 1;
  }
  if (flags & 2) i += 2;
  return i <= bytes.length ? i : -1;
}

const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/** `bytes` read from bit `shift` of its first byte on: what a decoder starting there sees. */
export function shifted(bytes: Uint8Array, shift: number): Buffer {
  if (shift === 0) return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
  const length = bytes.length - 1;
  if (!LITTLE_ENDIAN) {
    const out = Buffer.allocUnsafe(length);
    for (let i = 0; i < length; i++) out[i] = (bytes[i]! >> shift) | (bytes[i + 1]! << (8 - shift));
    return out;
  }
  // Four bytes a step: deflate's bits run from each byte's lowest, so little-endian words are
  // consecutive bits, and the whole input shifts as one long number.
  const words = Math.ceil(bytes.length / 4);
  const input = new Uint32Array(words + 1);
  new Uint8Array(input.buffer).set(bytes);
  const output = new Uint32Array(words);
  for (let i = 0; i < words; i++)
    output[i] = (input[i]! >>> shift) | (input[i + 1]! << (32 - shift));
  return Buffer.from(output.buffer, 0, length);
}

/** Output buffer of a block's inflater; a block that fills it is inflated again (below). */
const BLOCK_CHUNK_BYTES = 1024 * 1024;

/**
 * One block inflated in the thread pool: its bytes and how many input bytes it took. When a
 * block's output ends exactly where the inflater's buffer does, Node calls zlib again, and zlib
 * (starting at a block boundary) goes on into the next block; so a block whose output reached the
 * buffer's size is inflated again into a buffer larger than that output, where it cannot happen.
 */
async function inflateBlock(
  input: Buffer,
  window: Uint8Array,
): Promise<{ data: Buffer; consumed: number }> {
  const first = await inflateInto(input, window, BLOCK_CHUNK_BYTES);
  if (first.data.length < BLOCK_CHUNK_BYTES) return first;
  return inflateInto(input, window, first.data.length + 1);
}

function inflateInto(
  input: Buffer,
  window: Uint8Array,
  chunkSize: number,
): Promise<{ data: Buffer; consumed: number }> {
  return new Promise((resolve, reject) => {
    // Z_BLOCK for every write: zlib stops after the block, and the stream ends there.
    const inflater = createInflateRaw({
      flush: constants.Z_BLOCK,
      finishFlush: constants.Z_BLOCK,
      chunkSize,
      ...(window.length > 0 ? { dictionary: window } : {}),
    });
    const parts: Buffer[] = [];
    let length = 0;
    inflater.on("data", (part: Buffer) => {
      parts.push(part);
      // One block may inflate to anything in a crafted file: it is never held past the cap.
      if ((length += part.length) > MAX_BLOCK_OUTPUT_BYTES)
        inflater.destroy(
          new Error(`a block inflates to more than ${MAX_BLOCK_OUTPUT_BYTES} bytes`),
        );
    });
    inflater.on("error", reject);
    inflater.on("end", () =>
      resolve({ data: Buffer.concat(parts), consumed: inflater.bytesWritten }),
    );
    inflater.end(input);
  });
}

/** Output a trial may inflate to on the host thread: past it, its codes were read without error. */
const TRIAL_OUTPUT_BYTES = 256 * 1024;

/** True when a block can start at `bit`: zlib reads its header and first symbols without error. */
function canStart(bytes: Uint8Array, shift: number, window: Uint8Array): boolean {
  try {
    inflateRawSync(shifted(bytes, shift), {
      finishFlush: constants.Z_BLOCK,
      maxOutputLength: TRIAL_OUTPUT_BYTES,
      ...(window.length > 0 ? { dictionary: window } : {}),
    });
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ERR_BUFFER_TOO_LARGE";
  }
}

function lastWindow(window: Uint8Array, data: Uint8Array): Uint8Array {
  if (data.length >= WINDOW_BYTES) return data.slice(data.length - WINDOW_BYTES);
  const keep = Math.min(window.length, WINDOW_BYTES - data.length);
  const out = new Uint8Array(keep + data.length);
  out.set(window.subarray(window.length - keep));
  out.set(data, keep);
  return out;
}

/**
 * The blocks of a gzip file from `start` (a member's first block, or a block boundary recorded
 * before), in order, across concatenated members. Each member's CRC-32 and length are checked
 * at its end when its start was read (`verified`). Rejects with BlockReadError when the data
 * is not what it should be.
 */
export async function* gzipBlocks(
  file: FileHandle,
  size: number,
  start: BlockStart | null,
  onMemberVerified?: (out: number) => void,
): AsyncGenerator<Block, void, undefined> {
  const input = new Input(file, size);
  let at: BlockStart;
  let memberStart = start === null;
  let crc = 0;
  let memberOut = 0;
  if (start === null) {
    const end = memberHeaderEnd(await input.at(0, 64 * 1024));
    if (end === -1) throw new BlockReadError("not a gzip file");
    at = { bit: end * 8, out: 0, window: new Uint8Array(0) };
  } else at = start;
  let verifying = start === null;
  let taken = 0;
  for (;;) {
    const byte = Math.floor(at.bit / 8);
    const shift = at.bit % 8;
    const header = headerBits(await input.at(byte, 2), shift);
    const final = header & 1;
    let length = Math.max(MIN_INPUT_BYTES, 2 * taken);
    let block: { data: Buffer; consumed: number };
    // A stored block is read here: zlib, reading a shifted copy, would align to the wrong byte.
    const stored = header >> 1 === 0 ? await storedBlock(input, at.bit) : null;
    if (stored === undefined) throw new BlockReadError("a stored block's length is invalid");
    if (stored) block = { data: stored.data, consumed: stored.end - byte };
    else
      for (;;) {
        const bytes = await input.at(byte, length + 1);
        const given = shifted(bytes, shift);
        try {
          block = await inflateBlock(given, at.window);
        } catch (error) {
          throw new BlockReadError(`the deflate data is corrupt (${(error as Error).message})`);
        }
        // All the input taken: the block may go on past it, unless the file ends there.
        if (block.consumed < given.length || byte + bytes.length >= size) break;
        if (length >= MAX_BLOCK_INPUT_BYTES)
          throw new BlockReadError("a deflate block is too long");
        length *= 2;
      }
    taken = block.consumed;
    yield { ...at, data: block.data, memberStart };
    memberStart = false;
    if (verifying) {
      crc = crc32(block.data, crc);
      memberOut += block.data.length;
    }
    const out = at.out + block.data.length;
    const window = lastWindow(at.window, block.data);
    // The block ends in its last byte taken, at one of 8 bits: the next starts right there.
    const last = stored ? stored.end * 8 : at.bit + block.consumed * 8;
    if (final) {
      const next = await memberEnd(input, last, at.bit, verifying ? { crc, memberOut } : null);
      if (verifying) onMemberVerified?.(out);
      if (next === null) return;
      at = { bit: next * 8, out, window: new Uint8Array(0) };
      memberStart = true;
      verifying = true;
      crc = 0;
      memberOut = 0;
      continue;
    }
    // A stored block's bytes are byte-aligned and end it: the next block starts right after them.
    const candidates = stored ? [last] : await blockStarts(input, at.bit, last, window);
    const bit = await pickStart(input, candidates, window);
    at = { bit, out, window };
  }
}

/** The bits among the 8 before `last` (after `first`) where zlib reads a block header. */
async function blockStarts(
  input: Input,
  first: number,
  last: number,
  window: Uint8Array,
): Promise<number[]> {
  const candidates: number[] = [];
  for (let unused = 0; unused < 8; unused++) {
    const bit = last - unused;
    if (bit <= first) break;
    const bytes = await input.at(Math.floor(bit / 8), TRIAL_BYTES);
    const type = headerBits(bytes, bit % 8) >> 1;
    const valid =
      type === 0 ? (await storedBlock(input, bit)) !== undefined : canStart(bytes, bit % 8, window);
    if (valid) candidates.push(bit);
  }
  return candidates;
}

/**
 * The stored block whose header is at `bit`: its bytes (after the header, padding to a byte,
 * LEN and its complement NLEN) and the byte after them; undefined when NLEN does not match.
 */
async function storedBlock(
  input: Input,
  bit: number,
): Promise<{ data: Buffer; end: number } | undefined> {
  const at = Math.ceil((bit + 3) / 8);
  const head = await input.at(at, 4);
  if (head.length < 4 || (head.readUInt16LE(0) ^ 0xffff) !== head.readUInt16LE(2)) return undefined;
  const length = head.readUInt16LE(0);
  const data = Buffer.from(await input.at(at + 4, length));
  if (data.length < length) return undefined;
  return { data, end: at + 4 + length };
}

/** The first bits of a block header at bit `shift` of `bytes`: BFINAL, then BTYPE. */
function headerBits(bytes: Uint8Array, shift: number): number {
  return ((bytes[0]! | ((bytes[1] ?? 0) << 8)) >> shift) & 7;
}

/**
 * Of several bits where a block could start, the true one. Random bits often read as a short
 * block of fixed codes, rarely as a dynamic header zlib accepts or a stored block whose length
 * matches its complement: one such strong candidate wins (stored ones that end at the same byte
 * are the same block, as the bits before their padding do not matter); without one, the one
 * fixed-code candidate whose whole block inflates. Anything else is refused rather than guessed,
 * a stored block with data where a fixed-code block also inflates included (the member's CRC-32
 * checks the rest, and an opened trace its bytes' keyed hash: range-hash.ts).
 */
async function pickStart(input: Input, candidates: number[], window: Uint8Array): Promise<number> {
  if (candidates.length === 1) return candidates[0]!;
  const strong = new Map<string, number>();
  for (const bit of candidates) {
    const header = headerBits(await input.at(Math.floor(bit / 8), 2), bit % 8);
    if (header >> 1 === 2) strong.set(`dynamic ${bit}`, bit);
    if (header >> 1 !== 0) continue;
    // Of stored candidates ending at one byte, the one whose BFINAL says what follows it.
    const { end } = (await storedBlock(input, bit))!;
    const next = await input.at(end + 8, 64 * 1024);
    const last = end + 8 === input.size || memberHeaderEnd(next) !== -1;
    if ((header & 1) === (last ? 1 : 0)) strong.set(`stored to ${end}`, bit);
  }
  const fixed: number[] = [];
  for (const bit of candidates)
    if (headerBits(await input.at(Math.floor(bit / 8), 2), bit % 8) >> 1 === 1) fixed.push(bit);
  if (strong.size === 1) {
    const [[kind, bit]] = [...strong];
    // A stored header and its lengths can be forged inside another block's codes: when a block
    // of fixed codes reads there as well, which one is meant cannot be told. (An empty stored
    // block, which a flush writes after any block, holds nothing to mislead with.)
    if (
      kind.startsWith("stored") &&
      (await storedBlock(input, bit!))!.data.length > 0 &&
      (await inflating(input, fixed, window)).length > 0
    )
      throw new BlockReadError("the end of a deflate block cannot be told apart from the data");
    return bit!;
  }
  if (strong.size > 1)
    throw new BlockReadError("the end of a deflate block cannot be told apart from the data");
  const good = await inflating(input, fixed, window);
  if (good.length !== 1)
    throw new BlockReadError("the end of a deflate block cannot be told apart from the data");
  return good[0]!;
}

/** The candidates whose whole block inflates (the codes of one that is not a block fail further on). */
async function inflating(
  input: Input,
  candidates: number[],
  window: Uint8Array,
): Promise<number[]> {
  const good: number[] = [];
  for (const bit of candidates) {
    const bytes = await input.at(Math.floor(bit / 8), CANDIDATE_INPUT_BYTES + 1);
    try {
      await inflateBlock(shifted(bytes, bit % 8), window);
      good.push(bit);
    } catch {
      // Not a block: its codes are invalid further on.
    }
  }
  return good;
}

/**
 * After a member's last block (it took input up to bit `last`): the trailer's CRC-32 and length
 * checked when `check` is given, and the next member's header; returns where its first block
 * starts, or null at the end of the file.
 */
async function memberEnd(
  input: Input,
  last: number,
  first: number,
  check: { crc: number; memberOut: number } | null,
): Promise<number | null> {
  // The trailer starts at the byte after the one holding the last bit, one of two bytes at most.
  const tried = new Set<number>();
  let checked = false;
  for (let unused = 0; unused < 8; unused++) {
    const bit = last - unused;
    if (bit <= first) break;
    const trailer = Math.ceil(bit / 8);
    if (tried.has(trailer)) continue;
    tried.add(trailer);
    const bytes = await input.at(trailer, 8 + 64 * 1024);
    if (bytes.length < 8) continue;
    const crcOk =
      check === null ||
      (bytes.readUInt32LE(0) === check.crc >>> 0 &&
        bytes.readUInt32LE(4) === check.memberOut % 2 ** 32);
    const rest = bytes.subarray(8);
    if (trailer + 8 === input.size && crcOk) return null;
    const header = memberHeaderEnd(rest);
    if (header !== -1 && crcOk) return trailer + 8 + header;
    checked ||= check !== null && crcOk;
  }
  // A member whose CRC-32 matched, then bytes that start none: the end, as for gzip -d.
  if (checked) return null;
  throw new BlockReadError("the gzip trailer does not match the inflated data");
}
