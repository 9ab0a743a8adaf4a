/**
 * Where the CPU time of `traces LOG --json` goes: the built CLI run under `node --cpu-prof` (the
 * main thread and each scan worker write a profile), self time summed per function over them all
 * and named with the source file the bundle took it from (esbuild marks each with `// src/…`).
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const TOP = 8;

interface Profile {
  readonly nodes: readonly {
    readonly id: number;
    readonly callFrame: { functionName: string; url: string; lineNumber: number };
  }[];
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
}

/** The TOP functions by self time, each with its share of all the profiled threads' samples. */
export function hottest(dir: string, cli: string, log: string): string[] {
  const out = mkdtempSync(join(dir, "prof-"));
  try {
    const run = spawnSync(
      process.execPath,
      ["--cpu-prof", "--cpu-prof-dir", out, cli, "traces", log, "--json"],
      { stdio: ["ignore", "ignore", "inherit"] },
    );
    if (run.status !== 0) throw new Error(`traces under --cpu-prof exited with ${run.status}`);
    const self = new Map<string, number>();
    const files = new Map<string, number>();
    let total = 0;
    for (const name of readdirSync(out)) {
      const profile = JSON.parse(readFileSync(join(out, name), "utf8")) as Profile;
      const where = new Map(profile.nodes.map((node) => [node.id, named(node.callFrame)]));
      profile.samples.forEach((id, k) => {
        const us = profile.timeDeltas[k] ?? 0;
        const name = where.get(id)!;
        // A worker waiting for work, or the main thread for a worker, is no one's cost.
        if (name === "(idle)") return;
        total += us;
        self.set(name, (self.get(name) ?? 0) + us);
        const file = /\(([^)]+)\)$/.exec(name)?.[1] ?? name;
        files.set(file, (files.get(file) ?? 0) + us);
      });
    }
    const top = (shares: Map<string, number>) =>
      [...shares]
        .sort((a, b) => b[1] - a[1])
        .slice(0, TOP)
        .map(([name, us]) => `  ${((100 * us) / total).toFixed(1).padStart(5)}%  ${name}`);
    return [
      `CPU profile of \`traces --json\` (all threads, ${(total / 1e6).toFixed(2)} s busy), top self time by function:`,
      ...top(self),
      "  by source file:",
      ...top(files),
    ];
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

const sources = new Map<string, string[]>();

/** `function (src/…/file.ts)`, or the frame's own name for V8's (program), (garbage collector)… */
function named(frame: { functionName: string; url: string; lineNumber: number }): string {
  const fn = frame.functionName || "(anonymous)";
  if (!frame.url.startsWith("file:")) return frame.url ? `${fn} (${frame.url})` : fn;
  const path = fileURLToPath(frame.url);
  if (!sources.has(path)) sources.set(path, readFileSync(path, "utf8").split("\n"));
  const lines = sources.get(path)!;
  for (let line = Math.min(frame.lineNumber, lines.length - 1); line >= 0; line--) {
    const mark = /^\/\/ ((?:src|node_modules)\/\S+)$/.exec(lines[line]!);
    if (mark) return `${fn} (${mark[1]})`;
  }
  return `${fn} (${path})`;
}
