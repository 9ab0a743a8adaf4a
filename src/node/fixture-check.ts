/**
 * Fixtures and catalogues checked off the calling thread: a source past ON_THREAD_CHARS is parsed
 * and validated by one warm worker thread (fixture-worker.ts, bundled as dist/fixture-worker.js),
 * so that a hostile fixture of 10 MiB never holds the extension host's event loop. The worker
 * asks this thread for the catalogue a fixture names, as the caller's reader confines it.
 */
import { Worker } from "node:worker_threads";
import {
  loadCatalog,
  loadFixture,
  type CatalogReader,
  type LoadResult,
} from "../core/fixture/load.js";
import { hasErrors, type Problem } from "../core/fixture/problems.js";
import type { SourceFile, UnreadableSource } from "../core/fixture/source.js";
import { workerFailure, workerScript } from "./worker-script.js";

/**
 * Sources up to this many UTF-16 units are checked on the calling thread: a hostile one of this
 * size costs 5–25 ms of CPU there (1,000 problems described and placed), a larger one up to 50.
 */
export const ON_THREAD_CHARS = 16 * 1024;
const HEAP_MB = 2048;

export type CheckKind = "fixture" | "catalogue";

/** From the calling thread to the worker: a source to check, or the answer to its catalogue read. */
export type FixtureJob =
  | {
      readonly kind: "check";
      readonly id: number;
      readonly what: CheckKind;
      readonly source: SourceFile;
    }
  | {
      readonly kind: "catalogue";
      readonly id: number;
      readonly read: number;
      readonly source?: SourceFile | UnreadableSource;
      readonly error?: string;
    };

/** From the worker: a check's problems, or a catalogue it needs read. */
export type FixtureReply =
  | { readonly kind: "done"; readonly id: number; readonly problems: Problem[] }
  | {
      readonly kind: "read";
      readonly id: number;
      readonly read: number;
      readonly ref: string;
      readonly fixtureFile: string;
    };

interface Pending {
  readonly file: string;
  readonly readCatalog: CatalogReader;
  readonly settle: (problems: Problem[]) => void;
}

let worker: Worker | null = null;
let nextId = 0;
const pending = new Map<number, Pending>();

/** The warm worker, started on first use; it keeps no process alive while it has nothing to do. */
function fixtureWorker(): Worker {
  if (worker) return worker;
  const started = new Worker(workerScript("fixture-worker.js"), {
    resourceLimits: { maxOldGenerationSizeMb: HEAP_MB },
  });
  started.unref();
  started.on("message", (reply: FixtureReply) => {
    const job = pending.get(reply.id);
    if (!job) return;
    if (reply.kind === "done") {
      pending.delete(reply.id);
      if (pending.size === 0) started.unref();
      job.settle(reply.problems);
    } else answerRead(started, reply, job.readCatalog);
  });
  const failed = (reason: string) => {
    if (worker !== started) return;
    worker = null;
    // Every check it had is a problem of its file; the next check starts a new worker.
    for (const [id, job] of pending) {
      pending.delete(id);
      job.settle([stopped(job.file, reason)]);
    }
  };
  started.on("error", (error) => failed(workerFailure(error)));
  started.on("exit", (code) => failed(`its worker thread ended (exit code ${code})`));
  return (worker = started);
}

/** Ends the warm worker (the extension's deactivation); a check it had is a problem of its file. */
export async function endFixtureWorker(): Promise<void> {
  await worker?.terminate();
}

function answerRead(to: Worker, reply: FixtureReply & { kind: "read" }, read: CatalogReader): void {
  const answer = (job: Omit<FixtureJob & { kind: "catalogue" }, "kind" | "id" | "read">) => {
    if (worker === to)
      to.postMessage({ kind: "catalogue", id: reply.id, read: reply.read, ...job });
  };
  read(reply.ref, reply.fixtureFile).then(
    (source) => answer({ source }),
    (error: unknown) => answer({ error: error instanceof Error ? error.message : String(error) }),
  );
}

/** The one problem of a file whose check could not end. */
export function stopped(file: string, reason: string): Problem {
  const start = { line: 0, character: 0 };
  return {
    severity: "error",
    file,
    range: { start, end: start },
    path: [],
    message: `the check of this file stopped: ${reason}`,
  };
}

function inWorker(
  what: CheckKind,
  source: SourceFile,
  readCatalog: CatalogReader,
): Promise<Problem[]> {
  return new Promise((settle) => {
    const id = nextId++;
    const thread = fixtureWorker();
    pending.set(id, { file: source.file, readCatalog, settle });
    thread.ref();
    thread.postMessage({ kind: "check", id, what, source } satisfies FixtureJob);
  });
}

const noCatalogue: CatalogReader = () =>
  Promise.reject(new Error("a catalogue names no catalogue"));

/**
 * The caller's reader for a fixture checked on this thread: a large catalogue it names is checked
 * in the worker first and, if invalid, comes back as its problems (placed in the catalogue file).
 */
const checkingLarge =
  (read: CatalogReader): CatalogReader =>
  async (ref, fixtureFile) => {
    const source = await read(ref, fixtureFile);
    if ("problems" in source || source.text.length <= ON_THREAD_CHARS) return source;
    const problems = await inWorker("catalogue", source, noCatalogue);
    return hasErrors(problems) ? { file: source.file, problems } : source;
  };

/** A fixture's problems, its catalogue's included, as the Problems panel lists them. */
export async function fixtureProblems(
  source: SourceFile,
  readCatalog: CatalogReader,
): Promise<readonly Problem[]> {
  if (source.text.length <= ON_THREAD_CHARS)
    return (await loadFixture(source, checkingLarge(readCatalog))).problems;
  return inWorker("fixture", source, readCatalog);
}

/** A catalogue file's problems. */
export async function catalogueProblems(source: SourceFile): Promise<readonly Problem[]> {
  if (source.text.length <= ON_THREAD_CHARS) {
    const loaded = loadCatalog(source);
    return "problems" in loaded ? loaded.problems : [];
  }
  return inWorker("catalogue", source, noCatalogue);
}

/**
 * `loadFixture` whose checks of a large source run in the worker: an invalid fixture is its
 * problems from there; a valid one, which costs far less to check, is loaded here to be run.
 */
export async function checkedFixture(
  source: SourceFile,
  readCatalog: CatalogReader,
): Promise<LoadResult> {
  if (source.text.length > ON_THREAD_CHARS) {
    const problems = await inWorker("fixture", source, readCatalog);
    if (hasErrors(problems)) return { ok: false, problems };
  }
  return loadFixture(source, checkingLarge(readCatalog));
}

/** `loadCatalog`, its checks of a large source in the worker as `checkedFixture`'s. */
export async function checkedCatalog(source: SourceFile): Promise<ReturnType<typeof loadCatalog>> {
  if (source.text.length > ON_THREAD_CHARS) {
    const problems = await inWorker("catalogue", source, noCatalogue);
    if (hasErrors(problems)) return { problems };
  }
  return loadCatalog(source);
}
