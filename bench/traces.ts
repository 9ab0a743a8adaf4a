/**
 * Trace scanning speed: the scanner's MB/s as a ratio to a baseline loop that splits lines and
 * JSON.parses those containing "trace", on a generated JSONL log (the commands' peak memory is
 * measured in commands.ts). Also the generated logs the other sections read.
 */
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { scanLogFile } from "../src/node/log-file.js";
import { baselineScan } from "./child.js";
import { timed, verdict } from "./measure.js";

const MB = 1024 * 1024;
const TOOLS = [
  "search",
  "get_weather",
  "sql",
  "delete_rows",
  "send_email",
  "calendar_lookup",
  "create_ticket",
  "vector_search",
  "final_answer",
  "ask_human",
];

export async function benchTraces(): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), "pi-bench-traces-"));
  const lines = ["traces (JSONL, one line in five a selection trace)"];
  try {
    const file = join(dir, "speed.jsonl");
    generateLog(file, 300 * MB);
    const baseline: number[] = [];
    const scanner: number[] = [];
    let found = 0;
    // Interleaved rounds, best of each: other processes on the machine slow both alike.
    for (let round = 0; round < 3; round++) {
      baseline.push(await timed(() => baselineScan(file)));
      scanner.push(
        await timed(async () => {
          found = (await scanLogFile(file, { keep: false })).traceCount;
        }),
      );
    }
    const rate = (ms: number) => 300 / (ms / 1000);
    const base = rate(Math.min(...baseline));
    const ours = rate(Math.min(...scanner));
    lines.push(
      `  speed, 300 MB, ${found} traces: scanner ${ours.toFixed(0)} MB/s, baseline split+JSON.parse ${base.toFixed(0)} MB/s → ${verdict(ours / base, 0.7, false)}`,
    );
    rmSync(file);
    return lines;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** How a generated log writes line `i`: a trace line, or another event. */
export interface LogShape {
  readonly trace: (i: number) => string;
  readonly event: (i: number) => string;
}

const JSONL: LogShape = { trace: traceLine, event: eventLine };

/**
 * Text lines (time, level, logger, then JSON) where a trace is small: one stage and three names,
 * as a service logs a palette beside its other events.
 */
export const SPARSE_TEXT: LogShape = {
  trace: (i) => {
    const names = [TOOLS[i % 3]!, TOOLS[3 + (i % 4)]!, "final_answer"];
    return `${stamp(i)} INFO symfonic.capabilities.tools ${JSON.stringify({
      event: "tool_selection",
      request_id: `r-${i}`,
      trace: [
        {
          stage: "intent",
          action: "select",
          kept: names,
          dropped: [TOOLS[7 + (i % 2)]!],
          added: [],
          reinstated: [],
          forced_choice: null,
          detail: "keyword intersection",
        },
      ],
      tools: names,
      forced_choice: null,
      error: null,
    })}`;
  },
  event: (i) => `${stamp(i)} INFO agent.http ${eventLine(i)}`,
};

/** A log of about `bytes`: request and model-call events, and every `every`-th line a tool_selection event (none for 0); JSONL unless `shape` says otherwise. Returns how many traces it holds. */
export function generateLog(file: string, bytes: number, every = 5, shape = JSONL): number {
  const fd = openSync(file, "w");
  let traces = 0;
  try {
    let written = 0;
    let batch: string[] = [];
    let batchBytes = 0;
    for (let i = 0; written < bytes; i++) {
      const trace = every > 0 && i % every === every - 1;
      if (trace) traces++;
      const line = trace ? shape.trace(i) : shape.event(i);
      batch.push(line);
      batchBytes += line.length + 1;
      if (batchBytes > 4 * MB || written + batchBytes >= bytes) {
        writeSync(fd, batch.join("\n") + "\n");
        written += batchBytes;
        batch = [];
        batchBytes = 0;
      }
    }
  } finally {
    closeSync(fd);
  }
  return traces;
}

function stamp(i: number): string {
  return new Date(Date.UTC(2025, 2, 14) + i * 37).toISOString();
}

export function eventLine(i: number): string {
  const event =
    i % 2 === 0
      ? {
          timestamp: stamp(i),
          level: "info",
          logger: "agent.http",
          event: "request",
          method: "POST",
          path: "/v1/chat",
          request_id: `r-${i}`,
          status: 200,
          duration_ms: 800 + (i % 300),
        }
      : {
          timestamp: stamp(i),
          level: "debug",
          logger: "agent.llm",
          event: "llm_call",
          request_id: `r-${i}`,
          model: "gpt-4o-mini",
          tokens_in: 1800 + (i % 97),
          tokens_out: 90 + (i % 41),
          latency_ms: 790 + (i % 211),
        };
  return JSON.stringify(event);
}

export function traceLine(i: number): string {
  const offered = TOOLS;
  const kept = offered.filter((_, k) => (k + i) % 3 !== 0);
  const dropped = offered.filter((_, k) => (k + i) % 3 === 0);
  const forced = i % 4 === 0 ? kept[0]! : null;
  const final = [...kept.slice(0, 3), "final_answer"].filter(
    (name, k, all) => all.indexOf(name) === k,
  );
  const record = (stage: string, action: string, extra: Record<string, unknown> = {}) => ({
    stage,
    action,
    kept,
    dropped: [],
    added: [],
    reinstated: [],
    forced_choice: forced,
    detail: "",
    ...extra,
  });
  const selection = {
    turn_id: `t-${i.toString(16)}`,
    offered,
    trace: [
      record("intent", "select", {
        dropped,
        detail: "action turn: keyword intersection",
        forced_choice: null,
      }),
      record("forced", "force", {
        detail: forced ? `resolver forces '${forced}'` : "no forced tool",
      }),
      record("role", "select", { detail: "palette of role 'analyst'" }),
      record("policy", "select", {
        kept: final.filter((n) => n !== "final_answer"),
        dropped: kept.slice(3),
        detail: "max safety medium, budget 0.05",
        reasons: Object.fromEntries(kept.slice(3).map((n) => [n, "safety level high > medium"])),
      }),
      record("allowlist", "select", {
        kept: final.filter((n) => n !== "final_answer"),
        added: ["final_answer"],
        detail: "re-added 1 mandated tool(s)",
      }),
    ],
    tools: final,
    forced_choice: forced,
    error: null,
  };
  return JSON.stringify({
    timestamp: stamp(i),
    level: "info",
    logger: "symfonic.capabilities.tools",
    event: "tool_selection",
    request_id: `r-${i}`,
    selection,
  });
}
