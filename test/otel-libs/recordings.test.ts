// The recordings of real instrumentation libraries (test/otel-libs/README.md) are well-formed OTLP/JSON
// lines, and each truth file's turns are in its recording. Reads only the committed files: the
// generator's own packages need not be installed.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const RECORDINGS = join(import.meta.dirname, "recordings");
/** The recordings are test data in the repository: they stay small. */
const MAX_TOTAL_BYTES = 1_000_000;

interface Sent {
  readonly endpoint: string;
  readonly model: string | null;
  readonly stream: boolean;
  readonly tools: readonly (string | null)[] | null;
  readonly tool_choice: unknown;
  readonly answered: readonly string[];
}
interface Selection {
  readonly tools: readonly string[];
  readonly forced_choice: string | null;
}
interface Turn {
  readonly turn_id: string;
  readonly scenario: string;
  readonly trace_id: string;
  readonly span_id: string;
  readonly selection: { readonly turn_id: string };
  readonly sent: readonly Sent[];
}
interface Truth {
  readonly library: { readonly name: string; readonly version: string };
  readonly variant: string;
  readonly capture: boolean;
  readonly files: readonly string[];
  /** Each signal's request of a one-turn variant, as the protobuf body an OTLP/HTTP exporter sends. */
  readonly protobuf?: readonly string[];
  readonly turns: readonly Turn[];
}
type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value);
const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

const libraries = readdirSync(RECORDINGS).filter((name) =>
  statSync(join(RECORDINGS, name)).isDirectory(),
);
const truthFiles = libraries.flatMap((library) =>
  readdirSync(join(RECORDINGS, library))
    .filter((name) => name.endsWith(".truth.json"))
    .map((name) => join(library, name)),
);

interface Recorded {
  readonly spans: Json[];
  readonly logRecords: Json[];
}

/** Every span and log record of one OTLP/JSON-lines file, after checking each line's shape. */
function readRecording(path: string): Recorded {
  const spans: Json[] = [];
  const logRecords: Json[] = [];
  const lines = readFileSync(path, "utf8").split("\n");
  expect(lines.at(-1), `${path} ends with a newline`).toBe("");
  for (const [index, line] of lines.slice(0, -1).entries()) {
    const where = `${path}:${index + 1}`;
    const request: unknown = JSON.parse(line);
    expect(isObject(request), where).toBe(true);
    const keys = Object.keys(request as Json);
    expect(keys, `${where} holds one signal`).toHaveLength(1);
    const [signal] = keys;
    expect(["resourceSpans", "resourceLogs"], where).toContain(signal);
    for (const resource of list((request as Json)[signal!])) {
      expect(isObject(resource) && isObject(resource.resource), `${where} resource`).toBe(true);
      const scopes = list(
        (resource as Json)[signal === "resourceSpans" ? "scopeSpans" : "scopeLogs"],
      );
      for (const scope of scopes) {
        expect(isObject(scope) && isObject(scope.scope), `${where} scope`).toBe(true);
        const items = list((scope as Json)[signal === "resourceSpans" ? "spans" : "logRecords"]);
        expect(items.length, `${where} has items`).toBeGreaterThan(0);
        for (const item of items) {
          expect(isObject(item), where).toBe(true);
          (signal === "resourceSpans" ? spans : logRecords).push(item as Json);
        }
      }
    }
  }
  for (const span of spans) {
    expect(span.traceId, path).toMatch(/^[0-9a-f]{32}$/);
    expect(span.spanId, path).toMatch(/^[0-9a-f]{16}$/);
    expect(span.startTimeUnixNano, path).toMatch(/^\d+$/);
  }
  for (const record of logRecords) {
    if (record.traceId !== undefined) expect(record.traceId, path).toMatch(/^[0-9a-f]{32}$/);
    if (record.spanId !== undefined) expect(record.spanId, path).toMatch(/^[0-9a-f]{16}$/);
  }
  return { spans, logRecords };
}

/** The tool a request's `tool_choice` forces (Chat Completions' or the Responses API's shape), or null. */
function forcedName(toolChoice: unknown): string | null {
  if (!isObject(toolChoice)) return null;
  const name = isObject(toolChoice.function) ? toolChoice.function.name : toolChoice.name;
  return typeof name === "string" ? name : null;
}

/** The `symfonic.selection` attribute of the span's `symfonic.tool_selection` event, parsed. */
function selectionOf(span: Json): unknown {
  const event = list(span.events).find((e) => isObject(e) && e.name === "symfonic.tool_selection");
  const attribute = list((event as Json | undefined)?.attributes).find(
    (a) => isObject(a) && a.key === "symfonic.selection",
  ) as Json | undefined;
  const value = (attribute?.value as Json | undefined)?.stringValue;
  return typeof value === "string" ? JSON.parse(value) : undefined;
}

describe("the recordings of real instrumentation libraries", () => {
  it("hold every library's truth files and stay under 1 MB in all", () => {
    expect(truthFiles.length).toBeGreaterThan(0);
    const total = libraries
      .flatMap((library) =>
        readdirSync(join(RECORDINGS, library)).map((name) => join(RECORDINGS, library, name)),
      )
      .reduce((sum, path) => sum + statSync(path).size, 0);
    expect(total).toBeLessThan(MAX_TOTAL_BYTES);
  });

  it("are each named by a truth file, and the protobuf requests are not empty", () => {
    const named = new Set(
      truthFiles.flatMap((truthFile) => {
        const truth = JSON.parse(readFileSync(join(RECORDINGS, truthFile), "utf8")) as Truth;
        return [...truth.files, ...(truth.protobuf ?? [])].map((file) =>
          join(truthFile, "..", file),
        );
      }),
    );
    const recordings = libraries.flatMap((library) =>
      readdirSync(join(RECORDINGS, library))
        .filter((name) => !name.endsWith(".truth.json"))
        .map((name) => join(library, name)),
    );
    expect(recordings.filter((file) => !named.has(file))).toEqual([]);
    for (const file of recordings.filter((name) => name.endsWith(".otlp.pb"))) {
      expect(statSync(join(RECORDINGS, file)).size, file).toBeGreaterThan(0);
    }
    expect([...named].filter((file) => !recordings.includes(file))).toEqual([]);
  });

  it("give every turn a trace of its own, across all of them", () => {
    const traceIds = truthFiles.flatMap((truthFile) => {
      const truth = JSON.parse(readFileSync(join(RECORDINGS, truthFile), "utf8")) as Truth;
      return truth.turns.map((turn) => turn.trace_id);
    });
    expect(new Set(traceIds).size).toBe(traceIds.length);
  });

  describe.each(truthFiles)("%s", (truthFile) => {
    const truth = JSON.parse(readFileSync(join(RECORDINGS, truthFile), "utf8")) as Truth;
    const recorded = truth.files.map((file) =>
      readRecording(join(RECORDINGS, truthFile, "..", file)),
    );
    const spans = recorded.flatMap((r) => r.spans);

    it("names the library, its version and at least one turn", () => {
      expect(truth.library.name).not.toBe("");
      expect(truth.library.version).toMatch(/^\d+\.\d+\.\d+/);
      expect(truth.turns.length).toBeGreaterThan(0);
    });

    it("has each turn's selection event, as the truth wrote it, on the turn's span", () => {
      for (const turn of truth.turns) {
        const span = spans.find((s) => s.traceId === turn.trace_id && s.spanId === turn.span_id);
        expect(span, turn.turn_id).toBeDefined();
        expect(selectionOf(span!), turn.turn_id).toEqual(turn.selection);
        expect(turn.selection.turn_id).toBe(turn.turn_id);
      }
    });

    it("sent what each scenario is about: a dropped tool offered, a forced tool forced or not", () => {
      for (const turn of truth.turns) {
        const [first] = turn.sent;
        const { tools, forced_choice } = turn.selection as unknown as Selection;
        const offeredNotFinal = (first?.tools ?? []).filter((name) => !tools.includes(name!));
        expect(offeredNotFinal.length > 0, turn.turn_id).toBe(turn.scenario === "dropped");
        const forcedTool = forcedName(first?.tool_choice);
        if (turn.scenario === "forced") expect(forcedTool, turn.turn_id).toBe(forced_choice);
        else expect(forcedTool, turn.turn_id).toBeNull();
      }
    });

    it("has a span of the library beside each turn's selection, and each turn sent a model request", () => {
      for (const turn of truth.turns) {
        const others = spans.filter(
          (s) => s.traceId === turn.trace_id && s.spanId !== turn.span_id,
        );
        expect(others.length, turn.turn_id).toBeGreaterThan(0);
        expect(turn.sent.length, turn.turn_id).toBeGreaterThan(0);
        for (const sent of turn.sent) {
          expect(["chat.completions", "responses"]).toContain(sent.endpoint);
          expect(typeof sent.model).toBe("string");
        }
      }
    });
  });
});
