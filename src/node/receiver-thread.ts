/**
 * The OTLP receiver run in a worker thread (receiver-worker.ts), for the extension host: reading,
 * decoding and joining requests never hold the host's event loop, and they run beside it on
 * another core. This thread only takes in each message of turns and hands them on.
 */
import { Worker } from "node:worker_threads";
import { DEFAULT_MAX_TURNS, PortInUse, type ReceiverOptions } from "./otlp-receiver.js";
import { MAX_KEPT_CHARS, TurnReader, type ReceiverItems } from "./receiver-items.js";
import { workerScript } from "./worker-script.js";

export type ReceiverMessage =
  | { readonly kind: "listening"; readonly host: string; readonly port: number }
  | { readonly kind: "portInUse"; readonly port: number }
  | { readonly kind: "failed"; readonly message: string }
  | { readonly kind: "items"; readonly items: ReceiverItems }
  | { readonly kind: "dropped"; readonly notice: string }
  | { readonly kind: "stopped" };

export interface ReceiverThreadOptions extends Omit<
  ReceiverOptions,
  "onRequest" | "onTurn" | "onRejoin"
> {
  /** The worker stopped on its own (an error, out of memory): nothing is received any more. */
  readonly onFailure?: (message: string) => void;
}

/** The worker holds the join state of `maxTurns` turns and a request in reading (this thread keeps their selections). */
const HEAP_MB = 1024;

export class ReceiverThread {
  private worker: Worker | null = null;
  private starting: {
    readonly done: (address: { host: string; port: number }) => void;
    readonly fail: (error: Error) => void;
  } | null = null;
  private stopping: (() => void) | null = null;
  private count = 0;
  private readonly turns: TurnReader;

  constructor(
    private readonly options: ReceiverThreadOptions,
    private readonly script = workerScript("receiver-worker.js"),
  ) {
    this.turns = new TurnReader(options.maxTurns ?? DEFAULT_MAX_TURNS);
  }

  /** Selection traces received so far. */
  get received(): number {
    return this.count;
  }

  /** Listens; resolves with the address bound (port 0 picks a free one), rejects PortInUse. */
  start(): Promise<{ host: string; port: number }> {
    // Only data crosses to the worker; the callbacks stay here.
    const { host, port, maxBody, maxTurns, maxJoinBytes, bounds } = this.options;
    const worker = new Worker(this.script, {
      workerData: { options: { host, port, maxBody, maxTurns, maxJoinBytes, bounds } },
      resourceLimits: { maxOldGenerationSizeMb: HEAP_MB },
    });
    this.worker = worker;
    worker.on("message", (message: ReceiverMessage) => this.receive(message));
    worker.on("error", (error) => this.failed(error.message));
    worker.on("exit", (code) => this.failed(`its worker thread ended (exit code ${code})`));
    return new Promise((done, fail) => (this.starting = { done, fail }));
  }

  /** Stops listening and closes every connection; the turns read before are handed on first. */
  async stop(): Promise<void> {
    const worker = this.worker;
    if (!worker) return;
    await new Promise<void>((done) => {
      this.stopping = done;
      worker.postMessage("stop");
    });
    await this.end();
  }

  private receive(message: ReceiverMessage): void {
    switch (message.kind) {
      case "items": {
        const passedOver = this.turns.passedOver;
        this.turns.read(message.items, (changed, index, trace) => {
          if (changed) return this.options.onModel?.({ index, trace });
          this.count++;
          this.options.onTrace?.({ index, trace });
        });
        if (passedOver === 0 && this.turns.passedOver > 0)
          this.options.onDropped?.(
            `the ${MAX_KEPT_CHARS / 2 ** 20} Mi characters of selections kept for later model calls are full: the model calls of the oldest turns are no longer updated`,
          );
        return;
      }
      case "dropped":
        return this.options.onDropped?.(message.notice);
      case "listening":
        this.starting?.done({ host: message.host, port: message.port });
        this.starting = null;
        return;
      case "stopped":
        this.stopping?.();
        this.stopping = null;
        return;
      case "portInUse":
        return this.refused(new PortInUse(message.port));
      case "failed":
        return this.refused(new Error(message.message));
    }
  }

  /** The start failed: the worker is ended and the start rejects. */
  private refused(error: Error): void {
    const starting = this.starting;
    this.starting = null;
    this.end().catch(() => undefined);
    if (starting) starting.fail(error);
    else this.failed(error.message);
  }

  /** The worker stopped on its own: a start rejects, a running receiver says so. */
  private failed(message: string): void {
    if (!this.worker) return;
    this.end().catch(() => undefined);
    const starting = this.starting;
    this.starting = null;
    if (starting) starting.fail(new Error(message));
    else this.options.onFailure?.(message);
    this.stopping?.();
    this.stopping = null;
  }

  private async end(): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    if (!worker) return;
    worker.removeAllListeners();
    worker.on("error", () => undefined);
    await worker.terminate();
  }
}
