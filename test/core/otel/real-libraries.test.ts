import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { scanText } from "../../../src/core/traces/scan.js";
import { expectedCall, RECORDS, readCall, ROOT, truthOf, variants } from "./recorded-truth.js";

describe("model calls read from real instrumentation libraries' output", () => {
  it("has recordings of every library", () => {
    expect(new Set(variants.map(([library]) => library))).toEqual(new Set(Object.keys(RECORDS)));
  });

  it.each(variants)(
    "%s %s: every field as the fake server saw it, null where not recorded",
    (library, variant) => {
      const dir = join(ROOT, library);
      const truth = truthOf(library, variant);
      // A set whose spans and log records are in separate files is read as one.
      const text = truth.files.map((file) => readFileSync(join(dir, file), "utf8")).join("");
      const { traces, problems } = scanText(text);
      expect(problems).toEqual([]);
      for (const turn of truth.turns) {
        const found = traces.find((t) => t.trace.otel?.span_id === turn.span_id);
        expect(found, turn.turn_id).toBeDefined();
        const model = found!.trace.model!;
        expect(model, turn.turn_id).not.toBeNull();
        expect(readCall(turn.turn_id, model)).toEqual(expectedCall(library, truth, turn));
      }
    },
  );
});
