/**
 * Scan workers are kept between scans: the next scan takes them instead of starting threads of
 * its own, no more are kept than the cores, and deactivation ends them.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { endKeptWorkers, keptWorkerIds } from "../../src/node/kept-workers.js";
import { scanLogs } from "../../src/node/log-file.js";
import type { LogInput } from "../../src/node/log-source.js";

const folder = mkdtempSync(join(tmpdir(), "pi-kept-workers-"));

function logs(count: number): LogInput[] {
  return Array.from({ length: count }, (_, k) => {
    const path = join(folder, `app.log.${k}`);
    writeFileSync(path, `${JSON.stringify({ trace: [{ stage: "intent", action: "abstain" }] })}\n`);
    return { name: path, path };
  });
}

/** Scans `inputs`; what the kept workers were while its first trace was handed on, and its count. */
async function scan(
  inputs: LogInput[],
  jobs: number,
): Promise<{ during: number[]; traces: number }> {
  let during: number[] | null = null;
  const done = await scanLogs(inputs, {
    jobs,
    onTrace: () => (during ??= keptWorkerIds()),
    onProblem: () => undefined,
  });
  return { during: during ?? [], traces: done.traceCount };
}

afterEach(endKeptWorkers);

describe("kept scan workers", () => {
  const jobs = Math.min(2, availableParallelism());

  it("are taken by the next scan instead of threads of its own, and kept again after it", async () => {
    const inputs = logs(jobs);
    expect((await scan(inputs, jobs)).traces).toBe(jobs);
    const kept = keptWorkerIds().sort();
    expect(kept).toHaveLength(jobs);
    const again = await scan(inputs, jobs);
    expect(again.traces).toBe(jobs);
    expect(again.during).toEqual([]);
    expect(keptWorkerIds().sort()).toEqual(kept);
  });

  it("are no more than the cores, and end with the extension", async () => {
    await scan(logs(availableParallelism() + 2), availableParallelism() + 2);
    expect(keptWorkerIds()).toHaveLength(availableParallelism());
    await endKeptWorkers();
    expect(keptWorkerIds()).toEqual([]);
  });
});
