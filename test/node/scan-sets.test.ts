/**
 * A set of files hands on the same traces and problems, in the same order and with the same
 * numbers, read on this thread, by one worker or by several, and as traces or as entry text.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { summarizeTrace, traceEntryHead, traceEntryTail } from "../../src/core/traces/summary.js";
import { scanLogs } from "../../src/node/log-file.js";
import type { LogInput } from "../../src/node/log-source.js";

const folder = mkdtempSync(join(tmpdir(), "pi-scan-sets-"));
let made = 0;

const line = fc.oneof(
  fc.constantFrom("INFO nothing to see", "", "   ", '{"event": "request"}'),
  fc.record({ stage: fc.constantFrom("intent", "role"), n: fc.nat(9) }).map(({ stage, n }) =>
    JSON.stringify({
      turn_id: `t-${n}`,
      trace: [{ stage, action: "select", kept: [`tool_${n}`, "search"] }],
      tools: [`tool_${n}`],
    }),
  ),
  // A trace that cannot be read: a problem of its line.
  fc.constant('{"trace": [{"stage": "intent", "action": "nonsense"}]}'),
  fc.constant('{"trace": [{"stage": '),
);

type LogFile = { lines: string[]; gzip: boolean } | "binary" | "missing";

/** A file as it lies on disk: lines (plain or gzip), NUL bytes, or none at all. */
const fileOf: fc.Arbitrary<LogFile> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({ lines: fc.array(line, { maxLength: 40 }), gzip: fc.boolean() }),
  },
  { weight: 1, arbitrary: fc.constantFrom("binary" as const, "missing" as const) },
);

function written(files: LogFile[]): LogInput[] {
  return files.map((file) => {
    const path = join(folder, `${made++}.log`);
    if (file === "binary") writeFileSync(path, "\0\0\0binary");
    else if (file !== "missing") {
      const text = file.lines.join("\n");
      writeFileSync(path, file.gzip ? gzipSync(text) : text);
    }
    return { name: path, path };
  });
}

/** What a scan hands on, in order: traces with their numbers and places, and problems. */
async function handedOn(inputs: LogInput[], jobs: number): Promise<string[]> {
  const out: string[] = [];
  const scan = await scanLogs(inputs, {
    jobs,
    onTrace: (found, file) =>
      out.push(
        traceEntryHead(JSON.stringify(inputs[file]!.name), found.index, "") +
          traceEntryTail(found, ""),
      ),
    onProblem: (problem) => out.push(JSON.stringify(problem)),
  });
  out.push(`${scan.traceCount} ${scan.problemCount} ${scan.unreadable}`);
  return out;
}

async function asEntries(inputs: LogInput[], jobs: number): Promise<string[]> {
  const out: string[] = [];
  const scan = await scanLogs(inputs, {
    jobs,
    entries: {
      margin: "",
      onEntry: (tail, index, file) =>
        out.push(traceEntryHead(JSON.stringify(inputs[file]!.name), index, "") + tail),
    },
    onProblem: (problem) => out.push(JSON.stringify(problem)),
  });
  out.push(`${scan.traceCount} ${scan.problemCount} ${scan.unreadable}`);
  return out;
}

/**
 * Traces as summaries with their files and problems: made here from each trace, or asked for
 * (`onSummary`), perhaps only the one numbered `wanted`.
 */
async function asSummaries(
  inputs: LogInput[],
  jobs: number,
  asked: boolean,
  wanted?: number,
): Promise<string[]> {
  const out: string[] = [];
  const common = { jobs, onProblem: (problem: object) => out.push(JSON.stringify(problem)) };
  const push = (summary: object, file: number) => out.push(JSON.stringify([file, summary]));
  const scan = await scanLogs(
    inputs,
    asked
      ? { ...common, onSummary: push, wanted }
      : { ...common, onTrace: (found, file) => push(summarizeTrace(found), file) },
  );
  out.push(`${scan.traceCount} ${scan.problemCount} ${scan.unreadable}`);
  return out;
}

describe("a set of files", () => {
  it("hands on the same traces, numbers and problems on this thread, with 1 worker or 3, as traces or entries", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fileOf, { minLength: 1, maxLength: 5 }), async (files) => {
        const inputs = written(files);
        const here = await handedOn(inputs, 0);
        expect(await handedOn(inputs, 1)).toEqual(here);
        expect(await handedOn(inputs, 3)).toEqual(here);
        expect(await asEntries(inputs, 0)).toEqual(here);
        expect(await asEntries(inputs, 3)).toEqual(here);
      }),
      { numRuns: 12 },
    );
  }, 120_000);

  it("hands on the summaries it is asked for as it would summarize each trace, with their numbers across the set", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fileOf, { minLength: 1, maxLength: 5 }), async (files) => {
        const inputs = written(files);
        const here = await asSummaries(inputs, 0, false);
        expect(await asSummaries(inputs, 0, true)).toEqual(here);
        expect(await asSummaries(inputs, 3, true)).toEqual(here);
      }),
      { numRuns: 8 },
    );
  }, 120_000);

  it("hands on the wanted summary with its number across the set, the same problems and counts, and no summary it would not", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fileOf, { minLength: 1, maxLength: 4 }),
        fc.nat(60),
        async (files, pick) => {
          const inputs = written(files);
          const all = await asSummaries(inputs, 0, false);
          const summaries = all.filter((item) => item.startsWith("["));
          const wanted = summaries.length === 0 ? 0 : pick % summaries.length;
          for (const jobs of [0, 3]) {
            const got = await asSummaries(inputs, jobs, true, wanted);
            expect(got.filter((item) => !item.startsWith("["))).toEqual(
              all.filter((item) => !item.startsWith("[")),
            );
            const handed = got.filter((item) => item.startsWith("["));
            // In order, each as the whole scan numbers it; the wanted one among them.
            expect(summaries.filter((item) => handed.includes(item))).toEqual(handed);
            if (summaries.length > 0) expect(handed).toContain(summaries[wanted]);
          }
          // The first file's others are passed over: none of them is handed on.
          const firstCount = all.filter((item) => item.startsWith("[0,")).length;
          if (firstCount > 1 && wanted < firstCount)
            expect(
              (await asSummaries(inputs, 3, true, wanted)).filter((item) => item.startsWith("[0,")),
            ).toEqual([summaries[wanted]]);
        },
      ),
      { numRuns: 10 },
    );
  }, 120_000);
});
