/** `traces --json` on logs Python wrote (test/python/written_cases.py): what Python logged, where it logged it. */
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cli, workspace } from "./helpers.js";
import type { Logged } from "../core/traces/python-written.js";

const run = spawnSync("python3", ["test/python/written_cases.py"], {
  encoding: "utf8",
  maxBuffer: 64 * 1024 * 1024,
});
const CASES = JSON.parse(run.stdout) as Record<string, Logged>;
const root = workspace(
  Object.fromEntries(Object.entries(CASES).map(([name, logged]) => [`${name}.log`, logged.log])),
);

interface TracesJson {
  traces: { line: number; names: string[]; forced_choice: string | null; id: unknown }[];
  problems: { line: number | null }[];
}

describe("traces --json on logs Python wrote", () => {
  it.each(Object.keys(CASES))(
    "%s: lists what Python logged and a problem where it cut",
    async (name) => {
      const { code, stdout } = await cli(["traces", join(root, `${name}.log`), "--json"]);
      expect(code).toBe(0);
      const read = JSON.parse(stdout) as TracesJson;
      expect({
        traces: read.traces.map((t) => ({
          line: t.line,
          names: t.names,
          forced: t.forced_choice,
          id: t.id === null ? null : String(t.id),
        })),
        problems: [...new Set(read.problems.map((p) => p.line))].sort((a, b) => a! - b!),
      }).toEqual({ traces: CASES[name]!.traces, problems: CASES[name]!.problems });
    },
  );
});
