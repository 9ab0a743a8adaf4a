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

/** A reader's event loop is never held longer than this by a hostile line, in CPU time. */
const SLICE_MS = 50;

const MB = 1024 * 1024;

describe("scanLogs on hostile logs of up to 1 MB", () => {
  it.each([
    ["20,000 trace= pairs on one line", `ts=1 ${"trace=[] ".repeat(20_000)}\n`, 64, 1],
    ["20,000 ' tools=' in a bracket", `x=[${" tools=".repeat(20_000)}] trace=[]\n`, 1, 0],
    ['40,000 quoted k="StageRecord("', `${'k="StageRecord(" '.repeat(40_000)}\n`, 0, 65],
    // Read element by element from the line's start, 10,000 of them took seconds; now about 20 ms.
    [
      "a JSON array of 10,000 non-ASCII traces on one line",
      `[\n${Array(10_000).fill('{"trace":[],"x":"é"}').join(",")}\n]\n`,
      10_000,
      0,
    ],
    ["a line of 1 MB of (", `${"(".repeat(MB)}\n`, 0, 0],
    ["a line of 1 MB of ( after a first line", `start\n${"(".repeat(MB)}\n`, 0, 0],
    ["a line of 1 MB of [ after a prefix", `x [${"[".repeat(MB)}\n`, 0, 0],
    ["a line of 1 MB of ( and blanks", `${"( ".repeat(MB / 2)}\n`, 0, 0],
    ["a line of 1 MB of ( before a trace", `${"(".repeat(MB)}{'trace': []}\n`, 0, 1],
  ])(
    "%s never holds the event loop for 50 ms of CPU",
    (_, text, traces, problems) => {
      const measured = longestSlice(text);
      expect(measured.traces).toBe(traces);
      expect(measured.problems).toHaveLength(problems);
      expect(measured.ms).toBeLessThan(SLICE_MS);
    },
    60_000,
  );
});
