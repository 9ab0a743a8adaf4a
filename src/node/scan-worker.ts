/**
 * The entry of a scan worker thread (its own bundle, dist/scan-worker.js): scans each file it
 * is given (a WorkerJob message), one at a time, with scanInput and posts what it finds in batches, in order, waiting when the
 * thread that reads them is WINDOW batches behind (scan-pool.ts).
 */
import { parentPort } from "node:worker_threads";
import { scanInput } from "./scan-input.js";
import type { WorkerItem, WorkerJob, WorkerMessage } from "./scan-pool.js";

/** Items per batch: a message small enough to take in at once without holding the host's loop. */
const BATCH = 256;
/** A batch is sent at least this often while the scan goes on, so traces show as they are found. */
const FLUSH_MS = 50;
/** Batches sent and not yet taken in before the scan waits. */
export const WINDOW = 4;

const port = parentPort!;
let items: WorkerItem[] = [];
/** Batches made and not yet sent: a line may hold thousands of traces, found at once. */
const outbox: WorkerItem[][] = [];
let sentAt = performance.now();
/** Batches sent and not yet taken in by the reading thread. */
let unread = 0;
let resume: (() => void) | null = null;

port.on("message", (message: number | WorkerJob) => {
  if (typeof message !== "number") return void take(message);
  unread -= message;
  send();
  if (resume && !full()) {
    resume();
    resume = null;
  }
});

function post(message: WorkerMessage): void {
  port.postMessage(message);
}

/** The reader has WINDOW batches in hand, or more wait to go: many messages at once would hold its loop as it takes them in. */
function full(): boolean {
  return outbox.length > 0 || unread >= WINDOW;
}

function send(): void {
  while (outbox.length > 0 && unread < WINDOW) {
    post({ kind: "items", items: outbox.shift()! });
    unread++;
  }
}

function add(item: WorkerItem): void {
  items.push(item);
  if (items.length >= BATCH) flush();
}

function flush(): void {
  if (items.length > 0) outbox.push(items);
  items = [];
  sentAt = performance.now();
  send();
}

function room(): Promise<void> | undefined {
  return full() ? new Promise<void>((done) => (resume = done)) : undefined;
}

/** A file at a time: the next job comes once this one's end has been posted. */
function take(job: WorkerJob): void {
  items = [];
  unread = 0;
  sentAt = performance.now();
  // A failure the scan does not turn into a problem is the worker's error (thrown again outside the
  // promise, so it ends the worker): the pool reports it as the file's.
  read(job).catch((error: unknown) =>
    setImmediate(() => {
      throw error;
    }),
  );
}

async function read(job: WorkerJob): Promise<void> {
  const scan = await scanInput(job.input, 0, {
    maxLineBytes: job.maxLineBytes,
    checkpoints: job.checkpoints,
    sink: {
      onTrace: (found) => add([0, found]),
      onProblem: ({ line, message, unreadable }) => add([1, line, message, !!unreadable]),
    },
    onProgress: (bytes) => post({ kind: "progress", bytes }),
    between: () => {
      if (performance.now() - sentAt > FLUSH_MS) flush();
      return room();
    },
  });
  for (let wait = room(); wait; wait = room()) await wait;
  // The last items come with the end: once they are handed on, nothing is left to read.
  post({ kind: "done", scan, items });
}
