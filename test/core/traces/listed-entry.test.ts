import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { scanText } from "../../../src/core/traces/scan.js";
import {
  summarizeTrace,
  traceEntryHead,
  traceEntryJson,
  traceEntryTail,
} from "../../../src/core/traces/summary.js";

const EXAMPLES = join(__dirname, "../../../examples/logs");

/**
 * The full reading: the summary, its entry object, printed and re-indented line by line (at LF
 * only: a regex's `^` also matches after U+2028 inside a name, which JSON leaves unescaped).
 */
function fullReading(log: string | Uint8Array, file: string): string[] {
  return scanText(log).traces.map((found) =>
    JSON.stringify(traceEntryJson(summarizeTrace(found), file), null, 2)
      .split("\n")
      .map((line) => `    ${line}`)
      .join("\n"),
  );
}

function listed(log: string | Uint8Array, file: string): string[] {
  return scanText(log).traces.map(
    (found) =>
      traceEntryHead(JSON.stringify(file), found.index, "    ") + traceEntryTail(found, "    "),
  );
}

const name = fc.string({ unit: "binary", maxLength: 12 });
const plainName = fc.stringMatching(/^[a-z_][a-z0-9_ ]{0,10}$/);

/** A trace of one to three records, with or without its final list, time and id. */
function traceOf(names: fc.Arbitrary<string>) {
  return fc.record(
    {
      trace: fc.array(
        fc.record({
          stage: plainName,
          action: fc.constantFrom("select", "abstain", "force"),
          kept: fc.array(names, { maxLength: 4 }),
          dropped: fc.array(names, { maxLength: 2 }),
          added: fc.array(names, { maxLength: 2 }),
          reinstated: fc.constant([]),
          forced_choice: fc.option(names),
          detail: fc.constant(""),
        }),
        { maxLength: 3 },
      ),
      tools: fc.array(names, { maxLength: 4 }),
      forced_choice: fc.option(names),
      ts: fc.oneof(fc.constant("2025-03-14T09:26:53.589Z"), fc.integer({ min: 1, max: 2e9 })),
      turn_id: fc.oneof(plainName, fc.integer({ min: 0, max: 1e6 })),
    },
    { requiredKeys: ["trace"] },
  );
}

/** A Python repr of a JSON value, as `repr()` writes plain strings, lists and None. */
function pyRepr(value: unknown): string {
  if (value === null) return "None";
  if (typeof value === "string") return `'${value}'`;
  if (typeof value === "number") return String(value);
  if (Array.isArray(value)) return `[${value.map(pyRepr).join(", ")}]`;
  return `{${Object.entries(value as object)
    .map(([k, v]) => `'${k}': ${pyRepr(v)}`)
    .join(", ")}}`;
}

describe("the listed entry of traces --json", () => {
  it("is what the full reading prints, for every trace of the example logs", () => {
    for (const file of readdirSync(EXAMPLES).filter((f) => !f.endsWith(".expected.json"))) {
      const bytes = readFileSync(join(EXAMPLES, file));
      const log = file.endsWith(".gz") ? gunzipSync(bytes) : bytes;
      const full = fullReading(log, file);
      expect(listed(log, file), file).toEqual(full);
      expect(full.length, file).toBeGreaterThan(0);
    }
  });

  it("is what the full reading prints for JSON lines and pretty-printed JSON over lines, any names", () => {
    fc.assert(
      fc.property(fc.array(traceOf(name), { minLength: 1, maxLength: 4 }), name, (traces, file) => {
        const log = [
          ...traces.map((t) => `INFO selection ${JSON.stringify(t)}`),
          ...traces.map((t) => JSON.stringify(t, null, 2)),
        ].join("\n");
        const full = fullReading(log, file);
        expect(full).toHaveLength(traces.length * 2);
        expect(listed(log, file)).toEqual(full);
      }),
    );
  });

  it("is what the full reading prints for a name holding a line or paragraph separator", () => {
    const log = JSON.stringify({ trace: [], tools: ["a\u2028b", "\u2029"] });
    expect(listed(log, "app.log")).toEqual(fullReading(log, "app.log"));
    expect(listed(log, "app.log")[0]).toContain('"names": [\n        "a\u2028b",');
  });

  it("is what the full reading prints for Python reprs and logfmt values", () => {
    fc.assert(
      fc.property(fc.array(traceOf(plainName), { minLength: 1, maxLength: 4 }), (traces) => {
        const log = [
          ...traces.map((t) => `INFO:root:selection ${pyRepr(t)}`),
          ...traces.map(
            (t) => `level=info event=tool_selection trace="${pyRepr(t.trace)}" turn_id=x`,
          ),
        ].join("\n");
        const full = fullReading(log, "app.log");
        expect(full).toHaveLength(traces.length * 2);
        expect(listed(log, "app.log")).toEqual(full);
      }),
    );
  });
});
