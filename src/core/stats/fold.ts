/**
 * Palette statistics over many logged traces (docs/formats.md, "palette-inspector stats"): traces
 * are folded in one at a time into counters per tool and per stage, so memory grows with the
 * distinct tools × stages and never with the number of traces.
 */
import type { StageAction } from "../contract.js";
import { loggedFinalNames, loggedForcedChoice } from "../traces/final.js";
import type { LoggedTrace } from "../traces/trace.js";
import { choiceMismatch, isToolChoiceMode, type ModelCall } from "../traces/model-call.js";
import { formatCount } from "../words.js";
import { Timeline } from "./timeline.js";

/** Keys `missing` by this when no record of the trace dropped the tool. */
export const UNKNOWN_STAGE = "?";

/** Distinct tools and stages counted at most: past them, names from a log would grow memory without bound. */
export const MAX_TOOLS = 10_000;
export const MAX_STAGES = 1_000;

const NO_LIMITS: readonly string[] = [];

/** The error kind whose traces count as forced-choice failures on the timeline. */
export const FORCED_FAILURE = "ForcedToolUnavailable";

/**
 * A count of traces. `last` is the number of the last trace counted, so a trace that names a
 * tool twice (or runs a stage twice) is still counted once, without a per-trace set.
 */
export class TraceCount {
  n = 0;
  last = -1;

  hit(trace: number): void {
    if (this.last === trace) return;
    this.last = trace;
    this.n++;
  }
}

export class StageCounts {
  readonly records = new TraceCount();
  readonly actions: Record<StageAction, TraceCount> = {
    select: new TraceCount(),
    abstain: new TraceCount(),
    force: new TraceCount(),
    error: new TraceCount(),
  };
  readonly degraded = new TraceCount();
}

export class ToolCounts<Ref> {
  readonly seen = new TraceCount();
  readonly final = new TraceCount();
  readonly forced = new TraceCount();
  /** Traces read from OpenTelemetry whose model call was offered, called, called without being offered this tool. */
  readonly offered = new TraceCount();
  readonly called = new TraceCount();
  readonly calledNotOffered = new TraceCount();
  /** Traces whose request forced this tool (its tool_choice named it). */
  readonly sentForced = new TraceCount();
  readonly droppedBy = new Map<string, TraceCount>();
  readonly addedBy = new Map<string, TraceCount>();
  readonly reinstatedBy = new Map<string, TraceCount>();
  readonly missing = new Map<string, number>();
  /** The error kinds among `missing`'s keys: traces that failed with the tool among those the pipeline left. */
  readonly failedWith = new Set<string>();
  /** Up to `samples` traces per stage in `missing`, so a view can list them without a re-read. */
  readonly samples = new Map<string, Ref[]>();
  /** The trace in which a record last dropped this tool, and which stage that was. */
  dropTrace = -1;
  lastDropper = "";
  /** The last failed trace whose pipeline left this tool. */
  leftTrace = -1;

  constructor(readonly name: string) {}
}

export interface StatsOptions {
  /** Trace references kept per tool and stage in `missing` (0, the default, keeps none). */
  readonly samples?: number;
}

/** The fold. `Ref` is how a caller finds a trace again (a file and byte range); the CLI needs none. */
export class PaletteStats<Ref = never> {
  traces = 0;
  problems = 0;
  /** Traces read from OpenTelemetry: only then do the tools' model counts mean anything. */
  otelTraces = 0;
  /** Traces whose model call was joined, and of those how many did not record each field. */
  readonly modelCalls = {
    joined: 0,
    offeredUnknown: 0,
    calledUnknown: 0,
    choiceUnknown: 0,
    choiceMismatches: 0,
  };
  readonly errors = new Map<string, number>();
  /** In order of first appearance. */
  readonly stages = new Map<string, StageCounts>();
  readonly tools = new Map<string, ToolCounts<Ref>>();
  readonly timeline = new Timeline();
  private readonly samples: number;
  /** The tools named by the trace being folded, each once. */
  private touched: ToolCounts<Ref>[] = [];
  /** A name was not counted for being past MAX_TOOLS or MAX_STAGES. */
  private toolsLeftOut = false;
  private stagesLeftOut = false;

  constructor(options: StatsOptions = {}) {
    this.samples = options.samples ?? 0;
  }

  /**
   * Folds one trace in. Returns the limits it reached (MAX_TOOLS, MAX_STAGES) as problems to
   * report, each once per fold: a name new past its limit is not counted.
   */
  add(trace: LoggedTrace, ref?: Ref): readonly string[] {
    const t = this.traces++;
    const limits = { tools: this.toolsLeftOut, stages: this.stagesLeftOut };
    for (const record of trace.records) {
      const stage = this.stage(record.stage);
      if (!stage) continue;
      stage.records.hit(t);
      stage.actions[record.action].hit(t);
      if (record.degraded ?? record.action === "error") stage.degraded.hit(t);
      for (const name of record.kept) this.see(name, t);
      for (const name of record.dropped) {
        const tool = this.see(name, t);
        if (!tool) continue;
        count(tool.droppedBy, record.stage, t);
        tool.dropTrace = t;
        tool.lastDropper = record.stage;
      }
      for (const name of record.added) {
        const tool = this.see(name, t);
        if (tool) count(tool.addedBy, record.stage, t);
      }
      for (const name of record.reinstated) {
        const tool = this.see(name, t);
        if (tool) count(tool.reinstatedBy, record.stage, t);
      }
    }
    const kind = trace.error?.kind;
    // A failed turn's tools never reached a model (the pipeline raised before the call): missing under the error's kind.
    let palette = 0;
    for (const name of loggedFinalNames(trace)) {
      const tool = this.see(name, t);
      if (!tool) continue;
      if (kind !== undefined) tool.leftTrace = t;
      else if (tool.final.last !== t) {
        palette++;
        tool.final.hit(t);
      }
    }
    const forced = loggedForcedChoice(trace);
    if (forced !== null) this.see(forced, t)?.forced.hit(t);
    for (const tool of this.touched) {
      if (tool.final.last === t) continue;
      const failed = tool.leftTrace === t && kind !== undefined;
      const stage = failed ? kind : tool.dropTrace === t ? tool.lastDropper : UNKNOWN_STAGE;
      if (failed) tool.failedWith.add(stage);
      tool.missing.set(stage, (tool.missing.get(stage) ?? 0) + 1);
      if (ref !== undefined && this.samples > 0) {
        const kept = tool.samples.get(stage);
        if (!kept) tool.samples.set(stage, [ref]);
        else if (kept.length < this.samples) kept.push(ref);
      }
    }
    this.touched = [];
    if (trace.otel) this.otelTraces++;
    // After the missing counts: a tool only the model saw is no tool the pipeline lost.
    if (trace.model) this.foldModel(trace.model, forced, t);
    if (kind !== undefined) this.errors.set(kind, (this.errors.get(kind) ?? 0) + 1);
    if (trace.time !== null) this.timeline.add(trace.time, palette, kind === FORCED_FAILURE);
    if (limits.tools === this.toolsLeftOut && limits.stages === this.stagesLeftOut)
      return NO_LIMITS;
    const reached: string[] = [];
    if (!limits.tools && this.toolsLeftOut)
      reached.push(
        `more than ${formatCount(MAX_TOOLS)} distinct tool names; tools first named from this trace on are not counted`,
      );
    if (!limits.stages && this.stagesLeftOut)
      reached.push(
        `more than ${formatCount(MAX_STAGES)} distinct stage names; stages first named from this trace on are not counted`,
      );
    return reached;
  }

  /** A tool's model counts are over the calls that recorded the field; the others are counted apart. */
  private foldModel(model: ModelCall, forced: string | null, t: number): void {
    const counts = this.modelCalls;
    counts.joined++;
    if (model.offered === null) counts.offeredUnknown++;
    if (model.called === null) counts.calledUnknown++;
    if (model.tool_choice === null) counts.choiceUnknown++;
    else if (choiceMismatch(forced, model.tool_choice)) counts.choiceMismatches++;
    for (const name of model.offered ?? []) this.tool(name)?.offered.hit(t);
    for (const name of model.called ?? []) this.tool(name)?.called.hit(t);
    for (const name of model.called_not_offered ?? []) this.tool(name)?.calledNotOffered.hit(t);
    const sent = model.tool_choice;
    if (sent !== null && !isToolChoiceMode(sent)) this.tool(sent)?.sentForced.hit(t);
  }

  /** Lines of the logs that looked like a trace but could not be read. */
  addProblems(n: number): void {
    this.problems += n;
  }

  private stage(name: string): StageCounts | null {
    let stage = this.stages.get(name);
    if (!stage) {
      if (this.stages.size === MAX_STAGES) {
        this.stagesLeftOut = true;
        return null;
      }
      this.stages.set(name, (stage = new StageCounts()));
    }
    return stage;
  }

  private tool(name: string): ToolCounts<Ref> | null {
    let tool = this.tools.get(name);
    if (!tool) {
      if (this.tools.size === MAX_TOOLS) {
        this.toolsLeftOut = true;
        return null;
      }
      this.tools.set(name, (tool = new ToolCounts<Ref>(name)));
    }
    return tool;
  }

  private see(name: string, t: number): ToolCounts<Ref> | null {
    const tool = this.tool(name);
    if (!tool) return null;
    if (tool.seen.last !== t) {
      tool.seen.hit(t);
      this.touched.push(tool);
    }
    return tool;
  }
}

function count(map: Map<string, TraceCount>, stage: string, t: number): void {
  let counter = map.get(stage);
  if (!counter) map.set(stage, (counter = new TraceCount()));
  counter.hit(t);
}
