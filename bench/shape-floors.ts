/**
 * What no change to the trace reading can beat, per log shape, as whole processes taken in turn:
 * Node's own start, the log read, and the log read with the scan's pass over plain lines and no
 * trace read (bench/floor.ts); the same on the log's gzip; and the log's two halves read at once
 * by two processes against the whole by one, which says whether a second core has room to help.
 */
import { spawnSync } from "node:child_process";
import { closeSync, fstatSync, openSync, readSync, rmSync, writeSync } from "node:fs";
import { join } from "node:path";
import { seconds } from "./commands.js";

const ROUNDS = 3;

/** Wall time in ms of `node ARGS`, its output discarded. */
function node(args: readonly string[]): number {
  const start = performance.now();
  const child = spawnSync(process.execPath, args, { stdio: ["ignore", "ignore", "pipe"] });
  const ms = performance.now() - start;
  if (child.status !== 0) throw new Error(`node ${args.join(" ")} exited with ${child.status}`);
  return ms;
}

/** Best of ROUNDS of each, taken in turn. */
function best(runs: Record<string, () => number>): Record<string, number> {
  const times: Record<string, number> = {};
  for (let round = 0; round < ROUNDS; round++)
    for (const [name, run] of Object.entries(runs))
      times[name] = Math.min(times[name] ?? Infinity, run());
  return times;
}

/**
 * The least the scan of `log` costs, against the budget a goal of `goal`× `grepMs` leaves: what
 * is over is beyond any reader of traces; what is under is what reading them may cost.
 */
export function scanFloor(log: string, grepMs: number, goal: number): string {
  const floor = join(__dirname, "bench-floor.js");
  const t = best({
    start: () => node(["-e", "0"]),
    read: () => node([floor, log, "--read"]),
    pass: () => node([floor, log]),
  });
  const budget = grepMs / goal;
  const left = budget - t.pass!;
  return (
    `floor: Node's start ${seconds(t.start!)}, the log read ${seconds(t.read!)}, read and passed over ` +
    `(no trace read) ${seconds(t.pass!)}, against a budget of ${seconds(budget)} (grep -n / ${goal}) → ` +
    (left > 0
      ? `${seconds(left)} left to read the traces`
      : `over it by ${seconds(-left)}: out of reach`)
  );
}

/** The floor of the gzip of the log (inflated, then passed over) against the plain scan's time. */
export function gzipFloor(gz: string, plainMs: number, goal: number): string {
  const floor = join(__dirname, "bench-floor.js");
  const t = best({ read: () => node([floor, gz, "--read"]), pass: () => node([floor, gz]) });
  return (
    `.gz floor: inflated ${seconds(t.read!)}, inflated and passed over (no trace read) ` +
    `${seconds(t.pass!)} = ${(t.pass! / plainMs).toFixed(2)}× the plain scan (goal ≤ ${goal}×)`
  );
}

/**
 * `traces --json` on the log's two halves (cut at a line end) in two processes at once, against
 * the whole log in one: the most splitting one log over both cores could give.
 */
export function twoHalves(dir: string, cli: string, log: string): string {
  const halves = split(log, [join(dir, "half-1.log"), join(dir, "half-2.log")]);
  const both = () => {
    const start = performance.now();
    const shell = spawnSync(
      "bash",
      [
        "-c",
        `"$0" "$1" traces "$2" --json >/dev/null & first=$!; "$0" "$1" traces "$3" --json >/dev/null || exit 1; wait $first`,
        process.execPath,
        cli,
        ...halves,
      ],
      { stdio: ["ignore", "ignore", "pipe"] },
    );
    if (shell.status !== 0) throw new Error(`the two halves exited with ${shell.status}`);
    return performance.now() - start;
  };
  const t = best({ whole: () => node([cli, "traces", log, "--json"]), halves: both });
  for (const half of halves) rmSync(half);
  return (
    `two cores: \`traces --json\` on its halves at once ${seconds(t.halves!)}, on the whole ` +
    `${seconds(t.whole!)} → ${(t.whole! / t.halves!).toFixed(2)}× from a second process`
  );
}

/** Copies `log` into two files cut at the first line end past its middle. */
function split(log: string, into: readonly [string, string]): readonly [string, string] {
  const from = openSync(log, "r");
  const buffer = Buffer.allocUnsafe(4 * 1024 * 1024);
  try {
    const size = fstatSync(from).size;
    let cut = Math.floor(size / 2);
    const probe = Buffer.alloc(64 * 1024);
    for (let read; (read = readSync(from, probe, 0, probe.length, cut)) > 0; cut += read) {
      const lf = probe.subarray(0, read).indexOf(10);
      if (lf !== -1) {
        cut += lf + 1;
        break;
      }
    }
    let at = 0;
    for (const [k, path] of into.entries()) {
      const to = openSync(path, "w");
      const end = k === 0 ? cut : size;
      try {
        while (at < end) {
          const read = readSync(from, buffer, 0, Math.min(buffer.length, end - at), at);
          writeSync(to, buffer, 0, read);
          at += read;
        }
      } finally {
        closeSync(to);
      }
    }
  } finally {
    closeSync(from);
  }
  return into;
}
