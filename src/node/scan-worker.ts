/**
 * The entry of a scan worker thread (its own bundle, dist/scan-worker.js): scans the one file
 * it is given with scanInput and posts what it finds in batches, in order, waiting when the
 * thread that reads them is WINDOW batches behind (scan-pool.ts).
 */
import { parentPort, workerData } from "node:worker_threads";
import { scanInput } from "./scan-input.js";
import type { WorkerItem, WorkerJob, WorkerMessage } from "./scan-pool.js";

/** Items per batch: a message small enough to take in at once without holding the host's loop. */
const BATCH = 256;
/** A batch is sent at least this often while the scan goes on, so traces show as they are found. */
const FLUSH_MS = 50;
/** Batches sent and not yet taken in before the scan waits. */
export const WINDOW = 16;

const port = parentPort!;
const job = workerData as WorkerJob;
let items: WorkerItem[] = [];
let sentAt = performance.now();
let unread = 0;
let resume: (() => void) | null = null;

port.on("message", (taken: number) => {
  unread -= taken;
  if (unread < WINDOW && resume) {
    resume();
    resume = null;
  }
});

function post(message: WorkerMessage): void {
  port.postMessage(message);
}

function flush(): void {
  if (items.length === 0) return;
  post({ kind: "items", items });
  items = [];
  unread++;
  sentAt = performance.now();
}

async function main(): Promise<void> {
  const scan = await scanInput(job.input, 0, {
    maxLineBytes: job.maxLineBytes,
    checkpoints: job.checkpoints,
    sink: {
      onTrace: (found) => items.push([0, found]),
      onProblem: ({ line, message, unreadable }) => items.push([1, line, message, !!unreadable]),
    },
    onProgress: (bytes) => post({ kind: "progress", bytes }),
    between: () => {
      if (items.length >= BATCH || performance.now() - sentAt > FLUSH_MS) flush();
      if (unread < WINDOW) return undefined;
      return new Promise<void>((done) => (resume = done));
    },
  });
  // The last items come with the end: once they are handed on, nothing is left to read.
  post({ kind: "done", scan, items });
}

// A failure the scan does not turn into a problem is the worker's error: the pool reports it as the file's.
void main();
