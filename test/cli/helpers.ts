import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { expect } from "vitest";
import type { CliIO } from "../../src/cli/io.js";
import { main } from "../../src/cli/main.js";
import { tempDir } from "../helpers/temp.js";

/** Runs the CLI in-process and returns what a user would see. */
export async function cli(args: string[], options: { color?: boolean; cwd?: string } = {}) {
  let stdout = "";
  let stderr = "";
  const code = await main(args, {
    stdout: (text) => (stdout += text),
    stderr: (text) => (stderr += text),
    color: options.color ?? false,
    cwd: options.cwd ?? process.cwd(),
  });
  return { code, stdout, stderr };
}

/** A throwaway folder holding the given files (paths relative to it), removed after the test. */
export function workspace(files: Record<string, unknown>): string {
  const root = tempDir("pi-cli-");
  for (const [path, content] of Object.entries(files)) {
    const file = join(root, path);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, typeof content === "string" ? content : JSON.stringify(content, null, 2));
  }
  return root;
}

/** A CliIO that keeps what a command run in this process prints. */
export function io() {
  const out = { stdout: "", stderr: "" };
  const cli: CliIO = {
    stdout: (s) => (out.stdout += s),
    stderr: (s) => (out.stderr += s),
    color: false,
    cwd: process.cwd(),
  };
  return { out, cli };
}

/** Waits, five seconds at most, until `check` holds. */
export async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !check(); i++) await new Promise((r) => setTimeout(r, 10));
  expect(check()).toBe(true);
}
