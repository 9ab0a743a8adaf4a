import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, symlinkSync } from "node:fs";
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cli, workspace } from "./helpers.js";

const passing = {
  offered: ["a", "b"],
  pipeline: [{ kind: "lazy", allowed_names: ["a"] }],
  expect: { names: ["a"], dropped_by: { b: "lazy" } },
};
const failing = {
  offered: ["a", "b"],
  pipeline: [{ kind: "lazy", allowed_names: ["a"] }],
  expect: { names: ["a", "b"], actions: { lazy: "abstain" } },
};

describe("palette-inspector check", () => {
  it("runs every example fixture, finds the deliberately failing one, and ends with the summary line", async () => {
    const { code, stdout } = await cli(["check", "examples"]);
    expect(code).toBe(1);
    const lines = stdout.trimEnd().split("\n");
    expect(lines.filter((line) => line.startsWith("PASS "))).toHaveLength(11);
    expect(lines.filter((line) => line.startsWith("FAIL "))).toEqual([
      "FAIL examples/regressions/stale-expectation.turn.json",
    ]);
    expect(lines.at(-1)).toBe("11 passed, 1 failed");
  });

  it("exits 1 when a fixture fails, listing each unmet expectation", async () => {
    const root = workspace({
      "a/pass.turn.json": passing,
      "b/fail.turn.json": failing,
      "node_modules/x/ignored.turn.json": failing,
    });
    const { code, stdout } = await cli(["check", root]);
    expect(code).toBe(1);
    expect(stdout).toContain(`FAIL ${join(root, "b/fail.turn.json")}`);
    expect(stdout).toContain(
      `$.expect.names: final names differ: expected ["a","b"], actual ["a"]`,
    );
    expect(stdout).toContain(
      `$.expect.actions.lazy: stage 'lazy' did select, not abstain: expected "abstain", actual "select"`,
    );
    expect(stdout.trimEnd().split("\n").at(-1)).toBe("1 passed, 1 failed");
  });

  it("exits 2 when a fixture is invalid, even if others fail", async () => {
    const root = workspace({
      "bad.turn.json": { pipeline: [{ kind: "nope" }] },
      "fail.turn.json": failing,
    });
    const { code, stdout } = await cli(["check", root]);
    expect(code).toBe(2);
    expect(stdout).toMatch(
      /INVALID .*bad\.turn\.json\n {2}.*bad\.turn\.json:\d+:\d+: error: unknown stage kind "nope"/,
    );
    expect(stdout).toContain("1 invalid\n0 passed, 2 failed\n");
  });

  it("defaults to the working directory and refuses to pass with no fixtures", async () => {
    const empty = workspace({ "readme.txt": "" });
    expect(await cli(["check"], { cwd: empty })).toMatchObject({
      code: 2,
      stderr: `palette-inspector: no *.turn.json fixtures found under ${empty}\n`,
    });
    const root = workspace({ "x.turn.json": passing });
    expect((await cli(["check"], { cwd: root })).stdout).toContain("1 passed, 0 failed");
  });

  it("--json reports each fixture's status and mismatches", async () => {
    const root = workspace({ "fail.turn.json": failing });
    const json = JSON.parse((await cli(["check", root, "--json"])).stdout);
    expect(json).toMatchObject({ passed: 0, failed: 1, invalid: 0 });
    expect(json.fixtures[0].mismatches[0]).toEqual({
      key: "names",
      path: "$.expect.names",
      expected: ["a", "b"],
      actual: ["a"],
      message: "final names differ",
    });
  });

  it("--junit writes JUnit XML with one testcase per fixture", async () => {
    const root = workspace({
      "pass.turn.json": passing,
      "fail.turn.json": failing,
      "bad.turn.json": "{",
    });
    const out = join(root, "report.xml");
    await cli(["check", root, "--junit", out]);
    const xml = readFileSync(out, "utf8");
    expect(xml).toMatch(
      /^<\?xml version="1.0" encoding="UTF-8"\?>\n<testsuites name="palette-inspector" tests="3" failures="1" errors="1"/,
    );
    expect(xml.match(/<testcase /g)).toHaveLength(3);
    expect(xml).toMatch(
      /<failure message="final names differ" type="ExpectationFailed">.*expected \[&quot;a&quot;,&quot;b&quot;\]|<failure message="final names differ" type="ExpectationFailed">.*expected \["a","b"\]/,
    );
    expect(xml).toMatch(/<error message="invalid fixture" type="InvalidFixture">.*malformed JSON/);
    expect((xml.match(/<testcase[^>]*\/>/g) ?? []).length).toBe(1);
  });

  it("--junit replaces an earlier report that is a regular file", async () => {
    const root = workspace({ "pass.turn.json": passing, "report.xml": "old report" });
    const out = join(root, "report.xml");
    const { code } = await cli(["check", root, "--junit", out]);
    expect(code).toBe(0);
    expect(readFileSync(out, "utf8")).toMatch(/^<\?xml /);
  });

  it("--junit refuses a report name that is a symbolic link, exit 2, writing nothing through it", async () => {
    const root = workspace({ "pass.turn.json": passing, "victim.sh": "echo hello\n" });
    symlinkSync(join(root, "victim.sh"), join(root, "report.xml"));
    symlinkSync(join(root, "created-outside.xml"), join(root, "dangling.xml"));
    for (const name of ["report.xml", "dangling.xml"]) {
      const { code, stderr } = await cli(["check", root, "--junit", join(root, name)]);
      expect([code, stderr]).toEqual([
        2,
        `palette-inspector: cannot write the JUnit report ${join(root, name)}: ${name} is a symbolic link; nothing is written through a link\n`,
      ]);
    }
    expect(readFileSync(join(root, "victim.sh"), "utf8")).toBe("echo hello\n");
    expect(existsSync(join(root, "created-outside.xml"))).toBe(false);
  });

  it("--junit refuses a report name that is a FIFO or a folder at once, exit 2", async () => {
    const root = workspace({ "pass.turn.json": passing, "folder.xml/keep": "" });
    execFileSync("mkfifo", [join(root, "fifo.xml")]);
    const fifo = await cli(["check", root, "--junit", join(root, "fifo.xml")]);
    expect([fifo.code, fifo.stderr]).toEqual([
      2,
      `palette-inspector: cannot write the JUnit report ${join(root, "fifo.xml")}: fifo.xml is not a regular file\n`,
    ]);
    const folder = await cli(["check", root, "--junit", join(root, "folder.xml")]);
    expect([folder.code, folder.stderr]).toEqual([
      2,
      `palette-inspector: cannot write the JUnit report ${join(root, "folder.xml")}: folder.xml is a folder\n`,
    ]);
  });

  it("--junit output is well-formed XML in the shape CI systems read, even with hostile names", async () => {
    const root = workspace({
      "a&<b>.turn.json": { ...failing, expect: { names: ['\u0001<x>&"'] } },
      "pass.turn.json": passing,
    });
    const out = join(root, "report.xml");
    await cli(["check", root, "--junit", out]);
    const xml = readFileSync(out, "utf8");
    expect(XMLValidator.validate(xml)).toBe(true);
    const doc = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: "" }).parse(xml);
    const suite = doc.testsuites.testsuite;
    expect(suite).toMatchObject({
      name: "palette-inspector check",
      tests: "2",
      failures: "1",
      errors: "0",
      skipped: "0",
    });
    const cases = suite.testcase as {
      name: string;
      classname: string;
      time: string;
      failure?: { type: string; message: string };
    }[];
    expect(cases.map((c) => c.classname)).toEqual(["palette-inspector", "palette-inspector"]);
    expect(cases.every((c) => /^\d+\.\d{4}$/.test(c.time))).toBe(true);
    expect(cases.find((c) => c.failure)!.name).toBe(join(root, "a&<b>.turn.json"));
    expect(cases.find((c) => c.failure)!.failure).toMatchObject({
      type: "ExpectationFailed",
      message: "final names differ",
    });
  });
});
