import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cli, workspace } from "./helpers.js";

const BEFORE = "examples/before-after/before.jsonl";
const AFTER = "examples/before-after/after.jsonl";

describe("palette-inspector stats --against", () => {
  it("says which tool lost ground and which stage took it: ask_human −80 points, taken by role", async () => {
    const { code, stdout, stderr } = await cli(["stats", AFTER, "--against", BEFORE]);
    expect([code, stderr]).toEqual([0, ""]);
    const lines = stdout.split("\n");
    expect(lines.slice(0, 2)).toEqual(["NEW: 40 traces, 0 problems", "OLD: 40 traces, 0 problems"]);
    const header = lines.findIndex((line) => line.startsWith("tool "));
    expect(lines[header + 1]).toMatch(
      /^ask_human +100% of 40 turns +20% of 40 turns +−80\.0 pts +<0\.001 +role 0% → 80%$/,
    );
    expect(stdout).not.toMatch(/ \n/);
  });

  it("the README shows the comparison of the example pair as the CLI prints it", async () => {
    const readme = readFileSync("README.md", "utf8");
    const command = `$ palette-inspector stats ${AFTER} --against ${BEFORE}\n`;
    const start = readme.indexOf(command) + command.length;
    const shown = readme.slice(start, readme.indexOf("```", start)).trimEnd().split("\n");
    expect(shown).toHaveLength(2);
    const { stdout } = await cli(["stats", AFTER, "--against", BEFORE]);
    const lines = stdout.split("\n");
    const header = lines.findIndex((line) => line.startsWith("tool "));
    expect(shown).toEqual(lines.slice(header, header + 2));
  });

  it("--json keeps each side as stats --json prints it, then the changes, biggest first", async () => {
    const { code, stdout } = await cli(["stats", AFTER, "--json", "--against", BEFORE]);
    expect(code).toBe(0);
    const doc = JSON.parse(stdout);
    expect(stdout).toBe(JSON.stringify(doc, null, 2) + "\n");
    expect(doc.old).toEqual(JSON.parse((await cli(["stats", BEFORE, "--json"])).stdout));
    expect(doc.new).toEqual(JSON.parse((await cli(["stats", AFTER, "--json"])).stdout));
    expect(doc.empty).toEqual([]);
    expect(doc.changes[0]).toMatchObject({
      name: "ask_human",
      old: { seen: 40, final: 40, forced: 0, rate: 1 },
      new: { seen: 40, final: 8, forced: 0, rate: 0.2 },
      stage: { stage: "role", old: 0, new: 0.8 },
    });
    expect(doc.changes[0].points).toBeCloseTo(-80, 9);
    expect(doc.changes[0].p).toBeLessThan(1e-9);
    expect(doc.changes.slice(1).every((c: { points: number }) => c.points === 0)).toBe(true);
  });

  it("--split-at cuts one set at a time: the traces before it are OLD, and the changes are those of the two halves", async () => {
    const split = await cli([
      "stats",
      "examples/before-after",
      "--split-at",
      "2025-03-11 00:00",
      "--json",
    ]);
    expect(split.code).toBe(0);
    const doc = JSON.parse(split.stdout);
    const against = JSON.parse((await cli(["stats", AFTER, "--against", BEFORE, "--json"])).stdout);
    expect(doc.changes).toEqual(against.changes);
    expect(doc.split).toEqual({
      at: "2025-03-11 00:00",
      first: "2025-03-10T09:00:00Z",
      last: "2025-03-12T18:45:00Z",
      untimed: 0,
      problems: 0,
    });
    // The set's problems are in neither side.
    expect([doc.old.problems, doc.new.problems]).toEqual([null, null]);
    const text = await cli(["stats", "examples/before-after", "--split-at", "2025-03-11T00:00Z"]);
    expect(text.stdout).toContain(
      "split at 2025-03-11T00:00Z: OLD from 2025-03-10T09:00:00Z, NEW to 2025-03-12T18:45:00Z",
    );
  });

  it("a --split-at outside the set's times is an error naming its first and last time", async () => {
    for (const at of ["2025-03-10 09:00", "2026-01-01"]) {
      const { code, stdout, stderr } = await cli([
        "stats",
        "examples/before-after",
        "--split-at",
        at,
      ]);
      expect([code, stdout]).toEqual([2, ""]);
      expect(stderr).toBe(
        `palette-inspector: --split-at ${at} is outside the set's times: its first trace is at 2025-03-10T09:00:00Z, its last at 2025-03-12T18:45:00Z\n`,
      );
    }
    const bad = await cli(["stats", "examples/before-after", "--split-at", "Tuesday"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--split-at must be a date and time .*not 'Tuesday'/);
  });

  it("an unreadable file is a problem of its side, named on stderr; the other side is still read, and an empty side is said plainly", async () => {
    const dir = workspace({});
    const missing = join(dir, "gone.log");
    const { code, stdout, stderr } = await cli(["stats", AFTER, "--against", missing]);
    expect(code).toBe(2);
    expect(stderr).toContain(`cannot read ${missing}`);
    expect(stdout).toContain("NEW: 40 traces, 0 problems\nOLD: 0 traces, 0 problems\n");
    expect(stdout).toContain("OLD has no traces: nothing to compare.");
    const doc = JSON.parse((await cli(["stats", AFTER, "--against", missing, "--json"])).stdout);
    expect([doc.new.traces, doc.old.traces, doc.old.problems, doc.empty]).toEqual([
      40,
      0,
      1,
      ["old"],
    ]);
    expect(doc.changes).toEqual([]);
  });

  it("a side's broken lines are listed under its name", async () => {
    const { stdout } = await cli(["stats", AFTER, "--against", "examples/logs/broken.log"]);
    expect(stdout).toContain("problems of OLD (4):\nexamples/logs/broken.log:2: truncated JSON");
  });

  it("needs names on both sides of --against, and not --split-at with it", async () => {
    for (const args of [
      ["stats", AFTER, "--against"],
      ["stats", "--against", BEFORE],
    ]) {
      const { code, stderr } = await cli(args);
      expect(code).toBe(2);
      expect(stderr).toContain("[--against OLD... | --split-at TIME]");
    }
    const both = await cli(["stats", AFTER, "--against", BEFORE, "--split-at", "2025-03-11"]);
    expect([both.code, both.stderr]).toEqual([
      2,
      "palette-inspector: --against and --split-at cannot be used together\n",
    ]);
  });
});
