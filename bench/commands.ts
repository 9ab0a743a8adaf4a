/**
 * The commands as a user runs them, against what a user would write instead,
 * `grep -o '{.*' LOG | grep '"trace"' | jq -c '.trace | length'`: each a whole process (the
 * pipeline a whole shell), taken in turn on the same file, best of ROUNDS; on a text log where 1
 * line in 100 is a small trace and on a JSONL where 1 line in 5 is a five-stage one. Then each
 * command's peak RSS on a 100 MB and a 400 MB log (memory must not grow with the log).
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runCli } from "./child.js";
import { load, median, verdict } from "./measure.js";
import { generateLog, SPARSE_TEXT } from "./traces.js";

const MB = 1024 * 1024;
const ROUNDS = 3;
/** `$1` is the log. grep in the C locale, its fastest: a UTF-8 locale makes `grep -o` 2–3× slower. */
export const PIPELINE = `grep -o '{.*' "$1" | grep '"trace"' | jq -c '.trace | length'`;

/** A command's arguments for a log holding `count` traces (`show` the last: the whole log is read). */
export const COMMANDS: Record<string, (log: string, count: number) => string[]> = {
  "traces --json": (log) => ["traces", log, "--json"],
  traces: (log) => ["traces", log],
  "stats --json": (log) => ["stats", log, "--json"],
  "show N": (log, count) => ["show", log, String(count)],
};

export function benchCommands(): string[] {
  const cli = join(__dirname, "cli.js");
  const dir = mkdtempSync(join(tmpdir(), "pi-bench-commands-"));
  const lines = ["commands against grep | jq (whole processes)"];
  try {
    if (spawnSync("jq", ["--version"]).status !== 0)
      lines.push("  against grep | jq: skipped (no jq on the PATH)");
    else
      for (const [name, mb, every, shape] of [
        ["text log, 1 line in 100 a one-stage trace", 300, 100, SPARSE_TEXT],
        ["JSONL, 1 line in 5 a five-stage trace", 200, 5, undefined],
      ] as const) {
        const log = join(dir, "speed.log");
        const count = generateLog(log, mb * MB, every, shape);
        lines.push(
          `  ${name}, ${mb} MB, ${count} traces:`,
          ...againstPipeline(dir, cli, log, count),
        );
        rmSync(log);
      }
    lines.push(`  (times: best of ${ROUNDS} runs each, taken in turn; ${load()})`);
    lines.push(...peakMemory(dir, cli));
    return lines;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function againstPipeline(dir: string, cli: string, log: string, count: number): string[] {
  const names = Object.keys(COMMANDS);
  const best = new Map<string, number>([
    ["pipeline", Infinity],
    ...names.map((n) => [n, Infinity] as const),
  ]);
  const keep = (name: string, ms: number) => best.set(name, Math.min(best.get(name)!, ms));
  for (let round = 0; round < ROUNDS; round++) {
    keep("pipeline", pipeline(log));
    for (const name of names) keep(name, runCli(dir, cli, COMMANDS[name]!(log, count)).ms);
  }
  const base = best.get("pipeline")!;
  return [
    `    grep | jq ${seconds(base)}`,
    ...names.map(
      (name) =>
        `    ${name} ${seconds(best.get(name)!)} → ${verdict(base / best.get(name)!, 1, false)}`,
    ),
  ];
}

/** Wall time of a shell `script` (`$1` the log) over `log`, its output discarded. */
export function pipeline(log: string, script = PIPELINE): number {
  const start = performance.now();
  const shell = spawnSync("bash", ["-o", "pipefail", "-c", `${script} > /dev/null`, "bash", log], {
    env: { ...process.env, LC_ALL: "C" },
    stdio: ["ignore", "ignore", "pipe"],
    encoding: "utf8",
  });
  const ms = performance.now() - start;
  if (shell.status !== 0) throw new Error(`${script} exited with ${shell.status}: ${shell.stderr}`);
  return ms;
}

/**
 * Each command's peak RSS on a JSONL log of 100 MB and one of 400 MB (4× the traces), the median
 * of ROUNDS runs taken in turn: when the collector runs moves a single peak by a tenth or more.
 */
function peakMemory(dir: string, cli: string): string[] {
  const rss = new Map<string, number[]>();
  for (const mb of [100, 400]) {
    const log = join(dir, `rss-${mb}.jsonl`);
    const count = generateLog(log, mb * MB);
    const peaks = new Map<string, number[]>();
    for (let round = 0; round < ROUNDS; round++)
      for (const [name, args] of Object.entries(COMMANDS))
        peaks.set(name, [...(peaks.get(name) ?? []), runCli(dir, cli, args(log, count)).rss]);
    for (const [name, runs] of peaks) rss.set(name, [...(rss.get(name) ?? []), median(runs)]);
    rmSync(log);
  }
  return [
    ...[...rss].map(
      ([name, [small, big]]) =>
        `  peak RSS of \`${name}\`: 100 MB log ${small!.toFixed(0)} MB, 400 MB log ${big!.toFixed(0)} MB → ${verdict(big! / small!, 1.2, true)}`,
    ),
    `  (peak RSS: the median of ${ROUNDS} runs each, taken in turn)`,
  ];
}

export const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
