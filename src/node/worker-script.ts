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
