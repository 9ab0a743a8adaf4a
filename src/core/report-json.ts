import type { RunReport } from "./report.js";
import type { StageRecord } from "./contract.js";

/** A StageRecord in the snake_case of symfonic's logs and of the public JSON formats. */
export interface StageRecordJson {
  stage: string;
  action: StageRecord["action"];
  kept: string[];
  dropped: string[];
  added: string[];
  reinstated: string[];
  forced_choice: string | null;
  detail: string;
  degraded: boolean;
  reasons: Record<string, string>;
}

export function recordToJson(record: StageRecord): StageRecordJson {
  return {
    stage: record.stage,
    action: record.action,
    kept: [...record.kept],
    dropped: [...record.dropped],
    added: [...record.added],
    reinstated: [...record.reinstated],
    forced_choice: record.forcedChoice,
    detail: record.detail,
    degraded: record.degraded,
    reasons: { ...record.reasons },
  };
}

/** The `--json` output of `palette-inspector run` (docs/formats.md, "Command line"). */
export function reportToJson(report: RunReport): Record<string, unknown> {
  const json: Record<string, unknown> = {
    names: report.names,
    tools: report.tools,
    forced_choice: report.forcedChoice,
    trace: report.trace.map(recordToJson),
    error: report.error ? { kind: report.error.kind, message: report.error.message } : null,
    manifest: report.manifest,
  };
  if (report.capability) {
    const { outcome, names, forced, reason } = report.capability.palette;
    json.palette = { outcome, names, forced, reason };
  }
  if (report.model !== undefined) json.model = report.model;
  return json;
}
