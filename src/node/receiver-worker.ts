/**
 * The entry of the OTLP receiver's worker thread (its own bundle, dist/receiver-worker.js): an
 * OtlpReceiver listening from this thread, whose turns go to the thread that started it
 * (receiver-thread.ts) in one message per turn of this thread's event loop.
 */
import { parentPort, workerData } from "node:worker_threads";
import { OtlpReceiver, PortInUse, type ReceiverOptions } from "./otlp-receiver.js";
import { TurnBatch } from "./receiver-items.js";
import type { ReceiverMessage } from "./receiver-thread.js";

const port = parentPort!;
const options = (
  workerData as {
    options: Omit<ReceiverOptions, "onTrace" | "onModel" | "onTurn" | "onRejoin" | "onDropped">;
  }
).options;
const batch = new TurnBatch();
let flushing = false;

function post(message: ReceiverMessage): void {
  port.postMessage(message);
}

/** What this turn of the loop received goes out together, once it has run. */
function flushSoon(): void {
  if (flushing) return;
  flushing = true;
  setImmediate(flush);
}

function flush(): void {
  flushing = false;
  const items = batch.take();
  if (items) post({ kind: "items", items });
}

const receiver = new OtlpReceiver({
  ...options,
  onTurn: (index, selection, joined) => {
    batch.push(index, selection, joined);
    flushSoon();
  },
  onRejoin: (index, joined) => {
    batch.pushRejoin(index, joined);
    flushSoon();
  },
  onDropped: (notice) => post({ kind: "dropped", notice }),
});

port.on("message", (message: "stop") => {
  if (message !== "stop") return;
  receiver.stop().then(
    () => {
      flush();
      post({ kind: "stopped" });
    },
    (error: unknown) => post({ kind: "failed", message: String(error) }),
  );
});

receiver.start().then(
  (address) => post({ kind: "listening", ...address }),
  (error: unknown) =>
    post(
      error instanceof PortInUse
        ? { kind: "portInUse", port: error.port }
        : { kind: "failed", message: error instanceof Error ? error.message : String(error) },
    ),
);
