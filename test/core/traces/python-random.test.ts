/**
 * Random logs written by Python (test/python/random_logs.py): every trace Python logged is read,
 * at its line, with its names, forced choice and id; every line Python cut carries a problem; and
 * nothing else is found. One seed per run of the suite (PI_LOG_SEED=n to replay one); the tool
 * names of each class of test/python/names.py are held to the same for many short logs each
 * (PI_LOG_LONG=n: n logs of each kind instead, for a campaign).
 */
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { readBack, type Logged } from "./python-written.js";

const SEED = Number(process.env.PI_LOG_SEED ?? 20261201);
const LONG = Number(process.env.PI_LOG_LONG ?? 0);
const COUNT = LONG > 0 ? LONG : 300;
const PER_CLASS = LONG > 0 ? LONG : 200;
const CLASSES = [
  "letters",
  "formats",
  "blanks",
  "punctuation",
  "backslashes",
  "markers",
  "keywords",
] as const;

/** Python's logs for `count` seeds from `seed`, and those it reads otherwise than Python wrote them. */
function misread(seed: number, count: number, only: string | null): string[] {
  const args = ["test/python/random_logs.py", String(seed), String(count)];
  if (only !== null) args.push(only);
  const run = spawnSync("python3", args, { encoding: "utf8", maxBuffer: 1024 * 1024 * 1024 });
  expect(run.stderr).toBe("");
  const logs = JSON.parse(run.stdout) as Logged[];
  expect(logs).toHaveLength(count);
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
  return wrong;
}

describe("random logs written by Python", () => {
  it(
    `read as Python wrote them (seed ${SEED}, ${COUNT} logs)`,
    () => {
      const wrong = misread(SEED, COUNT, null);
      expect(wrong.slice(0, 3).join("\n\n"), `${wrong.length} of ${COUNT} logs read wrong`).toBe(
        "",
      );
    },
    LONG > 0 ? 3_600_000 : 60_000,
  );

  it.each(CLASSES)(
    `read every tool name of class %s as Python printed it, in every tool repr (${PER_CLASS} logs)`,
    (only) => {
      const wrong = misread(SEED, PER_CLASS, only);
      expect(
        wrong.slice(0, 3).join("\n\n"),
        `${wrong.length} of ${PER_CLASS} logs read wrong`,
      ).toBe("");
    },
    LONG > 0 ? 3_600_000 : 60_000,
  );
});
