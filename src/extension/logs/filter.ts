import type { TraceFilter } from "../../node/trace-index.js";

export type { TraceFilter } from "../../node/trace-index.js";

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
