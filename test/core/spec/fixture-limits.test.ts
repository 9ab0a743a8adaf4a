/**
 * At the loader: every hostile input is a
 * problem with its file, line and column, never a crash or a silently wrong value.
 */
import { readFileSync } from "node:fs";
import { Ajv } from "ajv";
import { describe, expect, it } from "vitest";
import { formatProblem } from "../../../src/core/fixture/problems.js";
import { MAX_SCHEMA_ISSUES } from "../../../src/core/fixture/validate.js";
import { MAX_JSON_DEPTH } from "../../../src/core/json/syntax.js";
import { formatJsonPath } from "../../../src/core/json/positions.js";
import { at, catalogFiles, FILE, load, problemsOf, run } from "./helpers.js";

/** A tool object nested `depth` objects deep, as text. */
const nestedTool = (depth: number) =>
  '{"name": "t", "schema": ' + '{"x": '.repeat(depth) + "{}" + "}".repeat(depth) + "}";

describe("deep nesting is a problem at its line, not a crash", () => {
  it("deep nesting: 6,000 unclosed brackets in a fixture are refused at the bracket past the limit", async () => {
    const text = "{\n" + '"offered": ' + "[".repeat(6000);
    const problems = await problemsOf(text);
    expect(problems).toHaveLength(1);
    expect(at(problems[0]!)).toBe(`2:${12 + MAX_JSON_DEPTH - 1}`);
    expect(problems[0]!.message).toBe(
      `nested deeper than ${MAX_JSON_DEPTH} levels; the limit is ${MAX_JSON_DEPTH}`,
    );
  });

  it("deep nesting: 6,000 unclosed brackets in the catalogue a fixture names are refused in the catalogue", async () => {
    const problems = await problemsOf(
      { catalog: "deep.catalog.json" },
      catalogFiles({ "deep.catalog.json": "[".repeat(6000) }),
    );
    expect(problems.map(formatProblem)).toEqual([
      `deep.catalog.json:1:${MAX_JSON_DEPTH + 1}: error: nested deeper than ${MAX_JSON_DEPTH} levels; the limit is ${MAX_JSON_DEPTH}`,
    ]);
  });

  it("deep nesting: a valid fixture whose offered tool object nests 4,500 deep is refused at its line", async () => {
    const text = `{\n  "offered": [\n    ${nestedTool(4500)}\n  ]\n}`;
    const problems = await problemsOf(text);
    expect(problems).toHaveLength(1);
    expect(problems[0]!.range.start.line).toBe(2);
    expect(problems[0]!.message).toMatch(/nested deeper than 64 levels/);
  });

  it("deep nesting: 100,000 levels of valid JSON are refused without recursion", async () => {
    const problems = await problemsOf(`{"offered": ${"[".repeat(100_000)}${"]".repeat(100_000)}}`);
    expect(problems.map(at)).toEqual([`1:${13 + MAX_JSON_DEPTH - 1}`]);
  });

  it("deep nesting: a tool object exactly at the limit (64 levels in all) still runs", async () => {
    const report = await run({ offered: [JSON.parse(nestedTool(MAX_JSON_DEPTH - 4))] });
    expect(report.offered).toEqual(["t"]);
  });
});

describe("values the schema cannot describe", () => {
  it.each([
    [
      "budget_usd",
      '{"offered": [], "pipeline": [{"kind": "policy", "budget_usd": 1e400}]}',
      ["pipeline", 0, "budget_usd"],
    ],
    ["cost_usd", '{"catalog": [{"name": "a", "cost_usd": -1e400}]}', ["catalog", 0, "cost_usd"]],
  ])(
    "numbers that overflow: %s of ±1e400 is 'out of range', not 'found number null'",
    async (_key, text, path) => {
      const problems = await problemsOf(text);
      expect(problems.map((p) => [p.path, p.message])).toEqual([
        [path, "number out of range (beyond ±1.8e308, the largest a double holds)"],
      ]);
      expect(problems[0]!.message).not.toMatch(/null/);
    },
  );

  it('"expect": {"error": null} is accepted by the loader and by the generated editor schema alike', async () => {
    const fixture = { offered: ["a"], expect: { error: null } };
    expect((await load(fixture)).ok).toBe(true);
    const ajv = new Ajv({ discriminator: true, strict: false });
    const schema = JSON.parse(readFileSync("media/schemas/turn-fixture.schema.json", "utf8"));
    const validate = ajv.compile({ ...schema, $schema: undefined });
    expect(validate(fixture)).toBe(true);
    expect(validate({ ...fixture, expect: { error: "Other" } })).toBe(false);
  });

  it("an unknown key inside a scripted outcome is named and marked at the key", async () => {
    const text =
      '{"offered": ["a"], "pipeline": [{"kind": "scripted", "name": "s",\n  "outcome": {"select": ["a"], "because": "x"}}]}';
    const problems = await problemsOf(text);
    expect(problems.map(formatProblem)).toEqual([
      `${FILE}:2:32: error: unknown key 'because'; expected one of { "abstain": true }, { "select": [names] }, { "force": name or null }, { "raise": message } (at $.pipeline[0].outcome.because)`,
    ]);
  });
});

describe("many schema errors", () => {
  it("8,000 bad catalogue entries are reported in moments: the first 1,000 errors, then how many more", async () => {
    const catalog = Array.from({ length: 8000 }, (_, i) => ({
      name: `t${i}`,
      visibility: 1,
      cost_usd: "x",
    }));
    const started = performance.now();
    const problems = await problemsOf({ catalog, pipeline: [] });
    expect(performance.now() - started).toBeLessThan(5000);
    expect(problems).toHaveLength(MAX_SCHEMA_ISSUES + 1);
    expect([problems[0]!.path, problems[0]!.message]).toEqual([
      ["catalog", 0, "cost_usd"],
      'expected number or null, found the string "x"',
    ]);
    expect(problems.at(-1)!.message).toBe(
      `… and ${2 * 8000 - MAX_SCHEMA_ISSUES} more schema errors (the first ${MAX_SCHEMA_ISSUES} are listed)`,
    );
  });

  it("200,000 bad catalogue entries are reported with the same first 1,000 errors, then how many more", async () => {
    const catalog = Array.from({ length: 200_000 }, (_, i) => ({
      name: `t${i}`,
      visibility: 1,
      cost_usd: "x",
    }));
    const started = performance.now();
    const problems = await problemsOf({ catalog, pipeline: [] });
    // One error list of a million that every union reads took minutes; item by item it is seconds.
    expect(performance.now() - started).toBeLessThan(45_000);
    expect(problems).toHaveLength(MAX_SCHEMA_ISSUES + 1);
    expect(problems.slice(0, MAX_SCHEMA_ISSUES).map((p) => formatJsonPath(p.path))).toEqual(
      Array.from({ length: MAX_SCHEMA_ISSUES }, (_, i) => `$.catalog[${i}].cost_usd`),
    );
    expect(problems.at(-1)!.message).toBe(
      `… and ${2 * 200_000 - MAX_SCHEMA_ISSUES} more schema errors (the first ${MAX_SCHEMA_ISSUES} are listed)`,
    );
  }, 90_000);

  /** The listing's last line: how many errors past the first MAX_SCHEMA_ISSUES. */
  const andMore = (n: number) =>
    `… and ${n - MAX_SCHEMA_ISSUES} more schema errors (the first ${MAX_SCHEMA_ISSUES} are listed)`;

  it("200,000 union summaries in array items: the ones on the longest paths are listed, though they come last, and every other is counted", async () => {
    const catalog = Array.from({ length: 200_000 }, (_, i) => ({ name: `t${i}`, visibility: 1 }));
    const problems = await problemsOf({ catalog, pipeline: [] });
    expect(problems).toHaveLength(MAX_SCHEMA_ISSUES + 1);
    // Longest path first: entry 100,000 is the first whose index has six digits.
    expect(problems.slice(0, MAX_SCHEMA_ISSUES).map((p) => formatJsonPath(p.path))).toEqual(
      Array.from({ length: MAX_SCHEMA_ISSUES }, (_, i) => `$.catalog[${100_000 + i}].visibility`),
    );
    expect(problems.at(-1)!.message).toBe(andMore(200_000));
  }, 90_000);

  it("200,000 items of a list of names or objects that are neither: one error each, counted to the last", async () => {
    const problems = await problemsOf({ offered: Array(200_000).fill(1), pipeline: [] });
    expect(problems.slice(0, 2).map((p) => `${formatJsonPath(p.path)}: ${p.message}`)).toEqual([
      "$.offered[100000]: expected string or object, found number 1",
      "$.offered[100001]: expected string or object, found number 1",
    ]);
    expect(problems).toHaveLength(MAX_SCHEMA_ISSUES + 1);
    expect(problems.at(-1)!.message).toBe(andMore(200_000));
  }, 90_000);

  it("200,000 bad names in a list inside a stage: the errors left out of the stage's own list are still counted", async () => {
    const pipeline = [{ kind: "lazy", allowed_names: Array(200_000).fill(1) }];
    const problems = await problemsOf({ pipeline });
    expect(problems).toHaveLength(MAX_SCHEMA_ISSUES + 1);
    expect(problems.slice(0, MAX_SCHEMA_ISSUES).map((p) => formatJsonPath(p.path))).toEqual(
      Array.from({ length: MAX_SCHEMA_ISSUES }, (_, i) => `$.pipeline[0].allowed_names[${i}]`),
    );
    expect(problems[0]!.message).toBe("expected string, found number 1");
    expect(problems.at(-1)!.message).toBe(andMore(200_000));
  }, 90_000);

  it("past the first 1,000 errors, an item with one mistake more than the items before it counts one more", async () => {
    const catalog: Record<string, unknown>[] = Array.from({ length: 200_000 }, (_, i) => ({
      name: `t${i}`,
      visibility: 1,
      ...(i < 1500 ? { cost_usd: "x" } : {}),
    }));
    catalog.at(-1)!.safety_level = 5;
    const problems = await problemsOf({ catalog, pipeline: [] });
    expect(problems.at(-1)!.message).toBe(andMore(1500 + 200_000 + 1));
  }, 90_000);

  it("past the first 1,000 errors, an outcome with two unknown keys where the others have one counts two", async () => {
    const pipeline = Array.from({ length: 200_000 }, (_, i) => ({
      kind: "scripted",
      name: `s${i}`,
      outcome: { select: ["a"], because: 1, ...(i === 199_999 ? { why: 2 } : {}) },
    }));
    const problems = await problemsOf({ offered: ["a"], pipeline });
    expect(problems[0]!.message).toMatch(/^unknown key 'because'; /);
    expect(problems.find((p) => p.path.length === 0)!.message).toBe(andMore(200_001));
  }, 90_000);

  it("errors inside array items keep the order of one pass over the whole value: plain errors first, then union summaries, longest path first", async () => {
    const catalog = Array.from({ length: 14 }, (_, i) => ({
      name: `t${i}`,
      visibility: i % 3 === 0 ? 1 : "agent",
      cost_usd: i % 4 === 0 ? "x" : 1,
    }));
    const pipeline = [
      {
        kind: "forced",
        resolver: {
          kind: "keyword",
          rules: [
            { keywords: ["a"], tool: "" },
            { keywords: 1, tool: "t" },
          ],
        },
      },
      { kind: "scripted", name: "s", outcome: { select: ["t0"], because: 1 } },
    ];
    const problems = await problemsOf({ catalog, pipeline });
    const visibility =
      "expected `agent`: shown to the model (default); `internal`: not., found number 1";
    expect(problems.map((p) => `${formatJsonPath(p.path)}: ${p.message}`)).toEqual([
      "$.pipeline[0].resolver.rules[0].tool: expected a non-empty string",
      "$.pipeline[0].resolver.rules[1].keywords: expected array, found number 1",
      `$.pipeline[1].outcome.because: unknown key 'because'; expected one of { "abstain": true }, { "select": [names] }, { "force": name or null }, { "raise": message }`,
      '$.catalog[0].cost_usd: expected number or null, found the string "x"',
      '$.catalog[4].cost_usd: expected number or null, found the string "x"',
      '$.catalog[8].cost_usd: expected number or null, found the string "x"',
      '$.catalog[12].cost_usd: expected number or null, found the string "x"',
      `$.catalog[12].visibility: ${visibility}`,
      `$.catalog[0].visibility: ${visibility}`,
      `$.catalog[3].visibility: ${visibility}`,
      `$.catalog[6].visibility: ${visibility}`,
      `$.catalog[9].visibility: ${visibility}`,
    ]);
  });
});
