import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cli, workspace } from "./helpers.js";
import { DROPPED_BEFORE_FORCE } from "../core/spec/helpers.js";

const catalog = [
  { name: "search", safety_level: "low" },
  { name: "sql", safety_level: "high" },
  { name: "final_answer" },
];

describe("palette-inspector run", () => {
  it("prints the waterfall as a table with reasons, final names and forced choice", async () => {
    const { code, stdout } = await cli(["run", "examples/weather-forecast.turn.json"]);
    expect(code).toBe(0);
    const lines = stdout.split("\n");
    expect(lines[0]).toMatch(/^examples\/weather-forecast\.turn\.json — Action turn/);
    expect(lines).toContain("offered 8 → final 2 · forced tool_choice: get_weather");
    expect(stdout).toMatch(
      /^1 +intent +select +8→3 +search, sql, delete_rows, send_email, … \+1 +action turn: keyword intersection$/m,
    );
    expect(stdout).toMatch(
      /^2 +forced +force +3→3 +⚑ get_weather +resolver forces 'get_weather'$/m,
    );
    expect(stdout).toContain("  role: dropped final_answer — not in the 'analyst' palette");
    expect(stdout).toContain("final (2): get_weather, final_answer");
    expect(stdout).not.toContain("\x1b[");
  });

  it("colours only when asked (a TTY without NO_COLOR)", async () => {
    const { stdout } = await cli(["run", "examples/failing-stage.turn.json"], { color: true });
    expect(stdout).toMatch(/\x1b\[31m2 +role +error \(degraded\)/);
  });

  it("--json prints exactly the docs/formats.md keys in snake_case", async () => {
    const { code, stdout } = await cli(["run", "examples/forced-reinstated.turn.json", "--json"]);
    expect(code).toBe(0);
    const json = JSON.parse(stdout);
    expect(Object.keys(json)).toEqual([
      "names",
      "tools",
      "forced_choice",
      "trace",
      "error",
      "manifest",
    ]);
    expect(json.forced_choice).toBe("calendar_lookup");
    expect(json.trace[1]).toMatchObject({
      stage: "role",
      action: "select",
      reinstated: ["calendar_lookup"],
      forced_choice: "calendar_lookup",
      degraded: false,
    });
    expect(json.manifest[0]).toEqual({
      name: "search",
      summary: "Search the web and return the top results with snippets.",
    });
  });

  it("--json adds the palette in capability mode", async () => {
    const { stdout } = await cli(["run", "examples/capability-routed.turn.json", "--json"]);
    expect(JSON.parse(stdout).palette).toEqual({
      outcome: "applied",
      names: ["final_answer", "get_weather"],
      forced: "get_weather",
      reason: "selection applied",
    });
  });

  it("exits 3 with the banner when ForcedToolUnavailable was not expected", async () => {
    const root = workspace({
      "t.turn.json": {
        catalog: catalog,
        pipeline: [
          { kind: "forced", resolver: { kind: "fixed", tool: "sql" } },
          { kind: "policy", max_safety_level: "low", protects_forced: false },
        ],
      },
    });
    const { code, stdout, stderr } = await cli(["run", join(root, "t.turn.json")]);
    expect(code).toBe(3);
    expect(stdout).toContain(
      "ForcedToolUnavailable: 'sql' is the forced choice but not in the final palette: it was dropped by 'policy', a hard filter (a stage that does not protect the forced choice).",
    );
    expect(stderr).toBe(
      `${join(root, "t.turn.json")}: the run failed: forced tool 'sql' is not among the final tools (the fixture does not expect ForcedToolUnavailable)\n`,
    );
  });

  it("says an expected failure that did not happen in a sentence, at the expectation", async () => {
    const root = workspace({
      "t.turn.json": { catalog, expect: { error: "ForcedToolUnavailable" } },
    });
    const { code, stderr } = await cli(["run", join(root, "t.turn.json")]);
    expect(code).toBe(1);
    expect(stderr).toBe(
      `${join(root, "t.turn.json")}: $.expect.error: expected the run to fail with ForcedToolUnavailable, but it succeeded\n`,
    );
  });

  it("says a forced tool that intent dropped before the force was set was not reinstated", async () => {
    const root = workspace({
      "t.turn.json": DROPPED_BEFORE_FORCE,
    });
    const { code, stdout } = await cli(["run", join(root, "t.turn.json")]);
    expect(code).toBe(3);
    expect(stdout).toContain(
      "ForcedToolUnavailable: 'sql' is the forced choice but not in the final palette: it was dropped by 'intent' before 'forced' set the force, so nothing reinstated it.",
    );
  });

  it("exits 0 when the fixture expects ForcedToolUnavailable", async () => {
    expect((await cli(["run", "examples/hard-filter-unavailable.turn.json"])).code).toBe(0);
  });

  it("exits 1 and names the expectation when the run decides otherwise", async () => {
    const root = workspace({
      "t.turn.json": {
        catalog,
        pipeline: [{ kind: "policy", max_safety_level: "low" }],
        expect: { names: ["search"] },
      },
    });
    const { code, stderr } = await cli(["run", join(root, "t.turn.json")]);
    expect(code).toBe(1);
    expect(stderr).toContain(
      '$.expect.names: final names differ: expected ["search"], actual ["search","final_answer"]',
    );
  });

  it("exits 2 for an invalid fixture, with file:line:column and JSON path, and runs nothing", async () => {
    const root = workspace({
      "t.turn.json":
        '{\n  "pipeline": [\n    { "kind": "policy", "max_safety_level": "extreme" }\n  ]\n}',
    });
    const { code, stdout, stderr } = await cli(["run", join(root, "t.turn.json")]);
    expect(code).toBe(2);
    expect(stdout).toBe("");
    expect(stderr).toBe(
      `${join(root, "t.turn.json")}:3:45: error: safety level 'extreme' is not on the scale (none, low, medium, high, critical) (at $.pipeline[0].max_safety_level)\n`,
    );
  });

  it("exits 2 for malformed JSON with its position", async () => {
    const root = workspace({ "t.turn.json": '{\n  "offered": ["a",]\n}' });
    const { code, stderr } = await cli(["run", join(root, "t.turn.json")]);
    expect(code).toBe(2);
    expect(stderr).toMatch(/t\.turn\.json:2:19: error: malformed JSON: a value was expected/);
  });

  it("refuses a catalogue outside the fixture's repository", async () => {
    const root = workspace({
      "repo/.git/HEAD": "ref: main",
      "repo/f/t.turn.json": { catalog: "../../secret.catalog.json" },
      "secret.catalog.json": catalog,
    });
    const { code, stderr } = await cli(["run", join(root, "repo/f/t.turn.json")]);
    expect(code).toBe(2);
    expect(stderr).toMatch(
      /catalogue file '\.\.\/\.\.\/secret\.catalog\.json' is outside the repository .*repo; a fixture may only read files inside it \(at \$\.catalog\)/,
    );
  });

  it("reads a catalogue inside the repository above the fixture's folder", async () => {
    const root = workspace({
      "repo/.git/HEAD": "ref: main",
      "repo/f/t.turn.json": {
        catalog: "../tools.catalog.json",
        expect: { names: ["search", "sql", "final_answer"] },
      },
      "repo/tools.catalog.json": catalog,
    });
    expect((await cli(["run", join(root, "repo/f/t.turn.json")])).code).toBe(0);
  });

  it("--version prints package.json's version", async () => {
    const { version } = JSON.parse(readFileSync("package.json", "utf8")) as { version: string };
    expect(await cli(["--version"])).toEqual({
      code: 0,
      stdout: `palette-inspector ${version}\n`,
      stderr: "",
    });
    expect((await cli(["-V"])).stdout).toBe(`palette-inspector ${version}\n`);
  });

  // `npm test` builds first; the bundle carries package.json's version, imported at build time.
  it.skipIf(!existsSync("dist/cli.js"))("the built CLI prints package.json's version", () => {
    const { version } = JSON.parse(readFileSync("package.json", "utf8")) as { version: string };
    const built = spawnSync(process.execPath, ["dist/cli.js", "--version"], { encoding: "utf8" });
    expect([built.status, built.stdout]).toEqual([0, `palette-inspector ${version}\n`]);
  });

  it("exits 2 with one line for a missing file, bad arguments or an unknown command", async () => {
    expect(await cli(["run", "nope.turn.json"])).toMatchObject({
      code: 2,
      stderr: "palette-inspector: cannot read nope.turn.json: no such file\n",
    });
    expect(await cli(["check", "nope"])).toMatchObject({
      code: 2,
      stderr: "palette-inspector: cannot read nope: no such file\n",
    });
    expect(await cli(["run"])).toMatchObject({
      code: 2,
      stderr: "palette-inspector: usage: palette-inspector run FIXTURE [--json]\n",
    });
    expect(await cli(["run", "a", "--jsn"])).toMatchObject({
      code: 2,
      stderr: "palette-inspector: unknown option --jsn\n",
    });
    expect((await cli(["frobnicate"])).code).toBe(2);
  });

  it("accepts a UTF-8 BOM", async () => {
    const root = workspace({
      "t.turn.json": "\uFEFF" + JSON.stringify({ offered: ["a"], expect: { names: ["a"] } }),
    });
    expect((await cli(["run", join(root, "t.turn.json")])).code).toBe(0);
  });

  it("escapes control characters in untrusted names so they cannot drive the terminal", async () => {
    const root = workspace({
      "t.turn.json": {
        offered: ["ok", "evil\u001b[2J"],
        pipeline: [{ kind: "lazy", allowed_names: ["ok"] }],
      },
    });
    const { stdout } = await cli(["run", join(root, "t.turn.json")]);
    expect(stdout).toContain("evil\\u001b[2J");
    expect(stdout).not.toContain("\u001b");
  });
});
