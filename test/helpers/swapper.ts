/** Another process racing a test: it keeps swapping a name between files and links. */
import { spawn, type ChildProcess } from "node:child_process";
import { afterEach } from "vitest";

const swappers: ChildProcess[] = [];
afterEach(() => {
  for (const swapper of swappers.splice(0)) swapper.kill();
});

/**
 * Another process that keeps swapping `target`, by atomic renames, between each of `leadsTo`:
 * a hard link to a file (or a symbolic link, for a name starting with "->").
 */
export function swapper(target: string, leadsTo: string[]): Promise<void> {
  const child = spawn(
    process.execPath,
    [
      "-e",
      `const fs = require("node:fs");
      const [target, ...leadsTo] = process.argv.slice(1);
      const tmp = target + ".swap";
      console.log("ready");
      for (;;)
        for (const to of leadsTo) {
          try { fs.unlinkSync(tmp); } catch {}
          if (to.startsWith("->")) fs.symlinkSync(to.slice(2), tmp);
          else fs.linkSync(to, tmp);
          fs.renameSync(tmp, target);
        }`,
      target,
      ...leadsTo,
    ],
    { stdio: ["ignore", "pipe", "inherit"] },
  );
  swappers.push(child);
  return new Promise((resolve) => child.stdout!.once("data", () => resolve()));
}
