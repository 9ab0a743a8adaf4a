/**
 * docs/formats.md "Turn fixture": every fixture error names the file, the line and
 * column, the JSON path, and what was expected; nothing else happens for an invalid fixture.
 */
import { describe, expect, it } from "vitest";
import { formatProblem, type Problem } from "../../../src/core/fixture/problems.js";
import type { CatalogReader } from "../../../src/core/fixture/load.js";
import { at, catalogFiles, FILE, load, positionOf, problemsOf } from "./helpers.js";

/** The one problem at `path`, checked for file, severity, start position and message. */
function expectOne(
  problems: readonly Problem[],
  want: {
    path: (string | number)[];
    at: string;
    message: RegExp;
    file?: string;
    severity?: "error" | "warning";
  },
): Problem {
  const matching = problems.filter((p) => JSON.stringify(p.path) === JSON.stringify(want.path));
  expect(
    matching,
    `problems at ${JSON.stringify(want.path)} among ${JSON.stringify(problems.map((p) => [p.path, p.message]))}`,
  ).toHaveLength(1);
  const problem = matching[0]!;
  expect(problem.file).toBe(want.file ?? FILE);
  expect(problem.severity).toBe(want.severity ?? "error");
  expect(at(problem)).toBe(want.at);
  expect(problem.message).toMatch(want.message);
  return problem;
}

describe("docs/formats.md fixture errors: malformed JSON", () => {
  it.each([
    [
      "a missing value before '}'",
      '{\n  "offered": ["a",\n}',
      "3:1",
      /malformed JSON: a value was expected/,
    ],
    [
      "a missing comma",
      '{\n  "offered": ["a"]\n  "turn": {}\n}',
      "3:3",
      /malformed JSON: comma expected/,
    ],
    ["text after the value", '{"offered": []} x', "1:17", /malformed JSON/],
    ["an empty file", "", "1:1", /malformed JSON: a value was expected/],
    ["a comment (JSON has none)", '{\n  // note\n  "offered": []\n}', "2:3", /malformed JSON/],
    ["a trailing comma", '{\n  "offered": [],\n}', "3:1", /malformed JSON/],
  ])(
    "malformed JSON (%s) is reported at its exact line:column with path $",
    async (_what, text, position, message) => {
      const problems = await problemsOf(text);
      expect(problems).toHaveLength(1);
      expectOne(problems, { path: [], at: position, message });
    },
  );

  it("a problem prints as file:line:column: severity: message (at $.path), one-based", async () => {
    const problems = await problemsOf('{\n  "ofered": []\n}');
    expect(formatProblem(problems[0]!)).toBe(
      `${FILE}:2:3: error: unknown key 'ofered'; did you mean 'offered'? (at $.ofered)`,
    );
  });

  it("the top level must be an object", async () => {
    expectOne(await problemsOf("[1]"), {
      path: [],
      at: "1:1",
      message: /expected object, found an array/,
    });
  });
});

describe("docs/formats.md fixture errors: unknown keys", () => {
  it.each([
    [
      "top level",
      '{\n  "ofered": ["a"]\n}',
      ["ofered"],
      "2:3",
      /unknown key 'ofered'; did you mean 'offered'\?/,
    ],
    [
      "turn",
      '{\n  "turn": {"qeury": "x"}\n}',
      ["turn", "qeury"],
      "2:12",
      /unknown key 'qeury'; did you mean 'query'\?/,
    ],
    [
      "a stage",
      '{\n  "pipeline": [\n    {"kind": "policy", "max_safty_level": "low"}\n  ]\n}',
      ["pipeline", 0, "max_safty_level"],
      "3:24",
      /did you mean 'max_safety_level'\?/,
    ],
    [
      "a catalogue entry",
      '{\n  "catalog": [{"name": "a", "cost": 1}]\n}',
      ["catalog", 0, "cost"],
      "2:29",
      /unknown key 'cost'/,
    ],
    [
      "a verdict",
      '{"pipeline": [{"kind": "intent", "verdict": {"label": "action", "matched_tool_keyword": []}}]}',
      ["pipeline", 0, "verdict", "matched_tool_keyword"],
      "1:65",
      /did you mean 'matched_tool_keywords'\?/,
    ],
    ["expect", '{"expect": {"name": []}}', ["expect", "name"], "1:13", /did you mean 'names'\?/],
  ])(
    "an unknown key in %s is an error at the key, with a suggestion for a typo",
    async (_where, text, path, position, message) => {
      expectOne(await problemsOf(text), { path, at: position, message });
    },
  );

  it("a typo in a scripted outcome (a union of shapes) is marked at the key, with the key it resembles", async () => {
    const text = '{"pipeline": [{"kind": "scripted", "name": "s", "outcome": {"selekt": ["a"]}}]}';
    expectOne(await problemsOf(text), {
      path: ["pipeline", 0, "outcome", "selekt"],
      at: "1:61",
      message: /^unknown key 'selekt'; did you mean 'select'\?$/,
    });
  });

  it("an unknown key that resembles nothing lists the keys that are expected", async () => {
    expectOne(await problemsOf('{"zzzzzzzz": 1}'), {
      path: ["zzzzzzzz"],
      at: "1:2",
      message: /expected one of description, catalog, offered, routing, turn, pipeline, expect/,
    });
  });

  it("keys starting with $ or x- are accepted everywhere", async () => {
    const loaded = await load({
      $schema: "./turn-fixture.schema.json",
      "x-owner": "team",
      catalog: [{ name: "a", "x-note": 1 }],
      turn: { "x-a": 1 },
      pipeline: [
        { kind: "lazy", $comment: "c" },
        { kind: "forced", resolver: { kind: "fixed", tool: "a", "x-why": "y" } },
      ],
      expect: { "x-todo": true },
    });
    expect(loaded.problems).toEqual([]);
    expect(loaded.ok).toBe(true);
  });

  it("the x- exception is case-sensitive: 'X-note' is an unknown key", async () => {
    expectOne(await problemsOf('{"X-note": 1}'), {
      path: ["X-note"],
      at: "1:2",
      message: /unknown key 'X-note'/,
    });
  });
});

describe("docs/formats.md fixture errors: wrong types and shapes", () => {
  it.each([
    [
      "offered not a list",
      '{\n  "offered": "a"\n}',
      ["offered"],
      "2:14",
      /expected array, found the string "a"/,
    ],
    [
      "budget a string",
      '{"pipeline": [{"kind": "policy", "budget_usd": "cheap"}]}',
      ["pipeline", 0, "budget_usd"],
      "1:48",
      /expected number or null, found the string "cheap"/,
    ],
    [
      "a boolean given as a string",
      '{"pipeline": [{"kind": "policy", "include_unknown_cost": "no"}]}',
      ["pipeline", 0, "include_unknown_cost"],
      "1:58",
      /expected boolean, found the string "no"/,
    ],
    [
      "a negative cost",
      '{"catalog": [{"name": "a", "cost_usd": -1}]}',
      ["catalog", 0, "cost_usd"],
      "1:40",
      /expected a number ≥ 0, found -1/,
    ],
    [
      "visibility off its enum",
      '{"catalog": [{"name": "a", "visibility": "public"}]}',
      ["catalog", 0, "visibility"],
      "1:42",
      /expected/,
    ],
    [
      "an empty tool name in the catalogue",
      '{"catalog": [{"name": ""}]}',
      ["catalog", 0, "name"],
      "1:23",
      /expected a non-empty string/,
    ],
    [
      "a verdict without a label",
      '{"pipeline": [{"kind": "intent", "verdict": {"matched_tool_keywords": []}}]}',
      ["pipeline", 0, "verdict"],
      "1:45",
      /missing required key 'label'/,
    ],
    [
      "a fixed resolver without a tool",
      '{"pipeline": [{"kind": "forced", "resolver": {"kind": "fixed"}}]}',
      ["pipeline", 0, "resolver"],
      "1:46",
      /missing required key 'tool'/,
    ],
    [
      "a scripted stage without a name",
      '{"pipeline": [{"kind": "scripted", "outcome": {"abstain": true}}]}',
      ["pipeline", 0],
      "1:15",
      /missing required key 'name'/,
    ],
    [
      "a scripted outcome of no known shape",
      '{"pipeline": [{"kind": "scripted", "name": "s", "outcome": {"select": [], "force": null}}]}',
      ["pipeline", 0, "outcome"],
      "1:60",
      /expected one of \{ "abstain": true \}/,
    ],
    [
      "expect.error other than ForcedToolUnavailable",
      '{"expect": {"error": "Other"}}',
      ["expect", "error"],
      "1:22",
      /expected "ForcedToolUnavailable" or null, found the string "Other"/,
    ],
    [
      "an expected action that is not an action",
      '{"pipeline": [{"kind": "lazy"}], "expect": {"actions": {"lazy": "skip"}}}',
      ["expect", "actions", "lazy"],
      "1:65",
      /expected/,
    ],
    [
      "routing without registered",
      '{"routing": {"entries": []}}',
      ["routing"],
      "1:13",
      /missing required key 'registered'/,
    ],
  ])(
    "a wrong type (%s) names the path, the position and what was expected",
    async (_what, text, path, position, message) => {
      expectOne(await problemsOf(text), { path, at: position, message });
    },
  );

  it("each offered item of the wrong type gets its own message saying a string or an object was expected", async () => {
    const problems = await problemsOf('{"offered": [1, "ok", null, ["x"]]}');
    expect(problems).toHaveLength(3);
    expectOne(problems, {
      path: ["offered", 0],
      at: "1:14",
      message: /^expected string or object, found number 1$/,
    });
    expectOne(problems, {
      path: ["offered", 2],
      at: "1:23",
      message: /^expected string or object, found null$/,
    });
    expectOne(problems, {
      path: ["offered", 3],
      at: "1:29",
      message: /^expected string or object, found an array$/,
    });
  });

  it("every schema problem of one fixture is reported, not just the first", async () => {
    const text =
      '{\n  "ofered": [],\n  "turn": {"query": 1},\n  "pipeline": [{"kind": "lazy", "allowed_names": "a"}]\n}';
    const problems = await problemsOf(text);
    expect(problems.map((p) => [JSON.stringify(p.path), at(p)])).toEqual(
      expect.arrayContaining([
        ['["ofered"]', "2:3"],
        ['["turn","query"]', "3:21"],
        ['["pipeline",0,"allowed_names"]', "4:50"],
      ]),
    );
    expect(problems).toHaveLength(3);
  });
});

describe("docs/formats.md fixture errors: the exact words", () => {
  const SHAPES =
    '{ "abstain": true }, { "select": [names] }, { "force": name or null }, { "raise": message }';
  it.each([
    [
      "a value off an enum lists the values",
      '{"catalog": [{"name": "a", "visibility": "public"}]}',
      ["catalog", 0, "visibility"],
      "1:42",
      'expected `agent`: shown to the model (default); `internal`: not., found the string "public"',
    ],
    [
      "an expected action off its list",
      '{"pipeline": [{"kind": "lazy"}], "expect": {"actions": {"lazy": "skip"}}}',
      ["expect", "actions", "lazy"],
      "1:65",
      'expected "abstain" or "select" or "force" or "error", found the string "skip"',
    ],
    [
      "a long string is cut at 40 characters",
      '{"offered": "LONG"}',
      ["offered"],
      "1:13",
      `expected array, found the string "${"x".repeat(40)}…"`,
    ],
    [
      "a string of exactly 40 characters is shown whole",
      `{"offered": "${"y".repeat(40)}"}`,
      ["offered"],
      "1:13",
      `expected array, found the string "${"y".repeat(40)}"`,
    ],
    [
      "a boolean",
      '{"turn": {"query": true}}',
      ["turn", "query"],
      "1:20",
      "expected string, found boolean true",
    ],
    ["the top level as an array", "[1]", [], "1:1", "expected object, found an array"],
    [
      "a catalogue of no accepted type",
      '{"catalog": 5}',
      ["catalog"],
      "1:13",
      "expected string or array or object, found number 5",
    ],
    [
      "an unknown key in a catalogue object, which resembles nothing",
      '{"catalog": {"tools": [], "extra": 1}}',
      ["catalog", "extra"],
      "1:27",
      "unknown key 'extra'; expected one of safety_levels, tools",
    ],
    [
      "an unknown key in a union, which resembles nothing",
      '{"pipeline": [{"kind": "scripted", "name": "s", "outcome": {"zzzzzz": 1}}]}',
      ["pipeline", 0, "outcome", "zzzzzz"],
      "1:61",
      `unknown key 'zzzzzz'; expected one of ${SHAPES}`,
    ],
    [
      "a scripted outcome of the wrong type",
      '{"pipeline": [{"kind": "scripted", "name": "s", "outcome": 3}]}',
      ["pipeline", 0, "outcome"],
      "1:60",
      `expected one of ${SHAPES}, found number 3`,
    ],
    [
      "a scripted outcome given as a list",
      '{"pipeline": [{"kind": "scripted", "name": "s", "outcome": ["x"]}]}',
      ["pipeline", 0, "outcome"],
      "1:60",
      `expected one of ${SHAPES}, found an array`,
    ],
    [
      "an expected action given as an object (a union of words has no keys to name)",
      '{"pipeline": [{"kind": "lazy"}], "expect": {"actions": {"lazy": {"a": 1}}}}',
      ["expect", "actions", "lazy"],
      "1:65",
      'expected string or "abstain" or "select" or "force" or "error", found an object',
    ],
    [
      "an expected error of the wrong type",
      '{"expect": {"error": 3}}',
      ["expect", "error"],
      "1:22",
      'expected string or "ForcedToolUnavailable" or null, found number 3',
    ],
    [
      "a keyword list given as a string, deep inside a resolver",
      '{"pipeline": [{"kind": "forced", "resolver": {"kind": "keyword", "rules": [{"tool": "a", "keywords": "x"}]}}]}',
      ["pipeline", 0, "resolver", "rules", 0, "keywords"],
      "1:102",
      'expected array, found the string "x"',
    ],
    [
      "an unknown resolver kind",
      '{"pipeline": [{"kind": "forced", "resolver": {"kind": "nope"}}]}',
      ["pipeline", 0, "resolver", "kind"],
      "1:55",
      'unknown resolver kind "nope"; expected one of fixed, state, keyword, raise',
    ],
    [
      "a resolver without a kind",
      '{"pipeline": [{"kind": "forced", "resolver": {"tool": "a"}}]}',
      ["pipeline", 0, "resolver"],
      "1:46",
      "missing 'kind'; expected one of fixed, state, keyword, raise",
    ],
    [
      "a stage without a kind",
      '{"pipeline": [{"name": "x"}]}',
      ["pipeline", 0],
      "1:15",
      "missing 'kind'; expected one of intent, lazy, allowlist, role, forced, policy, scripted",
    ],
    [
      "an empty scale",
      '{"catalog": {"safety_levels": [], "tools": []}}',
      ["catalog", "safety_levels"],
      "1:31",
      "expected at least 1 item",
    ],
    [
      "a repeated level, marked at the repeat",
      '{"catalog": {"safety_levels": ["a", "b", "a"], "tools": []}}',
      ["catalog", "safety_levels", 2],
      "1:42",
      'duplicate item "a"',
    ],
    [
      "a negative budget",
      '{"pipeline": [{"kind": "policy", "budget_usd": -0.5}]}',
      ["pipeline", 0, "budget_usd"],
      "1:48",
      "expected a number ≥ 0, found -0.5",
    ],
    [
      "a stage with no name where one is required",
      '{"pipeline": [{"kind": "scripted", "outcome": {"abstain": true}}]}',
      ["pipeline", 0],
      "1:15",
      "missing required key 'name'",
    ],
    [
      "an empty stage name",
      '{"pipeline": [{"kind": "lazy", "name": ""}]}',
      ["pipeline", 0, "name"],
      "1:40",
      "expected a non-empty string",
    ],
  ])("%s", async (_what, text, path, position, message) => {
    const problems = await problemsOf(text.replace("LONG", "x".repeat(50)));
    expect(problems).toHaveLength(1);
    expect(expectOne(problems, { path, at: position, message: /./ }).message).toBe(message);
  });

  it("a typo's fix replaces the key with the key it resembles; a key that resembles nothing has no fix", async () => {
    const [typo] = await problemsOf('{"ofered": []}');
    expect([typo!.fix, typo!.range.end.character - typo!.range.start.character]).toEqual([
      { kind: "replace", with: "offered" },
      8,
    ]);
    const [union] = await problemsOf(
      '{"pipeline": [{"kind": "scripted", "name": "s", "outcome": {"selekt": []}}]}',
    );
    expect(union!.fix).toEqual({ kind: "replace", with: "select" });
    const [none] = await problemsOf('{"zzzzzzzz": 1}');
    expect(none!.fix).toBeUndefined();
    const [unionNone] = await problemsOf(
      '{"pipeline": [{"kind": "scripted", "name": "s", "outcome": {"zzzzzz": []}}]}',
    );
    expect(unionNone!.fix).toBeUndefined();
  });

  it("an unknown key with / or ~ in a union is still marked at that key", async () => {
    const text = '{"pipeline": [{"kind": "scripted", "name": "s", "outcome": {"a/b~c": 1}}]}';
    const problems = await problemsOf(text);
    expect(problems.map((p) => [p.path, at(p)])).toEqual([
      [["pipeline", 0, "outcome", "a/b~c"], positionOf(text, '"a/b~c"')],
    ]);
  });

  it("$ and x- keys beside an unknown key in a union are not named", async () => {
    const problems = await problemsOf(
      '{"pipeline": [{"kind": "scripted", "name": "s", "outcome": {"$c": 1, "x-y": 2, "raise": "m", "zzzzzz": 3}}]}',
    );
    expect(problems.map((p) => p.path)).toEqual([["pipeline", 0, "outcome", "zzzzzz"]]);
  });
});

describe("docs/formats.md fixture errors: stage kinds and names", () => {
  it("an unknown stage kind that resembles none is an error at the kind, listing the kinds expected", async () => {
    const text = '{\n  "pipeline": [\n    {"kind": "filter"}\n  ]\n}';
    const problem = expectOne(await problemsOf(text), {
      path: ["pipeline", 0, "kind"],
      at: "3:14",
      message:
        /^unknown stage kind "filter"; expected one of intent, lazy, allowlist, role, forced, policy, scripted$/,
    });
    expect(problem.fix).toBeUndefined();
  });

  it("a misspelt stage kind says which kind it resembles, with a fix that puts that kind in place", async () => {
    const problem = expectOne(await problemsOf('{"pipeline": [{"kind": "polcy"}]}'), {
      path: ["pipeline", 0, "kind"],
      at: "1:24",
      message: /^unknown stage kind "polcy"; did you mean 'policy'\?$/,
    });
    expect(problem.fix).toEqual({ kind: "replace", with: "policy" });
  });

  it("a misspelt resolver kind says which kind it resembles, with a fix", async () => {
    const problem = expectOne(
      await problemsOf(
        '{"pipeline": [{"kind": "forced", "resolver": {"kind": "fixd", "tool": "a"}}]}',
      ),
      {
        path: ["pipeline", 0, "resolver", "kind"],
        at: "1:55",
        message: /^unknown resolver kind "fixd"; did you mean 'fixed'\?$/,
      },
    );
    expect(problem.fix).toEqual({ kind: "replace", with: "fixed" });
  });

  it("a stage without a kind is an error saying a kind is expected", async () => {
    expectOne(await problemsOf('{"pipeline": [{"name": "x"}]}'), {
      path: ["pipeline", 0],
      at: "1:15",
      message: /missing 'kind'; expected one of intent/,
    });
  });

  it("an unknown forced resolver kind is an error listing the resolver kinds", async () => {
    expectOne(
      await problemsOf('{"pipeline": [{"kind": "forced", "resolver": {"kind": "magic"}}]}'),
      {
        path: ["pipeline", 0, "resolver", "kind"],
        at: "1:55",
        message: /unknown resolver kind "magic"; expected one of fixed, state, keyword, raise/,
      },
    );
  });

  it("§4 duplicate stage names: two stages of one kind without names clash on the default name (error at the second's kind)", async () => {
    const text = '{\n  "pipeline": [\n    {"kind": "lazy"},\n    {"kind": "lazy"}\n  ]\n}';
    expectOne(await problemsOf(text), {
      path: ["pipeline", 1, "kind"],
      at: "4:14",
      message: /duplicate stage name 'lazy' \(also stage 1\); give one a distinct 'name'/,
    });
  });

  it("§4 duplicate stage names: an explicit name clashing with another stage's is an error at the name", async () => {
    const text =
      '{\n  "pipeline": [\n    {"kind": "role", "name": "r"},\n    {"kind": "policy", "name": "r"}\n  ]\n}';
    expectOne(await problemsOf(text), {
      path: ["pipeline", 1, "name"],
      at: "4:32",
      message: /duplicate stage name 'r'/,
    });
  });

  it("§4 an explicit name equal to another stage's default name clashes too", async () => {
    const text = '{"pipeline": [{"kind": "lazy"}, {"kind": "policy", "name": "lazy"}]}';
    expectOne(await problemsOf(text), {
      path: ["pipeline", 1, "name"],
      at: "1:60",
      message: /duplicate stage name 'lazy'/,
    });
  });

  it("expect.actions naming a stage that is not in the pipeline is an error at that key", async () => {
    expectOne(await problemsOf('{"pipeline": [], "expect": {"actions": {"nope": "select"}}}'), {
      path: ["expect", "actions", "nope"],
      at: "1:41",
      message: /no stage named 'nope'/,
    });
  });

  it("a role stage with both role_tools and resolver is an error", async () => {
    expectOne(
      await problemsOf(
        '{"pipeline": [{"kind": "role", "role_tools": {}, "resolver": {"kind": "raise", "message": "x"}}]}',
      ),
      {
        path: ["pipeline", 0, "resolver"],
        at: "1:50",
        message: /either 'role_tools' or 'resolver', not both/,
      },
    );
  });

  it("a forced-choice stamp in state that is not a string or null is an error", async () => {
    expectOne(
      await problemsOf(
        '{"turn": {"state": {"forced_tool_choice": 3}}, "pipeline": [{"kind": "forced"}]}',
      ),
      {
        path: ["turn", "state", "forced_tool_choice"],
        at: "1:43",
        message: /a forced-choice stamp must be a tool name or null, found number/,
      },
    );
  });
});

describe("§2 safety levels not on the scale", () => {
  it("§2 an inline catalogue entry whose level is not on the default scale", async () => {
    const text = '{\n  "catalog": [{"name": "a", "safety_level": "extreme"}]\n}';
    expectOne(await problemsOf(text), {
      path: ["catalog", 0, "safety_level"],
      at: positionOf(text, '"extreme"'),
      message: /safety level 'extreme' is not on the scale \(none, low, medium, high, critical\)/,
    });
  });

  it("§2 an inline catalogue with its own scale rejects a default-scale level", async () => {
    const text =
      '{\n  "catalog": {"safety_levels": ["green", "red"],\n    "tools": [{"name": "a", "safety_level": "high"}]}\n}';
    expectOne(await problemsOf(text), {
      path: ["catalog", "tools", 0, "safety_level"],
      at: "3:45",
      message: /'high' is not on the scale \(green, red\)/,
    });
  });

  it("§2 a policy max_safety_level not on the catalogue's scale", async () => {
    const text =
      '{\n  "catalog": {"safety_levels": ["green", "red"], "tools": []},\n  "pipeline": [{"kind": "policy", "max_safety_level": "medium"}]\n}';
    expectOne(await problemsOf(text), {
      path: ["pipeline", 0, "max_safety_level"],
      at: "3:55",
      message: /safety level 'medium' is not on the scale \(green, red\)/,
    });
  });

  it("§2 a policy max_safety_level not on the default scale when the fixture has no catalogue", async () => {
    const text = '{"pipeline": [{"kind": "policy", "max_safety_level": "extreme"}]}';
    expectOne(await problemsOf(text), {
      path: ["pipeline", 0, "max_safety_level"],
      at: "1:54",
      message: /'extreme' is not on the scale/,
    });
  });

  it("§2 a level in a catalogue file is reported in that file, at its own line and column", async () => {
    const reader = catalogFiles({
      "lvl.catalog.json": '{\n  "tools": [{"name": "a", "safety_level": "ultra"}]\n}',
    });
    const problems = await problemsOf('{"catalog": "lvl.catalog.json"}', reader);
    expectOne(problems, {
      path: ["tools", 0, "safety_level"],
      at: "2:43",
      message: /'ultra' is not on the scale/,
      file: "lvl.catalog.json",
    });
  });

  it("§2 catalogue names are unique: a duplicate is an error at the second name", async () => {
    expectOne(await problemsOf('{"catalog": [{"name": "a"}, {"name": "a"}]}'), {
      path: ["catalog", 1, "name"],
      at: "1:38",
      message: /duplicate tool name 'a' in the catalogue/,
    });
  });

  it("§2 a custom scale must be non-empty and have no repeated level", async () => {
    expectOne(await problemsOf('{"catalog": {"safety_levels": [], "tools": []}}'), {
      path: ["catalog", "safety_levels"],
      at: "1:31",
      message: /at least 1/,
    });
    expectOne(await problemsOf('{"catalog": {"safety_levels": ["a", "a"], "tools": []}}'), {
      path: ["catalog", "safety_levels", 1],
      at: "1:37",
      message: /duplicate item "a"/,
    });
  });
});

describe("docs/formats.md scripted stage: a selected name found nowhere", () => {
  it("a scripted select naming a tool neither offered nor catalogued is an error at that name", async () => {
    const text =
      '{\n  "offered": ["a"],\n  "pipeline": [{"kind": "scripted", "name": "s", "outcome": {"select": ["a", "ghost"]}}]\n}';
    expectOne(await problemsOf(text), {
      path: ["pipeline", 0, "outcome", "select", 1],
      at: positionOf(text, '"ghost"'),
      message: /selects 'ghost', which is neither offered nor in the catalogue/,
    });
  });

  it("a scripted select naming a catalogued (not offered) tool is valid", async () => {
    const loaded = await load({
      catalog: [{ name: "c" }],
      offered: ["a"],
      pipeline: [{ kind: "scripted", name: "s", outcome: { select: ["c"] } }],
    });
    expect(loaded.ok).toBe(true);
  });
});

describe("docs/formats.md catalogue references", () => {
  it("a catalogue reader that rejects is an error at the fixture's catalog value, with the reader's sentence", async () => {
    const text = '{\n  "catalog": "../../.ssh/id_rsa"\n}';
    const reader: CatalogReader = async (ref) => {
      throw new Error(
        `catalogue '${ref}' is outside the workspace; a fixture may only read files inside it`,
      );
    };
    expectOne(await problemsOf(text, reader), {
      path: ["catalog"],
      at: "2:14",
      message: /is outside the workspace/,
    });
  });

  it("a missing catalogue file is an error at the catalog value", async () => {
    expectOne(await problemsOf('{"catalog": "./missing.catalog.json"}', catalogFiles({})), {
      path: ["catalog"],
      at: "1:13",
      message: /no such file/,
    });
  });

  it("a malformed catalogue file is reported in the catalogue file", async () => {
    const problems = await problemsOf(
      '{"catalog": "bad.catalog.json"}',
      catalogFiles({ "bad.catalog.json": '[\n  {"name": "a",}\n]' }),
    );
    expectOne(problems, {
      path: [],
      at: "2:16",
      message: /malformed JSON/,
      file: "bad.catalog.json",
    });
  });

  it("a catalogue file with an unknown key is reported in the catalogue file with a suggestion", async () => {
    const problems = await problemsOf(
      '{"catalog": "c.catalog.json"}',
      catalogFiles({ "c.catalog.json": '[{"name": "a", "sumary": "x"}]' }),
    );
    expectOne(problems, {
      path: [0, "sumary"],
      at: "1:16",
      message: /did you mean 'summary'\?/,
      file: "c.catalog.json",
    });
  });

  it("a catalogue file is read through the reader with the fixture's file name", async () => {
    const calls: [string, string][] = [];
    const reader: CatalogReader = async (ref, fixtureFile) => {
      calls.push([ref, fixtureFile]);
      return {
        file: "/ws/tools.catalog.json",
        text: '{"safety_levels": ["lo", "hi"], "tools": [{"name": "a", "safety_level": "hi"}]}',
      };
    };
    const loaded = await load({ catalog: "./tools.catalog.json" }, reader);
    expect(calls).toEqual([["./tools.catalog.json", FILE]]);
    expect(loaded.ok && loaded.fixture.catalogFile).toBe("/ws/tools.catalog.json");
    expect(loaded.ok && loaded.fixture.catalog.rank("hi")).toBe(1);
  });
});

describe("docs/formats.md duplicate keys, BOM, offered + routing", () => {
  it("a duplicate JSON key is an error at the second key (JSON would silently keep the last)", async () => {
    const text = '{\n  "offered": ["a"],\n  "offered": ["b"]\n}';
    expectOne(await problemsOf(text), {
      path: ["offered"],
      at: "3:3",
      message: /duplicate key 'offered'/,
    });
  });

  it("a duplicate key nested in a stage is reported with its full path", async () => {
    const text = '{"pipeline": [{"kind": "lazy", "allowed_names": [], "allowed_names": ["a"]}]}';
    expectOne(await problemsOf(text), {
      path: ["pipeline", 0, "allowed_names"],
      at: "1:53",
      message: /duplicate key 'allowed_names'/,
    });
  });

  it("a UTF-8 BOM is accepted", async () => {
    const loaded = await load(
      '\ufeff{"offered": ["a"], "pipeline": [{"kind": "lazy", "allowed_names": ["a"]}]}',
    );
    expect(loaded.ok).toBe(true);
    expect(loaded.problems).toEqual([]);
  });

  it("a UTF-8 BOM does not shift the columns of the problems on the first line", async () => {
    expectOne(await problemsOf('\ufeff{"ofered": []}'), {
      path: ["ofered"],
      at: "1:2",
      message: /did you mean 'offered'/,
    });
  });

  it("a UTF-8 BOM in a catalogue file is accepted", async () => {
    const loaded = await load(
      { catalog: "c.catalog.json" },
      catalogFiles({ "c.catalog.json": '\ufeff[{"name": "a"}]' }),
    );
    expect(loaded.ok).toBe(true);
  });

  it("§5 'offered' and 'routing' together is an error at the routing key", async () => {
    const text = '{\n  "offered": ["a"],\n  "routing": {"registered": ["a"]}\n}';
    expectOne(await problemsOf(text), {
      path: ["routing"],
      at: "3:3",
      message: /either 'offered' or 'routing'/,
    });
  });

  it("CRLF line endings give the same line numbers", async () => {
    expectOne(await problemsOf('{\r\n  "turn": {},\r\n  "ofered": []\r\n}'), {
      path: ["ofered"],
      at: "3:3",
      message: /unknown key/,
    });
  });
});

describe("docs/formats.md every error says what was expected", () => {
  it("every error message of a broad invalid fixture is a sentence naming what was expected or what is wrong", async () => {
    const text = JSON.stringify({
      ofered: [],
      offered: [1],
      turn: { state: [] },
      pipeline: [
        { kind: "nope" },
        { kind: "lazy", allowed_names: [3] },
        { kind: "policy", budget_usd: -1 },
      ],
    });
    const problems = await problemsOf(text);
    expect(problems.length).toBeGreaterThanOrEqual(5);
    for (const problem of problems) {
      expect(problem.file).toBe(FILE);
      expect(problem.message).toMatch(
        /expected|did you mean|unknown|missing|duplicate|not on|neither|either/,
      );
      expect(problem.message).not.toMatch(/expected ,|expected $|undefined/);
    }
  });
});

describe("docs/formats.md nothing runs for an invalid fixture", () => {
  it("a schema error yields no fixture to run, though the catalogue file is read for the other checks", async () => {
    let reads = 0;
    const reader: CatalogReader = async () => {
      reads++;
      return { file: "c.catalog.json", text: "[]" };
    };
    const loaded = await load({ catalog: "c.catalog.json", ofered: [] }, reader);
    expect(loaded.ok).toBe(false);
    expect(reads).toBe(1);
    expect("fixture" in loaded).toBe(false);
  });

  it("a semantic error (after a valid schema) yields no fixture to run, warnings included in the problems", async () => {
    const loaded = await load({
      offered: ["a"],
      pipeline: [{ kind: "lazy", allowed_names: ["ghost"] }, { kind: "lazy" }],
    });
    expect(loaded.ok).toBe(false);
    expect("fixture" in loaded).toBe(false);
    expect(loaded.problems.map((p) => p.severity).sort()).toEqual(["error", "warning"]);
  });

  it("a catalogue error yields no fixture to run", async () => {
    const loaded = await load({
      catalog: [{ name: "a", safety_level: "ultra" }],
      pipeline: [{ kind: "forced", resolver: { kind: "raise", message: "x" } }],
    });
    expect(loaded.ok).toBe(false);
    expect("fixture" in loaded).toBe(false);
  });
});

describe("docs/formats.md every mistake at once", () => {
  const messages = (problems: readonly Problem[]) => problems.map((p) => p.message);

  it("a key typo and two unknown tools are reported together, not one round after the other", async () => {
    const text = JSON.stringify({
      offered: ["search"],
      pipline: [],
      pipeline: [{ kind: "allowlist", always_include: ["ghost", "phantom"], enabeld: false }],
    });
    expect(messages(await problemsOf(text))).toEqual([
      "unknown key 'pipline'; did you mean 'pipeline'?",
      "unknown key 'enabeld'; did you mean 'enabled'?",
      "'ghost' is neither offered nor in the catalogue",
      "'phantom' is neither offered nor in the catalogue",
    ]);
  });

  it("a duplicate key does not hide the checks after the schema", async () => {
    const text =
      '{"offered": [], "offered": ["alpha"], "pipeline": [{"kind": "lazy", "allowed_names": ["zulu_tool"]}]}';
    expect(messages(await problemsOf(text))).toEqual([
      "duplicate key 'offered' (JSON keeps only the last)",
      "'zulu_tool' is neither offered nor in the catalogue",
    ]);
  });

  it("a stage the schema refuses is not checked further, and the stages beside it are", async () => {
    const text = JSON.stringify({
      offered: ["a"],
      pipeline: [
        { kind: "lazy", allowed_names: "x", enabled: "yes" },
        { kind: "allowlist", always_include: ["b"] },
      ],
    });
    const problems = await problemsOf(text);
    expect(problems.map((p) => JSON.stringify(p.path)).sort()).toEqual([
      '["pipeline",0,"allowed_names"]',
      '["pipeline",0,"enabled"]',
      '["pipeline",1,"always_include",0]',
    ]);
  });

  it("a refused tool list or catalogue says nothing of tool names, which would all look unknown", async () => {
    for (const broken of [
      { offered: "a" },
      { routing: { registered: "a" } },
      { catalog: [{ name: "a", cost_usd: "free" }] },
      { catalog: { tools: [], safety_levels: [] } },
    ]) {
      const text = JSON.stringify({
        ...broken,
        pipeline: [{ kind: "lazy", allowed_names: ["a"] }],
      });
      const problems = await problemsOf(text);
      expect(messages(problems).join("\n"), JSON.stringify(broken)).not.toMatch(/neither offered/);
      expect(problems.length, JSON.stringify(broken)).toBeGreaterThan(0);
    }
  });

  it("a catalogue file's problems come with the fixture's schema errors, and its tools are then not judged", async () => {
    const problems = await problemsOf(
      JSON.stringify({
        catalog: "c.catalog.json",
        pipline: [],
        pipeline: [{ kind: "lazy", allowed_names: ["a"] }],
      }),
      catalogFiles({ "c.catalog.json": '[{"name": "a", "sumary": "x"}]' }),
    );
    expect(problems.map((p) => [p.file, p.message])).toEqual([
      [FILE, "unknown key 'pipline'; did you mean 'pipeline'?"],
      ["c.catalog.json", "unknown key 'sumary'; did you mean 'summary'?"],
    ]);
  });

  it("a catalogue file that cannot be read is reported with the fixture's other problems", async () => {
    const problems = await problemsOf(
      JSON.stringify({
        catalog: "missing.catalog.json",
        pipeline: [{ kind: "lazy" }, { kind: "lazy" }],
      }),
      catalogFiles({}),
    );
    expect(messages(problems)).toEqual([
      "cannot read catalogue 'missing.catalog.json': no such file",
      "duplicate stage name 'lazy' (also stage 1); give one a distinct 'name'",
    ]);
  });

  it("a refused stage's readable name still counts for expect and for duplicates", async () => {
    const text = JSON.stringify({
      pipeline: [
        { kind: "policy", name: "ceiling", budget_usd: -1 },
        { kind: "lazy", name: "ceiling" },
      ],
      expect: { actions: { ceiling: "select", nowhere: "select" } },
    });
    expect(messages(await problemsOf(text))).toEqual([
      "expected a number ≥ 0, found -1",
      "duplicate stage name 'ceiling' (also stage 1); give one a distinct 'name'",
      "no stage named 'nowhere' in the pipeline",
    ]);
  });

  it("a refused stage whose name cannot be read leaves expect's stage names unjudged", async () => {
    for (const stage of [
      { kind: "policy", name: 3 },
      { kind: "plicy" },
      { kind: "scripted", outcome: {} },
    ]) {
      const text = JSON.stringify({
        pipeline: [stage],
        expect: { actions: { ceiling: "select" } },
      });
      const problems = await problemsOf(text);
      expect(messages(problems).join("\n"), JSON.stringify(stage)).not.toMatch(/no stage named/);
      expect(problems.length).toBeGreaterThan(0);
    }
  });

  it("a refused turn or expect is not read by the checks after the schema", async () => {
    const text = JSON.stringify({
      routing: { registered: ["a"] },
      turn: { role: "analyst", qurey: "x", state: 3 },
      pipeline: [],
      expect: { actions: { nowhere: "selct" } },
    });
    expect(messages(await problemsOf(text))).toEqual([
      "unknown key 'qurey'; did you mean 'query'?",
      "expected object, found number 3",
      expect.stringMatching(/^expected /),
    ]);
  });
});
