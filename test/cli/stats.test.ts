import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import * as esbuild from "esbuild";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { traceJson } from "../core/stats/helpers.js";
import { cli, workspace } from "./helpers.js";
import { tempDir } from "../helpers/temp.js";

describe("palette-inspector stats", () => {
  it("--json over a folder counts every trace `traces` finds in its logs, with the scan problems", async () => {
    const { code, stdout, stderr } = await cli(["stats", "examples/logs", "--json"]);
    expect([code, stderr]).toEqual([0, ""]);
    const doc = JSON.parse(stdout);
    expect(stdout).toBe(JSON.stringify(doc, null, 2) + "\n");
    expect(Object.keys(doc)).toEqual(["traces", "errors", "stages", "tools", "problems"]);
    const listed = JSON.parse((await cli(["traces", "examples/logs", "--json"])).stdout);
    expect([doc.traces, doc.problems]).toEqual([listed.traces.length, listed.problem_count]);
    expect(doc.stages.map((s: { stage: string }) => s.stage)).toEqual([
      "intent",
      "forced",
      "role",
      "policy",
      "allowlist",
    ]);
    const ask = doc.tools.find((t: { name: string }) => t.name === "ask_human");
    expect(ask).toEqual({
      name: "ask_human",
      seen: 42,
      final: 1,
      forced: 0,
      dropped_by: { intent: 6, role: 35 },
      added_by: {},
      reinstated_by: {},
      missing: { intent: 6, role: 35 },
    });
  });

  it("prints tables: the most often missing tool first, with the stages that removed it and their share", async () => {
    const { code, stdout } = await cli(["stats", "examples/logs/agent.log"]);
    expect(code).toBe(0);
    const lines = stdout.split("\n");
    expect(lines[0]).toMatch(/^\d+ traces, 0 problems/);
    const header = lines.findIndex((line) => line.startsWith("tool "));
    expect(lines[header]).toMatch(/^tool +missing +removed by +final +forced$/);
    const first = lines[header + 1]!;
    expect(first).toMatch(/^\S+ +100% of \d+ turns +\w+ \d+%/);
    // The one failed turn's pipeline left final_answer, but its model was never called.
    expect(stdout).toMatch(/\nfinal_answer +17% of 6 turns +ForcedToolUnavailable 100% +5 +0\n/);
  });

  it("reads several files as one set: the sum of their traces and problems, the problems named by file", async () => {
    const { stdout } = await cli(["stats", "examples/logs/agent.log", "examples/logs/broken.log"]);
    expect(stdout).toContain("problems (4):\nexamples/logs/broken.log:2: truncated JSON");
  });

  it("escapes control characters from the log in names and problems", async () => {
    const dir = workspace({
      "evil.log": `${JSON.stringify({ trace: [{ stage: "po\u001b]0;pwned\u0007", action: "select", kept: [], dropped: ["x\u001b[2J\u009b\u202e"] }], tools: [] })}\n{"trace": [\n`,
    });
    const { stdout } = await cli(["stats", dir]);
    expect(stdout).not.toMatch(/[\u0000-\u0008\u001b]/);
    expect(stdout).toContain("x\\u001b[2J");
    const json = (await cli(["stats", dir, "--json"])).stdout;
    expect(json).not.toMatch(/[\u001b\u0007\u0080-\u009f\u202a-\u202e]/);
    expect(JSON.parse(json).tools[0].name).toBe("x\u001b[2J\u009b\u202e");
  });

  it("exits 2 with one line for no arguments or an unknown option", async () => {
    for (const args of [["stats"], ["stats", "x.log", "--csv"]]) {
      const { code, stdout, stderr } = await cli(args);
      expect([code, stdout]).toEqual([2, ""]);
      expect(stderr.split("\n").filter(Boolean)).toHaveLength(1);
    }
  });

  it("a log that cannot be read is a problem of that file and exit 2, as for traces; the others are counted", async () => {
    const { code, stdout, stderr } = await cli([
      "stats",
      "nope.log",
      "examples/logs/agent.log",
      "--json",
    ]);
    expect(code).toBe(2);
    expect(stderr).toBe("palette-inspector: cannot read nope.log: no such file\n");
    expect(JSON.parse(stdout)).toMatchObject({ traces: 6, problems: 1 });
  });

  it("says a log that cannot be read once, on stderr: no table when nothing was read, none of it in the table otherwise", async () => {
    expect(await cli(["stats", "nope.log"])).toEqual({
      code: 2,
      stdout: "",
      stderr: "palette-inspector: cannot read nope.log: no such file\n",
    });
    const mixed = await cli(["stats", "nope.log", "examples/logs/agent.log"]);
    expect(mixed.code).toBe(2);
    expect(mixed.stderr).toBe("palette-inspector: cannot read nope.log: no such file\n");
    expect(mixed.stdout).not.toContain("nope.log");
    expect(mixed.stdout).toMatch(/^6 traces, 0 problems · /);
  });

  it("splitting a log into files and reading them together gives the same JSON", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(traceJson, { maxLength: 10 }),
        fc.array(fc.nat(), { maxLength: 3 }),
        async (traces, cuts) => {
          const lines = traces.map((trace) => JSON.stringify(trace) + "\n");
          const at = [...new Set(cuts.map((c) => c % (lines.length + 1)))].sort((a, b) => a - b);
          const parts = [0, ...at, lines.length]
            .slice(1)
            .map((end, i, ends) => lines.slice(i === 0 ? 0 : ends[i - 1], end).join(""));
          const files: Record<string, string> = { "whole.log": lines.join("") };
          parts.forEach((text, i) => (files[`part/${i}.log`] = text));
          const dir = workspace(files);
          const whole = await cli(["stats", "whole.log", "--json"], { cwd: dir });
          const split = await cli(["stats", ...parts.map((_, i) => `part/${i}.log`), "--json"], {
            cwd: dir,
          });
          const folder = await cli(["stats", "part", "--json"], { cwd: dir });
          expect(split.stdout).toBe(whole.stdout);
          expect(folder.stdout).toBe(whole.stdout);
        },
      ),
      { numRuns: 40 },
    );
    // 120 whole runs of the CLI, each starting its scan workers: seconds alone, far more beside other files.
  }, 120_000);

  describe("as a program", () => {
    let program = "";
    beforeAll(async () => {
      program = join(tempDir("pi-stats-cli-"), "cli.js");
      await esbuild.build({
        entryPoints: ["src/cli/main.ts"],
        bundle: true,
        platform: "node",
        format: "cjs",
        target: "node20",
        mainFields: ["module", "main"],
        outfile: program,
        logLevel: "warning",
      });
    });

    it("`-` reads standard input, alone or with files", () => {
      const log = readFileSync("examples/logs/agent.log");
      const piped = spawnSync(process.execPath, [program, "stats", "-", "--json"], { input: log });
      const file = spawnSync(process.execPath, [
        program,
        "stats",
        "examples/logs/agent.log",
        "--json",
      ]);
      expect(piped.status).toBe(0);
      expect(piped.stdout.toString()).toBe(file.stdout.toString());
      const twice = spawnSync(
        process.execPath,
        [program, "stats", "-", "examples/logs/agent.log", "--json"],
        { input: log },
      );
      expect(JSON.parse(twice.stdout.toString()).traces).toBe(
        2 * JSON.parse(file.stdout.toString()).traces,
      );
    });
  });
});
