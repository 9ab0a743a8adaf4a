/**
 * The least a scan of a log does, as a process of its own (dist/bench-floor.js, a bundle of only
 * this): the log read through the scan's own reader (a gzip inflated) and every line passed over
 * by the scan's pass over plain lines, no trace read. `node bench-floor.js LOG` prints the lines
 * the pass took and those it stopped at; `--read` only reads. The shapes bench times it whole, to
 * say how much of a goal's budget is left for reading traces.
 */
import { logChunks } from "../src/node/log-source.js";
import { wasmPlainLines } from "../src/node/plain-lines.js";

/** The scan's window for the pass (scan.ts PLAIN_WINDOW). */
const WINDOW = 1024 * 1024;

async function main(): Promise<void> {
  const [path, mode] = process.argv.slice(2);
  if (!path) throw new Error("usage: bench-floor.js LOG [--read]");
  const pass = mode === "--read" ? null : wasmPlainLines();
  let plain = 0;
  let stopped = 0;
  // The piece of a line a chunk ends with: with the next chunk's first line, one line read whole.
  let cut = false;
  for await (const chunk of logChunks({ name: path, path })) {
    if (!pass) continue;
    const first = cut ? chunk.indexOf(10) + 1 : 0;
    if (cut && first > 0) stopped++;
    const last = chunk.lastIndexOf(10);
    cut = last + 1 < chunk.length;
    const bytes = chunk.subarray(first, Math.max(first, last + 1));
    // Windows as the scanner loads them: from the first line not passed over, at most WINDOW long.
    for (let at = 0, from = 0, to = 0; at < bytes.length;) {
      if (at >= to) {
        from = at;
        to = Math.min(bytes.length, at + WINDOW);
        pass.load(bytes.subarray(from, to));
      }
      const skipped = pass.skip(at - from, 0x7fffffff);
      plain += skipped.lines;
      at = from + skipped.to;
      if (at >= bytes.length) break;
      // A line the pass stops at (or one the window cuts) is stepped over as the scanner reads it.
      stopped++;
      at = bytes.indexOf(10, at) + 1;
    }
  }
  process.stdout.write(`${plain} ${stopped}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
