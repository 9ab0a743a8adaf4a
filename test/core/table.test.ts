import { describe, expect, it } from "vitest";
import type { FixtureJson } from "../../src/core/fixture/schema.js";
import { explainUnavailable } from "../../src/core/forced-unavailable.js";
import { sentenceText } from "../../src/core/lineage.js";
import { formatWaterfallTable } from "../../src/core/render/table.js";
import { safe, safeJson } from "../../src/core/words.js";
import type { RunReport } from "../../src/core/report.js";
import { DROPPED_BEFORE_FORCE, noCatalogFile, reportOf, run as runAs } from "./spec/helpers.js";

const run = (json: FixtureJson): Promise<RunReport> => runAs(json, noCatalogFile, "t.turn.json");

// Every way a stage can show: a pin, a reinstatement, a re-add, an error, a release by a hard
// filter, a degraded select and a disabled stage.
const everyRow: FixtureJson = {
  offered: ["alpha", "a_very_long_name", "beta", "ninechars", "delta"],
  pipeline: [
    { kind: "forced", resolver: { kind: "fixed", tool: "alpha" } },
    { kind: "lazy", allowed_names: ["beta"] },
    { kind: "allowlist", always_include: ["ninechars"] },
    { kind: "scripted", name: "boom", outcome: { raise: "bad" } },
    { kind: "scripted", name: "rel", outcome: { force: null }, protects_forced: false },
    {
      kind: "scripted",
      name: "slow",
      outcome: { select: ["beta", "alpha", "ninechars"] },
      degraded: true,
    },
    { kind: "policy", enabled: false },
  ],
};

describe("formatWaterfallTable", () => {
  it("prints one padded row per stage, the reasons, the final palette and the forced choice", async () => {
    const text = formatWaterfallTable(await run(everyRow), { color: false, listWidth: 9 });
    expect(text).toBe(
      [
        "t.turn.json",
        "offered 5 → final 3 · forced tool_choice: none",
        "",
        "#  stage      action             tools  dropped          added      reinstated  forced    detail",
        "1  forced     force              5→5                                            ⚑ alpha   resolver forces 'alpha'",
        "2  lazy       select             5→2    a_very_l…, … +2             alpha                 routed to 1 name",
        "3  allowlist  select             2→3                     ninechars                        re-added 1 mandated tool",
        "4  boom       error (degraded)   3→3                                                      bad",
        "5  rel        force [hard]       3→3                                            released",
        "6  slow       select (degraded)  3→3",
        "7  policy     disabled                                                                    policy stage not run",
        "",
        "why",
        "  lazy: reinstated (protected forced choice) alpha — not routed by procedural routing",
        "  lazy: dropped a_very_long_name — not routed by procedural routing",
        "  lazy: dropped ninechars — not routed by procedural routing",
        "  lazy: dropped delta — not routed by procedural routing",
        "  allowlist: added ninechars — mandated by the allowlist",
        "",
        "final (3): beta, alpha, ninechars",
        "forced tool_choice: none",
        "",
      ].join("\n"),
    );
  });

  it("colours the title and header bold, an error red, a degraded stage yellow, an abstain and a disabled stage dim", async () => {
    const lines = formatWaterfallTable(await run(everyRow), { color: true, listWidth: 9 }).split(
      "\n",
    );
    expect(lines[0]).toBe("\x1b[1mt.turn.json\x1b[0m");
    expect(lines[3]).toMatch(/^\x1b\[1m# {2}stage .* detail\x1b\[0m$/);
    expect(
      lines.slice(4, 11).map((line) => /^(?:\x1b\[([\d;]+)m)?\d/.exec(line)![1] ?? null),
    ).toEqual([null, null, null, "31", null, "33", "2"]);
    expect(lines[10]!.endsWith("policy stage not run\x1b[0m")).toBe(true);
    expect(lines[12]).toBe("\x1b[1mwhy\x1b[0m");
    expect(lines.slice(-4, -1)).toEqual([
      "",
      "\x1b[1mfinal (3):\x1b[0m beta, alpha, ninechars",
      "\x1b[1mforced tool_choice:\x1b[0m none",
    ]);
    const abstain = formatWaterfallTable(
      await run({ offered: ["a"], pipeline: [{ kind: "lazy", allowed_names: null }] }),
      { color: true },
    );
    expect(abstain).toContain("\n\x1b[2m1  lazy   abstain  1→1    ");
  });

  it("says a forced tool dropped before the force was set was not reinstated, in the one explanation's words", async () => {
    const report = await run(DROPPED_BEFORE_FORCE);
    const text = formatWaterfallTable(report, { color: false });
    const why = sentenceText(explainUnavailable(report)!.parts, (name) => `'${name}'`);
    expect(text.endsWith(`\nForcedToolUnavailable: ${why}\n`)).toBe(true);
    expect(why).toBe(
      "'sql' is the forced choice but not in the final palette: it was dropped by 'intent' before 'forced' set the force, so nothing reinstated it.",
    );
  });

  it("fits a list to 40 characters by default, names the description and a forced tool never offered", async () => {
    const offered = Array.from({ length: 12 }, (_, i) => `tool${i}`);
    const text = formatWaterfallTable(
      await run({
        description: "a turn",
        offered,
        pipeline: [
          { kind: "forced", resolver: { kind: "fixed", tool: "zz" } },
          { kind: "lazy", allowed_names: [] },
        ],
      }),
      { color: false },
    );
    const lines = text.split("\n");
    expect(lines.slice(0, 2)).toEqual([
      "t.turn.json — a turn",
      "offered 12 → final 0 · forced tool_choice: zz",
    ]);
    // Six names fill exactly 40 characters; the seventh does not fit.
    expect(lines[5]).toContain(" tool0, tool1, tool2, tool3, tool4, tool5, … +6 ");
    expect(lines).toContain("final (0): (none)");
    expect(lines.slice(-3)).toEqual([
      "",
      "ForcedToolUnavailable: 'zz' is the forced choice but not in the final palette: it was never offered to the pipeline.",
      "",
    ]);
    const red = formatWaterfallTable(
      await run({
        offered: ["a"],
        pipeline: [
          { kind: "forced", resolver: { kind: "fixed", tool: "a" } },
          { kind: "lazy", allowed_names: [], protects_forced: false },
        ],
      }),
      { color: true },
    );
    expect(red).toContain(
      "\n\x1b[1;31mForcedToolUnavailable: 'a' is the forced choice but not in the final palette: it was dropped by 'lazy', a hard filter (a stage that does not protect the forced choice).\x1b[0m\n",
    );
  });

  it("lists every name that fits, and stops before one that would pass the width", async () => {
    const report = await run({
      offered: ["abcdefg", "x", "y", "z"],
      pipeline: [{ kind: "lazy", allowed_names: ["z"] }],
    });
    const row = (listWidth?: number) =>
      formatWaterfallTable(report, { color: false, listWidth }).split("\n")[4];
    expect(row()).toMatch(/ 4→1 {4}abcdefg, x, y {2}/);
    expect(row(8)).toMatch(/ 4→1 {4}abcdefg, … \+2 {2}/);
  });

  it("shows no pin at a stage that forces the choice already in effect", async () => {
    const table = formatWaterfallTable(
      await run({
        offered: ["alpha", "b"],
        pipeline: [
          { kind: "forced", resolver: { kind: "fixed", tool: "alpha" } },
          { kind: "scripted", name: "again", outcome: { force: "alpha" } },
        ],
      }),
      { color: false },
    );
    const rows = table.split("\n").filter((line) => /^\d /.test(line));
    expect(rows[0]).toContain("⚑ alpha");
    expect(rows[1]).toBe("2  again   force   2→2");
  });

  it("shows the router first and the palette last in capability mode", async () => {
    const routed = formatWaterfallTable(
      await run({
        routing: { registered: ["a", "b"], entries: [{ content: "a" }] },
        pipeline: [{ kind: "lazy", allowed_names: null }],
      }),
      { color: false },
    ).split("\n");
    expect(routed.slice(3, 6)).toEqual([
      "#  stage   action   tools  dropped  added  reinstated  forced  detail",
      "0  router  routed   2→1                                        routed",
      "1  lazy    abstain  1→1                                        no procedural routing",
    ]);
    // No stage gave a reason: no "why" section.
    expect(routed.slice(6)).toEqual([
      "",
      "final (1): a",
      "forced tool_choice: none",
      "palette: applied (1 name)",
      "",
    ]);

    const refused = formatWaterfallTable(
      await run({
        routing: { registered: ["a", "b"], entries: [] },
        pipeline: [{ kind: "forced", resolver: { kind: "fixed", tool: "b" } }],
      }),
      { color: false },
    ).split("\n");
    expect(refused[4]).toBe(
      "0  router  refused  2                                          the router returned no entries",
    );
    expect(refused.at(-2)).toBe("palette: applied (2 names), forcing b");

    const none = formatWaterfallTable(
      await run({ routing: { registered: ["a", "b"] }, pipeline: [] }),
      { color: true },
    ).split("\n");
    expect(none[4]).toBe(
      "0  router  none    2                                          no router composed",
    );
    expect(none.at(-2)).toBe("\x1b[1mpalette:\x1b[0m no change — no router composed");

    const all = formatWaterfallTable(
      reportOf({
        capability: {
          registered: ["a"],
          router: { state: "none" },
          routerReason: "no router composed",
          palette: { outcome: "applied", names: null, forced: "a", reason: "selection applied" },
        },
      }),
      { color: false },
    );
    expect(all).toContain("\npalette: applied (all tools), forcing a\n");
  });
});

describe("safe", () => {
  it("escapes C0 and C1 controls, line separators and bidi controls, and nothing else", () => {
    expect(safe("a\x1b[2J\u009b1m\u2028\u202e\u2066é✓")).toBe(
      "a\\u001b[2J\\u009b1m\\u2028\\u202e\\u2066é✓",
    );
  });

  it("escapes format characters: U+061C, zero-width spaces and joiners, U+2060, the BOM, tags", () => {
    expect(safe("a\u061cb\u200bc\u200dd\u2060e\ufefff\u{e0001}g\u00adh")).toBe(
      "a\\u061cb\\u200bc\\u200dd\\u2060e\\ufefff\\udb40\\udc01g\\u00adh",
    );
    const json = safeJson({ name: "x\u200b\u{e0041}" });
    expect(json).toBe('{"name":"x\\u200b\\udb40\\udc41"}');
    expect(JSON.parse(json)).toEqual({ name: "x\u200b\u{e0041}" });
  });

  it("keeps JSON valid and escapes what JSON.stringify leaves raw", () => {
    const value = { name: "x\u009b\u200f\n" };
    const text = safeJson(value, 2);
    expect(text).toBe('{\n  "name": "x\\u009b\\u200f\\n"\n}');
    expect(JSON.parse(text)).toEqual(value);
  });
});
