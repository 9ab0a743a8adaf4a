/**
 * The host scans logs in worker threads: its own thread only takes in their batches, so a hostile
 * log of 1 MB never holds its event loop. A slice is measured in the host thread's own CPU time
 * (/proc/thread-self/schedstat), which neither the workers nor a busy machine add to.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type * as vscode from "vscode";
import { describe, expect, it } from "vitest";
import { LogTraceCodeLens } from "../../src/extension/logs/log-codelens.js";
import { inspectLog } from "../../src/extension/logs/log-commands.js";
import { TraceTree } from "../../src/extension/logs/trace-tree.js";
import { scanLogs } from "../../src/node/log-file.js";
import { fake, Uri } from "../fakes/vscode.js";
import { longestSlice, SLICE_MS } from "../helpers/host-cpu.js";
import { tempDir } from "../helpers/temp.js";

const real = (uri: Uri) => uri as unknown as vscode.Uri;
const folder = tempDir("pi-off-thread-");

/** Lines of a text that ends with a line break. */
const lineCount = (text: string) => text.split("\n").length - 1;

const MB = 1024 * 1024;

/** Each shape, under 1 MB, with the traces the scan finds in it. */
const HOSTILE: [string, string, number][] = [
  [
    "a Python list of 69,000 traces on one line",
    `x [${"{'trace': []}, ".repeat(69_000)}]\n`,
    69_000,
  ],
  [
    "a pretty JSON array of 45,000 traces on one line",
    `[${Array(45_000).fill('{"trace": []}').join(", ")}]\n`,
    45_000,
  ],
  ["a JSON line of 80,000 traces", `[${Array(80_000).fill('{"trace":[]}').join(",")}]\n`, 80_000],
  [
    "a JSON array of 40,000 non-ASCII traces on one line",
    `[\n${Array(40_000).fill('{"trace":[],"x":"é"}').join(",")}\n]\n`,
    40_000,
  ],
  ["20,000 trace= pairs on one line", `ts=1 ${"trace=[] ".repeat(20_000)}\n`, 64],
  ['40,000 quoted k="StageRecord("', `${'k="StageRecord(" '.repeat(40_000)}\n`, 0],
  ["a line of 1 MB of (", `${"(".repeat(MB - 64)}\n`, 0],
];

/** A line the lenses mark, after each shape: a document is looked at only when it holds `"trace"`. */
const LAST = `${JSON.stringify({ trace: [] })}\n`;

describe("the extension's scans of hostile logs of up to 1 MB", () => {
  it.each(HOSTILE)(
    "%s: listed as a set, the host's event loop is never held 50 ms",
    async (name, text, traces) => {
      expect(Buffer.byteLength(text)).toBeLessThanOrEqual(MB);
      const path = join(folder, `${name.replace(/\W+/g, "-")}.log`);
      writeFileSync(path, text);
      const tree = new TraceTree();
      const uri = real(Uri.file(path));
      const ms = await longestSlice(() => inspectLog(uri, tree));
      expect(tree.setOf([uri])!.index.count).toBe(traces);
      expect(ms).toBeLessThan(SLICE_MS);
    },
    60_000,
  );

  it.each(HOSTILE)(
    "%s: its CodeLenses hold the host's event loop less than 50 ms",
    async (name, text, traces) => {
      const uri = Uri.file(join(folder, `${name.replace(/\W+/g, "-")}.json`));
      const document = fake.openDocument(uri, text + LAST);
      let lenses: vscode.CodeLens[] = [];
      const ms = await longestSlice(async () => {
        lenses = await new LogTraceCodeLens().provideCodeLenses(
          document as unknown as vscode.TextDocument,
          { isCancellationRequested: false } as vscode.CancellationToken,
        );
      });
      // The lines of the shape's traces (the line after a bracket alone for the array), then the last.
      expect([...new Set(lenses.map((lens) => lens.range.start.line))]).toEqual(
        traces === 0 ? [lineCount(text)] : [text.startsWith("[\n") ? 1 : 0, lineCount(text)],
      );
      expect(ms).toBeLessThan(SLICE_MS);
    },
    60_000,
  );

  it("a worker that runs out of memory is a problem of its file; the other files are listed", async () => {
    const big = join(folder, "long-line.log");
    // A line is read whole: one of 24 MB does not fit in a worker of 16 MB of heap.
    writeFileSync(big, `${JSON.stringify({ trace: [], x: "a".repeat(24 * MB) })}\n`);
    const good = join(folder, "good.log");
    writeFileSync(good, `${JSON.stringify({ trace: [] })}\n`);
    const problems: string[] = [];
    const files: number[] = [];
    const scan = await scanLogs(
      [
        { name: "deep.log", path: big },
        { name: "good.log", path: good },
      ],
      {
        worker: { heapMb: 16 },
        onTrace: (_found, file) => files.push(file),
        onProblem: (problem) => problems.push(`${problem.file}: ${problem.message}`),
      },
    );
    expect(problems).toContain("0: the scan of this file stopped: it ran out of memory");
    expect([files, scan.traceCount, scan.cancelled]).toEqual([[1], 1, false]);
  }, 60_000);

  it("a worker that cannot start is a problem of each file, never a rejection", async () => {
    const good = join(folder, "good.log");
    writeFileSync(good, `${JSON.stringify({ trace: [] })}\n`);
    const problems: string[] = [];
    const scan = await scanLogs([{ name: "good.log", path: good }], {
      worker: { script: join(folder, "missing-worker.js") },
      onTrace: () => undefined,
      onProblem: (problem) => problems.push(problem.message),
    });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^the scan of this file stopped: .*missing-worker\.js/);
    expect(scan.traceCount).toBe(0);
  });

  it("a Cancel ends the workers at once: the scan settles as cancelled, with what came before it", async () => {
    const path = join(folder, "many.log");
    writeFileSync(path, `${JSON.stringify({ trace: [], x: 1 })}\n`.repeat(300_000));
    const signal = { aborted: false };
    let found = 0;
    const scan = await scanLogs([{ name: "many.log", path }], {
      signal,
      onTrace: () => void (++found === 1000 && (signal.aborted = true)),
      onProblem: () => undefined,
    });
    expect(scan.cancelled).toBe(true);
    // Nothing is handed on once Cancel is seen: the rest of the batch in hand is dropped.
    expect([found, scan.traceCount]).toEqual([1000, 1000]);
  });
});
