import { readFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { recordToJson } from "../../../src/core/report-json.js";
import { reportFromTrace } from "../../../src/core/traces/report.js";
import { scanText } from "../../../src/core/traces/scan.js";
import { traceToFixture } from "../../../src/core/traces/to-fixture.js";
import { runJson } from "./engine.js";

describe("examples/logs", () => {
  it.each([
    "agent.log",
    "selection.jsonl",
    "traces.json.gz",
    "broken.log",
    "python-repr.log",
    "python-pprint.log",
    "structlog.log",
    "python-fields.log",
  ])(
    "%s holds traces the engine reproduces exactly",
    async (file) => {
      const path = `examples/logs/${file}`;
      const bytes = readFileSync(path);
      const { traces } = scanText(path.endsWith(".gz") ? gunzipSync(bytes) : bytes);
      expect(traces.length).toBeGreaterThan(0);
      for (const found of traces) {
        const { fixture, caveats } = traceToFixture(found.trace, { file: path, line: found.line });
        expect(caveats).toEqual([]);
        const replay = await runJson(fixture);
        const logged = reportFromTrace(found, path);
        expect(replay.trace.map(recordToJson)).toEqual(logged.trace.map(recordToJson));
        expect([replay.names, replay.forcedChoice, replay.error?.message ?? null]).toEqual([
          logged.names,
          logged.forcedChoice,
          logged.error?.message ?? null,
        ]);
      }
    },
    30_000,
  );
});
