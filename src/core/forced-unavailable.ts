/**
 * Why a ForcedToolUnavailable happened, in the words of docs/semantics.md §3: a stage reinstates
 * the forced tool only while the force is in effect and only if it protects the forced choice.
 * Every view (panel banner, terminal table, Markdown, lineage) shows these parts.
 */
import type { StageRecord } from "./contract.js";
import type { ReportView } from "./report.js";

/** A sentence's parts: text, and tool names each writer quotes its own way. */
export type SentencePart = string | { readonly name: string };

export type UnavailableCause =
  /** No stage offered or added it. */
  | "never-offered"
  /** Dropped while forced, by a stage that does not protect the forced choice. */
  | "hard-filter"
  /** Dropped while it was not (yet) the forced choice. */
  | "before-force"
  /** Dropped after an earlier force of it was released (or moved to another tool). */
  | "after-release"
  /** A logged trace that records no stage dropping it. */
  | "unrecorded";

export interface UnavailableExplanation {
  readonly tool: string;
  readonly cause: UnavailableCause;
  /** The stage that last dropped the tool, when one did. */
  readonly droppedBy: string | null;
  /** Why, as a clause about the tool: "it was dropped by `intent` before `forced` set the force, …". */
  readonly why: readonly SentencePart[];
  /** One sentence: "`sql` is the forced choice but not in the final palette: " and the why. */
  readonly parts: readonly SentencePart[];
}

const name = (n: string) => ({ name: n });

/** The explanation of the report's ForcedToolUnavailable, or null when the run did not fail. */
export function explainUnavailable(report: ReportView): UnavailableExplanation | null {
  const error = report.error;
  if (error === null) return null;
  const tool = error.tool;
  const trace = report.trace;
  const at = lastIndex(trace, (record) => record.dropped.includes(tool));
  const explained = (cause: UnavailableCause, droppedBy: string | null, why: SentencePart[]) => ({
    tool,
    cause,
    droppedBy,
    why,
    parts: [name(tool), " is the forced choice but not in the final palette: ", ...why, "."],
  });
  if (at < 0) {
    if (report.offered.includes(tool))
      return explained("unrecorded", null, ["no stage is recorded dropping it"]);
    const routed = report.capability?.registered.includes(tool) ?? false;
    return explained("never-offered", null, [
      routed
        ? "the router did not route it, so it was never offered to the pipeline"
        : "it was never offered to the pipeline",
    ]);
  }
  const dropper = trace[at]!;
  const dropped: SentencePart[] = ["it was dropped by ", name(dropper.stage)];
  // A stage's own force takes effect before its select (§3 step 4): its record shows the force it ran under.
  if (dropper.forcedChoice === tool)
    return explained("hard-filter", dropper.stage, [
      ...dropped,
      ", a hard filter (a stage that does not protect the forced choice)",
    ]);
  const setter = trace.find((_, i) => i > at && forcedBy(trace, i, tool));
  const later: SentencePart[] = setter
    ? [", and ", name(setter.stage), " set the force again later"]
    : [];
  const released = lastIndex(
    trace.slice(0, at + 1),
    (record, i) => forcedBefore(trace, i) === tool && record.forcedChoice !== tool,
  );
  if (released >= 0) {
    const release = trace[released]!;
    const moved = release.forcedChoice;
    return explained("after-release", dropper.stage, [
      ...dropped,
      " after ",
      name(release.stage),
      ...(moved === null ? [" released the force"] : [" moved the force to ", name(moved)]),
      ", so nothing reinstated it",
      ...later,
    ]);
  }
  return explained("before-force", dropper.stage, [
    ...dropped,
    ...(setter
      ? [" before ", name(setter.stage), " set the force"]
      : [" while it was not the forced choice"]),
    ", so nothing reinstated it",
  ]);
}

/** The forced choice a stage started from: the one the stage before it left (§3 step 1: none at first). */
function forcedBefore(trace: readonly StageRecord[], i: number): string | null {
  return i === 0 ? null : trace[i - 1]!.forcedChoice;
}

function forcedBy(trace: readonly StageRecord[], i: number, tool: string): boolean {
  return trace[i]!.forcedChoice === tool && forcedBefore(trace, i) !== tool;
}

function lastIndex<T>(items: readonly T[], test: (item: T, i: number) => boolean): number {
  for (let i = items.length - 1; i >= 0; i--) if (test(items[i]!, i)) return i;
  return -1;
}
