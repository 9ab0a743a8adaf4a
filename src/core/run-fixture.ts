import {
  capabilityCandidates,
  routerReason,
  resolveRouter,
  runCapability,
  type PaletteOutcome,
  type RoutingEntry,
} from "./capability.js";
import { ForcedToolUnavailable } from "./errors.js";
import { buildStage, offeredTools } from "./fixture/build.js";
import type { Fixture } from "./fixture/load.js";
import type { FixtureJson } from "./fixture/schema.js";
import { stageName } from "./fixture/semantics.js";
import { ToolSelectionPipeline } from "./pipeline.js";
import {
  droppedBy,
  type CapabilityReport,
  type RunError,
  type RunReport,
  type StageInfo,
} from "./report.js";
import { toolNames, type Tool } from "./tools.js";
import { selectionContext, type SelectionResult } from "./contract.js";

/** Runs a loaded fixture; `json` runs a variant of it (what-if) against the same catalogue. */
export function runFixture(fixture: Fixture, json: FixtureJson = fixture.json): RunReport {
  // Every runtime of the core (Node 20, the webview) has performance.now: sub-millisecond times.
  const started = performance.now();
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
    // role, so in capability mode the stages see the empty role (docs/semantics.md §5).
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
    durationMs: performance.now() - started,
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
