/**
 * Every log shape a service writes, each command against the least a user's tool must do: per
 * shape (sparse ones 1 line in 100 a trace, plus a dense JSONL), `traces --json`, `traces`,
 * `stats --json` and `show N` (the last trace) as whole processes, best of ROUNDS taken in turn
 * with `grep -n MARKER LOG | wc -l` and, where one fits, the `grep | jq` pipeline (the dense JSONL
 * against `jq` alone); 4 files of a shape with the default `--jobs` against `--jobs 1` (outputs
 * compared); a `.gz` against the plain log; peak RSS on a log 4× as large; where the CPU time of
 * `traces --json` goes; and what no reader of traces can beat (shape-floors.ts). `BENCH_SHAPES_MB` sets the size of a log (default 300; the jobs files are
 * 40/300 of it each, the memory logs 1/3 and 4/3).
 */
import { spawnSync } from "node:child_process";
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createHash } from "node:crypto";
import { runCli } from "./child.js";
import { COMMANDS, PIPELINE, pipeline, seconds } from "./commands.js";
import { load, median, verdict } from "./measure.js";
import { hottest } from "./profile.js";
import { gzipFloor, scanFloor, twoHalves } from "./shape-floors.js";
import { generateLog, SPARSE_TEXT } from "./traces.js";

const MB = 1024 * 1024;
const ROUNDS = 3;
const FILES = 4;

interface Shape {
  readonly name: string;
  /** The text its traces carry, for `grep -n`. */
  readonly marker: string;
  /** The baseline a user would write instead, and the ratio to it each command must reach. */
  readonly against: { readonly script: string; readonly goal: number } | null;
  /** Writes a log of about `bytes`; returns how many traces it holds. */
  readonly write: (file: string, bytes: number) => number;
}

/** Python's own `repr` and `logging` write these (bench/shapes_log.py). */
function python(shape: "repr" | "kv"): Shape["write"] {
  return (file, bytes) => {
    const run = spawnSync(
      "python3",
      [join(__dirname, "..", "bench", "shapes_log.py"), shape, file, String(bytes), "100"],
      { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] },
    );
    if (run.status !== 0) throw new Error(`shapes_log.py ${shape} exited with ${run.status}`);
    return Number(run.stdout);
  };
}

const GREP_JQ = { script: PIPELINE, goal: 1 };
/** Each command's speed against `grep -n MARKER LOG | wc -l`, at least. */
const GREP_GOAL = 0.5;
/** A gzip's scan against the plain log's, in time, at most. */
const GZIP_GOAL = 1.2;

const SHAPES: readonly Shape[] = [
  {
    name: "text+JSON",
    marker: '"trace"',
    against: GREP_JQ,
    write: (file, bytes) => generateLog(file, bytes, 100, SPARSE_TEXT),
  },
  { name: "Python repr", marker: "SelectionResult(", against: null, write: python("repr") },
  { name: "key=value", marker: "trace=", against: null, write: python("kv") },
  {
    name: "JSON every line",
    marker: '"trace"',
    against: GREP_JQ,
    write: (file, bytes) => generateLog(file, bytes, 100),
  },
  {
    name: "dense JSONL (1 in 5)",
    marker: '"trace"',
    against: { script: `jq -c '.trace | length' "$1"`, goal: 1.2 },
    write: (file, bytes) => generateLog(file, bytes, 5),
  },
];

const DENSE = SHAPES[SHAPES.length - 1]!;

export function benchShapes(): string[] {
  const size = Number(process.env.BENCH_SHAPES_MB ?? 300);
  const cli = join(__dirname, "cli.js");
  const dir = mkdtempSync(join(tmpdir(), "pi-bench-shapes-"));
  const lines = [
    `log shapes (${size} MB per log, whole processes, best of ${ROUNDS} taken in turn; ratios are speeds)`,
  ];
  try {
    for (const shape of SHAPES) {
      const log = join(dir, "shape.log");
      const count = shape.write(log, size * MB);
      readsEvery(dir, cli, log, count);
      const { lines: against, grepMs } = againstBaselines(dir, cli, shape, log, count);
      lines.push(`  ${shape.name}, ${count} traces:`, ...against);
      if (grepMs !== null) lines.push(`    ${scanFloor(log, grepMs, GREP_GOAL)}`);
      lines.push(`    ${twoHalves(dir, cli, log)}`);
      lines.push(...hottest(dir, cli, log).map((line) => `    ${line}`));
      lines.push(...gzipped(dir, cli, log).map((line) => `    ${line}`));
      rmSync(log);
      lines.push(`    ${jobs(dir, cli, shape, Math.max(1, Math.round((size * 40) / 300)))}`);
      lines.push(...peakMemory(dir, cli, shape, size).map((line) => `    ${line}`));
    }
    lines.push(`  (${load()})`);
    return lines;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function againstBaselines(dir: string, cli: string, shape: Shape, log: string, count: number) {
  const grep = `grep -n '${shape.marker}' "$1" | wc -l`;
  const bases = shape === DENSE ? [shape.against!] : [{ script: grep, goal: GREP_GOAL }];
  if (shape !== DENSE && shape.against) bases.push(shape.against);
  const best = new Map<string, number>();
  const keep = (name: string, ms: number) =>
    best.set(name, Math.min(best.get(name) ?? Infinity, ms));
  for (let round = 0; round < ROUNDS; round++) {
    for (const base of bases) keep(base.script, pipeline(log, base.script));
    for (const [name, args] of Object.entries(COMMANDS))
      keep(name, runCli(dir, cli, args(log, count)).ms);
  }
  return {
    lines: [
      ...bases.map((base) => `    \`${base.script}\` ${seconds(best.get(base.script)!)}`),
      ...Object.keys(COMMANDS).map(
        (name) =>
          `    ${name} ${seconds(best.get(name)!)} → ${bases
            .map((base) => verdict(best.get(base.script)! / best.get(name)!, base.goal, false))
            .join("; ")}`,
      ),
    ],
    grepMs: shape === DENSE ? null : best.get(grep)!,
  };
}

/** `traces --json` of a gzip of the log against the log (goal: at most 1.2× the time), and its floor. */
function gzipped(dir: string, cli: string, log: string): string[] {
  const gz = `${log}.gz`;
  const out = openSync(gz, "w");
  try {
    if (spawnSync("gzip", ["-c", "-6", log], { stdio: ["ignore", out, "inherit"] }).status !== 0)
      throw new Error("gzip failed");
  } finally {
    closeSync(out);
  }
  let plain = Infinity;
  let packed = Infinity;
  for (let round = 0; round < ROUNDS; round++) {
    plain = Math.min(plain, runCli(dir, cli, ["traces", log, "--json"]).ms);
    packed = Math.min(packed, runCli(dir, cli, ["traces", gz, "--json"]).ms);
  }
  const floor = gzipFloor(gz, plain, GZIP_GOAL);
  rmSync(gz);
  return [
    `.gz ${seconds(packed)} against plain ${seconds(plain)} → time ${verdict(packed / plain, GZIP_GOAL, true)}`,
    floor,
  ];
}

/** `traces FILES --json` with the default `--jobs` against `--jobs 1`, and whether the outputs agree. */
function jobs(dir: string, cli: string, shape: Shape, mb: number): string {
  const files = Array.from({ length: FILES }, (_, k) => join(dir, `app.log.${k + 1}`));
  for (const file of files) shape.write(file, mb * MB);
  const sides = { parallel: [] as string[], serial: ["--jobs", "1"] };
  const best = { parallel: Infinity, serial: Infinity };
  const digests = new Set<string>();
  for (let round = 0; round < ROUNDS; round++)
    for (const [side, extra] of Object.entries(sides)) {
      const { ms, digest } = captured(dir, cli, ["traces", ...files, "--json", ...extra]);
      best[side as keyof typeof best] = Math.min(best[side as keyof typeof best], ms);
      digests.add(digest);
    }
  for (const file of files) rmSync(file);
  return `${FILES} files of ${mb} MB: default --jobs ${seconds(best.parallel)}, --jobs 1 ${seconds(best.serial)} → ${verdict(best.serial / best.parallel, 1.6, false)}; outputs ${digests.size === 1 ? "identical" : "DIFFER"}`;
}

/** Fails unless `traces --json` finds each of the log's `count` traces and no problem: a fast wrong answer is no answer. */
function readsEvery(dir: string, cli: string, log: string, count: number): void {
  const file = join(dir, "found.json");
  const out = openSync(file, "w");
  const child = spawnSync(process.execPath, [cli, "traces", log, "--json"], {
    stdio: ["ignore", out, "pipe"],
    encoding: "utf8",
  });
  closeSync(out);
  const found = JSON.parse(readFileSync(file, "utf8")) as {
    traces: unknown[];
    problem_count: number;
  };
  rmSync(file);
  if (child.status !== 0 || found.traces.length !== count || found.problem_count !== 0)
    throw new Error(
      `traces --json on ${log} found ${found.traces.length} of ${count} traces and ${found.problem_count} problems (exit ${child.status})`,
    );
}

/** Wall time of one CLI run and a hash of what it printed. */
function captured(dir: string, cli: string, args: string[]): { ms: number; digest: string } {
  const file = join(dir, "out.json");
  const out = openSync(file, "w");
  const start = performance.now();
  const child = spawnSync(process.execPath, [cli, ...args], {
    stdio: ["ignore", out, "pipe"],
    encoding: "utf8",
  });
  const ms = performance.now() - start;
  closeSync(out);
  if (child.status !== 0)
    throw new Error(`${args[0]} exited with ${child.status}: ${child.stderr}`);
  const digest = createHash("sha256").update(readFileSync(file)).digest("hex");
  rmSync(file);
  return { ms, digest };
}

/** Each command's peak RSS (median of ROUNDS) on logs of a third and four thirds of `size`. */
function peakMemory(dir: string, cli: string, shape: Shape, size: number): string[] {
  const sizes = [Math.round(size / 3), Math.round((size * 4) / 3)];
  const rss = new Map<string, number[]>();
  for (const mb of sizes) {
    const log = join(dir, `rss-${mb}.log`);
    const count = shape.write(log, mb * MB);
    for (const [name, args] of Object.entries(COMMANDS)) {
      const runs = Array.from({ length: ROUNDS }, () => runCli(dir, cli, args(log, count)).rss);
      rss.set(name, [...(rss.get(name) ?? []), median(runs)]);
    }
    rmSync(log);
  }
  return [...rss].map(
    ([name, [small, big]]) =>
      `peak RSS of \`${name}\`: ${sizes[0]} MB ${small!.toFixed(0)} MB, ${sizes[1]} MB ${big!.toFixed(0)} MB → ${verdict(big! / small!, 1.2, true)}`,
  );
}
