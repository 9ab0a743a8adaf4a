import {
  capabilityCandidates,
  routerReason,
  resolveRouter,
  runCapability,
  type PaletteOutcome,
  type RouterOutcome,
  type RoutingEntry,
} from "./capability.js";
import type { ManifestEntry } from "./catalog.js";
import { ForcedToolUnavailable } from "./errors.js";
import { buildStage, offeredTools } from "./fixture/build.js";
import type { Fixture } from "./fixture/load.js";
import type { FixtureJson, StageKind } from "./fixture/schema.js";
import { stageName } from "./fixture/semantics.js";
import { ToolSelectionPipeline } from "./pipeline.js";
import { toolNames, type Tool } from "./tools.js";
import { selectionContext, type SelectionResult, type StageRecord } from "./values.js";

/** One stage of the composition, run or not. */
export interface StageInfo {
  readonly name: string;
  /** `logged`: a stage known only from a trace in a log, whose configuration is not known. */
  readonly kind: StageKind | "logged";
  readonly enabled: boolean;
  readonly protectsForced: boolean;
}

export interface RunError {
  readonly kind: "ForcedToolUnavailable";
  readonly message: string;
  readonly tool: string;
  /** The stage that last dropped the forced tool; null when it was never offered. */
  readonly droppedBy: string | null;
}

export interface CapabilityReport {
  readonly registered: readonly string[];
  readonly router: RouterOutcome;
  readonly routerReason: string;
  readonly palette: PaletteOutcome;
}

/** Everything a run decided, in the form every view (table, panel, JSON, tests) reads. */
export interface RunReport {
  /** A fixture run (editable, what-if), or a trace read from a log (read-only) at a 1-based line. */
  readonly origin:
    | { readonly kind: "fixture" }
    | { readonly kind: "log"; readonly line: number; readonly index: number };
  readonly file: string;
  readonly description: string;
  /** The names the stages ran over, in order (in capability mode: what the router left). */
  readonly offered: readonly string[];
  readonly tools: readonly Tool[];
  readonly names: readonly string[];
  readonly forcedChoice: string | null;
  readonly trace: readonly StageRecord[];
  readonly stages: readonly StageInfo[];
  readonly error: RunError | null;
  readonly manifest: readonly ManifestEntry[];
  readonly capability: CapabilityReport | null;
  readonly durationMs: number;
}

const clock: () => number =
  (globalThis as { performance?: { now(): number } }).performance?.now.bind(
    globalThis.performance,
  ) ?? Date.now;

/** Runs a loaded fixture; `json` runs a variant of it (what-if) against the same catalogue. */
export function runFixture(fixture: Fixture, json: FixtureJson = fixture.json): RunReport {
  const started = clock();
  const { catalog } = fixture;
  const stagesJson = json.pipeline ?? [];
  const stages: StageInfo[] = stagesJson.map((stage) => ({
    name: stageName(stage),
    kind: stage.kind,
    enabled: stage.enabled ?? true,
    protectsForced: stage.protects_forced ?? true,
  }));
  const pipeline = new ToolSelectionPipeline(
    stagesJson
      .filter((stage) => stage.enabled ?? true)
      .map((stage) =>
        buildStage(stage, catalog, fixture.hasCatalog, json.routing?.registered ?? []),
      ),
  );
  const turn = json.turn ?? {};
  const context = selectionContext({
    query: turn.query,
    // symfonic's ToolsCapability calls run_selection(..., state=, messages=, query=cue) with no
    // role, so in capability mode the stages see the empty role (SELECTION.md §5, seed).
    role: json.routing ? "" : turn.role,
    state: (turn.state ?? {}) as Record<string, unknown>,
    messages: turn.messages,
  });

  let offered: readonly Tool[];
  let capability: CapabilityReport | null = null;
  let outcome: { selection: SelectionResult; error: RunError | null };
  if (json.routing) {
    const registered = json.routing.registered;
    const router = resolveRouter(
      (json.routing.entries ?? null) as RoutingEntry[] | null,
      registered,
    );
    let run;
    try {
      run = runCapability(router, registered, pipeline, context);
      outcome = {
        selection: run.selection ?? {
          tools: run.candidates,
          names: run.candidates,
          forcedChoice: null,
          trace: [],
        },
        error: null,
      };
    } catch (thrown) {
      outcome = failure(thrown);
    }
    offered = capabilityCandidates(router, registered);
    const palette: PaletteOutcome = run?.palette ?? {
      outcome: "no_change",
      names: null,
      forced: null,
      reason: "the run failed: ForcedToolUnavailable",
    };
    capability = { registered, router, routerReason: routerReason(router), palette };
  } else {
    offered = offeredTools(json, catalog);
    try {
      outcome = { selection: pipeline.run(offered, context), error: null };
    } catch (thrown) {
      outcome = failure(thrown);
    }
  }

  const { selection, error } = outcome;
  return {
    origin: { kind: "fixture" },
    file: fixture.file,
    description: json.description ?? "",
    offered: toolNames(offered),
    tools: selection.tools,
    names: selection.names,
    forcedChoice: selection.forcedChoice,
    trace: selection.trace,
    stages,
    error,
    manifest: catalog.manifest(selection.names),
    capability,
    durationMs: clock() - started,
  };
}

function failure(thrown: unknown): { selection: SelectionResult; error: RunError } {
  if (!(thrown instanceof ForcedToolUnavailable)) throw thrown;
  const selection = thrown.partial;
  return {
    selection,
    error: {
      kind: "ForcedToolUnavailable",
      message: thrown.message,
      tool: thrown.tool,
      droppedBy: droppedBy(selection.trace, thrown.tool),
    },
  };
}

/** The stage that dropped `tool` last, or null when none did. */
export function droppedBy(trace: readonly StageRecord[], tool: string): string | null {
  for (let i = trace.length - 1; i >= 0; i--)
    if (trace[i]!.dropped.includes(tool)) return trace[i]!.stage;
  return null;
}
