/**
 * A log record whose span is not in its file is a problem of the record's line, said at the end
 * of the file: read from the official OpenAI instrumentation's recordings, each with one of its
 * inference spans taken out.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { MAX_OWN_KEPT, OwnRecords } from "../../../src/core/otel/own-records.js";
import { readRequest } from "../../../src/core/otel/request.js";
import { scanText } from "../../../src/core/traces/scan.js";
import { ROOT, truthOf, variants } from "./recorded-truth.js";

interface Ids {
  readonly traceId: string;
  readonly spanId: string;
}

/** The recording's lines with the span `spanId` taken out of its spans. */
function withoutSpan(lines: readonly string[], spanId: string): string {
  return lines
    .map((line) => {
      const request = JSON.parse(line) as Record<string, unknown>;
      const spans = (request["resourceSpans"] ?? []) as { scopeSpans: { spans: Ids[] }[] }[];
      for (const scope of spans.flatMap((r) => r.scopeSpans))
        scope.spans = scope.spans.filter((span) => span.spanId !== spanId);
      return `${JSON.stringify(request)}\n`;
    })
    .join("");
}

/** The official instrumentation's recordings written as one file, each with the lines of its log records. */
const official = variants
  .filter(([library, variant]) => library === "official-openai" && !variant.includes("separate"))
  .map(([library, variant]) => {
    const [file] = truthOf(library, variant).files;
    const lines = readFileSync(join(ROOT, library, file!), "utf8")
      .split("\n")
      .filter(Boolean);
    const logLines = lines.flatMap((line, i) =>
      line.startsWith('{"resourceLogs"')
        ? [{ line: i + 1, records: readRequest(JSON.parse(line)).records }]
        : [],
    );
    return { variant, lines, logLines };
  });

describe("a log record whose span is not in its file", () => {
  it("is read from recordings that hold log records", () => {
    expect(official.length).toBeGreaterThan(5);
    for (const { logLines } of official)
      expect(logLines.flatMap((l) => l.records).length).toBeGreaterThan(0);
  });

  it.each(official)(
    "official-openai $variant: each span taken out is a problem of its records' line, and of no other",
    ({ lines, logLines }) => {
      for (const { line, records } of logLines) {
        const { traceId, spanId } = records[0]!;
        const naming = records.filter((r) => r.spanId === spanId).length;
        const { problems } = scanText(withoutSpan(lines, spanId));
        const what = naming === 1 ? "a log record names" : `${naming} log records name`;
        expect(problems).toEqual([
          {
            line,
            message: `${what} a span that is no model call of the file (the first: trace ${traceId}, span ${spanId}); what it says was called is joined to no model call`,
          },
        ]);
      }
    },
  );

  it("is said of a file written as one document, at its line", () => {
    const { lines, logLines } = official.find((o) => o.variant === "chat")!;
    const { spanId } = logLines[0]!.records[0]!;
    const requests = withoutSpan(lines, spanId)
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    // One document holding every request's spans and log records.
    const document = JSON.stringify(
      {
        resourceSpans: requests.flatMap((r) => r["resourceSpans"] ?? []),
        resourceLogs: requests.flatMap((r) => r["resourceLogs"] ?? []),
      },
      null,
      2,
    );
    const { problems } = scanText(document);
    expect(problems).toEqual([
      expect.objectContaining({
        line: 1,
        message: expect.stringContaining(
          `a span that is no model call of the file (the first: trace `,
        ),
      }),
    ]);
    expect(problems[0]!.message).toContain(`span ${spanId})`);
  });

  it("waits for its span to the file's end: a span after its records joins them", () => {
    const record = { traceId: "a".repeat(32), spanId: "b".repeat(16), called: [] };
    const own = new OwnRecords();
    own.add([record, { ...record, spanId: "c".repeat(16) }], 3);
    own.see(record.traceId, record.spanId);
    expect(own.problems()).toEqual([
      {
        line: 3,
        message: `a log record names a span that is no model call of the file (the first: trace ${"a".repeat(32)}, span ${"c".repeat(16)}); what it says was called is joined to no model call`,
      },
    ]);
  });

  it("read in a set, leaves to the set the records its first pass holds, and says the rest join only their own input", () => {
    const traceId = "a".repeat(32);
    const record = (spanId: string) => ({ traceId, spanId, called: [] });
    // The set's first pass kept the first record of this file's line 2, and none of line 3.
    const set = { records: [{ ...record("1".repeat(16)), file: 1, line: 2 }], file: 1 };
    const own = new OwnRecords(set);
    own.add([record("1".repeat(16)), record("2".repeat(16))], 2);
    own.add([record("3".repeat(16))], 3);
    expect(own.problems()).toEqual(
      [
        [2, "2".repeat(16)],
        [3, "3".repeat(16)],
      ].map(([line, spanId]) => ({
        line,
        message: `a log record names a span that is no model call of its own input, whose records join only that input's spans (the first: trace ${traceId}, span ${spanId}); what it says was called is joined to no model call`,
      })),
    );
  });

  it(`is said no more past ${MAX_OWN_KEPT} inference spans remembered, and that is said at the line`, () => {
    const own = new OwnRecords();
    const traceId = "a".repeat(32);
    const spanOf = (n: number) => n.toString(16).padStart(16, "0");
    for (let n = 0; n < MAX_OWN_KEPT; n++) own.see(traceId, spanOf(n));
    // Its span was seen: joined. Another may have been one past those remembered: not said missing.
    own.add([{ traceId, spanId: spanOf(7), called: [] }], 5);
    own.add([{ traceId, spanId: spanOf(MAX_OWN_KEPT + 1), called: [] }], 9);
    expect(own.problems()).toEqual([
      {
        line: 9,
        message: `the input holds more than ${MAX_OWN_KEPT.toLocaleString("en-US")} log records waiting for their span or inference spans; from here on a log record whose span is missing is not said`,
      },
    ]);
  });
});
