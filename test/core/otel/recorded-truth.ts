/**
 * The recordings of real instrumentation libraries (test/otel-libs/README.md), their truth, and
 * what each library records of a model call: what a test reading them expects of each turn.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { ModelCall } from "../../../src/core/traces/model-call.js";

export const ROOT = join(import.meta.dirname, "../../otel-libs/recordings");

interface Sent {
  readonly tools: readonly string[] | null;
  readonly tool_choice: unknown;
  readonly answered: readonly string[];
  readonly model: string;
}

export interface Truth {
  readonly api: "chat.completions" | "responses";
  readonly capture: boolean;
  readonly files: readonly string[];
  readonly turns: readonly {
    readonly turn_id: string;
    readonly trace_id: string;
    readonly span_id: string;
    readonly sent: readonly Sent[];
  }[];
}

/** What each library records of a model call (the README's table), so the rest must be null. */
interface Records {
  readonly offered: boolean;
  readonly called: boolean;
  readonly toolChoice: boolean;
  readonly convention: ModelCall["convention"];
}

export const RECORDS: Record<string, (truth: Truth) => Records> = {
  "official-openai": () => ({
    offered: false,
    called: true,
    toolChoice: false,
    convention: "gen_ai_logs",
  }),
  "traceloop-0.27": (t) => ({
    offered: t.capture && t.api === "chat.completions",
    called: t.capture && t.api === "chat.completions",
    toolChoice: false,
    convention: "gen_ai",
  }),
  "traceloop-0.22": (t) => ({
    offered: t.capture,
    called: t.capture,
    toolChoice: false,
    convention: "gen_ai_older",
  }),
  "openinference-openai": (t) => ({
    offered: true,
    called: t.capture,
    toolChoice: true,
    convention: "openinference",
  }),
  "openinference-agents": () => ({
    offered: true,
    called: true,
    toolChoice: true,
    convention: "openinference",
  }),
  "openinference-langchain": (t) => ({
    offered: true,
    called: t.capture && t.api === "chat.completions",
    toolChoice: true,
    convention: "openinference",
  }),
  "ai-sdk-7-otel": (t) => ({
    offered: t.capture,
    // With outputs off, its execute_tool spans still say what was called.
    called: true,
    // Written on the step span, the model call's parent.
    toolChoice: false,
    convention: "gen_ai",
  }),
  "ai-sdk-7-legacy": (t) => ({
    offered: t.capture,
    // With outputs off, its ai.toolCall spans still say what was called.
    called: true,
    toolChoice: t.capture,
    convention: "ai_sdk",
  }),
  "ai-sdk-6": (t) => ({
    offered: t.capture,
    called: true,
    toolChoice: t.capture,
    convention: "ai_sdk",
  }),
};

/** A tool choice as sent, as the model call reports it: unsent is the API's default. */
function sentChoice(sent: Sent): string | null {
  const choice = sent.tool_choice;
  if (choice === null || choice === undefined) return sent.tools?.length ? "auto" : "none";
  if (typeof choice === "string") return choice;
  const c = choice as { name?: string; function?: { name?: string }; type?: string };
  return c.name ?? c.function?.name ?? c.type ?? null;
}

export const variants = readdirSync(ROOT).flatMap((library) =>
  readdirSync(join(ROOT, library))
    .filter((file) => file.endsWith(".truth.json"))
    .map((file) => [library, file.slice(0, -".truth.json".length)] as const),
);

/** A recording's truth, read. */
export function truthOf(library: string, variant: string): Truth {
  return JSON.parse(readFileSync(join(ROOT, library, `${variant}.truth.json`), "utf8")) as Truth;
}

/** A turn's model call as the library records it: every field as the fake server saw it, null where not recorded. */
export function expectedCall(library: string, truth: Truth, turn: Truth["turns"][number]) {
  const records = RECORDS[library]!(truth);
  const sent = turn.sent[0]!;
  return {
    turn: turn.turn_id,
    convention: records.convention,
    model: sent.model,
    offered: records.offered ? (sent.tools ?? []) : null,
    called: records.called ? sent.answered : null,
    tool_choice: records.toolChoice ? sentChoice(sent) : null,
  };
}

/** What of a model call expectedCall names. */
export function readCall(turn: string, model: ModelCall) {
  const { convention, tool_choice, offered, called } = model;
  return { turn, convention, model: model.model, offered, called, tool_choice };
}
