import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { scanText } from "../../../src/core/traces/scan.js";
import type { ModelCall } from "../../../src/core/traces/model-call.js";

/** The recordings of real instrumentation libraries (test/otel-libs/README.md) and their truth. */
const ROOT = join(import.meta.dirname, "../../otel-libs/recordings");

interface Sent {
  readonly tools: readonly string[] | null;
  readonly tool_choice: unknown;
  readonly answered: readonly string[];
  readonly model: string;
}

interface Truth {
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

const RECORDS: Record<string, (truth: Truth) => Records> = {
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

const variants = readdirSync(ROOT).flatMap((library) =>
  readdirSync(join(ROOT, library))
    .filter((file) => file.endsWith(".truth.json"))
    .map((file) => [library, file.slice(0, -".truth.json".length)] as const),
);

describe("model calls read from real instrumentation libraries' output", () => {
  it("has recordings of every library", () => {
    expect(new Set(variants.map(([library]) => library))).toEqual(new Set(Object.keys(RECORDS)));
  });

  it.each(variants)(
    "%s %s: every field as the fake server saw it, null where not recorded",
    (library, variant) => {
      const dir = join(ROOT, library);
      const truth = JSON.parse(readFileSync(join(dir, `${variant}.truth.json`), "utf8")) as Truth;
      // A set whose spans and log records are in separate files is read as one.
      const text = truth.files.map((file) => readFileSync(join(dir, file), "utf8")).join("");
      const { traces, problems } = scanText(text);
      expect(problems).toEqual([]);
      const records = RECORDS[library]!(truth);
      for (const turn of truth.turns) {
        const found = traces.find((t) => t.trace.otel?.span_id === turn.span_id);
        expect(found, turn.turn_id).toBeDefined();
        const model = found!.trace.model!;
        const sent = turn.sent[0]!;
        expect(model, turn.turn_id).not.toBeNull();
        const { convention, tool_choice, offered, called } = model;
        expect({
          turn: turn.turn_id,
          convention,
          model: model.model,
          offered,
          called,
          tool_choice,
        }).toEqual({
          turn: turn.turn_id,
          convention: records.convention,
          model: sent.model,
          offered: records.offered ? (sent.tools ?? []) : null,
          called: records.called ? sent.answered : null,
          tool_choice: records.toolChoice ? sentChoice(sent) : null,
        });
      }
    },
  );
});
