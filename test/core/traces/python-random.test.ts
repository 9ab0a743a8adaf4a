/**
 * Random logs written by Python (test/python/random_logs.py): every trace Python logged is read,
 * at its line, with its names, forced choice and id; every line Python cut carries a problem; and
 * nothing else is found. One seed per run of the suite (PI_LOG_SEED=n to replay one).
 */
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { readBack, type Logged } from "./python-written.js";

const SEED = Number(process.env.PI_LOG_SEED ?? 20261201);
const COUNT = 300;

describe("random logs written by Python", () => {
  it(`read as Python wrote them (seed ${SEED}, ${COUNT} logs)`, () => {
    const run = spawnSync("python3", ["test/python/random_logs.py", String(SEED), String(COUNT)], {
      encoding: "utf8",
      maxBuffer: 256 * 1024 * 1024,
    });
    expect(run.stderr).toBe("");
    const logs = JSON.parse(run.stdout) as Logged[];
    expect(logs).toHaveLength(COUNT);
    const wrong: string[] = [];
    logs.forEach((logged, i) => {
      const read = readBack(logged.log);
      const seen = JSON.stringify({ traces: read.traces, problems: read.problems });
      const want = JSON.stringify({ traces: logged.traces, problems: logged.problems });
      if (seen !== want)
        wrong.push(
          `log ${i}:\n${JSON.stringify(logged.log)}\nwant ${want}\nread ${seen}\n${read.messages.join("\n")}`,
        );
    });
    expect(wrong.slice(0, 3).join("\n\n"), `${wrong.length} of ${COUNT} logs read wrong`).toBe("");
  });
});
