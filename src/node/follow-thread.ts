/**
 * A LogFollower run in a worker thread (scan-worker.ts), for the extension host: reading and
 * scanning a growing log, however hostile, never holds the host's event loop. This thread only
 * takes in the worker's batches and hands each trace and problem on, in slices of at most BUSY_MS.
 */
import { setImmediate as nextTurn } from "node:timers/promises";
import { Worker } from "node:worker_threads";
import type { FollowOptions } from "./log-follow.js";
import { KEY } from "./range-hash.js";
import { scanWorkerScript, type WorkerItem } from "./scan-pool.js";

/** What the worker is given: the log to follow and how. */
export interface FollowJob {
  readonly follow: string;
  readonly fromStart: boolean;
  readonly pollMs?: number;
}

export type FollowMessage =
  | { readonly kind: "items"; readonly items: WorkerItem[] }
  | { readonly kind: "started" }
  | { readonly kind: "failed"; readonly message: string }
  | { readonly kind: "stopped"; readonly items: WorkerItem[] };

/** Longest stretch of handing on before the event loop gets a turn. */
const BUSY_MS = 15;
/** The worker holds one scanner and a window of batches: far less than a scan's. */
const HEAP_MB = 512;

type Settle = { readonly done: () => void; readonly fail: (error: Error) => void };

export class FollowThread {
  private readonly worker: Worker;
  private readonly batches: WorkerItem[][] = [];
  private pumping = false;
  private starting: Settle | null = null;
  private stopping: (() => void) | null = null;
  private ended = false;
  private terminated: Promise<number> | null = null;

  constructor(
    readonly path: string,
    private readonly options: Omit<FollowOptions, "between" | "onCaughtUp">,
    script = scanWorkerScript(),
  ) {
    this.worker = new Worker(script, {
      workerData: { rangeHashKey: KEY },
      resourceLimits: { maxOldGenerationSizeMb: HEAP_MB },
    });
    this.worker.on("message", (message: FollowMessage) => this.receive(message));
    this.worker.on("error", (error) => this.failed(error.message));
    this.worker.on("exit", (code) => this.failed(`its worker thread ended (exit code ${code})`));
  }

  /** Opens the log (rejects when it cannot be read) and starts following it. */
  start(): Promise<void> {
    const job: FollowJob = {
      follow: this.path,
      fromStart: this.options.fromStart ?? false,
      pollMs: this.options.pollMs,
    };
    return new Promise<void>((done, fail) => {
      this.starting = { done, fail };
      this.worker.postMessage(job);
    });
  }

  /** Stops following; what was read before is handed on first. */
  async stop(): Promise<void> {
    if (!this.ended) {
      const stopped = new Promise<void>((done) => (this.stopping = done));
      this.worker.postMessage("stop");
      await stopped;
    }
    await this.end();
  }

  private receive(message: FollowMessage): void {
    if (message.kind === "items" || message.kind === "stopped") {
      if (message.items.length > 0) this.batches.push(message.items);
      if (message.kind === "stopped") this.batches.push([]);
      return this.pump();
    }
    const starting = this.starting;
    this.starting = null;
    if (message.kind === "started") return starting?.done();
    starting?.fail(new Error(message.message));
    this.end().catch(() => undefined);
  }

  /** Hands on what has come in, a turn of the event loop at least every BUSY_MS, from the next turn on. */
  private pump(): void {
    if (this.pumping) return;
    this.pumping = true;
    void (async () => {
      await nextTurn();
      let turn = performance.now();
      for (let batch = this.batches[0]; batch !== undefined; batch = this.batches[0]) {
        // The empty batch after the last: "stopped" is answered once all before it is handed on.
        if (batch.length === 0) {
          this.batches.shift();
          this.stopping?.();
          continue;
        }
        let taken = 0;
        while (taken < batch.length) {
          this.hand(batch[taken++]!);
          if (performance.now() - turn > BUSY_MS) {
            await nextTurn();
            turn = performance.now();
          }
        }
        this.batches.shift();
        if (!this.ended) this.worker.postMessage(1);
      }
      this.pumping = false;
    })().catch((error: unknown) => {
      // A caller's callback threw: following ends and says so.
      this.pumping = false;
      this.failed(error instanceof Error ? error.message : String(error));
      this.end().catch(() => undefined);
    });
  }

  private hand(item: WorkerItem): void {
    if (item[0] === 0) this.options.onTrace(item[1]);
    else if (item[0] === 1) this.options.onProblem({ line: item[1] ?? 0, message: item[2] });
  }

  /** The worker stopped on its own (an error, out of memory): a problem, and following ends. */
  private failed(reason: string): void {
    if (this.ended) return;
    this.ended = true;
    const message = `following stopped: ${reason}`;
    if (this.starting) this.starting.fail(new Error(message));
    else this.options.onProblem({ line: 0, message });
    this.starting = null;
    this.stopping?.();
  }

  /** Ends the worker, once. */
  private end(): Promise<unknown> {
    this.ended = true;
    // Stopped before the worker said it had started: not a failure of the start.
    const starting = this.starting;
    this.starting = null;
    starting?.done();
    if (!this.terminated) {
      this.worker.removeAllListeners();
      this.worker.on("error", () => undefined);
      this.terminated = this.worker.terminate();
    }
    return this.terminated;
  }
}
