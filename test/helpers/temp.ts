/** Temporary folders for tests, removed when the test that made them ends (or, made outside a test, when its file ends). */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, onTestFinished, TestRunner } from "vitest";

/** Folders made while the file was collected or in a `beforeAll`: they outlive each test. */
const lasting: string[] = [];
afterAll(() => {
  for (const dir of lasting.splice(0)) remove(dir);
});

/** A new empty folder under the system's temporary folder, its name starting with `prefix`. */
export function tempDir(prefix = "pi-"): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  if (TestRunner.getCurrentTest()) onTestFinished(() => remove(dir));
  else lasting.push(dir);
  return dir;
}

function remove(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}
