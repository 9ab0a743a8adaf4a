/**
 * "Turn into fixture": a turn fixture whose pipeline of scripted stages replays a logged trace,
 * so that the user can swap one stage for a configured one and ask what-if. Running it
 * reproduces every record, the final names and the forced choice, except in the cases listed
 * as caveats (a log a scripted stage cannot play back, or lists that contradict each other).
 */
import type { FixtureJson, ScriptedOutcomeJson, StageJson } from "../fixture/schema.js";
import { toolName, toolNames, type Tool } from "../tools.js";
import { nameOrder } from "./order.js";
import type { LoggedRecord, LoggedTrace } from "./trace.js";
import { pushAll } from "../arrays.js";

export interface TraceFixture {
  readonly fixture: FixtureJson;
  /** Sentences naming what the replay cannot reproduce; empty when it reproduces the trace exactly. */
  readonly caveats: readonly string[];
}

type ScriptedJson = Extract<StageJson, { kind: "scripted" }>;

export function traceToFixture(
  trace: LoggedTrace,
  /** Where the trace is from: a log and its line, or (line null) a receiver's place for a turn. */
  source: { readonly file: string; readonly line: number | null },
): TraceFixture {
  const caveats: string[] = [];
  const { records } = trace;
  const order = nameOrder(
    records,
    trace.offered && toolNames(trace.offered),
    trace.tools && toolNames(trace.tools),
  );
  if (!order.consistent)
    caveats.push(
      "the trace's lists of kept, dropped and added tools contradict each other; the order of tools may differ",
    );
  // A tool with no name never shows in a record: the final tools are where the log says it survived.
  const unnamedFinal = (trace.tools ?? []).filter(isUnnamed);
  const offered: Tool[] = trace.offered
    ? [...trace.offered]
    : [...(order.inputs[0] ?? order.final), ...unnamedFinal];
  const offeredNames = new Set(toolNames(offered));

  const pipeline: ScriptedJson[] = [];
  const stageNames = new Set<string>();
  let forced: string | null = null;
  records.forEach((record, k) => {
    const name = uniqueName(record.stage, k, stageNames, caveats);
    const output = order.inputs[k + 1] ?? order.final;
    pipeline.push(scripted(record, name, output, unnamedFinal.length > 0));
    if (record.action !== "force" && record.forced_choice !== forced) {
      caveats.push(
        `stage '${record.stage}' (${record.action}) changed the forced choice to ${show(record.forced_choice)}; a scripted stage changes it only with a force, so the replay does not`,
      );
    }
    if (
      record.action !== "select" &&
      record.dropped.length + record.added.length + record.reinstated.length > 0
    ) {
      caveats.push(
        `stage '${record.stage}' (${record.action}) dropped, added or reinstated tools; the replay leaves the tools alone as the engine does`,
      );
    }
    if (record.action === "error" && record.degraded === false)
      caveats.push(
        `stage '${record.stage}' raised but is not marked degraded; the replay marks it degraded as the engine does`,
      );
    forced = record.forced_choice;
  });

  pushAll(caveats, unnamedCaveats(offered.filter(isUnnamed), unnamedFinal, pipeline));

  // A selected name neither offered nor catalogued is a fixture error: catalogue the ones a stage added from elsewhere.
  const extra: string[] = [];
  for (const record of records) {
    if (record.action !== "select") continue;
    for (const name of record.added)
      if (!offeredNames.has(name) && !extra.includes(name)) extra.push(name);
  }

  const fixture: FixtureJson = {
    description: `replay of the selection trace ${source.line === null ? `received at ${source.file}` : `logged at ${source.file}:${source.line}`}${trace.id !== null ? ` (id ${trace.id})` : ""}`,
    ...(extra.length > 0 ? { catalog: extra.map((name) => ({ name })) } : {}),
    offered: offered as FixtureJson["offered"],
    ...(trace.turn ? { turn: { ...trace.turn } as FixtureJson["turn"] } : {}),
    pipeline,
    expect: {
      names: [...(trace.tools ? toolNames(trace.tools) : order.final)],
      forced_choice:
        trace.forcedChoice !== undefined
          ? trace.forcedChoice
          : (records.at(-1)?.forced_choice ?? null),
      ...(trace.error ? { error: "ForcedToolUnavailable" as const } : {}),
    },
  };
  return { fixture, caveats };
}

/** The scripted stage that answers as the record shows; `output` is what the next stage ran over. */
function scripted(
  record: LoggedRecord,
  name: string,
  output: readonly string[],
  keepsUnnamed: boolean,
): ScriptedJson {
  const stage: ScriptedJson = { kind: "scripted", name, outcome: outcome(record, output) };
  if (keepsUnnamed && record.action === "select") stage.keeps_unnamed = true;
  // The forced tool (in effect during a select) left the set and the pipeline did not put it back: a hard filter.
  const forced = record.forced_choice;
  if (record.action === "select" && forced !== null && record.dropped.includes(forced))
    stage.protects_forced = false;
  if (record.action !== "error" && record.detail !== "") stage.detail = record.detail;
  if (record.action !== "error" && record.degraded === true) stage.degraded = true;
  if (record.action === "select" && record.reasons && Object.keys(record.reasons).length > 0)
    stage.reasons = { ...record.reasons };
  return stage;
}

function outcome(record: LoggedRecord, output: readonly string[]): ScriptedOutcomeJson {
  switch (record.action) {
    case "abstain":
      return { abstain: true };
    case "force":
      return { force: record.forced_choice };
    case "error":
      return { raise: record.detail };
    case "select":
      // A reinstated tool was missing from the stage's own answer; the pipeline appends it again.
      return { select: output.filter((name) => !record.reinstated.includes(name)) };
  }
}

function isUnnamed(tool: Tool): boolean {
  return toolName(tool) === null;
}

/**
 * What the replay cannot know about unnamed tools: the log shows them only where they were
 * offered and in the final tools, never in a record, so which stage dropped one is unknown.
 */
function unnamedCaveats(
  offered: readonly Tool[],
  final: readonly Tool[],
  pipeline: readonly ScriptedJson[],
): string[] {
  if (offered.length === final.length) return [];
  const kept = new Set(final.map((tool) => JSON.stringify(tool)));
  const lost = offered.filter((tool) => !kept.has(JSON.stringify(tool))).map(describeTool);
  const selecting = pipeline.find((stage) => "select" in stage.outcome);
  const where =
    final.length > 0
      ? "the replay keeps every unnamed tool through each stage, as the final tools show some kept"
      : selecting
        ? `the replay drops it at the first stage that selects, '${selecting.name}'`
        : "no stage of the replay selects, so the replay keeps it";
  return [`the log does not say which stage dropped the unnamed tool ${lost.join(", ")}; ${where}`];
}

/** An unnamed tool as the log showed it: its repr, else its JSON (cut to a label's length). */
function describeTool(tool: Tool): string {
  const repr = typeof tool === "object" ? tool.repr : undefined;
  const text = typeof repr === "string" ? repr : JSON.stringify(tool);
  return text.length > 80 ? `${text.slice(0, 79)}…` : text;
}

function uniqueName(stage: string, k: number, taken: Set<string>, caveats: string[]): string {
  let name = stage === "" ? `stage ${k + 1}` : stage;
  for (let n = 2; taken.has(name); n++) name = `${stage} (${n})`;
  if (name !== stage)
    caveats.push(
      `stage ${k + 1} is renamed '${name}': a fixture needs unique, non-empty stage names`,
    );
  taken.add(name);
  return name;
}

function show(name: string | null): string {
  return name === null ? "none" : `'${name}'`;
}
