/**
 * `palette-inspector stats --json` (docs/formats.md): the exact document, with every map's keys in
 * code-point order. Maps stay `Map`s until printed, because a JavaScript object would put
 * integer-like keys ("10", "2") first whatever order they were set in.
 */
import type { StageAction } from "../contract.js";
import { safeJson } from "../words.js";
import { compareCodePoints } from "../tools.js";
import type { PaletteStats, TraceCount } from "./fold.js";

/** The order the issue's document lists them in. */
export const ACTION_ORDER: readonly StageAction[] = ["select", "abstain", "force", "error"];

export type Json = null | boolean | number | string | readonly Json[] | ReadonlyMap<string, Json>;

/** `problems`: null when they belong to no one set (a set split in two: docs/formats.md). */
export function statsDocument(
  stats: PaletteStats<unknown>,
  problems: number | null = stats.problems,
): Json {
  return new Map<string, Json>([
    ["traces", stats.traces],
    ["errors", sorted(stats.errors)],
    [
      "stages",
      [...stats.stages].map(
        ([stage, counts]) =>
          new Map<string, Json>([
            ["stage", stage],
            ["records", counts.records.n],
            [
              "actions",
              new Map<string, Json>(
                ACTION_ORDER.map((action) => [action, counts.actions[action].n]),
              ),
            ],
            ["degraded", counts.degraded.n],
          ]),
      ),
    ],
    [
      "tools",
      [...stats.tools.values()]
        .sort((a, b) => compareCodePoints(a.name, b.name))
        .map(
          (tool) =>
            new Map<string, Json>([
              ["name", tool.name],
              ["seen", tool.seen.n],
              ["final", tool.final.n],
              ["forced", tool.forced.n],
              ["dropped_by", sorted(tool.droppedBy)],
              ["added_by", sorted(tool.addedBy)],
              ["reinstated_by", sorted(tool.reinstatedBy)],
              ["missing", sorted(tool.missing)],
              // Only for a set read from OpenTelemetry: a log's document is as it was.
              ...(stats.otelTraces > 0
                ? ([
                    ["offered", tool.offered.n],
                    ["called", tool.called.n],
                    ["called_not_offered", tool.calledNotOffered.n],
                    ["request_forced", tool.sentForced.n],
                  ] as const)
                : []),
            ]),
        ),
    ],
    // A tool's offered and called count only the model calls that recorded them; these say how many did not.
    ...(stats.otelTraces > 0
      ? ([
          [
            "model_calls",
            new Map<string, Json>([
              ["joined", stats.modelCalls.joined],
              ["offered_not_recorded", stats.modelCalls.offeredUnknown],
              ["called_not_recorded", stats.modelCalls.calledUnknown],
              ["tool_choice_not_recorded", stats.modelCalls.choiceUnknown],
              ["tool_choice_disagrees", stats.modelCalls.choiceMismatches],
            ]),
          ],
        ] as const)
      : []),
    ["problems", problems],
  ]);
}

/**
 * The document as `JSON.stringify(document, null, 2)` would print it, plus a final newline, with
 * C1 controls and bidi overrides escaped too (safe in a terminal).
 */
export function formatStatsJson(stats: PaletteStats<unknown>): string {
  return formatJson(statsDocument(stats));
}

/** A document as `formatStatsJson` prints one. */
export function formatJson(document: Json): string {
  return print(document, "") + "\n";
}

export function sorted(map: ReadonlyMap<string, number | TraceCount>): Map<string, Json> {
  return new Map(
    [...map]
      .sort(([a], [b]) => compareCodePoints(a, b))
      .map(([key, value]) => [key, typeof value === "number" ? value : value.n]),
  );
}

function print(value: Json, indent: string): string {
  if (value === null || typeof value !== "object") return safeJson(value);
  const inner = indent + "  ";
  if (Array.isArray(value)) {
    const items = value as readonly Json[];
    if (items.length === 0) return "[]";
    return `[\n${items.map((item) => inner + print(item, inner)).join(",\n")}\n${indent}]`;
  }
  const entries = [...(value as ReadonlyMap<string, Json>)];
  if (entries.length === 0) return "{}";
  return `{\n${entries.map(([key, item]) => `${inner}${safeJson(key)}: ${print(item, inner)}`).join(",\n")}\n${indent}}`;
}
