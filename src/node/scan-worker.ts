/**
 * The entry of a scan worker thread (its own bundle, dist/scan-worker.js): scans each file it
 * is given (a WorkerJob message), one at a time, with scanInput and posts what it finds in
 * batches, in order, never more than WINDOW ahead of the thread that reads them (scan-pool.ts).
 * Batches it may not send yet wait here, up to AHEAD_BYTES, before the scan waits too: a file
 * behind the one being handed on is scanned meanwhile, not after it.
 */
import { parentPort } from "node:worker_threads";
import { scanInput } from "./scan-input.js";
import type { WorkerItem, WorkerJob, WorkerMessage } from "./scan-pool.js";

/** Items per batch: a message small enough to take in at once without holding the host's loop. */
const BATCH = 256;
/** A batch is sent at least this often while the scan goes on, so traces show as they are found. */
const FLUSH_MS = 50;
/** Batches sent and not yet taken in before the rest wait here. */
const WINDOW = 4;
/**
 * Log bytes of the traces (or bytes of text) waiting to be sent past which the scan waits: what
 * a worker may hold of a file whose turn has not come.
 */
const AHEAD_BYTES = 16 * 1024 * 1024;
/**
 * What may wait to be sent when the scan ends and still go at once with its end, so that the
 * worker takes the next file: a message small enough to take in without holding the reader's loop.
 */
const REST_BYTES = 1024 * 1024;
/** What a trace counts for at least: its objects cost the reader far more to take in than short text. */
const TRACE_COST = 4096;

const port = parentPort!;
let items: WorkerItem[] = [];
let itemBytes = 0;
/** Batches made and not yet sent: a line may hold thousands of traces, found at once. */
const outbox: { readonly items: WorkerItem[]; readonly bytes: number }[] = [];
let waiting = 0;
let sentAt = performance.now();
/** Batches sent and not yet taken in by the reading thread. */
let unread = 0;
let resume: (() => void) | null = null;

port.on("message", (message: number | WorkerJob) => {
  if (typeof message !== "number") return void take(message);
  unread -= message;
  send();
  const wake = resume;
  resume = null;
  wake?.();
});

function post(message: WorkerMessage): void {
  port.postMessage(message);
}

function send(): void {
  while (outbox.length > 0 && unread < WINDOW) {
    const batch = outbox.shift()!;
    waiting -= batch.bytes;
    post({ kind: "items", items: batch.items });
    unread++;
  }
}

function add(item: WorkerItem, bytes: number): void {
  items.push(item);
  itemBytes += bytes;
  if (items.length >= BATCH) flush();
}

function flush(): void {
  if (items.length > 0) {
    outbox.push({ items, bytes: itemBytes });
    waiting += itemBytes;
  }
  items = [];
  itemBytes = 0;
  sentAt = performance.now();
  send();
}

/** Settles when the reader takes a batch in. */
function taken(): Promise<void> {
  return new Promise<void>((done) => (resume = done));
}

/** A file at a time: the next job comes once this one's end has been posted. */
function take(job: WorkerJob): void {
  items = [];
  itemBytes = 0;
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
    entryMargin: job.entryMargin,
    sink: {
      onTrace: (found) => add([0, found], Math.max(found.length, TRACE_COST)),
      onEntry: (tail) => add([2, tail], tail.length),
      onProblem: ({ line, message, unreadable }) =>
        add([1, line, message, !!unreadable], message.length),
    },
    onProgress: (bytes) => post({ kind: "progress", bytes }),
    between: () => {
      if (performance.now() - sentAt > FLUSH_MS) flush();
      return waiting >= AHEAD_BYTES ? taken() : undefined;
    },
  });
  // The last items come with the end, after every batch before them; a batch waits here only
  // while the reader has WINDOW in hand, so a credit is sure to come.
  flush();
  while (outbox.length > 0 && waiting > REST_BYTES) await taken();
  const rest = outbox.splice(0).flatMap((batch) => batch.items);
  waiting = 0;
  post({ kind: "done", scan, items: rest });
}
