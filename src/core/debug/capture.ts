/**
 * "Capture Turn Fixture": the configuration a paused program's ToolSelectionPipeline holds (read by
 * the probe from the attributes the built-in stages' constructors set), written as an editable
 * turn fixture, then replayed here and compared with what the program recorded on this turn. A
 * stage that is not data (a resolver function, an adopter's own class), or whose configured replay
 * decides otherwise, is played back as a scripted stage with the outcome it produced, and says so.
 */
import { DEFAULT_SAFETY_LEVELS } from "../catalog.js";
import { loadFixture } from "../fixture/load.js";
import type { CatalogEntryJson, FixtureJson, StageJson } from "../fixture/schema.js";
import type { RunReport } from "../report.js";
import { runFixture } from "../run-fixture.js";
import { traceToFixture } from "../traces/to-fixture.js";
import {
  isJsonObject,
  own,
  validateTrace,
  type LoggedRecord,
  type LoggedTrace,
} from "../traces/trace.js";
import { counted } from "../words.js";

type Json = { readonly [key: string]: unknown };
/** One constructor attribute as the probe describes it. */
type Setting = Json;

export interface CapturedTurn {
  readonly fixture: FixtureJson;
  /** Sentences: each stage played back rather than configured, and why. */
  readonly notes: readonly string[];
  /** Where the replay still differs from the recorded trace (empty: identical), or why it was not checked. */
  readonly differences: readonly string[];
}

export type CaptureRead =
  | { readonly ok: true; readonly capture: CapturedTurn }
  /** Not exactly one pipeline among the frame's locals: the names of those found. */
  | { readonly ok: false; readonly pipelines: readonly string[] }
  | { readonly ok: false; readonly problem: string };

type ConfiguredKind = "intent" | "lazy" | "allowlist" | "role" | "forced" | "policy";

const BUILT_IN: Readonly<Record<string, ConfiguredKind>> = {
  IntentRoutingStage: "intent",
  LazyRoutingStage: "lazy",
  AllowlistStage: "allowlist",
  RolePaletteStage: "role",
  ForcedChoiceStage: "forced",
  PolicyStage: "policy",
};

class NotData extends Error {}
class CaptureProblem extends Error {}

const isNames = (value: unknown): value is string[] =>
  Array.isArray(value) && value.every((item) => typeof item === "string");

/** The probe's capture output (probe.ts `capture`) as a fixture, replayed and checked. */
export async function captureFixture(output: Json, description: string): Promise<CaptureRead> {
  if (own(output, "kind") === "pipelines") {
    const names = own(output, "names");
    return { ok: false, pipelines: isNames(names) ? names : [] };
  }
  const stages = own(output, "stages");
  if (!Array.isArray(stages) || !stages.every(isJsonObject))
    return { ok: false, problem: "the pipeline's stages could not be read" };
  let trace: LoggedTrace | null = null;
  const rawTrace = own(output, "trace");
  if (isJsonObject(rawTrace)) {
    const checked = validateTrace(rawTrace);
    if ("problem" in checked) return { ok: false, problem: checked.problem };
    trace = checked.trace;
    if (trace.records.length !== stages.length)
      return {
        ok: false,
        problem: `the SelectionResult in the frame has ${counted(trace.records.length, "stage record")} but the pipeline has ${counted(stages.length, "stage")}; it is not this pipeline's result`,
      };
  }

  const catalog = firstCatalog(stages);
  const replay = trace
    ? traceToFixture(trace, { file: "the debug session", line: 0 }).fixture
    : null;
  const notes: string[] = [];
  let pipeline: StageJson[];
  try {
    pipeline = stages.map((stage, k) => {
      const played = replay?.pipeline?.[k];
      const label = stageLabel(stage, k);
      const kind = BUILT_IN[String(own(stage, "class"))];
      try {
        if (kind === undefined)
          throw new NotData(`it is an adopter's own stage class (${String(own(stage, "class"))})`);
        return configured(kind, stage);
      } catch (error) {
        if (!(error instanceof NotData)) throw error;
        if (!played)
          throw new CaptureProblem(
            `${label} is not data (${error.message}) and the frame holds no SelectionResult of this turn to play it back from`,
          );
        notes.push(`${label} is played back as it answered on this turn: ${error.message}`);
        return played;
      }
    });
  } catch (error) {
    if (error instanceof CaptureProblem) return { ok: false, problem: error.message };
    throw error;
  }

  const turn = turnOf(own(output, "turn"), pipeline);
  const offered = own(output, "offered");
  const fixture: FixtureJson = {
    description,
    ...(catalog ? { catalog } : {}),
    offered: (Array.isArray(offered) ? offered : (replay?.offered ?? [])) as FixtureJson["offered"],
    ...(turn ? { turn } : {}),
    pipeline,
    ...(replay?.expect ? { expect: replay.expect } : {}),
  };
  if (trace === null)
    return {
      ok: true,
      capture: {
        fixture,
        notes,
        differences: [
          "no SelectionResult of this turn in the frame, so the replay was not checked",
        ],
      },
    };
  return { ok: true, capture: await settle(fixture, trace, replay!, notes) };
}

/** Replays the fixture; a configured stage that decides otherwise than recorded is played back instead. */
async function settle(
  fixture: FixtureJson,
  trace: LoggedTrace,
  replay: FixtureJson,
  notes: string[],
): Promise<CapturedTurn> {
  let current = fixture;
  // Each round returns or plays one more configured stage back (as scripted), so it ends.
  for (;;) {
    const report = await run(current);
    if (typeof report === "string") return { fixture: current, notes, differences: [report] };
    const k = trace.records.findIndex((record, i) => decisionDiffers(record, report, i));
    if (k === -1) return { fixture: current, notes, differences: detailDifferences(trace, report) };
    const stage = current.pipeline![k]!;
    const why = difference(trace.records[k]!, report, k);
    if (stage.kind === "scripted")
      return {
        fixture: current,
        notes,
        differences: [`stage ${k + 1} '${trace.records[k]!.stage}': ${why}`],
      };
    notes.push(
      `stage ${k + 1} '${trace.records[k]!.stage}' (${stage.kind}) is played back as recorded: replaying its configuration, ${why}`,
    );
    const pipeline = [...current.pipeline!];
    pipeline[k] = replay.pipeline![k]!;
    current = { ...current, pipeline };
  }
}

async function run(fixture: FixtureJson): Promise<RunReport | string> {
  const loaded = await loadFixture(
    { file: "captured.turn.json", text: JSON.stringify(fixture) },
    () => Promise.reject(new Error("a captured fixture names no catalogue file")),
  );
  if (!loaded.ok)
    return `the captured fixture is not valid: ${loaded.problems.map((problem) => problem.message).join("; ")}`;
  return runFixture(loaded.fixture);
}

// The replay runs the captured stages, one record each, as many as the trace has (checked above).
function decisionDiffers(record: LoggedRecord, report: RunReport, k: number): boolean {
  const ran = report.trace[k]!;
  return (
    ran.stage !== record.stage ||
    ran.action !== record.action ||
    ran.forcedChoice !== record.forced_choice ||
    !same(ran.kept, record.kept) ||
    !same(ran.dropped, record.dropped) ||
    !same(ran.added, record.added) ||
    !same(ran.reinstated, record.reinstated)
  );
}

function difference(record: LoggedRecord, report: RunReport, k: number): string {
  const ran = report.trace[k]!;
  if (ran.action !== record.action)
    return `the replay ${ran.action}s where the program's stage did ${record.action}`;
  if (ran.forcedChoice !== record.forced_choice)
    return `the replay's forced choice is ${show(ran.forcedChoice)}, the program's ${show(record.forced_choice)}`;
  for (const field of ["kept", "dropped", "added", "reinstated"] as const) {
    if (!same(ran[field], record[field]))
      return `the replay ${field} [${ran[field].join(", ")}], the program [${record[field].join(", ")}]`;
  }
  return `the replay names the stage '${ran.stage}'`;
}

function detailDifferences(trace: LoggedTrace, report: RunReport): string[] {
  return trace.records.flatMap((record, k) => {
    const ran = report.trace[k]!;
    return ran.detail === record.detail
      ? []
      : [
          `stage ${k + 1} '${record.stage}' decides the same but its detail reads '${ran.detail}', the program's '${record.detail}'`,
        ];
  });
}

const same = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((name, i) => name === b[i]);

const show = (name: string | null) => (name === null ? "none" : `'${name}'`);

function stageLabel(stage: Json, k: number): string {
  const name = own(stage, "name");
  return `stage ${k + 1} '${typeof name === "string" ? name : String(own(stage, "class"))}'`;
}

/** The first catalogue a stage holds, as fixture entries (fields the catalogue schema knows). */
function firstCatalog(stages: readonly Json[]): CatalogEntryJson[] | null {
  for (const stage of stages) {
    const setting = settingOf(stage, "_catalog");
    const entries = setting && own(setting, "catalog");
    if (Array.isArray(entries))
      return entries
        .filter(isJsonObject)
        .map(catalogEntry)
        .filter((e) => e !== null);
  }
  return null;
}

function catalogEntry(row: Json): CatalogEntryJson | null {
  const name = own(row, "name");
  if (typeof name !== "string" || name === "") return null;
  const entry: Record<string, unknown> = { name };
  const summary = own(row, "summary");
  if (typeof summary === "string" && summary !== "") entry.summary = summary;
  const visibility = own(row, "visibility");
  if (visibility === "internal") entry.visibility = "internal";
  for (const key of ["cost_usd"] as const) {
    const value = own(row, key);
    if (typeof value === "number" && value >= 0) entry[key] = value;
  }
  for (const key of ["safety_level", "requires_capability", "category"] as const) {
    const value = own(row, key);
    if (typeof value === "string") entry[key] = value;
  }
  const keywords = own(row, "trigger_keywords");
  if (isNames(keywords) && keywords.length > 0) entry.trigger_keywords = keywords;
  return entry as CatalogEntryJson;
}

function settingOf(stage: Json, key: string): Setting | undefined {
  const settings = own(stage, "settings");
  const setting = isJsonObject(settings) ? own(settings, key) : undefined;
  return isJsonObject(setting) ? setting : undefined;
}

/** An attribute that is plain data; anything else (a function, an object) cannot be written down. */
function data(stage: Json, key: string, fallback: unknown = null): unknown {
  const setting = settingOf(stage, key);
  if (setting === undefined) return fallback;
  if (Object.hasOwn(setting, "data")) return own(setting, "data");
  const type = own(setting, "object");
  const name = own(setting, "name");
  throw new NotData(
    `its ${key} is a ${String(type)}${typeof name === "string" ? ` (${name})` : ""}, not data`,
  );
}

function names(stage: Json, key: string): string[] {
  const value = data(stage, key, []);
  if (!isNames(value)) throw new NotData(`its ${key} is not a list of tool names`);
  return value;
}

function configured(kind: ConfiguredKind, stage: Json): StageJson {
  const name = own(stage, "name");
  const common = {
    ...(typeof name === "string" ? { name } : {}),
    ...(own(stage, "protects_forced") === false ? { protects_forced: false } : {}),
  };
  switch (kind) {
    case "intent": {
      const verdict = data(stage, "_verdict");
      if (verdict !== null && !(isJsonObject(verdict) && typeof own(verdict, "label") === "string"))
        throw new NotData("its verdict has no label");
      const keywords = data(stage, "_trigger_keywords", {});
      if (!isJsonObject(keywords) || !Object.values(keywords).every(isNames))
        throw new NotData("its trigger keywords are not a map of tool name to keywords");
      return {
        kind,
        ...common,
        verdict:
          verdict === null
            ? null
            : {
                label: own(verdict as Json, "label") as string,
                matched_tool_keywords: isNames(own(verdict as Json, "matched_tool_keywords"))
                  ? (own(verdict as Json, "matched_tool_keywords") as string[])
                  : [],
              },
        // Always written: without it the replay would read keywords from the catalogue, which symfonic does not.
        trigger_keywords: keywords as Record<string, string[]>,
        always_include: names(stage, "_always_include"),
      } as StageJson;
    }
    case "lazy": {
      const allowed = data(stage, "_allowed");
      if (allowed !== null && !isNames(allowed))
        throw new NotData("its allowed names are not a list of names");
      return { kind, ...common, allowed_names: allowed } as StageJson;
    }
    case "allowlist": {
      const catalog = settingOf(stage, "_catalog");
      const uses =
        catalog !== undefined && !(Object.hasOwn(catalog, "data") && own(catalog, "data") === null);
      // A catalogue the probe could read is the fixture's (firstCatalog).
      if (uses && !Array.isArray(own(catalog, "catalog")))
        throw new NotData("its catalogue could not be read");
      return {
        kind,
        ...common,
        always_include: names(stage, "_always_include"),
        use_catalog: uses,
      } as StageJson;
    }
    case "role": {
      const resolver = data(stage, "_resolver");
      const role = data(stage, "_role", "");
      if (
        resolver !== null &&
        !(isJsonObject(resolver) && Object.values(resolver).every((v) => v === null || isNames(v)))
      )
        throw new NotData("its resolver is not a map of role to tool names");
      return {
        kind,
        ...common,
        ...(typeof role === "string" && role !== "" ? { role } : {}),
        ...(resolver === null ? {} : { role_tools: resolver }),
      } as StageJson;
    }
    case "forced": {
      const resolver = data(stage, "_resolver");
      if (resolver !== null) throw new NotData("its resolver is data the fixture cannot express");
      const rule = settingOf(stage, "_is_tool_message");
      if (rule && own(rule, "name") !== "_default_is_tool_message")
        throw new NotData("it has its own rule for what a tool message is");
      const key = data(stage, "_state_key", "forced_tool_choice");
      return {
        kind,
        ...common,
        state_key: typeof key === "string" ? key : "forced_tool_choice",
        resolver: null,
      } as StageJson;
    }
    case "policy": {
      const rank = data(stage, "_max_safety_rank");
      if (
        rank !== null &&
        !(Number.isInteger(rank) && DEFAULT_SAFETY_LEVELS[rank as number] !== undefined)
      )
        throw new NotData("its safety ceiling is not on the default scale");
      const budget = data(stage, "_budget_usd");
      const categories = data(stage, "_categories");
      const capabilities = data(stage, "_available_capabilities");
      return {
        kind,
        ...common,
        max_safety_level: rank === null ? null : DEFAULT_SAFETY_LEVELS[rank as number]!,
        budget_usd: typeof budget === "number" ? budget : null,
        include_unknown_cost: data(stage, "_include_unknown_cost", true) !== false,
        available_capabilities: isNames(capabilities) ? capabilities : null,
        agent_visible_only: data(stage, "_agent_visible_only", false) === true,
        categories: isNames(categories) ? categories : null,
      } as StageJson;
    }
  }
}

/** Query, role and messages, and of the state only the keys the configured stages read. */
function turnOf(value: unknown, pipeline: readonly StageJson[]): FixtureJson["turn"] | null {
  if (!isJsonObject(value)) return null;
  const turn: Record<string, unknown> = {};
  for (const key of ["query", "role"] as const) {
    const text = own(value, key);
    if (typeof text === "string" && text !== "") turn[key] = text;
  }
  const messages = own(value, "messages");
  if (Array.isArray(messages) && messages.length > 0) turn.messages = messages;
  const state = own(value, "state");
  if (isJsonObject(state)) {
    const read = pipeline.flatMap((stage) =>
      stage.kind === "forced" ? [stage.state_key ?? "forced_tool_choice"] : [],
    );
    if (turn.messages === undefined && pipeline.some((stage) => stage.kind === "forced"))
      read.push("messages");
    const kept: Record<string, unknown> = {};
    for (const key of read) if (Object.hasOwn(state, key)) kept[key] = own(state, key);
    if (Object.keys(kept).length > 0) turn.state = kept;
  }
  return Object.keys(turn).length > 0 ? (turn as FixtureJson["turn"]) : null;
}
