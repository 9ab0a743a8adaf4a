import type { TraceSummary } from "../../core/traces/summary.js";
import type { StageAction } from "../../core/contract.js";

/** What the trace list is narrowed to. */
export type TraceFilter =
  | { readonly kind: "dropped"; readonly tool: string }
  | { readonly kind: "stageAction"; readonly stage: string; readonly action: StageAction }
  | { readonly kind: "errors" };

export function matchesFilter(summary: TraceSummary, filter: TraceFilter | null): boolean {
  if (filter === null) return true;
  switch (filter.kind) {
    case "dropped":
      return summary.stages.some((stage) => stage.dropped.includes(filter.tool));
    case "stageAction":
      return summary.stages.some(
        (stage) => stage.stage === filter.stage && stage.action === filter.action,
      );
    case "errors":
      return summary.error || summary.degraded;
  }
}

export function describeFilter(filter: TraceFilter): string {
  switch (filter.kind) {
    case "dropped":
      return `where '${filter.tool}' was dropped`;
    case "stageAction":
      return `where '${filter.stage}' did ${filter.action}`;
    case "errors":
      return "with errors or degraded stages";
  }
}
