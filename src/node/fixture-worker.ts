/**
 * The entry of the fixture worker thread (its own bundle, dist/fixture-worker.js): checks each
 * fixture or catalogue it is given (fixture-check.ts) and posts its problems; the catalogue a
 * fixture names is read by the thread that asked, which alone knows where it may read.
 */
import { parentPort } from "node:worker_threads";
import { loadCatalog, loadFixture, type CatalogReader } from "../core/fixture/load.js";
import type { SourceFile, UnreadableSource } from "../core/fixture/source.js";
import { stopped, type FixtureJob, type FixtureReply } from "./fixture-check.js";

const port = parentPort!;
/** Catalogue reads waiting for their answer, by check and read. */
const reads = new Map<string, (answer: FixtureJob & { kind: "catalogue" }) => void>();
let nextRead = 0;

const post = (reply: FixtureReply) => port.postMessage(reply);

const readerFor =
  (id: number): CatalogReader =>
  (ref, fixtureFile) =>
    new Promise<SourceFile | UnreadableSource>((settle, fail) => {
      const read = nextRead++;
      reads.set(`${id} ${read}`, (answer) => {
        if (answer.source) settle(answer.source);
        else fail(new Error(answer.error ?? "the catalogue could not be read"));
      });
      post({ kind: "read", id, read, ref, fixtureFile });
    });

port.on("message", (job: FixtureJob) => {
  if (job.kind === "catalogue") {
    const key = `${job.id} ${job.read}`;
    const answer = reads.get(key);
    reads.delete(key);
    answer?.(job);
    return;
  }
  if (job.what === "catalogue") {
    const loaded = loadCatalog(job.source);
    post({ kind: "done", id: job.id, problems: "problems" in loaded ? loaded.problems : [] });
    return;
  }
  loadFixture(job.source, readerFor(job.id)).then(
    (loaded) => post({ kind: "done", id: job.id, problems: [...loaded.problems] }),
    (error: unknown) =>
      post({ kind: "done", id: job.id, problems: [stopped(job.source.file, String(error))] }),
  );
});
