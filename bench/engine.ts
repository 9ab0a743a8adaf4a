import { catalogEntry, ToolCatalog } from "../src/core/catalog.js";
import { loadCatalog } from "../src/core/fixture/load.js";
import { ToolSelectionPipeline } from "../src/core/pipeline.js";
import { AllowlistStage } from "../src/core/stages/allowlist.js";
import { ForcedChoiceStage } from "../src/core/stages/forced.js";
import { IntentRoutingStage } from "../src/core/stages/intent.js";
import { LazyRoutingStage } from "../src/core/stages/lazy.js";
import { PolicyStage } from "../src/core/stages/policy.js";
import { RolePaletteStage } from "../src/core/stages/role.js";
import { selectionContext } from "../src/core/contract.js";
import { fmt, interleavedBest, interleavedMedians, verdict } from "./measure.js";

const LEVELS = ["none", "low", "medium", "high", "critical"];

function catalogOf(size: number): ToolCatalog {
  return new ToolCatalog(
    Array.from({ length: size }, (_, i) =>
      catalogEntry({
        name: `tool_${i}`,
        costUsd: i % 5 === 0 ? null : (i % 100) / 1000,
        safetyLevel: LEVELS[i % 5]!,
        triggerKeywords: i % 3 === 0 ? [] : [`kw${i}`],
      }),
    ),
  );
}

/** A six-stage pipeline like a real deployment's, scaled to `size` tools. */
function pipelineOf(size: number, catalog: ToolCatalog): ToolSelectionPipeline {
  const names = catalog.names;
  const every = (n: number) => names.filter((_, i) => i % n !== 0);
  return new ToolSelectionPipeline([
    new IntentRoutingStage({
      verdict: { label: "action", matchedToolKeywords: names.filter((_, i) => i % 2 === 0) },
      catalog,
      alwaysInclude: ["tool_1"],
    }),
    new LazyRoutingStage({ allowedNames: every(7) }),
    new ForcedChoiceStage({ resolver: () => "tool_2" }),
    new RolePaletteStage({ resolver: () => every(4) }),
    new PolicyStage({ catalog, maxSafetyLevel: "high", budgetUsd: 0.08 }),
    new AllowlistStage({ alwaysInclude: ["tool_1", `tool_${size - 1}`], catalog }),
  ]);
}

/**
 * The same six decisions as bare `Set` filters over names, without records, reasons or tool
 * objects: what the pipeline costs at least, at any size (its inputs built outside, as the
 * pipeline's stages are).
 */
function setFilterOf(size: number, catalog: ToolCatalog): () => string[] {
  const names = catalog.names;
  const every = (n: number) => names.filter((_, i) => i % n !== 0);
  const matched = names.filter((_, i) => i % 2 === 0);
  const always = ["tool_1", `tool_${size - 1}`];
  const maxRank = catalog.rank("high")!;
  // Built once, as the lazy stage builds its set when it is made.
  const lazy = new Set(every(7));
  return () => {
    const intent = new Set([...always, ...matched]);
    for (const name of names) if (catalog.get(name)!.triggerKeywords.length === 0) intent.add(name);
    const role = new Set(every(4));
    let tools = names.filter((name) => intent.has(name) && lazy.has(name));
    // Forced: a choice, no filter; role, policy, then the allowlist puts back what it must.
    tools = tools.filter((name) => role.has(name));
    tools = tools.filter((name) => {
      const entry = catalog.get(name)!;
      const safety = entry.safetyLevel === null ? undefined : catalog.rank(entry.safetyLevel);
      return (
        (safety === undefined || safety <= maxRank) &&
        !(entry.costUsd !== null && entry.costUsd > 0.08)
      );
    });
    const kept = new Set(tools);
    for (const name of always) if (!kept.has(name)) tools.push(name);
    return tools;
  };
}

/** Best ms of one pipeline run and of its Set-filter baseline, on the same names, taken in turn. */
function pipelineTimes(size: number): [number, number] {
  const catalog = catalogOf(size);
  const pipeline = pipelineOf(size, catalog);
  const offered = catalog.names;
  return interleavedBest(
    () => pipeline.run(offered, selectionContext({})),
    setFilterOf(size, catalog),
    size >= 100_000 ? 7 : 15,
  );
}

/** A catalogue file of about `bytes`, pretty-printed as users keep them. */
function catalogText(bytes: number): string {
  const tools = [];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const entry = {
      name: `tool_${i}`,
      summary: `Does task number ${i} for the agent, with the care a summary describes.`,
      visibility: i % 9 === 0 ? "internal" : "agent",
      cost_usd: i % 5 === 0 ? null : 0.001 * (i % 50),
      safety_level: LEVELS[i % 5],
      requires_capability: i % 4 === 0 ? "net" : null,
      category: `category_${i % 12}`,
      trigger_keywords: [`keyword_${i}`, "alpha", "beta"],
    };
    size += JSON.stringify(entry, null, 2).length + 4;
    tools.push(entry);
  }
  return JSON.stringify({ safety_levels: LEVELS, tools }, null, 2);
}

export function benchEngine(): string[] {
  const lines = [
    "engine: 6-stage pipeline, time per run (best batch after a warm-up, taken in turn with its baseline)",
  ];
  for (const size of [1_000, 10_000, 100_000]) {
    const [ms, base] = pipelineTimes(size);
    lines.push(
      `  ${size.toLocaleString("en")} tools: ${fmt(ms)} (${((ms / size) * 1e6).toFixed(0)} ns per tool), the same stages as Set filters ${fmt(base)} → ${verdict(ms / base, 1.5, true)}`,
    );
  }

  const text = catalogText(5 * 1024 * 1024);
  const [parse, load] = interleavedMedians(
    () => JSON.parse(text),
    () => {
      const loaded = loadCatalog({ file: "bench.catalog.json", text });
      if (!("catalog" in loaded)) throw new Error("the benchmark catalogue is invalid");
    },
  );
  lines.push(
    `fixture load of a ${(text.length / 1024 / 1024).toFixed(1)} MB catalogue (parse + validate + positions): ${fmt(load)}; JSON.parse alone: ${fmt(parse)}`,
  );
  lines.push(`  load / JSON.parse: ${verdict(load / parse, 3, true)}`);
  return lines;
}
