/** Small builders shared by the conformance tests (docs/semantics.md, docs/formats.md). */
import type { FixtureJson } from "../../../src/core/fixture/schema.js";
import { catalogEntry, ToolCatalog, type CatalogEntry } from "../../../src/core/catalog.js";
import {
  loadFixture,
  type CatalogReader,
  type Fixture,
  type LoadResult,
} from "../../../src/core/fixture/load.js";
import type { Problem } from "../../../src/core/fixture/problems.js";
import { ToolSelectionPipeline } from "../../../src/core/pipeline.js";
import { type RunReport } from "../../../src/core/report.js";
import { runFixture } from "../../../src/core/run-fixture.js";
import type { Tool } from "../../../src/core/tools.js";
import {
  selectionContext,
  type SelectionContext,
  type SelectionStage,
  type StageOutcome,
  type StageRecord,
} from "../../../src/core/contract.js";

/** A stage whose answer the test decides. */
export function stub(
  name: string,
  apply: (tools: readonly Tool[], context: SelectionContext) => StageOutcome,
  protectsForced = true,
): SelectionStage {
  return { name, protectsForced, apply };
}

/** A stage that raises `message`. */
export function raising(name: string, message: string): SelectionStage {
  return stub(name, () => {
    throw new Error(message);
  });
}

export function pipelineOf(...stages: SelectionStage[]): ToolSelectionPipeline {
  return new ToolSelectionPipeline(stages);
}

/** A fresh context, with `offered` set as the pipeline sets it, for calling a stage directly. */
export function contextFor(
  offered: readonly Tool[] = [],
  init: {
    state?: Record<string, unknown>;
    messages?: readonly unknown[];
    role?: string;
    query?: string;
  } = {},
): SelectionContext {
  const context = selectionContext(init);
  context.offered = offered;
  return context;
}

export function catalogOf(
  entries: (Partial<CatalogEntry> & { name: string })[],
  levels?: readonly string[],
): ToolCatalog {
  return new ToolCatalog(entries.map(catalogEntry), levels);
}

/** A catalogue reader that must not be called. */
export const noCatalogFile: CatalogReader = async (ref) => {
  throw new Error(`unexpected catalogue read of ${ref}`);
};

/** A reader serving files from a map, rejecting with a sentence otherwise. */
export function catalogFiles(files: Record<string, string>): CatalogReader {
  return async (ref) => {
    if (!Object.hasOwn(files, ref)) throw new Error(`cannot read catalogue '${ref}': no such file`);
    return { file: ref, text: files[ref]! };
  };
}

export const FILE = "case.turn.json";

/** A report built by hand, as no fixture run would make it: every field empty unless given. */
export function reportOf(more: Partial<RunReport> = {}): RunReport {
  return {
    origin: { kind: "fixture" },
    file: "t.turn.json",
    description: "",
    offered: [],
    names: [],
    tools: [],
    forcedChoice: null,
    trace: [],
    stages: [],
    error: null,
    manifest: [],
    capability: null,
    durationMs: 0,
    ...more,
  };
}

/** A stage record built by hand: a select that kept `kept` unless `more` says otherwise. */
export function recordOf(
  stage: string,
  kept: string[],
  more: Partial<StageRecord> = {},
): StageRecord {
  return {
    stage,
    action: "select",
    kept,
    dropped: [],
    added: [],
    reinstated: [],
    forcedChoice: null,
    detail: "",
    degraded: false,
    reasons: {},
    ...more,
  };
}

/** Loads a fixture from its JSON (or its text), as the file `file`. */
export async function load(
  json: unknown,
  reader: CatalogReader = noCatalogFile,
  file = FILE,
): Promise<LoadResult> {
  const text = typeof json === "string" ? json : JSON.stringify(json, null, 2);
  return loadFixture({ file, text }, reader);
}

/** Loads a fixture that must be valid. */
export async function loadValid(
  json: unknown,
  reader: CatalogReader = noCatalogFile,
  file = FILE,
): Promise<Fixture> {
  const loaded = await load(json, reader, file);
  if (!loaded.ok)
    throw new Error(`fixture invalid: ${loaded.problems.map((p) => p.message).join("; ")}`);
  return loaded.fixture;
}

/** Loads a fixture that must be valid and runs it. */
export async function run(
  json: unknown,
  reader: CatalogReader = noCatalogFile,
  file = FILE,
): Promise<RunReport> {
  return runFixture(await loadValid(json, reader, file));
}

/** The problems of a fixture that must be invalid. */
export async function problemsOf(
  json: unknown,
  reader: CatalogReader = noCatalogFile,
): Promise<readonly Problem[]> {
  const loaded = await load(json, reader);
  if (loaded.ok) throw new Error("fixture unexpectedly valid");
  return loaded.problems;
}

/** 1-based `line:column`, as a terminal shows a problem. */
export function at(problem: Problem): string {
  return `${problem.range.start.line + 1}:${problem.range.start.character + 1}`;
}

/** The 1-based line:column of the first occurrence of `needle` (after `after`, if given) in `text`. */
export function positionOf(text: string, needle: string, after = ""): string {
  const from = after ? text.indexOf(after) : 0;
  if (from < 0) throw new Error(`'${after}' not in text`);
  const offset = text.indexOf(needle, from);
  if (offset < 0) throw new Error(`'${needle}' not in text`);
  const before = text.slice(0, offset).split("\n");
  return `${before.length}:${before[before.length - 1]!.length + 1}`;
}

/** Intent drops `sql` before a later stage forces it: the run fails, and nothing reinstated it. */
export const DROPPED_BEFORE_FORCE: FixtureJson = {
  offered: ["get_weather", "sql", "final_answer"],
  pipeline: [
    {
      kind: "intent",
      verdict: { label: "action", matched_tool_keywords: ["get_weather"] },
      trigger_keywords: { get_weather: ["weather"], sql: ["table"] },
      always_include: ["final_answer"],
    },
    { kind: "forced", resolver: { kind: "fixed", tool: "sql" } },
  ],
};
