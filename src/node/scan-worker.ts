/**
 * The entry of a log worker thread (its own bundle, dist/scan-worker.js). Given a WorkerJob, it
 * scans that file with scanInput, one file at a time, and posts what it finds (scan-pool.ts);
 * given a FollowJob, it follows that log until told to stop (follow-thread.ts). Either way items go
 * through an Outbox: in batches, in order, never far ahead of the thread that reads them, and a
 * file behind the one being handed on is scanned meanwhile, not after it.
 */
import { parentPort } from "node:worker_threads";
import { LogFollower } from "./log-follow.js";
import { scanInput } from "./scan-input.js";
import { Outbox } from "./worker-outbox.js";
import type { FollowJob, FollowMessage } from "./follow-thread.js";
import { HANDED_ON, type WorkerItem, type WorkerJob, type WorkerMessage } from "./scan-pool.js";

/** What a trace counts for at least: its objects cost the reader far more to take in than short text. */
const TRACE_COST = 4096;
/** What a summary counts for: a few short objects, most of a trace's cost to take in gone. */
const SUMMARY_COST = 512;

const port = parentPort!;
let outbox = new Outbox((items) => post({ kind: "items", items }));
let following: LogFollower | null = null;

port.on("message", (message: number | "stop" | typeof HANDED_ON | WorkerJob | FollowJob) => {
  if (typeof message === "number") outbox.taken(message);
  else if (message === HANDED_ON) outbox.handedOn();
  else if (message === "stop") stopFollowing().catch(crash);
  else if ("follow" in message) follow(message).catch(crash);
  else take(message);
});

/**
 * A failure the work does not turn into a problem is the worker's error (thrown again outside the
 * promise, so it ends the worker): the reading thread reports it as the file's.
 */
function crash(error: unknown): void {
  setImmediate(() => {
    throw error;
  });
}

function post(message: WorkerMessage | FollowMessage): void {
  port.postMessage(message);
}

/** A file at a time: the next job comes once this one's end has been posted. */
function take(job: WorkerJob): void {
  outbox = new Outbox((items) => post({ kind: "items", items }));
  if (job.handedOn) outbox.handedOn();
  read(job).catch(crash);
}

async function read(job: WorkerJob): Promise<void> {
  const scan = await scanInput(job.input, 0, {
    maxLineBytes: job.maxLineBytes,
    checkpoints: job.checkpoints,
    entryMargin: job.entryMargin,
    summaries: job.summaries,
    wanted: job.wanted,
    otlpSet: job.otlpSet,
    sink: {
      onTrace: (found) => outbox.add([0, found], Math.max(found.length, TRACE_COST)),
      onEntry: (tail) => outbox.add([2, tail], tail.length),
      onSummary: (summary) => outbox.add([3, summary], SUMMARY_COST),
      onPassed: (count) => outbox.add([4, count], 8),
      onProblem: ({ line, message, unreadable }) =>
        outbox.add([1, line, message, !!unreadable], message.length),
    },
    onProgress: (bytes) => post({ kind: "progress", bytes }),
    between: () => outbox.between(),
  });
  // The last items come with the end, after every batch before them.
  const items: WorkerItem[] = await outbox.rest();
  post({ kind: "done", scan, items });
}

/** Follows one log: what it reads goes out as it is found; "started" or "failed" says how it began. */
async function follow(job: FollowJob): Promise<void> {
  // What a follower finds is taken in as it comes.
  outbox.handedOn();
  following = new LogFollower(job.follow, {
    fromStart: job.fromStart,
    pollMs: job.pollMs,
    onTrace: (found) => outbox.add([0, found], Math.max(found.length, TRACE_COST)),
    onProblem: ({ line, message }) => outbox.add([1, line, message, false], message.length),
    between: () => outbox.between(),
    onCaughtUp: () => outbox.flush(),
  });
  try {
    await following.start();
  } catch (error) {
    following = null;
    return post({
      kind: "failed",
      message: error instanceof Error ? error.message : String(error),
    });
  }
  post({ kind: "started" });
}

/** Stops the follower; what it read before goes out with "stopped". */
async function stopFollowing(): Promise<void> {
  await following?.stop();
  following = null;
  post({ kind: "stopped", items: await outbox.rest() });
}
