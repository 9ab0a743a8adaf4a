import { describe, expect, it } from "vitest";
import type { FixtureJson } from "../../src/core/fixture/schema.js";
import { explainUnavailable } from "../../src/core/forced-unavailable.js";
import { sentenceText } from "../../src/core/lineage.js";
import { inline, reportMarkdown } from "../../src/core/render/markdown.js";
import { type RunReport } from "../../src/core/report.js";
import {
  DROPPED_BEFORE_FORCE,
  noCatalogFile,
  recordOf,
  reportOf,
  run as runAs,
} from "./spec/helpers.js";

const run = (json: FixtureJson): Promise<RunReport> => runAs(json, noCatalogFile, "t.turn.json");

/** The cells of a GFM table row, splitting on unescaped pipes only. */
const cells = (line: string) => line.slice(2, -2).split(/(?<!\\) \| /);

describe("reportMarkdown", () => {
  it("renders one row per stage with counts, names, reasons, pins and disabled stages", async () => {
    const markdown = await run({
      description: "weather turn",
      catalog: [
        { name: "a", safety_level: "low" },
        { name: "b", safety_level: "high" },
      ],
      pipeline: [
        { kind: "forced", resolver: { kind: "fixed", tool: "a" } },
        { kind: "policy", max_safety_level: "medium" },
        { kind: "lazy", allowed_names: [], enabled: false },
      ],
    }).then((report) => reportMarkdown(report));
    const lines = markdown.split("\n");
    expect(lines[0]).toBe("### Selection trace: t.turn.json");
    expect(lines).toContain("Offered 2 → final 1; forced choice: a.");
    const rows = lines.filter((line) => /^\| \d/.test(line)).map(cells);
    expect(rows.map((row) => row.length)).toEqual([11, 11, 11]);
    expect(rows[0]!.slice(0, 5)).toEqual(["1", "forced", "forced", "force", "2 → 2"]);
    expect(rows[0]![9]).toBe("set: a");
    expect(rows[1]![6]).toMatch(/^b \(.*high.*\)$/);
    // No pin at the policy stage: its Forced cell is empty. A disabled stage has only its name and kind.
    expect(rows[1]![9]).toBe("");
    expect(rows[2]).toEqual(["3", "lazy", "lazy", "disabled", "", "", "", "", "", "", ""]);
    expect(lines.at(-2)).toBe("Final: a");
  });

  it("puts the fixture's description under the title, and nothing when it has none", async () => {
    const described = reportMarkdown(await run({ description: "weather turn", offered: ["a"] }));
    expect(described.split("\n").slice(0, 5)).toEqual([
      "### Selection trace: t.turn.json",
      "",
      "weather turn",
      "",
      "Offered 1 → final 1; forced choice: none.",
    ]);
    const bare = reportMarkdown(await run({ offered: ["a"] }));
    expect(bare.split("\n").slice(0, 3)).toEqual([
      "### Selection trace: t.turn.json",
      "",
      "Offered 1 → final 1; forced choice: none.",
    ]);
  });

  it("names the ForcedToolUnavailable, degraded and hard-filter stages", async () => {
    const markdown = reportMarkdown(
      await run({
        offered: ["a", "b"],
        pipeline: [
          { kind: "forced", resolver: { kind: "fixed", tool: "a" } },
          {
            kind: "scripted",
            name: "cut",
            outcome: { select: ["b"] },
            protects_forced: false,
            degraded: true,
          },
        ],
      }),
    );
    expect(markdown).toContain(
      "**ForcedToolUnavailable:** a is the forced choice but not in the final palette: it was dropped by cut, a hard filter (a stage that does not protect the forced choice).",
    );
    expect(markdown).toMatch(
      /\| cut \| scripted \(hard filter\) \| select \(degraded\) \| 2 → 1 \| b \| a \|/,
    );
  });

  it("shows the router first and the palette outcome last in capability mode", async () => {
    const markdown = reportMarkdown(
      await run({
        routing: { registered: ["a", "b"], entries: [{ content: "a" }] },
        pipeline: [{ kind: "lazy", allowed_names: null }],
      }),
    );
    const rows = markdown
      .split("\n")
      .filter((line) => line.startsWith("| ") && !line.startsWith("| #"));
    expect(cells(rows[0]!)).toEqual([
      "",
      "router",
      "capability",
      "routed",
      "2 → 1",
      "a",
      "",
      "",
      "",
      "",
      "routed",
    ]);
    expect(cells(rows.at(-1)!).slice(1, 4)).toEqual(["palette", "capability", "applied"]);
  });

  it("titles a logged trace by its file and line, a received turn by its number", () => {
    const title = (origin: RunReport["origin"]) =>
      reportMarkdown({ ...reportOf({ names: ["a"] }), file: "otlp://live/3", origin }).split(
        "\n",
      )[0];
    expect(title({ kind: "received", index: 2 })).toBe("### Selection trace: `live turn #3`");
    expect(title({ kind: "log", line: 7, index: 2 })).toBe("### Selection trace: 3, line 7");
  });

  it("collapses long name lists", async () => {
    const offered = Array.from({ length: 40 }, (_, i) => `t${i}`);
    const markdown = reportMarkdown(
      await run({ offered, pipeline: [{ kind: "lazy", allowed_names: offered }] }),
      { maxNames: 3 },
    );
    expect(markdown).toContain("t0, t1, t2, … and 37 more");
    const many = (n: number) =>
      reportMarkdown(reportOf({ names: Array.from({ length: n }, (_, i) => `t${i}`) }))
        .trimEnd()
        .split("\n")
        .at(-1);
    // 30 names by default.
    expect(many(30)).toMatch(/, t29$/);
    expect(many(31)).toMatch(/, t29, … and 1 more$/);
  });

  it("writes a refused router, a released force and the palette as whole rows", async () => {
    const markdown = reportMarkdown(
      await run({
        routing: { registered: ["a", "b"], entries: [] },
        pipeline: [
          { kind: "forced", resolver: { kind: "fixed", tool: "b" } },
          { kind: "scripted", name: "rel", outcome: { force: null } },
        ],
      }),
    );
    expect(markdown).toBe(
      [
        "### Selection trace: t.turn.json",
        "",
        "Offered 2 → final 2; forced choice: none.",
        "",
        "| # | Stage | Kind | Action | Tools | Kept | Dropped | Added | Reinstated | Forced | Detail |",
        "|---:|---|---|---|---:|---|---|---|---|---|---|",
        "|  | router | capability | refused | 2 → 2 |  |  |  |  |  | the router returned no entries |",
        "| 1 | forced | forced | force | 2 → 2 | a, b |  |  |  | set: b | resolver forces 'b' |",
        "| 2 | rel | scripted | force | 2 → 2 | a, b |  |  |  | released: none |  |",
        "|  | palette | capability | applied | 2 |  |  |  |  |  | selection applied |",
        "",
        "Final: a, b",
        "",
      ].join("\n"),
    );
    const unrouted = reportMarkdown(await run({ routing: { registered: ["a"] }, pipeline: [] }));
    expect(unrouted).toContain(
      "\n|  | router | capability | none | 1 → 1 |  |  |  |  |  | no router composed |\n" +
        "|  | palette | capability | no change |  |  |  |  |  |  | no router composed |\n",
    );
    const forcing = reportMarkdown(
      reportOf({
        capability: {
          registered: ["a"],
          router: { state: "none" },
          routerReason: "no router composed",
          palette: { outcome: "applied", names: null, forced: "a_b", reason: "selection applied" },
        },
      }),
    );
    expect(forcing).toContain(
      "\n|  | palette | capability | applied |  |  |  |  |  | a\\_b | selection applied |\n",
    );
    expect(forcing.endsWith("\nFinal: none\n")).toBe(true);
  });

  it("says a forced tool dropped before the force was set was not reinstated, in the one explanation's words", async () => {
    const report = await run(DROPPED_BEFORE_FORCE);
    const why = sentenceText(explainUnavailable(report)!.parts, inline);
    expect(reportMarkdown(report)).toContain(`\n\n**ForcedToolUnavailable:** ${why}\n\n`);
    expect(why).toBe(
      "sql is the forced choice but not in the final palette: it was dropped by intent before forced set the force, so nothing reinstated it.",
    );
  });

  it("says a forced tool was never offered", async () => {
    const markdown = reportMarkdown(
      await run({
        offered: ["a"],
        pipeline: [{ kind: "forced", resolver: { kind: "fixed", tool: "zz" } }],
      }),
    );
    expect(markdown).toContain(
      "\n\n**ForcedToolUnavailable:** zz is the forced choice but not in the final palette: it was never offered to the pipeline.\n\n",
    );
  });

  it("titles a trace from a log by its file name and line, and a value from a debuggee by its expression and frame", () => {
    const trace = [recordOf("s", ["a"])];
    const log = reportOf({
      origin: { kind: "log", line: 7, index: 0 },
      file: "C:\\logs\\agent.log",
      trace,
    });
    expect(reportMarkdown(log).split("\n")[0]).toBe("### Selection trace: agent.log, line 7");
    const debug = reportOf({
      origin: { kind: "debug", session: "s", frame: "turn (agent.py:42)", expression: "result" },
      trace,
    });
    expect(reportMarkdown(debug).split("\n")[0]).toBe(
      "### Selection trace: result in turn (agent.py:42)",
    );
  });
});

describe("inline", () => {
  it("keeps untrusted text inside one literal cell", () => {
    expect(inline("a|b")).toBe("a\\|b");
    expect(inline("`x`")).toBe("\\`x\\`");
    expect(inline("line\nbreak\r\nand\u2028sep")).toBe("line break and sep");
    expect(inline("<script>alert(1)</script>")).toBe("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(inline("<img src=x onerror=alert(1)>")).not.toMatch(/</);
    expect(inline("**bold** _it_ [l](javascript:x) $x$")).toBe(
      "\\*\\*bold\\*\\* \\_it\\_ \\[l\\](javascript:x) \\$x\\$",
    );
    expect(inline("\u202Eevil")).toBe("U+202Eevil");
    expect(inline("a&amp;")).toBe("a&amp;amp;");
    expect(inline("tab\there\u0085next\u2029end")).toBe("tab here next end");
    expect(inline("\u0001\u007f")).toBe("U+0001U+007F");
    expect(inline("~ a ~")).toBe("\\~ a \\~");
  });

  it("leaves text that only looks like a link or a reference as plain escaped text", () => {
    expect(inline("#x, a @ b, 1 & 2, http:x")).toBe("#x, a @ b, 1 &amp; 2, http:x");
    for (const linked of ["!12", "&12", "$12", "%milestone", '~"a label"', "HTTPS://X.IO", "WWW.X"])
      expect(inline(linked)).toBe(`\`${linked}\``);
  });

  it("fences a code span longer than any backtick run inside, padded at a backtick end", () => {
    expect(inline("a``b @x")).toBe("```a``b @x```");
    // Any URL scheme, one letter or with digits.
    expect(inline("s3://bucket")).toBe("`s3://bucket`");
    expect(inline("x://y")).toBe("`x://y`");
    expect(inline("`@x")).toBe("`` `@x ``");
    expect(inline("@x`")).toBe("`` @x` ``");
  });

  it("fences text with 1,000,000 backtick runs (more than a call takes as arguments)", () => {
    const text = `@x ${"`a".repeat(1_000_000)}`;
    expect(inline(text)).toBe(`\`\`${text}\`\``);
  });
});

describe("markdown export", () => {
  const report = (file: string, tool: string, detail: string): RunReport =>
    reportOf({
      file,
      offered: [tool],
      names: [tool],
      trace: [recordOf("s", [tool], { detail })],
      stages: [{ name: "s", kind: "scripted", enabled: true, protectsForced: true }],
    });

  it("names the file by the title it is given, else by its name: never a local absolute path", () => {
    const absolute = report("file:///home/someone/ws/turns/a.turn.json", "t", "");
    expect(reportMarkdown(absolute).split("\n")[0]).toBe("### Selection trace: a.turn.json");
    expect(reportMarkdown(absolute, { title: "turns/a.turn.json" }).split("\n")[0]).toBe(
      "### Selection trace: turns/a.turn.json",
    );
  });

  it("puts URLs, @mentions and #refs in code spans, where GitHub and GitLab do not link them", () => {
    const markdown = reportMarkdown(
      report("a.turn.json", "@octocat", "see https://evil.example/x and #12 or www.x.io ~bug"),
    );
    expect(markdown).toContain("| `@octocat` |");
    expect(markdown).toContain("`see https://evil.example/x and #12 or www.x.io ~bug`");
    expect(markdown).toContain("Final: `@octocat`");
    expect(inline("a`b|c @x")).toBe("``a`b\\|c @x``");
    expect(inline("`@x`")).toBe("`` `@x` ``");
    expect(inline("org/repo#7")).toBe("`org/repo#7`");
    expect(inline("plain_tool")).toBe("plain\\_tool");
  });
});
