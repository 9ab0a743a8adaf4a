import { cpus, loadavg } from "node:os";
/**
 * Median wall time of `fn` in milliseconds. Warm-up and sampling run for a minimum time as well
 * as a minimum count, so a fast case is measured as settled as a slow one (a 1 ms case warmed up
 * twice is still being optimised by the JIT).
 */
export function medianMs(fn: () => unknown, runs = 7, warmupMs = 300): number {
  for (let start = performance.now(), n = 0; n < 2 || performance.now() - start < warmupMs; n++)
    fn();
  const times: number[] = [];
  for (
    let start = performance.now();
    times.length < runs || performance.now() - start < warmupMs;
  ) {
    const begin = performance.now();
    fn();
    times.push(performance.now() - begin);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)]!;
}

/** Wall time in milliseconds of one run of `run`. */
export async function timed(run: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await run();
  return performance.now() - start;
}

/** How busy the machine was, for reading a wall time. */
export function load(): string {
  return `${loadavg()[0]!.toFixed(1)} runnable tasks on ${cpus().length} cores`;
}

export const fmt = (ms: number) =>
  ms < 1 ? `${(ms * 1000).toFixed(0)} µs` : `${ms.toFixed(1)} ms`;

/** A ratio against its goal, marked so a regression stands out in a log. */
export function verdict(ratio: number, goal: number, atMost: boolean): string {
  const ok = atMost ? ratio <= goal : ratio >= goal;
  return `${ratio.toFixed(2)}× (goal ${atMost ? "≤" : "≥"} ${goal}×) ${ok ? "ok" : "MISSED"}`;
}

/**
 * Medians of two functions run alternately, so that both meet the same heap and GC state: a
 * baseline measured alone on a fresh heap looks faster than it is inside real work.
 */
export function interleavedMedians(
  a: () => unknown,
  b: () => unknown,
  runs = 15,
): [number, number] {
  a();
  b();
  const times: [number[], number[]] = [[], []];
  for (let i = 0; i < runs; i++) {
    for (const [k, fn] of [a, b].entries()) {
      const start = performance.now();
      fn();
      times[k]!.push(performance.now() - start);
    }
  }
  return [median(times[0]), median(times[1])];
}

/** The middle of a list of measurements (the upper one of two). */
export function median(values: readonly number[]): number {
  return [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
}

/**
 * Best time per call in ms of two functions taken in turn, for a ratio between them. Both warm
 * up for `warmupMs` first (the JIT settles the larger one later); each round then times a batch
 * of calls that lasts about `batchMs`, so a fast call is not lost in timer resolution, a
 * preempted time slice or a lone GC, and the collections a batch causes are in its time.
 */
export function interleavedBest(
  a: () => unknown,
  b: () => unknown,
  rounds: number,
  warmupMs = 500,
  batchMs = 25,
): [number, number] {
  const spent = [0, 0];
  let calls = 0;
  for (const start = performance.now(); calls < 2 || performance.now() - start < warmupMs; calls++)
    for (const [k, fn] of [a, b].entries()) {
      const begin = performance.now();
      fn();
      spent[k]! += performance.now() - begin;
    }
  const batch = Math.max(1, Math.round(batchMs / (Math.max(...spent) / calls)));
  const best = [Infinity, Infinity];
  for (let round = 0; round < rounds; round++)
    for (const [k, fn] of [a, b].entries()) {
      const begin = performance.now();
      for (let i = 0; i < batch; i++) fn();
      best[k] = Math.min(best[k]!, (performance.now() - begin) / batch);
    }
  return [best[0]!, best[1]!];
}
