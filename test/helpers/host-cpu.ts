/**
 * How long the host's thread runs between two turns of its event loop, measured in its own CPU
 * time (Linux's /proc/thread-self/schedstat): worker threads and a busy machine do not add to it.
 */
import { readFileSync } from "node:fs";

/**
 * The longest CPU time a test lets work hold the host's event loop: 50 ms, as the issues ask.
 * Code instrumented for mutation testing runs about four times slower, and
 * vitest.mutation.config.mts scales this by PI_SLICE_SCALE to match.
 */
export const SLICE_MS = 50 * Number(process.env.PI_SLICE_SCALE ?? 1);

/** CPU time this thread has run, in milliseconds (the whole process's elsewhere). */
export function threadCpuMs(): number {
  try {
    return Number(readFileSync("/proc/thread-self/schedstat", "utf8").split(" ")[0]) / 1e6;
  } catch {
    const { user, system } = process.cpuUsage();
    return (user + system) / 1000;
  }
}

/** The longest CPU time of this thread between two turns of its event loop while `work` runs. */
export async function longestSlice(work: () => Promise<unknown>): Promise<number> {
  let longest = 0;
  let last = threadCpuMs();
  let running = true;
  const turn = () => {
    const now = threadCpuMs();
    longest = Math.max(longest, now - last);
    last = now;
    if (running) setImmediate(turn);
  };
  setImmediate(turn);
  try {
    await work();
  } finally {
    running = false;
  }
  turn();
  return longest;
}
