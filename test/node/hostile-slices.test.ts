/**
 * A log's reader (a scan worker, the CLI's `traces -`) reads a hostile line in time in proportion
 * to its length: no shape may send a reader back over the line for each value in it. Each slice
 * between two turns of the reading thread's event loop is measured in that thread's CPU time,
 * which a busy machine does not stretch as it does the time on the clock, in a process of its own.
 * (The extension host reads no log on its own thread: scan-off-thread.test.ts, log-follow.test.ts.)
 */
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { buildSync } from "esbuild";
import { beforeAll, describe, expect, it } from "vitest";
import { tempDir } from "../helpers/temp.js";

const folder = tempDir("pi-slices-");
const probe = join(folder, "probe.js");
beforeAll(() => {
  buildSync({
    entryPoints: ["test/node/slice-probe.ts"],
    outfile: probe,
    bundle: true,
    platform: "node",
    format: "cjs",
    logLevel: "error",
  });
});

/**
 * The longest CPU time between two turns of the event loop while `scanLogs` reads `text`, and what
 * it found: the least of six runs, as on a host that has read logs before (the first runs of a
 * fresh process compile the readers), and as a busy machine only adds to a slice.
 */
function longestSlice(text: string): { ms: number; traces: number; problems: string[] } {
  const path = join(folder, "hostile.log");
  writeFileSync(path, text);
  const run = spawnSync("node", [probe, path, "6"], { encoding: "utf8", timeout: 60_000 });
  expect(run.stderr).toBe("");
  return JSON.parse(run.stdout);
}

const MB = 1024 * 1024;

/**
 * A line 4 times as long makes a linear reader's slice 4 times as long, and one that reads back
 * over the line for each value in it 16 times. A CPU-time ceiling would depend on the machine;
 * this ratio of two slices measured in the same run does not.
 */
const MAX_GROWTH = 10;

/** A hostile log at `scale` (1 or 4) times the size its name gives, and what it holds at 1. */
type Case = [name: string, log: (scale: number) => string, traces: number, problems: number];

describe("scanLogs on hostile logs of 1 MB and of four times that", () => {
  it.each<Case>([
    ["20,000 trace= pairs on one line", (s) => `ts=1 ${"trace=[] ".repeat(20_000 * s)}\n`, 64, 1],
    // At 20,000 the line took about 3 ms, near a tick of the CPU clock: the ratio said nothing.
    [
      "200,000 ' tools=' in a bracket",
      (s) => `x=[${" tools=".repeat(200_000 * s)}] trace=[]\n`,
      1,
      0,
    ],
    ['40,000 quoted k="StageRecord("', (s) => `${'k="StageRecord(" '.repeat(40_000 * s)}\n`, 0, 65],
    // Read element by element from the line's start, 10,000 of them took seconds; now about 20 ms.
    [
      "a JSON array of 10,000 non-ASCII traces on one line",
      (s) =>
        `[\n${Array(10_000 * s)
          .fill('{"trace":[],"x":"é"}')
          .join(",")}\n]\n`,
      10_000,
      0,
    ],
    ["a line of 1 MB of (", (s) => `${"(".repeat(MB * s)}\n`, 0, 0],
    ["a line of 1 MB of ( after a first line", (s) => `start\n${"(".repeat(MB * s)}\n`, 0, 0],
    ["a line of 1 MB of [ after a prefix", (s) => `x [${"[".repeat(MB * s)}\n`, 0, 0],
    ["a line of 1 MB of ( and blanks", (s) => `${"( ".repeat((MB / 2) * s)}\n`, 0, 0],
    ["a line of 1 MB of ( before a trace", (s) => `${"(".repeat(MB * s)}{'trace': []}\n`, 0, 1],
  ])(
    "%s holds the event loop in proportion to its length",
    (_, log, traces, problems) => {
      const base = longestSlice(log(1));
      const grown = longestSlice(log(4));
      expect(base.traces).toBe(traces);
      expect(base.problems).toHaveLength(problems);
      expect(grown.ms / base.ms).toBeLessThan(MAX_GROWTH);
    },
    60_000,
  );
});
