/** examples/logs written by Python (test/python/make_example_logs.py): every trace found where it was written. */
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { scanText } from "../../../src/core/traces/scan.js";
import { summarizeTrace } from "../../../src/core/traces/summary.js";
import { tempDir } from "../../helpers/temp.js";

const EXPECTED = JSON.parse(
  readFileSync("examples/logs/python-logs.expected.json", "utf8"),
) as Record<string, { line: number; id: string | null; stages: string[]; names: string[] }[]>;
const FILES = Object.keys(EXPECTED);
const python = spawnSync("python3", ["--version"]).status === 0;

describe("examples/logs written by Python", () => {
  it.each(FILES)(
    "%s: every trace the generator wrote is found at its line, and nothing else",
    (file) => {
      const { traces, problems } = scanText(readFileSync(`examples/logs/${file}`));
      expect(problems).toEqual([]);
      expect(
        traces.map((found) => {
          const summary = summarizeTrace(found);
          return {
            line: found.line,
            id: found.trace.id,
            stages: summary.stages.map((s) => s.stage),
            names: summary.names,
          };
        }),
      ).toEqual(EXPECTED[file]);
    },
  );

  it.skipIf(!python)(
    "are what the generator writes today (python3 test/python/make_example_logs.py)",
    () => {
      const dir = tempDir("pi-example-logs-");
      const run = spawnSync("python3", ["test/python/make_example_logs.py", dir], {
        encoding: "utf8",
      });
      expect(run.stderr).toBe("");
      for (const file of [...FILES, "python-logs.expected.json"])
        expect(readFileSync(join(dir, file), "utf8"), file).toBe(
          readFileSync(`examples/logs/${file}`, "utf8"),
        );
    },
  );
});
