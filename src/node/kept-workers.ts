/**
 * Scan workers kept between two scans (scan-pool.ts): a fresh worker starts a thread and compiles
 * the scanner again, which costs more than the scan of a small file, and the extension scans a
 * log at every open, CodeLens and refresh. A kept worker holds no process open, and ends once it
 * has waited KEEP_MS, or when the extension is deactivated.
 */
import { availableParallelism } from "node:os";
import { Worker, type WorkerOptions } from "node:worker_threads";

const KEEP_MS = 30_000;

interface Kept {
  readonly worker: Worker;
  readonly timer: NodeJS.Timeout;
}

/** By script and heap: a worker is only taken for work it was started for. */
const kept = new Map<string, Kept[]>();

const keyOf = (script: string, options: WorkerOptions) =>
  `${script}\0${options.resourceLimits?.maxOldGenerationSizeMb ?? ""}`;

/** A kept worker of this script and heap, its listeners gone, or a new one. */
export function takeWorker(script: string, options: WorkerOptions): Worker {
  const found = kept.get(keyOf(script, options))?.pop();
  if (!found) return new Worker(script, options);
  clearTimeout(found.timer);
  unlisten(found.worker);
  found.worker.ref();
  return found.worker;
}

/** Keeps a worker that has finished its work for the next scan (as many as the cores). */
export function keepWorker(script: string, options: WorkerOptions, worker: Worker): void {
  unlisten(worker);
  const key = keyOf(script, options);
  const list = kept.get(key) ?? [];
  kept.set(key, list);
  if (list.length >= availableParallelism()) return end(worker);
  const entry: Kept = {
    worker,
    timer: setTimeout(() => end(drop(list, entry)), KEEP_MS).unref(),
  };
  // One that fails or ends while kept is only forgotten.
  worker.on("error", () => drop(list, entry));
  worker.on("exit", () => drop(list, entry));
  worker.unref();
  list.push(entry);
}

/** Its users' listeners off: all of them would take Node's own, and its messages with them. */
function unlisten(worker: Worker): void {
  for (const event of ["message", "error", "exit"]) worker.removeAllListeners(event);
}

/** Ends a worker no one waits on: how it ends is no one's problem. */
function end(worker: Worker): void {
  worker.terminate().catch(() => undefined);
}

function drop(list: Kept[], entry: Kept): Worker {
  clearTimeout(entry.timer);
  const at = list.indexOf(entry);
  if (at !== -1) list.splice(at, 1);
  return entry.worker;
}

/** The thread ids of the workers kept now (tests). */
export function keptWorkerIds(): number[] {
  return [...kept.values()].flat().map((entry) => entry.worker.threadId);
}

/** Ends every kept worker (the extension's deactivation). */
export async function endKeptWorkers(): Promise<void> {
  const all = [...kept.values()].flatMap((list) => list.splice(0));
  for (const entry of all) clearTimeout(entry.timer);
  await Promise.all(all.map((entry) => entry.worker.terminate()));
}
