import type { ToolSelectionPipeline } from "./pipeline.js";
import { compareCodePoints } from "./tools.js";
import type { SelectionContext, SelectionResult } from "./contract.js";

/** One routing row: names `metadata.action_tool` when that is a non-empty string, else `content`. */
export interface RoutingEntry {
  readonly content: string;
  readonly metadata?: { readonly action_tool?: unknown } | null;
}

/** The router's answer: three states, never collapsed. */
export type RouterOutcome =
  | { readonly state: "routed"; readonly names: readonly string[] }
  | { readonly state: "refused"; readonly reason: string }
  | { readonly state: "none" };

export function routedName(entry: RoutingEntry): string {
  const action = entry.metadata?.action_tool;
  return typeof action === "string" && action !== "" ? action : entry.content;
}

/** Resolves the palette from routing rows; `entries === null` means no router was composed. */
export function resolveRouter(
  entries: readonly RoutingEntry[] | null,
  registered: readonly string[],
): RouterOutcome {
  if (entries === null) return { state: "none" };
  if (entries.length === 0) return { state: "refused", reason: "the router returned no entries" };
  const known = new Set(registered);
  const routed = [...new Set(entries.map(routedName).filter((name) => known.has(name)))];
  if (routed.length === 0) return { state: "refused", reason: "no routed tool is registered" };
  return { state: "routed", names: routed };
}

export function routerReason(outcome: RouterOutcome): string {
  return outcome.state === "refused" ? outcome.reason : "no router composed";
}

/** What the capability contributes to the model call. */
export type PaletteOutcome =
  | {
      readonly outcome: "applied";
      readonly names: readonly string[] | null;
      readonly forced: string | null;
      readonly reason: string;
    }
  | {
      readonly outcome: "no_change";
      readonly names: null;
      readonly forced: null;
      readonly reason: string;
    };

export interface CapabilityRun {
  readonly router: RouterOutcome;
  /** The tools the stages ran over: sorted(routed) when routed, else every registered name. */
  readonly candidates: readonly string[];
  readonly selection: SelectionResult | null;
  readonly palette: PaletteOutcome;
}

/** What the stages run over: sorted(routed) when routed, else every registered name. */
export function capabilityCandidates(
  router: RouterOutcome,
  registered: readonly string[],
): string[] {
  return router.state === "routed" ? [...router.names].sort(compareCodePoints) : [...registered];
}

/** Runs symfonic's ToolsCapability: the router, then the stages over what it routed. */
export function runCapability(
  router: RouterOutcome,
  registered: readonly string[],
  pipeline: ToolSelectionPipeline | null,
  context: SelectionContext,
): CapabilityRun {
  const routed = router.state === "routed" ? capabilityCandidates(router, registered) : null;
  const reason = routerReason(router);
  const candidates = capabilityCandidates(router, registered);
  if (pipeline === null || pipeline.stages.length === 0) {
    const palette: PaletteOutcome =
      routed === null
        ? { outcome: "no_change", names: null, forced: null, reason }
        : { outcome: "applied", names: routed, forced: null, reason: "routed" };
    return { router, candidates, selection: null, palette };
  }
  // A ForcedToolUnavailable propagates, as it does from the capability's handler.
  const selection = pipeline.run(candidates, context);
  return { router, candidates, selection, palette: paletteOf(selection, routed !== null, reason) };
}

function paletteOf(selection: SelectionResult, routed: boolean, reason: string): PaletteOutcome {
  const names = routed || selection.names.length > 0 ? [...new Set(selection.names)] : null;
  if (names === null && selection.forcedChoice === null) {
    return {
      outcome: "no_change",
      names: null,
      forced: null,
      reason: reason || "selection narrowed nothing",
    };
  }
  return { outcome: "applied", names, forced: selection.forcedChoice, reason: "selection applied" };
}
