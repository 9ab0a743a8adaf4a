/**
 * A set whose spans and log records are in separate files (a Collector's two file exporters) is
 * joined as one file holding both would be, in either order, on this thread and in workers, and a
 * trace read again from its file joins the set's records as the scan did. Read from the real
 * libraries' recordings, each split into its resourceSpans and its resourceLogs lines.
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { Readable } from "node:stream";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { ModelCall } from "../../src/core/traces/model-call.js";
import { readTraceAt, scanLogs, type LogProblem, type LogsScan } from "../../src/node/log-file.js";
import type { ScannedTrace } from "../../src/node/scanned.js";
import { logChunks, type LogInput } from "../../src/node/log-source.js";
import { readSetRecords } from "../../src/node/otlp-set.js";
import { setProblems } from "../../src/core/otel/set-records.js";
import { expectedCall, readCall, ROOT, truthOf, variants } from "../core/otel/recorded-truth.js";

const folder = mkdtempSync(join(tmpdir(), "pi-otlp-sets-"));

/** A recording's lines as a Collector's two file exporters write them: its spans' file and its logs' file. */
function split(library: string, variant: string): { spans: LogInput; logs: LogInput } {
  const lines = truthOf(library, variant).files.flatMap((file) =>
    readFileSync(join(ROOT, library, file), "utf8")
      .split("\n")
      .filter(Boolean),
  );
  const write = (signal: string) => {
    const path = join(folder, `${library}.${variant}.${signal}.otlp.jsonl`);
    const kept = lines.filter((line) => line.startsWith(`{"${signal}"`));
    writeFileSync(path, kept.map((line) => `${line}\n`).join(""));
    return { name: path, path };
  };
  return { spans: write("resourceSpans"), logs: write("resourceLogs") };
}

interface Read {
  readonly traces: { found: ScannedTrace; file: number }[];
  readonly problems: LogProblem[];
  readonly scan: LogsScan;
}

async function read(inputs: LogInput[], jobs: number): Promise<Read> {
  const traces: Read["traces"] = [];
  const problems: LogProblem[] = [];
  const scan = await scanLogs(inputs, {
    jobs,
    onTrace: (found, file) => traces.push({ found, file }),
    onProblem: (problem) => problems.push(problem),
  });
  return { traces, problems, scan };
}

const splitVariants = variants.filter(([, variant]) => !variant.includes("separate-files"));

describe("a set whose spans and log records are in separate files", () => {
  describe.each([
    ["on this thread", 0],
    ["in workers", 2],
  ])("%s", (_how, jobs) => {
    it.each(splitVariants)(
      "%s %s: every field as the fake server saw it, spans' file first or last",
      async (library, variant) => {
        const truth = truthOf(library, variant);
        const { spans, logs } = split(library, variant);
        for (const inputs of [
          [spans, logs],
          [logs, spans],
        ]) {
          const { traces, problems } = await read(inputs, jobs);
          expect(problems).toEqual([]);
          for (const turn of truth.turns) {
            const found = traces.find((t) => t.found.trace.otel?.span_id === turn.span_id);
            expect(found, turn.turn_id).toBeDefined();
            const model = found!.found.trace.model!;
            expect(model, turn.turn_id).not.toBeNull();
            expect(readCall(turn.turn_id, model)).toEqual(expectedCall(library, truth, turn));
          }
        }
      },
    );
  });

  it("joins the official instrumentation's log records when its files are given either way round", async () => {
    const dir = join(ROOT, "official-openai");
    const spans = { name: "spans", path: join(dir, "chat-separate-files.spans.otlp.jsonl") };
    const logs = { name: "logs", path: join(dir, "chat-separate-files.logs.otlp.jsonl") };
    const calls: (ModelCall | null | undefined)[] = [];
    for (const inputs of [
      [spans, logs],
      [logs, spans],
    ]) {
      const { traces, problems } = await read(inputs, 1);
      expect(problems).toEqual([]);
      calls.push(...traces.map((t) => t.found.trace.model));
    }
    expect(calls).toHaveLength(2);
    expect(calls[0]).toMatchObject({ called: ["get_weather"], convention: "gen_ai_logs" });
    expect(calls[1]).toEqual(calls[0]);
  });

  it("reads a trace again from its file joined to the set's log records, as the scan found it", async () => {
    const { spans, logs } = split("official-openai", "chat");
    const { traces, scan } = await read([logs, spans], 1);
    expect(scan.setRecords).not.toBeNull();
    for (const { found, file } of traces) {
      const again = await readTraceAt(spans.path!, found, {
        otlpSet: { records: scan.setRecords!, file },
      });
      expect(again.trace.model).toEqual(found.trace.model);
      expect(again.trace.model?.called).not.toBeNull();
      // Read alone, its file says nothing of what was called.
      const alone = await readTraceAt(spans.path!, found);
      expect(alone.trace.model?.called).toBeNull();
    }
  });

  it("says which log records name a span that is a model call of no file of the set, and leaves the calls unrecorded", async () => {
    const { spans } = split("official-openai", "chat");
    const { logs } = split("official-openai", "stream");
    for (const inputs of [
      [spans, logs],
      [logs, spans],
    ]) {
      const { traces, problems } = await read(inputs, 1);
      const logsFile = inputs.indexOf(logs);
      expect(problems.length).toBeGreaterThan(0);
      for (const problem of problems) {
        expect(problem.file).toBe(logsFile);
        expect(problem.line).toBeGreaterThan(0);
        expect(problem.message).toMatch(
          /log records? names? a span that is a model call of no file of the set \(the first: trace [0-9a-f]{32}, span [0-9a-f]{16}\)/,
        );
      }
      expect(traces.length).toBeGreaterThan(0);
      for (const { found } of traces) expect(found.trace.model?.called).toBeNull();
    }
  });

  it("reads no file twice for a set with a single OTLP file in it", async () => {
    const { spans } = split("official-openai", "chat");
    const plain = join(folder, "plain.log");
    writeFileSync(plain, "INFO nothing here\n");
    const { traces, scan } = await read([spans, { name: plain, path: plain }], 1);
    expect(scan.setRecords).toBeNull();
    expect(traces.length).toBeGreaterThan(0);
  });
});

describe("a log record whose span is in no input it joins", () => {
  const stdin = (input: LogInput): LogInput => ({
    name: "-",
    path: null,
    stream: Readable.from([readFileSync(input.path!)]),
  });

  it("is a problem of its line in a set with one OTLP file, on this thread and in a worker", async () => {
    const { logs } = split("official-openai", "chat");
    // Beside a plain log: the set's only OTLP file is the log records'.
    const plain = join(folder, "no-spans.log");
    writeFileSync(plain, "INFO no spans here\n");
    for (const jobs of [0, 1]) {
      const { traces, problems } = await read([logs, { name: plain, path: plain }], jobs);
      expect(traces).toEqual([]);
      expect(problems).toEqual(
        [1, 2].map((line) => ({
          file: 0,
          line,
          message: expect.stringMatching(
            /^a log record names a span that is no model call of the file \(the first: trace [0-9a-f]{32}, span [0-9a-f]{16}\); what it says was called is joined to no model call$/,
          ),
        })),
      );
    }
  });

  it("read on standard input, joins only the spans of standard input, and says so of each record whose span is elsewhere", async () => {
    const { spans, logs } = split("official-openai", "chat");
    const { traces, problems } = await read([spans, stdin(logs)], 1);
    expect(problems).toEqual(
      [1, 2].map((line) => ({
        file: 1,
        line,
        message: expect.stringMatching(
          /^a log record names a span that is no model call of its own input, whose records join only that input's spans \(the first: trace [0-9a-f]{32}, span [0-9a-f]{16}\)/,
        ),
      })),
    );
    expect(traces.length).toBeGreaterThan(0);
    for (const { found } of traces) expect(found.trace.model?.called).toBeNull();
  });

  it("in a file, joins the spans read on standard input", async () => {
    const { spans, logs } = split("official-openai", "chat");
    const alone = await read([logs, spans], 1);
    const { traces, problems } = await read([logs, stdin(spans)], 1);
    expect(problems).toEqual([]);
    expect(traces.map((t) => t.found.trace.model)).toEqual(
      alone.traces.map((t) => t.found.trace.model),
    );
    expect(traces[0]!.found.trace.model?.called).not.toBeNull();
  });
});

describe("the first pass over a set of OTLP files", () => {
  it("keeps at most the most records it may, and says where the rest begin: they join only their own file", async () => {
    const { spans, logs } = split("official-openai", "chat");
    const read = await readSetRecords([spans, logs], { maxRecords: 1 });
    expect(read!.records).toHaveLength(1);
    // The recording's second call is on the logs file's second line.
    expect(read!.cut).toEqual({ file: 1, line: 2 });
    expect(setProblems(read!, new Set([0]))).toEqual([
      {
        file: 1,
        line: 2,
        message:
          "the set holds more than 1 log records; from here on they join only the spans of their own file",
      },
    ]);
  });

  it("is not read for a set with a single OTLP file, nor from standard input, which counts as an input that may be OTLP", async () => {
    const { spans, logs } = split("official-openai", "chat");
    const plain = join(folder, "plain.log");
    writeFileSync(plain, "INFO nothing here\n");
    expect(await readSetRecords([logs, { name: plain, path: plain }])).toBeNull();
    const stream = Readable.from([readFileSync(spans.path!)]);
    const read = await readSetRecords([logs, { name: "-", path: null, stream }]);
    expect(read!.records.map((r) => r.file)).toEqual([0, 0]);
    expect(stream.readableDidRead).toBe(false);
  });

  it("looks at the head of each file, not a whole chunk: a set of plain logs is not read twice", async () => {
    const path = join(folder, "plain.log");
    writeFileSync(path, "INFO GET /api/v1/items/1 200 -\n".repeat(300_000));
    const read: number[] = [];
    for await (const chunk of logChunks({ name: path, path }, { chunkBytes: 64 * 1024 })) {
      read.push(chunk.length);
      break;
    }
    expect(read).toEqual([64 * 1024]);
    expect(
      await readSetRecords([
        { name: path, path },
        { name: path, path },
      ]),
    ).toBeNull();
  });
});
