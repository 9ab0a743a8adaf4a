/**
 * Restart points in gzip logs, so that a trace deep in a big `.gz` is re-read by inflating from
 * the nearest one instead of from the start. Once a log set is scanned, each gzip file is walked
 * block by block (gzip-blocks.ts) and a
 * checkpoint is kept at the first block boundary after every CHECKPOINT_EVERY inflated bytes.
 * A checkpoint costs its 32 KiB window deflated (a few KiB of log text) and 3 numbers; the
 * checkpoints of a gzip member are kept only once its CRC-32 matched what the walk inflated.
 */
import { stat } from "node:fs/promises";
import { deflateRawSync, inflateRawSync } from "node:zlib";
import { ScanCancelled } from "../core/traces/scan.js";
import { BlockReadError, gzipBlocks, type BlockStart } from "./gzip-blocks.js";
import { pushAll } from "../core/arrays.js";
import { openRegular } from "./safe-file.js";

export const CHECKPOINT_EVERY = 4 * 1024 * 1024;

export interface Checkpoint {
  readonly bit: number;
  readonly out: number;
  /** The window, deflated. */
  readonly window: Uint8Array;
}

interface FileCheckpoints {
  /** The file as it was walked: a changed file has none. */
  readonly size: number;
  readonly mtimeMs: number;
  readonly list: Checkpoint[];
}

/** The checkpoints of every gzip walked in this process, by absolute path. */
const byPath = new Map<string, FileCheckpoints>();

/** Bytes held by a file's checkpoints (their windows and numbers). */
export function checkpointBytes(path: string): number {
  const list = byPath.get(path)?.list ?? [];
  return list.reduce((sum, c) => sum + c.window.byteLength + 24, 0);
}

/** Drops a file's checkpoints (its traces are then inflated from its start). */
export function forgetCheckpoints(path: string): void {
  byPath.delete(path);
}

/** The checkpoints recorded for a file, in order (none when it changed since). */
export async function checkpointsOf(path: string): Promise<readonly Checkpoint[]> {
  const kept = byPath.get(path);
  if (!kept) return [];
  const now = await stat(path).catch(() => null);
  if (!now || now.size !== kept.size || now.mtimeMs !== kept.mtimeMs) {
    byPath.delete(path);
    return [];
  }
  return kept.list;
}

/**
 * Walks a gzip file's blocks and keeps a checkpoint every CHECKPOINT_EVERY inflated bytes.
 * Never rejects: a file that cannot be walked (not gzip, corrupt, changed) keeps the checkpoints
 * of the members verified before; `stopped` ends the walk early.
 */
export async function recordCheckpoints(path: string, stopped: () => boolean): Promise<void> {
  const handle = await openRegular(path).catch(() => null);
  if (!handle) return;
  try {
    const { size, mtimeMs } = await handle.stat();
    const list: Checkpoint[] = [];
    byPath.set(path, { size, mtimeMs, list });
    let pending: Checkpoint[] = [];
    let next = CHECKPOINT_EVERY;
    const blocks = gzipBlocks(handle, size, null, () => {
      pushAll(list, pending);
      pending = [];
    });
    let count = 0;
    for await (const block of blocks) {
      // Blocks of under 1 KiB on average (a crafted file): walking them costs more than it saves.
      if (stopped() || (++count > 1000 && count * 1024 > block.out)) break;
      if (block.out >= next && !block.memberStart) {
        pending.push({ bit: block.bit, out: block.out, window: deflateRawSync(block.window) });
        next = block.out + CHECKPOINT_EVERY;
      }
    }
  } catch {
    // Not readable by blocks: opening a trace inflates from the last verified checkpoint or the start.
  } finally {
    await handle.close();
  }
}

/**
 * Inflated bytes [offset, offset + length) of a gzip file from the checkpoint before them;
 * null when there is none or the data there is not as recorded (then it is inflated from its
 * start). `stopped` cancels it (ScanCancelled); `onStart` says where it began.
 */
export async function inflateFromCheckpoint(
  path: string,
  offset: number,
  length: number,
  stopped: () => boolean,
  onStart?: (checkpoint: Checkpoint) => void,
): Promise<Uint8Array | null> {
  const list = await checkpointsOf(path);
  let checkpoint: Checkpoint | undefined;
  for (const c of list) if (c.out <= offset) checkpoint = c;
  if (!checkpoint) return null;
  onStart?.(checkpoint);
  const start: BlockStart = {
    bit: checkpoint.bit,
    out: checkpoint.out,
    window: inflateRawSync(checkpoint.window),
  };
  const handle = await openRegular(path);
  const out = new Uint8Array(length);
  let filled = 0;
  try {
    for await (const block of gzipBlocks(handle, (await handle.stat()).size, start)) {
      if (stopped()) throw new ScanCancelled();
      const end = block.out + block.data.length;
      if (end > offset) {
        const from = Math.max(0, offset - block.out);
        const part = block.data.subarray(
          from,
          Math.min(block.data.length, offset + length - block.out),
        );
        out.set(part, filled);
        filled += part.length;
      }
      if (end >= offset + length) break;
    }
  } catch (error) {
    if (error instanceof BlockReadError) return null;
    throw error;
  } finally {
    await handle.close();
  }
  return out.subarray(0, filled);
}
