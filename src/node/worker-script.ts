import { existsSync } from "node:fs";
import { join, resolve } from "node:path";

/**
 * A worker thread's bundle (`dist/<name>`): beside this bundle (dist/), or dist/ of the package
 * when this module runs from its source or from a test's bundle (tests).
 */
export function workerScript(name: string): string {
  const beside = join(__dirname, name);
  if (existsSync(beside)) return beside;
  const source = resolve(__dirname, `../../dist/${name}`);
  // A test's own bundle of the CLI, written elsewhere, is run from the repository.
  return existsSync(source) ? source : resolve(`dist/${name}`);
}

/** Why a worker thread stopped, as a problem of its file says it. */
export function workerFailure(error: Error): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === "ERR_WORKER_OUT_OF_MEMORY") return "it ran out of memory";
  return error.message;
}
