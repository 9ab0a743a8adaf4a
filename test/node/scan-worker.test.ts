/**
 * A scan worker on its own, driven as the pool drives it: a file whose turn has not come (its
 * reader takes nothing in) is scanned to its end all the same, and its traces can be posted as
 * the text of their `traces --json` entries.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Worker } from "node:worker_threads";
import { afterEach, describe, expect, it } from "vitest";
import { scanText } from "../../src/core/traces/scan.js";
import { summarizeTrace, traceEntryTail } from "../../src/core/traces/summary.js";
import { KEY } from "../../src/node/range-hash.js";
import {
  scanWorkerScript,
  type WorkerItem,
  type WorkerJob,
  type WorkerMessage,
} from "../../src/node/scan-pool.js";

const folder = mkdtempSync(join(tmpdir(), "pi-scan-worker-"));
const workers: Worker[] = [];

afterEach(async () => {
  await Promise.all(workers.splice(0).map((worker) => worker.terminate()));
});

/** A log of `count` one-stage traces, each between two other lines. */
function logOf(count: number): string {
  const lines: string[] = [];
  for (let i = 0; i < count; i++)
    lines.push(
      `INFO request ${i} ${"x".repeat(2000)}`,
      JSON.stringify({
        turn_id: `t-${i}`,
        trace: [{ stage: "intent", action: "select", kept: ["search", `tool_${i % 7}`] }],
        tools: ["search", `tool_${i % 7}`],
      }),
    );
  return lines.join("\n") + "\n";
}

/**
 * Everything the worker posts for one job; each batch is taken in (credited) only once the
 * worker has read `size` bytes, or at once when `size` is 0.
 */
function posted(job: WorkerJob, size = 0): Promise<WorkerItem[]> {
  const worker = new Worker(scanWorkerScript(), { workerData: { rangeHashKey: KEY } });
  workers.push(worker);
  const items: WorkerItem[] = [];
  let owed = 0;
  let read = size === 0;
  return new Promise((done, fail) => {
    worker.on("error", fail);
    worker.on("message", (message: WorkerMessage) => {
      if (message.kind === "progress") read ||= message.bytes >= size;
      else {
        items.push(...message.items);
        if (message.kind === "done") return done(items);
        owed++;
      }
      if (read && owed > 0) {
        worker.postMessage(owed);
        owed = 0;
      }
    });
    worker.postMessage(job);
  });
}

describe("a scan worker", () => {
  it("scans a file to its end while its reader takes nothing in, and posts every trace in order", async () => {
    // Far more batches than a reader is sent before it takes them in.
    const count = 3000;
    const path = join(folder, "ahead.log");
    const log = logOf(count);
    writeFileSync(path, log);
    const items = await posted({ input: { name: "ahead.log", path } }, log.length);
    expect(items.map((item) => (item[0] === 0 ? item[1].index : -1))).toEqual(
      Array.from({ length: count }, (_, i) => i),
    );
  });

  it("posts each trace as the rest of its traces --json entry when asked", async () => {
    const log = logOf(600);
    const path = join(folder, "entries.log");
    writeFileSync(path, log);
    const items = await posted({
      input: { name: "entries.log", path },
      entryMargin: "    ",
    });
    expect(items).toEqual(scanText(log).traces.map((found) => [2, traceEntryTail(found, "    ")]));
  });

  it("posts each trace as its summary when asked", async () => {
    const log = logOf(600);
    const path = join(folder, "summaries.log");
    writeFileSync(path, log);
    const items = await posted({ input: { name: "summaries.log", path }, summaries: true });
    expect(items).toEqual(scanText(log).traces.map((found) => [3, summarizeTrace(found)]));
  });
});
