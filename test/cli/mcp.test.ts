/**
 * `palette-inspector mcp` as a client meets it: the SDK's own Client over stdio, spawning the CLI
 * as shipped (one bundle). Each answer is checked against the CLI's `--json` for the same question.
 */
import { spawn } from "node:child_process";
import {
  copyFileSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ErrorCode, ListRootsRequestSchema, McpError } from "@modelcontextprotocol/sdk/types.js";
import { buildSync } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { applyWhatIf } from "../../src/core/whatif.js";
import { TEXT_LIMIT } from "../../src/tools/text.js";
import { TOOLS } from "../../src/tools/tools.js";
import { cli } from "./helpers.js";
import { tempDir } from "../helpers/temp.js";
import { writtenRecord } from "../builders/logged.js";

const repo = process.cwd();
const dir = tempDir("pi-mcp-");
const bundle = join(dir, "cli.js");
/** A root of the server's, with the inputs written for these tests. */
const mine = join(dir, "root");
/** Outside every root. */
const outside = join(dir, "outside");
const version = (JSON.parse(readFileSync("package.json", "utf8")) as { version: string }).version;

type Result = {
  content: { type: string; text: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
};

/** A client of a server spawned in the repository with the given arguments. */
async function connect(args: string[], client = new Client({ name: "test", version: "1" })) {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [bundle, "mcp", ...args],
    cwd: repo,
    stderr: "pipe",
  });
  let stderr = "";
  transport.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  await client.connect(transport);
  return { client, stderr: () => stderr };
}

let server: Awaited<ReturnType<typeof connect>>;

async function call(name: string, args: Record<string, unknown>): Promise<Result> {
  return (await server.client.callTool({ name, arguments: args })) as Result;
}

const text = (result: Result) => result.content.map((part) => part.text).join("\n");

/** What the CLI prints with `--json`, parsed. */
async function cliJson(args: string[], cwd = repo): Promise<unknown> {
  const { stdout, stderr } = await cli([...args, "--json"], { cwd });
  if (stdout === "") throw new Error(stderr);
  return JSON.parse(stdout);
}

const FIXTURES = readdirSync("examples")
  .filter((name) => name.endsWith(".turn.json"))
  .sort();

function trace(i: number, tools = ["search", "sql"]) {
  return JSON.stringify({
    turn_id: `t-${i}`,
    trace: [
      writtenRecord("intent", "select", { kept: tools.slice(0, 1), dropped: tools.slice(1) }),
    ],
    tools: tools.slice(0, 1),
  });
}

/** A fixture of `tools` tools through `stages` intent stages, each dropping one more. */
function wideFixture(tools: number, stages: number) {
  const names = Array.from({ length: tools }, (_, i) => `tool_with_a_long_name_${i}`);
  return {
    description: "many tools, many stages",
    catalog: names.map((name) => ({ name })),
    offered: names,
    pipeline: Array.from({ length: stages }, (_, s) => {
      const kept = tools - (s + 1) * 10;
      const reasons = names
        .slice(kept, kept + 10)
        .map((name) => [name, `over budget at stage ${s}`]);
      return {
        kind: "scripted",
        name: `stage_${s}`,
        outcome: { select: names.slice(0, kept) },
        reasons: Object.fromEntries(reasons),
      };
    }),
  };
}

beforeAll(async () => {
  buildSync({
    entryPoints: ["src/cli/main.ts"],
    outfile: bundle,
    bundle: true,
    platform: "node",
    format: "cjs",
    mainFields: ["module", "main"],
    logLevel: "error",
  });
  mkdirSync(join(mine, "logs"), { recursive: true });
  mkdirSync(outside);
  writeFileSync(join(mine, "tools.catalog.json"), readFileSync("examples/tools.catalog.json"));
  writeFileSync(
    join(outside, "secret.turn.json"),
    readFileSync("examples/weather-forecast.turn.json"),
  );
  symlinkSync(join(outside, "secret.turn.json"), join(mine, "link.turn.json"));
  symlinkSync(outside, join(mine, "out-folder"));
  writeFileSync(join(mine, "broken.turn.json"), '{ "offered": ["a"], }');
  writeFileSync(
    join(mine, "bad-stage.turn.json"),
    JSON.stringify({ offered: ["a"], pipeline: [{ kind: "polcy" }] }, null, 2),
  );
  writeFileSync(
    join(mine, "hostile.turn.json"),
    JSON.stringify({
      description: "evil \u001b]8;;http://x\u0007link\u001b]8;;\u0007 and \u202egnp.exe",
      catalog: [{ name: "\u001b[31mred\u009b" }, { name: "plain" }],
      offered: ["\u001b[31mred\u009b", "plain"],
      pipeline: [{ kind: "scripted", name: "s\u202e", outcome: { select: ["plain"] } }],
    }),
  );
  writeFileSync(join(mine, "wide.turn.json"), JSON.stringify(wideFixture(300, 15)));
  // Over the 10 MB limit, and just under it (a description that long is still one line of text).
  writeFileSync(
    join(mine, "huge.turn.json"),
    `{"description":"${"x".repeat(10.5 * 1024 * 1024)}"}`,
  );
  writeFileSync(
    join(mine, "big.turn.json"),
    JSON.stringify({ description: "y".repeat(9.5 * 1024 * 1024), offered: ["a"], pipeline: [] }),
  );
  writeFileSync(
    join(mine, "logs", "many.log"),
    Array.from({ length: 100_000 }, (_, i) => trace(i, i % 3 === 0 ? ["a", "b"] : ["a"])).join(
      "\n",
    ) + "\n",
  );
  server = await connect(["--root", "examples", "--root", mine]);
}, 60_000);

afterAll(async () => {
  await server?.client.close();
});

describe("the MCP server", () => {
  it("introduces itself by name and the package's version, with tools", () => {
    expect(server.client.getServerVersion()).toEqual({ name: "palette-inspector", version });
    expect(server.client.getServerCapabilities()?.tools).toBeDefined();
  });

  it("lists exactly the nine tools, each with its input and output schema", async () => {
    const { tools } = await server.client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual([
      "run_fixture",
      "check_fixtures",
      "where_did_tool_go",
      "what_if",
      "list_traces",
      "show_trace",
      "trace_to_fixture",
      "palette_stats",
      "compare_stats",
    ]);
    for (const tool of tools) {
      const mine = TOOLS.find((t) => t.name === tool.name)!;
      expect(tool.inputSchema).toEqual(JSON.parse(JSON.stringify(mine.inputSchema)));
      expect(tool.outputSchema).toEqual(JSON.parse(JSON.stringify(mine.outputSchema)));
      expect(tool.description).toBe(mine.description);
    }
  });

  it("gives a model the run's failures in the words every view uses, in the fixture's order", async () => {
    const unavailable = text(
      await call("run_fixture", { path: "hard-filter-unavailable.turn.json" }),
    );
    expect(unavailable).toContain(
      "the run failed with ForcedToolUnavailable: run_python is the forced choice but not in the final palette: it was dropped by security, a hard filter (a stage that does not protect the forced choice).",
    );
    const stale = text(
      await call("run_fixture", { path: "regressions/stale-expectation.turn.json" }),
    );
    expect(
      stale
        .split("\n")
        .filter((line) => line.startsWith("expectation failed"))
        .map((line) => line.split(": ")[2]),
    ).toEqual(["$.expect.names", "$.expect.dropped_by.sql"]);
  });

  it.each(FIXTURES)("runs %s as `run --json` does", async (name) => {
    const result = await call("run_fixture", { path: name });
    expect(result.isError).toBe(false);
    expect(result.structuredContent).toEqual(await cliJson(["run", `examples/${name}`]));
    expect(text(result)).toMatch(/^final \(\d+\): /);
  });

  it("checks fixtures as `check --json` does, under a path or every root", async () => {
    const one = await call("check_fixtures", { paths: ["."] });
    expect(one.structuredContent).toEqual(await cliJson(["check", "examples"]));
    const every = await call("check_fixtures", {});
    // Both sort the fixtures by absolute path: given relative, `check` would sort "examples" after "/tmp".
    expect(every.structuredContent).toEqual(await cliJson(["check", resolve("examples"), mine]));
    const answer = every.structuredContent as { passed: number; failed: number; invalid: number };
    expect(text(every).split("\n")[0]).toBe(
      `${answer.passed} passed, ${answer.failed} failed (${answer.invalid} invalid)`,
    );
    // Links are not followed out of a root: the fixture behind link.turn.json is not checked.
    expect(text(every)).not.toContain("secret");
  });

  it("says where a tool went in a fixture, in the panel's sentence, stage by stage", async () => {
    const result = await call("where_did_tool_go", {
      path: "weather-forecast.turn.json",
      tool: "search",
    });
    const answer = result.structuredContent as { sentence: string; stages: unknown[] };
    expect(answer.sentence).toBe(
      "dropped by `intent` (its trigger keywords were not matched by the verdict); not in the final palette.",
    );
    expect(answer.stages[0]).toEqual({
      stage: "intent",
      state: "dropped",
      reason: "its trigger keywords were not matched by the verdict",
      forced: false,
    });
    expect(answer.stages.slice(1).map((s) => (s as { state: string }).state)).toEqual([
      "absent",
      "absent",
      "absent",
      "absent",
    ]);
    // The text's sentence leaves the reasons to the stage lines, quoted as the fixture's text.
    expect(text(result).split("\n").slice(0, 3)).toEqual([
      "dropped by intent; not in the final palette.",
      "in examples/weather-forecast.turn.json, at each stage:",
      '  intent: dropped — reason: fixture text "its trigger keywords were not matched by the verdict"',
    ]);
  });

  it("says where a tool went in a logged trace", async () => {
    const result = await call("where_did_tool_go", {
      logs: ["logs/agent.log"],
      trace: 1,
      tool: "get_weather",
    });
    const answer = result.structuredContent as { sentence: string; final: boolean; file: string };
    expect(answer.file).toBe("logs/agent.log");
    expect(answer.final).toBe(true);
    expect(answer.sentence).toMatch(/in the final palette/);
    const unknown = await call("where_did_tool_go", {
      path: "weather-forecast.turn.json",
      tool: "nope",
    });
    expect((unknown.structuredContent as { sentence: string }).sentence).toBe(
      "`nope` is not a tool of this run.",
    );
  });

  it("answers a what-if with the original run, the variant and what changed", async () => {
    const edits = { enabled: { intent: false }, role: "support" };
    const result = await call("what_if", { path: "weather-forecast.turn.json", edits });
    const answer = result.structuredContent as {
      original: unknown;
      variant: unknown;
      comparison: { changed: boolean; stages: { stage: string; changed: boolean }[] };
      edits: string;
    };
    expect(answer.original).toEqual(await cliJson(["run", "examples/weather-forecast.turn.json"]));
    const json = JSON.parse(readFileSync("examples/weather-forecast.turn.json", "utf8"));
    const variant = join(mine, "variant.turn.json");
    writeFileSync(variant, JSON.stringify(applyWhatIf(json, edits)));
    expect(answer.variant).toEqual(await cliJson(["run", variant]));
    expect(answer.edits).toBe("stage intent off; role support");
    expect(answer.comparison.changed).toBe(true);
    expect(answer.comparison.stages.find((s) => s.stage === "intent")?.changed).toBe(true);
    expect(text(result).split("\n")[0]).toBe(
      "The what-if changes the run (stage intent off; role support).",
    );
  });

  it("refuses a what-if on a stage the fixture does not have, as the panel does", async () => {
    const result = await call("what_if", {
      path: "weather-forecast.turn.json",
      edits: { enabled: { nosuch: false } },
    });
    expect(result.isError).toBe(true);
    expect(text(result)).toBe("no stage named 'nosuch' in the pipeline");
  });

  it("lists traces a page at a time, as `traces --json` lists them", async () => {
    const all = (await cliJson(["traces", "logs"], join(repo, "examples"))) as {
      traces: unknown[];
      problems: unknown[];
    };
    const result = await call("list_traces", { logs: ["logs"], offset: 2, limit: 3 });
    const answer = result.structuredContent as Record<string, unknown>;
    // Each entry is `traces --json`'s, with the #N the other tools take as `trace`.
    expect(answer.traces).toEqual(
      all.traces.slice(2, 5).map((entry, i) => ({ trace: i + 3, ...(entry as object) })),
    );
    expect(answer.problems).toEqual(all.problems);
    expect(answer.total).toBe(all.traces.length);
    expect(answer.trace_count).toBe(all.traces.length);
    expect(text(result)).toContain(`call list_traces with offset 5 for the next page`);
    // Each listed trace is the #N a person reads, which the other tools take.
    expect(text(result).split("\n")[1]).toMatch(/^#3 · logs\/agent\.log:\d+ · /);
  });

  it("filters the traces as the Selection Traces view does", async () => {
    const dropped = await call("list_traces", {
      logs: [join(mine, "logs")],
      filter: { kind: "dropped", tool: "b" },
      limit: 2,
    });
    const answer = dropped.structuredContent as { traces: { index: number }[]; total: number };
    expect(answer.total).toBe(33_334);
    expect(answer.traces.map((t) => t.index)).toEqual([0, 3]);
    const errors = await call("list_traces", {
      logs: ["logs/agent.log"],
      filter: { kind: "errors" },
    });
    const all = (await cliJson(["traces", "examples/logs/agent.log"])) as { traces: unknown[] };
    expect((errors.structuredContent as { total: number }).total).toBeLessThan(all.traces.length);
  });

  it("pages a log of 100,000 traces, its text short and saying how to go on", async () => {
    const first = await call("list_traces", { logs: [join(mine, "logs", "many.log")] });
    const answer = first.structuredContent as { traces: { index: number }[]; total: number };
    expect(answer.total).toBe(100_000);
    expect(answer.traces).toHaveLength(50);
    expect(text(first).length).toBeLessThan(TEXT_LIMIT);
    expect(text(first)).toContain("offset 50");
    const last = await call("list_traces", {
      logs: [join(mine, "logs", "many.log")],
      offset: 99_990,
    });
    const end = last.structuredContent as { traces: { index: number }[] };
    expect(end.traces.map((t) => t.index)).toEqual(
      Array.from({ length: 10 }, (_, i) => 99_990 + i),
    );
    expect(text(last)).not.toContain("next page");
  }, 60_000);

  it("shows trace #N as `show LOG N --json` does, and says which numbers exist", async () => {
    const result = await call("show_trace", { logs: ["logs/agent.log"], trace: 3 });
    expect(result.structuredContent).toEqual(
      await cliJson(["show", "examples/logs/agent.log", "3"]),
    );
    expect(text(result).split("\n")[0]).toBe("trace #3, logs/agent.log:11");
    const missing = await call("show_trace", { logs: ["logs/agent.log"], trace: 999 });
    expect(missing.isError).toBe(true);
    expect(text(missing)).toMatch(/^the logs hold \d+ traces \(#1–#\d+\); there is no trace #999$/);
  });

  it("shows a trace of a set whose spans and log records are in separate files with what its model called", async () => {
    const recorded = join(repo, "test/otel-libs/recordings/official-openai");
    for (const signal of ["spans", "logs"])
      copyFileSync(
        join(recorded, `chat-separate-files.${signal}.otlp.jsonl`),
        join(mine, `${signal}.otlp.jsonl`),
      );
    const logs = [join(mine, "logs.otlp.jsonl"), join(mine, "spans.otlp.jsonl")];
    const result = await call("show_trace", { logs, trace: 1 });
    expect(result.structuredContent?.model).toMatchObject({
      called: ["get_weather"],
      convention: "gen_ai_logs",
    });
  });

  it("takes a trace's #N, and says so when given the JSON's 0-based index", async () => {
    const error = await call("show_trace", { logs: ["logs/agent.log"], index: 2 }).then(
      () => null,
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(McpError);
    expect((error as McpError).code).toBe(ErrorCode.InvalidParams);
    expect((error as McpError).message).toContain(
      "show_trace: give trace, the trace's #N as a person reads it (from 1; the JSON's index + 1), not index",
    );
  });

  it("turns a trace into a fixture, written only when asked, never over a file", async () => {
    const shown = await call("trace_to_fixture", { logs: ["logs/agent.log"], trace: 2 });
    const answer = shown.structuredContent as { fixture: object; caveats: string[]; written: null };
    expect(answer.written).toBeNull();
    expect(readdirSync(mine)).not.toContain("replay.turn.json");
    const out = join(mine, "replay.turn.json");
    const written = await call("trace_to_fixture", { logs: ["logs/agent.log"], trace: 2, out });
    expect((written.structuredContent as { written: string }).written).toBe(out);
    expect(JSON.parse(readFileSync(out, "utf8"))).toEqual(answer.fixture);
    // The replay passes its own expectations.
    expect((await call("run_fixture", { path: out })).isError).toBe(false);
    writeFileSync(out, "mine");
    const again = await call("trace_to_fixture", { logs: ["logs/agent.log"], trace: 2, out });
    expect(again.isError).toBe(true);
    expect(text(again)).toBe(`${out} already exists; it is never overwritten`);
    expect(readFileSync(out, "utf8")).toBe("mine");
    const away = await call("trace_to_fixture", {
      logs: ["logs/agent.log"],
      trace: 2,
      out: join(outside, "x.turn.json"),
    });
    expect(away.isError).toBe(true);
    expect(text(away)).toMatch(/is outside the roots/);
    expect(readdirSync(outside)).toEqual(["secret.turn.json"]);
  });

  it("compares two sets as `stats --against --json` does, and names the biggest changes with their stages", async () => {
    const result = await call("compare_stats", {
      logs: ["before-after/after.jsonl"],
      against: ["before-after/before.jsonl"],
    });
    expect(result.structuredContent).toEqual(
      await cliJson([
        "stats",
        "examples/before-after/after.jsonl",
        "--against",
        "examples/before-after/before.jsonl",
      ]),
    );
    expect(text(result).split("\n").slice(0, 3)).toEqual([
      "NEW: 40 traces, 0 problems; OLD: 40 traces, 0 problems",
      "Biggest changes in the final rate:",
      "  ask_human: final in 100% → 20% of turns (−80.0 pts, p <0.001); role took it: missing there 0% → 80%",
    ]);
    const split = await call("compare_stats", { logs: ["before-after"], split_at: "2025-03-11" });
    expect((split.structuredContent as { changes: unknown }).changes).toEqual(
      (result.structuredContent as { changes: unknown }).changes,
    );
    const outside = await call("compare_stats", { logs: ["before-after"], split_at: "2030-01-01" });
    expect(outside.isError).toBe(true);
    expect(text(outside)).toMatch(
      /^split_at 2030-01-01 is outside the set's times: its first trace is at 2025-03-10T09:00:00Z/,
    );
    // Arguments the tool cannot take are a protocol error, as the input schema's are.
    await expect(call("compare_stats", { logs: ["before-after"] })).rejects.toThrow(
      /-32602.*compare_stats: give against \(the OLD logs\) or split_at/,
    );
  });

  it("counts palette statistics as `stats --json` does; top keeps the most often missing", async () => {
    const result = await call("palette_stats", { logs: ["logs"] });
    expect(result.structuredContent).toEqual(await cliJson(["stats", "examples/logs"]));
    const top = await call("palette_stats", { logs: ["logs"], top: 2 });
    const answer = top.structuredContent as {
      tools: { name: string; missing: object }[];
      tool_count: number;
    };
    const all = (result.structuredContent as { tools: { missing: Record<string, number> }[] })
      .tools;
    const missing = (tool: { missing: object }) =>
      Object.values(tool.missing).reduce((sum: number, n) => sum + (n as number), 0);
    expect(answer.tools).toHaveLength(2);
    expect(answer.tool_count).toBe(all.length);
    expect(missing(answer.tools[0]!)).toBe(Math.max(...all.map(missing)));
    expect(text(top)).toMatch(/^\d+ traces, \d+ problems?/);
  });
});

describe("the MCP server's roots", () => {
  it.each([
    ["a path that climbs out", "../package.json"],
    ["an absolute path outside", join(outside, "secret.turn.json")],
    ["an absolute path outside that does not exist", join(outside, "none.turn.json")],
    ["a link that leads out", join(mine, "link.turn.json")],
    ["a folder link that leads out", join(mine, "out-folder", "secret.turn.json")],
  ])("refuses %s, saying so, without reading it", async (_what, path) => {
    const result = await call("run_fixture", { path });
    expect(result.isError).toBe(true);
    // The same words whether or not the file exists: a refusal tells nothing of what is outside.
    expect(text(result)).toBe(
      `'${path}' is outside the roots (${resolve("examples")}, ${mine}); only files under them are read or written`,
    );
  });

  it("takes a relative path under the first root where it exists", async () => {
    // examples/ has no wide.turn.json: the second root's is run, and named as the CLI names it.
    const result = await call("run_fixture", { path: "wide.turn.json" });
    expect(result.isError).toBe(false);
    expect(text(result)).toContain(
      `${join(mine, "wide.turn.json")} — description: fixture text "many tools, many stages"`,
    );
  });

  it("refuses logs outside the roots before reading any", async () => {
    const result = await call("list_traces", { logs: ["logs/agent.log", "/etc"] });
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(/^'\/etc' is outside the roots/);
  });

  it("takes the client's roots, and follows them when they change", async () => {
    const extra = tempDir("pi-mcp-client-");
    for (const file of ["weather-forecast.turn.json", "tools.catalog.json"])
      writeFileSync(join(extra, file), readFileSync(`examples/${file}`));
    let offered = [{ uri: pathToFileURL(extra).href, name: "extra" }];
    const client = new Client(
      { name: "test", version: "1" },
      { capabilities: { roots: { listChanged: true } } },
    );
    client.setRequestHandler(ListRootsRequestSchema, () => ({ roots: offered }));
    await connect(["--root", "examples"], client);
    const path = join(extra, "weather-forecast.turn.json");
    const run = () =>
      client.callTool({ name: "run_fixture", arguments: { path } }) as Promise<Result>;
    await expect.poll(async () => text(await run()), { timeout: 5000 }).toMatch(/^final/);
    offered = [];
    await client.sendRootsListChanged();
    await expect.poll(async () => text(await run())).toMatch(/is outside the roots/);
    await client.close();
  });
});

describe("the MCP server on bad input", () => {
  it("answers an unreadable fixture with the CLI's message, place and JSON path", async () => {
    const broken = await call("run_fixture", { path: join(mine, "broken.turn.json") });
    expect(broken.isError).toBe(true);
    const { stderr } = await cli(["run", join(mine, "broken.turn.json")]);
    expect(text(broken)).toBe(stderr.trimEnd());
    expect(text(broken)).toMatch(/broken\.turn\.json:1:\d+: error: /);
    const stage = await call("run_fixture", { path: join(mine, "bad-stage.turn.json") });
    expect(text(stage)).toMatch(
      /bad-stage\.turn\.json:\d+:\d+: error: .*\(at \$\.pipeline\[0\]\.kind\)/,
    );
    const missing = await call("run_fixture", { path: "nothing.turn.json" });
    expect(text(missing)).toBe(`cannot read nothing.turn.json: no such file`);
  });

  it("refuses a fixture over 10 MB before reading it, and answers one under it in short", async () => {
    const started = performance.now();
    const huge = await call("run_fixture", { path: join(mine, "huge.turn.json") });
    expect(text(huge)).toMatch(
      /huge\.turn\.json:1:1: error: fixture is 10\.\d MB; the limit is 10 MB$/,
    );
    const big = await call("run_fixture", { path: join(mine, "big.turn.json") });
    expect(big.isError).toBe(false);
    expect(text(big).length).toBeLessThan(TEXT_LIMIT);
    expect(performance.now() - started).toBeLessThan(20_000);
  });

  it("keeps the text of a 300-tool, 15-stage run short and says where the rest is", async () => {
    const result = await call("run_fixture", { path: join(mine, "wide.turn.json") });
    expect(text(result).length).toBeLessThan(TEXT_LIMIT);
    expect(text(result)).toMatch(/more lines? cut: the whole run is in the structured result/);
    expect((result.structuredContent as { names: string[] }).names).toHaveLength(150);
    const stats = await call("where_did_tool_go", {
      path: join(mine, "wide.turn.json"),
      tool: "tool_with_a_long_name_299",
    });
    expect(text(stats).length).toBeLessThan(TEXT_LIMIT);
  });

  it("neutralises terminal escapes and bidi marks from a file in the text", async () => {
    const result = await call("run_fixture", { path: join(mine, "hostile.turn.json") });
    const said = text(result);
    expect(said).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
    expect(said).toContain("\\u001b[31mred\\u009b");
    expect(said).toContain("s\\u202e");
    // The JSON keeps the names as they are: it is data, escaped by the transport.
    expect((result.structuredContent as { names: string[] }).names).toEqual(["plain"]);
  });

  it("answers an unknown tool and malformed arguments with protocol errors", async () => {
    const code = (promise: Promise<unknown>) =>
      promise.then(
        () => null,
        (error: unknown) => (error instanceof McpError ? error.code : String(error)),
      );
    expect(await code(call("no_such_tool", {}))).toBe(ErrorCode.InvalidParams);
    expect(await code(call("run_fixture", { path: 5 }))).toBe(ErrorCode.InvalidParams);
    expect(await code(call("run_fixture", {}))).toBe(ErrorCode.InvalidParams);
    expect(await code(call("list_traces", { logs: ["x"], limit: 0 }))).toBe(
      ErrorCode.InvalidParams,
    );
    expect(
      await code(call("where_did_tool_go", { tool: "a", path: "x", logs: ["y"], trace: 1 })),
    ).toBe(ErrorCode.InvalidParams);
    expect(await code(call("what_if", { path: "x", edits: { enabled: { a: "no" } } }))).toBe(
      ErrorCode.InvalidParams,
    );
  });

  it("is still answering after all of it", async () => {
    expect((await server.client.listTools()).tools).toHaveLength(9);
    expect((await call("run_fixture", { path: "weather-forecast.turn.json" })).isError).toBe(false);
    expect(server.stderr()).toBe("");
  });
});

describe("the MCP server's standard streams", () => {
  it("writes only JSON-RPC to stdout, skips a line that is not, and ends when stdin closes", async () => {
    const child = spawn(process.execPath, [bundle, "mcp", "--root", mine], { cwd: repo });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const message = (id: number, method: string, params: object) =>
      JSON.stringify({ jsonrpc: "2.0", id, method, params }) + "\n";
    child.stdin.write(
      message(1, "initialize", {
        protocolVersion: "2025-06-18",
        capabilities: {},
        clientInfo: { name: "raw", version: "1" },
      }),
    );
    child.stdin.write('not json at all\n{"jsonrpc":"2.0"}\n');
    child.stdin.write(
      message(2, "tools/call", {
        name: "run_fixture",
        arguments: { path: join(mine, "hostile.turn.json") },
      }),
    );
    await expect.poll(() => stdout.split("\n").length, { timeout: 20_000 }).toBe(3);
    child.stdin.end();
    const status = await new Promise<number | null>((done) => child.on("exit", done));
    expect(status).toBe(0);
    const lines = stdout.trimEnd().split("\n");
    expect(lines.map((line) => (JSON.parse(line) as { id: number }).id)).toEqual([1, 2]);
    // Not even escaped by JSON.stringify alone: no raw C1 control or bidi mark on the wire.
    expect(stdout).not.toMatch(/[\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
    expect(stderr).toMatch(/^palette-inspector mcp: a line that is not a JSON-RPC message: /);
  });

  it("prints with --version the version it gives a client", async () => {
    expect(await cli(["--version"])).toEqual({
      code: 0,
      stdout: `palette-inspector ${version}\n`,
      stderr: "",
    });
  });

  it("refuses a root that is not a folder, on stderr", async () => {
    const { code, stderr, stdout } = await cli(["mcp", "--root", join(mine, "broken.turn.json")]);
    expect(code).toBe(2);
    expect(stdout).toBe("");
    expect(stderr).toBe(
      `palette-inspector: --root ${join(mine, "broken.turn.json")} is not a folder\n`,
    );
  });
});
