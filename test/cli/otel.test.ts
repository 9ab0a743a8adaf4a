import { execFile, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { promisify } from "node:util";
import { afterEach, describe, expect, it } from "vitest";
import { exportCommand } from "../../src/cli/export.js";
import { receiveCommand } from "../../src/cli/receive.js";
import { io, until } from "./helpers.js";
import { showCommand, tracesCommand } from "../../src/cli/traces.js";
import { statsCommand } from "../../src/cli/stats.js";

const run = promisify(execFile);
const EXAMPLE = "examples/otel/turns.otlp.jsonl";

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

describe("OTLP/JSON files in traces and show", () => {
  it("traces --json lists the example file's turns with their otel ids and model calls", async () => {
    const { out, cli } = io();
    expect(await tracesCommand([EXAMPLE, "--json"], cli)).toBe(0);
    const json = JSON.parse(out.stdout) as {
      traces: Record<string, unknown>[];
      problem_count: number;
    };
    expect(json.problem_count).toBe(0);
    expect(json.traces.map((t) => [t.index, t.line, t.id, Object.keys(t)])).toEqual(
      [0, 1, 2].map((i) => [
        i,
        expect.any(Number),
        `turn-${i + 1}`,
        [
          "file",
          "index",
          "line",
          "time",
          "id",
          "stage_count",
          "names",
          "forced_choice",
          "otel",
          "model",
        ],
      ]),
    );
    expect(json.traces[2]!.model).toMatchObject({
      called_not_offered: ["send_email"],
      final_not_offered: ["send_email"],
    });
  });

  it("show --json gains the model call the turn fed, beside the report's own fields", async () => {
    const { out, cli } = io();
    expect(await showCommand([EXAMPLE, "3", "--json"], cli)).toBe(0);
    const json = JSON.parse(out.stdout) as Record<string, unknown>;
    expect(Object.keys(json)).toEqual([
      "names",
      "tools",
      "forced_choice",
      "trace",
      "error",
      "manifest",
      "model",
    ]);
    expect(json.model).toEqual({
      span_id: "58fe64e7f01ea217",
      model: "gpt-4o",
      offered: ["final_answer"],
      called: ["send_email"],
      tool_choice: null,
      convention: "gen_ai",
      final_not_offered: ["send_email"],
      offered_not_final: [],
      called_not_offered: ["send_email"],
    });
  });

  it("show prints what the model got under the waterfall: each difference marked, the calls, the warning", async () => {
    const texts = [];
    for (const n of ["2", "3"]) {
      const { out, cli } = io();
      expect(await showCommand([EXAMPLE, n], cli)).toBe(0);
      texts.push(out.stdout.slice(out.stdout.indexOf("\nfinal (2):")));
    }
    expect(texts).toEqual([
      "\nfinal (2): get_weather, final_answer\nforced tool_choice: none\n\n" +
        "what the model got: gpt-4o, span 9b3dadd2e17f083e (OTel GenAI)\n" +
        "  offered to the model, against the final palette:\n" +
        "    get_weather\n    final_answer\n    search  (added after selection)\n" +
        "  tool choice: not recorded (OTel GenAI)\n" +
        "  called: get_weather, search\n",
      "\nfinal (2): send_email, final_answer\nforced tool_choice: none\n\n" +
        "what the model got: gpt-4o, span 58fe64e7f01ea217 (OTel GenAI)\n" +
        "  offered to the model, against the final palette:\n" +
        "    final_answer\n    send_email  (lost after selection)\n" +
        "  tool choice: not recorded (OTel GenAI)\n" +
        "  called: send_email\n" +
        "  warning: send_email called, but not offered to the model\n",
    ]);
  });
});

describe("a set whose spans and log records are in separate files", () => {
  const DIR = "test/otel-libs/recordings/official-openai";
  const SPANS = `${DIR}/chat-separate-files.spans.otlp.jsonl`;
  const LOGS = `${DIR}/chat-separate-files.logs.otlp.jsonl`;

  it.each([
    ["spans first", [SPANS, LOGS]],
    ["logs first", [LOGS, SPANS]],
  ])("traces, show, stats and export say what the model called (%s)", async (_order, files) => {
    const listed = io();
    expect(await tracesCommand([...files, "--json"], listed.cli)).toBe(0);
    const traces = (JSON.parse(listed.out.stdout) as { traces: { model: unknown }[] }).traces;
    expect(traces.map((t) => t.model)).toEqual([
      expect.objectContaining({ called: ["get_weather"], convention: "gen_ai_logs" }),
    ]);
    const shown = io();
    expect(await showCommand([...files, "1"], shown.cli)).toBe(0);
    expect(shown.out.stdout).toContain("  called: get_weather\n");
    const counted = io();
    expect(await statsCommand([...files, "--json"], counted.cli)).toBe(0);
    const stats = JSON.parse(counted.out.stdout) as {
      model_calls: { called_not_recorded: number };
      tools: { name: string; called: number }[];
    };
    expect(stats.model_calls.called_not_recorded).toBe(0);
    expect(stats.tools.find((t) => t.name === "get_weather")?.called).toBe(1);
    const folder = mkdtempSync(join(tmpdir(), "export-"));
    folders.push(folder);
    expect(
      await exportCommand([...files, "--out", join(folder, "out"), "--format", "jsonl"], io().cli),
    ).toBe(0);
    const row = JSON.parse(readFileSync(join(folder, "out", "traces.jsonl"), "utf8")) as {
      model_called: unknown;
    };
    expect(row.model_called).toEqual(["get_weather"]);
  });
});

describe("an OTLP file whose log records name a span it does not hold", () => {
  const RECORDED = "test/otel-libs/recordings/official-openai/chat.otlp.jsonl";
  /** The recording with the span its second line's log records name taken out. */
  function withoutSpan(): { text: string; spanId: string } {
    const lines = readFileSync(RECORDED, "utf8").trimEnd().split("\n");
    const spanId = /"spanId":"([0-9a-f]{16})"/.exec(lines[1]!)![1]!;
    const text = lines
      .map((line) =>
        line.startsWith('{"resourceSpans"')
          ? line.replace(`"spanId":"${spanId}"`, '"spanId":"ffffffffffffffff"')
          : line,
      )
      .join("\n");
    return { text: `${text}\n`, spanId };
  }
  const SAID =
    /^a log record names a span that is no model call of the file \(the first: trace [0-9a-f]{32}, span [0-9a-f]{16}\); what it says was called is joined to no model call$/;

  it("traces and stats say the record's line; with every span there they say nothing", async () => {
    const folder = mkdtempSync(join(tmpdir(), "orphans-"));
    folders.push(folder);
    const file = join(folder, "chat.otlp.jsonl");
    const { text, spanId } = withoutSpan();
    writeFileSync(file, text);
    const listed = io();
    expect(await tracesCommand([file, "--json"], listed.cli)).toBe(0);
    const json = JSON.parse(listed.out.stdout) as { problems: unknown[]; problem_count: number };
    expect(json.problems).toEqual([{ file, line: 2, message: expect.stringMatching(SAID) }]);
    expect(json.problems[0]).toMatchObject({ message: expect.stringContaining(`span ${spanId})`) });
    const counted = io();
    expect(await statsCommand([file], counted.cli)).toBe(0);
    expect(counted.out.stdout).toContain(
      `\nproblems (1):\n${file}:2: a log record names a span that is no model call of the file (the first: trace `,
    );
    const whole = io();
    expect(await tracesCommand([RECORDED, "--json"], whole.cli)).toBe(0);
    expect(JSON.parse(whole.out.stdout)).toMatchObject({ problems: [], problem_count: 0 });
  });

  it("traces says it of records read on standard input whose span is in another input", async () => {
    const lines = readFileSync(RECORDED, "utf8").trimEnd().split("\n");
    const folder = mkdtempSync(join(tmpdir(), "orphans-"));
    folders.push(folder);
    const spans = join(folder, "spans.otlp.jsonl");
    writeFileSync(spans, lines.filter((l) => l.startsWith('{"resourceSpans"')).join("\n") + "\n");
    const logs = lines.filter((l) => l.startsWith('{"resourceLogs"')).join("\n") + "\n";
    const listed = io();
    const cli = { ...listed.cli, stdin: Readable.from([Buffer.from(logs)]) };
    expect(await tracesCommand([spans, "-", "--json"], cli)).toBe(0);
    const json = JSON.parse(listed.out.stdout) as { problems: unknown[] };
    expect(json.problems).toEqual(
      [1, 2].map((line) => ({
        file: "-",
        line,
        message: expect.stringContaining(
          "a log record names a span that is no model call of its own input, whose records join only that input's spans",
        ),
      })),
    );
  });
});

describe("palette-inspector receive", () => {
  it("prints the listening line, then one line per turn; --out holds the requests, both encodings, as OTLP/JSON that traces reads back", async () => {
    const folder = mkdtempSync(join(tmpdir(), "receive-"));
    folders.push(folder);
    const file = join(folder, "out.jsonl");
    const { out, cli } = io();
    let stop!: () => void;
    const stopped = new Promise<void>((r) => (stop = r));
    const done = receiveCommand(["--port", "0", "--out", file], cli, { stopped });
    await until(() => out.stdout.startsWith("listening on"));
    const url = /^listening on (http:\/\/127\.0\.0\.1:\d+)\n/.exec(out.stdout)![1]!;
    for (const protocol of ["json", "protobuf"])
      await run(process.execPath, [
        "examples/otel/agent.mjs",
        "--url",
        `${url}/v1/traces`,
        "--protocol",
        protocol,
      ]);
    stop();
    expect(await done).toBe(0);
    const [, header, ...rows] = out.stdout.trimEnd().split("\n");
    // The rows' header, as `traces` heads its table, without the line column.
    expect(header).toBe("#  time  id  stages  final  forced");
    expect(rows.map((row) => row.split(/\s{2,}/))).toEqual(
      [1, 2, 3, 4, 5, 6].map((n) => [
        String(n),
        expect.stringMatching(/^2026-12-01T09:00:00\.\d{3}Z$/),
        `turn-${((n - 1) % 3) + 1}`,
        "1",
        n % 3 === 0 ? "2: send_email, final_answer" : "2: get_weather, final_answer",
      ]),
    );
    expect(out.stderr).toBe("");
    // One request per span ended (the SDK's SimpleSpanProcessor): 8 a run.
    expect(readFileSync(file, "utf8").trimEnd().split("\n")).toHaveLength(2 * 8);
    const back = io();
    expect(await tracesCommand([file, "--json"], back.cli)).toBe(0);
    const traces = (JSON.parse(back.out.stdout) as { traces: { id: string; model: unknown }[] })
      .traces;
    expect(traces.map((t) => t.id)).toEqual([
      "turn-1",
      "turn-2",
      "turn-3",
      "turn-1",
      "turn-2",
      "turn-3",
    ]);
    expect(traces.every((t) => t.model !== null)).toBe(true);
  });

  it("says which port is in use and how to choose another, exit 2", async () => {
    const blocker = createServer();
    await new Promise<void>((done) => blocker.listen(0, "127.0.0.1", done));
    const port = (blocker.address() as { port: number }).port;
    try {
      const { out, cli } = io();
      expect(
        await receiveCommand(["--port", String(port)], cli, { stopped: Promise.resolve() }),
      ).toBe(2);
      expect(out).toEqual({
        stdout: "",
        stderr: `palette-inspector: port ${port} is in use; choose another with --port N\n`,
      });
    } finally {
      blocker.close();
    }
  });

  it("warns when it listens beyond loopback", async () => {
    const { out, cli } = io();
    expect(
      await receiveCommand(["--host", "0.0.0.0", "--port", "0"], cli, {
        stopped: Promise.resolve(),
      }),
    ).toBe(0);
    expect(out.stderr).toBe(
      "palette-inspector: listening on 0.0.0.0, not only this machine: any host that reaches it can send traces\n",
    );
    const [listening, header, end] = out.stdout.split("\n");
    expect(listening).toMatch(/^listening on http:\/\/0\.0\.0\.0:\d+$/);
    expect([header, end]).toEqual(["#  time  id  stages  final  forced", ""]);
  });

  it("ends cleanly on SIGTERM in the real process", async () => {
    const child = spawn(process.execPath, ["dist/cli.js", "receive", "--port", "0"]);
    let stdout = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    await until(() => stdout.startsWith("listening on"));
    child.kill("SIGTERM");
    const code = await new Promise((r) => child.on("exit", r));
    expect(code).toBe(0);
  });
});

describe("export of an OTLP file", () => {
  it("gives each trace's OTel trace and span ids", async () => {
    const folder = mkdtempSync(join(tmpdir(), "export-"));
    folders.push(folder);
    const { cli } = io();
    expect(
      await exportCommand([EXAMPLE, "--out", join(folder, "out"), "--format", "jsonl"], cli),
    ).toBe(0);
    const rows = readFileSync(join(folder, "out", "traces.jsonl"), "utf8")
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    const listed = io();
    await tracesCommand([EXAMPLE, "--json"], listed.cli);
    const traces = (
      JSON.parse(listed.out.stdout) as { traces: { otel: { trace_id: string; span_id: string } }[] }
    ).traces;
    expect(rows.map((row) => [row.otel_trace_id, row.otel_span_id])).toEqual(
      traces.map((t) => [t.otel.trace_id, t.otel.span_id]),
    );
    // The model call's fields as `traces --json` gives them, null where not recorded.
    expect(
      rows.map((row) => [
        row.model_convention,
        row.model_offered,
        row.model_called,
        row.model_tool_choice,
      ]),
    ).toEqual(
      traces.map((t) => {
        const model = (t as { model?: Record<string, unknown> | null }).model;
        return model
          ? [model.convention, model.offered, model.called, model.tool_choice]
          : [null, null, null, null];
      }),
    );
  });
});
