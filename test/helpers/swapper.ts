/** Another process racing a test: it keeps swapping a name between files and links. */
import { spawn, type ChildProcess } from "node:child_process";
import { afterEach } from "vitest";

/**
 * The swapper swaps busily for BURST_MS, then sleeps for REST_MS with each kind in turn left in
 * place: a quarter of one core, so that it never starves the suite's timed tests, yet thousands
 * of swaps a second meet the calls raced.
 */
const BURST_MS = 1;
const REST_MS = 3;
/** Each swap stands at least this long, whichever kind it is (one is slower to make). */
const TURN_MS = 0.02;

const swappers: ChildProcess[] = [];
afterEach(() => {
  for (const swapper of swappers.splice(0)) swapper.kill();
});

/**
 * Another process that keeps swapping `target`, by atomic renames, between each of `leadsTo`:
 * a fresh copy of a file (or a symbolic link, for a name starting with "->"). Not run at a low
 * priority: on a loaded machine it would then hardly swap while the tools are called.
 */
export function swapper(target: string, leadsTo: string[]): Promise<void> {
  const child = spawn(
    process.execPath,
    [
      "-e",
      `const fs = require("node:fs");
      const [burst, rest, turn, target, ...leadsTo] = process.argv.slice(1).map((a, i) => (i < 3 ? Number(a) : a));
      const sleep = new Int32Array(new SharedArrayBuffer(4));
      const tmp = (k) => target + ".swap" + k;
      const make = (k) => {
        try { fs.unlinkSync(tmp(k)); } catch {}
        const to = leadsTo[k];
        if (to.startsWith("->")) fs.symlinkSync(to.slice(2), tmp(k));
        else fs.copyFileSync(to, tmp(k));
      };
      leadsTo.forEach((_, k) => make(k));
      console.log("ready");
      let k = 0;
      const swap = () => {
        const turnEnd = performance.now() + turn;
        fs.renameSync(tmp(k), target);
        make(k);
        const shown = k;
        k = (k + 1) % leadsTo.length;
        while (performance.now() < turnEnd);
        return shown;
      };
      // Each rest shows the next kind in turn, so that each stands still for a while as well.
      for (let still = 0; ; still = (still + 1) % leadsTo.length) {
        const burstEnd = performance.now() + burst;
        while (swap() !== still || performance.now() < burstEnd);
        Atomics.wait(sleep, 0, 0, rest);
      }`,
      String(BURST_MS),
      String(REST_MS),
      String(TURN_MS),
      target,
      ...leadsTo,
    ],
    { stdio: ["ignore", "pipe", "inherit"] },
  );
  swappers.push(child);
  return new Promise((resolve) => child.stdout!.once("data", () => resolve()));
}
