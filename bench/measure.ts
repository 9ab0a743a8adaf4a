/** Median wall time of `fn` in milliseconds, after warm-up runs so the JIT has settled. */
export function medianMs(fn: () => unknown, runs = 7, warmup = 2): number {
  for (let i = 0; i < warmup; i++) fn();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    fn();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)]!;
}

export const fmt = (ms: number) => (ms < 1 ? `${(ms * 1000).toFixed(0)} µs` : `${ms.toFixed(1)} ms`);

/** A ratio against its goal, marked so a regression stands out in a log. */
export function verdict(ratio: number, goal: number, atMost: boolean): string {
  const ok = atMost ? ratio <= goal : ratio >= goal;
  return `${ratio.toFixed(2)}× (goal ${atMost ? "≤" : "≥"} ${goal}×) ${ok ? "ok" : "MISSED"}`;
}

/**
 * Medians of two functions run alternately, so that both meet the same heap and GC state: a
 * baseline measured alone on a fresh heap looks faster than it is inside real work.
 */
export function interleavedMedians(a: () => unknown, b: () => unknown, runs = 15): [number, number] {
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
  const median = (list: number[]) => list.sort((x, y) => x - y)[Math.floor(list.length / 2)]!;
  return [median(times[0]), median(times[1])];
}
