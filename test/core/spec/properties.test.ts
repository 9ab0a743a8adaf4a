/**
 * Properties of docs/semantics.md §3 over random pipelines: random stages of every kind
 * (scripted and raising ones included), random tools (unnamed objects, duplicate names), random
 * catalogues.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  DEFAULT_SAFETY_LEVELS,
  type CatalogEntry,
  type ToolCatalog,
} from "../../../src/core/catalog.js";
import { ForcedToolUnavailable } from "../../../src/core/errors.js";
import { loadFixture } from "../../../src/core/fixture/load.js";
import { ToolSelectionPipeline } from "../../../src/core/pipeline.js";
import { runFixture } from "../../../src/core/run-fixture.js";
import { AllowlistStage } from "../../../src/core/stages/allowlist.js";
import { ForcedChoiceStage } from "../../../src/core/stages/forced.js";
import { IntentRoutingStage } from "../../../src/core/stages/intent.js";
import { LazyRoutingStage } from "../../../src/core/stages/lazy.js";
import { PolicyStage } from "../../../src/core/stages/policy.js";
import { RolePaletteStage } from "../../../src/core/stages/role.js";
import { ScriptedStage, type ScriptedOutcome } from "../../../src/core/stages/scripted.js";
import { toolName, toolNames, type Tool } from "../../../src/core/tools.js";
import {
  selectionContext,
  type SelectionContext,
  type SelectionResult,
  type SelectionStage,
  type StageOutcome,
  type StageRecord,
} from "../../../src/core/contract.js";
import { catalogFiles, catalogOf, raising } from "./helpers.js";

const RUNS = { numRuns: 200 } as const;
const POOL = ["a", "b", "c", "d", "e", "f"] as const;

// ---- arbitraries -------------------------------------------------------------------------

const nameArb = fc.constantFrom(...POOL);
const namesArb = fc.array(nameArb, { maxLength: 5 });

const toolArb: fc.Arbitrary<Tool> = fc.oneof(
  { weight: 5, arbitrary: nameArb },
  { weight: 2, arbitrary: nameArb.map((name) => ({ name, schema: {} })) },
  { weight: 1, arbitrary: fc.nat(99).map((n) => ({ description: `unnamed ${n}` })) },
  { weight: 1, arbitrary: fc.nat(99).map((n) => ({ name: n })) },
);

const entryArb: fc.Arbitrary<Partial<CatalogEntry> & { name: string }> = fc.record({
  name: nameArb,
  visibility: fc.constantFrom("agent" as const, "internal" as const),
  costUsd: fc.option(fc.constantFrom(0, 0.01, 0.5, 2), { nil: null }),
  safetyLevel: fc.option(fc.constantFrom(...DEFAULT_SAFETY_LEVELS), { nil: null }),
  requiresCapability: fc.option(fc.constantFrom("gpu", "net"), { nil: null }),
  category: fc.option(fc.constantFrom("read", "write"), { nil: null }),
  triggerKeywords: fc.array(fc.constantFrom("k1", "k2"), { maxLength: 2 }),
});
const catalogArb: fc.Arbitrary<ToolCatalog> = fc
  .uniqueArray(entryArb, { selector: (entry) => entry.name, maxLength: POOL.length })
  .map((entries) => catalogOf(entries));

/** A stage described as data, so a failing case prints readably; built per run. */
type StageSpec =
  | {
      kind: "intent";
      protects: boolean;
      verdict: { label: string; matched: string[] } | null;
      always: string[];
      trigger: [string, string[]][] | null;
    }
  | { kind: "lazy"; protects: boolean; allowed: string[] | null }
  | { kind: "allowlist"; protects: boolean; always: string[]; useCatalog: boolean }
  | { kind: "role"; protects: boolean; role: string; palette: string[] | null | "raise" }
  | { kind: "forced"; protects: boolean; resolver: string | null | "raise" | "none" }
  | {
      kind: "policy";
      protects: boolean;
      max: string | null;
      budget: number | null;
      unknown: boolean;
      caps: string[] | null;
      agentOnly: boolean;
      categories: string[] | null;
    }
  | { kind: "scripted"; protects: boolean; outcome: ScriptedOutcome }
  | { kind: "raise"; protects: boolean; message: string };

const protects = fc.boolean();
const stageSpecArb: fc.Arbitrary<StageSpec> = fc.oneof(
  fc.record({
    kind: fc.constant("intent" as const),
    protects,
    verdict: fc.option(
      fc.record({
        label: fc.constantFrom("knowledge", "ambiguous", "action", "lookup"),
        matched: namesArb,
      }),
      { nil: null },
    ),
    always: namesArb,
    trigger: fc.option(
      fc.array(fc.tuple(nameArb, fc.array(fc.constantFrom("k1", "k2"), { maxLength: 2 })), {
        maxLength: 4,
      }),
      { nil: null },
    ),
  }),
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant("lazy" as const),
      protects,
      allowed: fc.option(namesArb, { nil: null }),
    }),
  },
  fc.record({
    kind: fc.constant("allowlist" as const),
    protects,
    always: namesArb,
    useCatalog: fc.boolean(),
  }),
  fc.record({
    kind: fc.constant("role" as const),
    protects,
    role: fc.constantFrom("", "analyst", "admin"),
    palette: fc.oneof(
      { weight: 1, arbitrary: fc.constantFrom(null, "raise" as const) },
      { weight: 4, arbitrary: namesArb },
    ),
  }),
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant("forced" as const),
      protects,
      resolver: fc.oneof(
        { weight: 4, arbitrary: nameArb },
        { weight: 1, arbitrary: fc.constantFrom(null, "raise" as const, "none" as const) },
      ),
    }),
  },
  fc.record({
    kind: fc.constant("policy" as const),
    protects,
    max: fc.option(fc.constantFrom(...DEFAULT_SAFETY_LEVELS), { nil: null }),
    budget: fc.option(fc.constantFrom(0, 0.01, 1), { nil: null }),
    unknown: fc.boolean(),
    caps: fc.option(fc.array(fc.constantFrom("gpu", "net"), { maxLength: 2 }), { nil: null }),
    agentOnly: fc.boolean(),
    categories: fc.option(fc.array(fc.constantFrom("read", "write"), { maxLength: 2 }), {
      nil: null,
    }),
  }),
  fc.record({
    kind: fc.constant("scripted" as const),
    protects,
    outcome: fc.oneof(
      fc.constant({ abstain: true } as const),
      namesArb.map((select) => ({ select })),
      fc.option(nameArb, { nil: null }).map((force) => ({ force })),
      fc.constant({ raise: "scripted failure" }),
    ),
  }),
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant("raise" as const),
      protects,
      message: fc.constantFrom("", "boom"),
    }),
  },
);

const messageArb = fc.oneof(
  fc.record({ type: fc.constant("tool"), name: nameArb }),
  fc.record({ role: fc.constant("tool"), name: nameArb }),
  fc.record({ type: fc.constant("human"), content: fc.constant("hi") }),
);

const turnArb = fc.record({
  role: fc.constantFrom("", "analyst", "admin"),
  stamp: fc.option(nameArb, { nil: null }),
  messages: fc.array(messageArb, { maxLength: 2 }),
  messagesOnState: fc.boolean(),
});

const caseArb: fc.Arbitrary<Case> = fc.record({
  offered: fc.array(toolArb, { maxLength: 8 }),
  catalog: catalogArb,
  specs: fc.array(stageSpecArb, { maxLength: 7 }),
  turn: turnArb,
});
interface Case {
  offered: Tool[];
  catalog: ToolCatalog;
  specs: StageSpec[];
  turn: { role: string; stamp: string | null; messages: unknown[]; messagesOnState: boolean };
}

// ---- building and observing a run ---------------------------------------------------------

function build(spec: StageSpec, index: number, catalog: ToolCatalog): SelectionStage {
  const name = `${spec.kind}${index}`;
  const common = { name, protectsForced: spec.protects };
  switch (spec.kind) {
    case "intent":
      return new IntentRoutingStage({
        ...common,
        catalog,
        verdict: spec.verdict && {
          label: spec.verdict.label,
          matchedToolKeywords: spec.verdict.matched,
        },
        alwaysInclude: spec.always,
        triggerKeywords: spec.trigger && new Map(spec.trigger),
      });
    case "lazy":
      return new LazyRoutingStage({ ...common, allowedNames: spec.allowed });
    case "allowlist":
      return new AllowlistStage({
        ...common,
        alwaysInclude: spec.always,
        catalog: spec.useCatalog ? catalog : null,
      });
    case "role": {
      const palette = spec.palette;
      return new RolePaletteStage({
        ...common,
        role: spec.role,
        resolver: (role) => {
          if (palette === "raise") throw new Error("no directory");
          return role === "admin" ? null : palette;
        },
      });
    }
    case "forced": {
      const r = spec.resolver;
      return new ForcedChoiceStage({
        ...common,
        resolver:
          r === "none"
            ? null
            : () => {
                if (r === "raise") throw new Error("resolver down");
                return r;
              },
      });
    }
    case "policy":
      return new PolicyStage({
        ...common,
        catalog,
        maxSafetyLevel: spec.max,
        budgetUsd: spec.budget,
        includeUnknownCost: spec.unknown,
        availableCapabilities: spec.caps,
        agentVisibleOnly: spec.agentOnly,
        categories: spec.categories,
      });
    case "scripted":
      return new ScriptedStage({
        ...common,
        outcome: spec.outcome,
        lookup: (tool: string, context: SelectionContext) =>
          context.offered.find((t) => toolName(t) === tool) ??
          (catalog.has(tool) ? tool : undefined),
      });
    case "raise":
      return { ...raising(name, spec.message), protectsForced: spec.protects };
  }
}

interface Observed {
  readonly stage: SelectionStage;
  readonly input: readonly Tool[];
  readonly raw: StageOutcome | "threw";
}

/** Runs a case, observing each stage's input and raw outcome. */
function runCase(c: Case): {
  result: SelectionResult;
  failed: ForcedToolUnavailable | null;
  observed: Observed[];
} {
  const observed: Observed[] = [];
  const stages = c.specs.map((spec, i) => {
    const stage = build(spec, i, c.catalog);
    const spy: SelectionStage = {
      name: stage.name,
      protectsForced: stage.protectsForced,
      apply(tools, context) {
        try {
          const raw = stage.apply(tools, context);
          observed.push({ stage, input: tools, raw });
          return raw;
        } catch (error) {
          observed.push({ stage, input: tools, raw: "threw" });
          throw error;
        }
      },
    };
    return spy;
  });
  const state: Record<string, unknown> = {};
  if (c.turn.stamp !== null) state.forced_tool_choice = c.turn.stamp;
  if (c.turn.messagesOnState) state.messages = c.turn.messages;
  const context = selectionContext({
    state,
    role: c.turn.role,
    messages: c.turn.messagesOnState ? [] : c.turn.messages,
  });
  try {
    return {
      result: new ToolSelectionPipeline(stages).run(c.offered, context),
      failed: null,
      observed,
    };
  } catch (error) {
    if (!(error instanceof ForcedToolUnavailable)) throw error;
    return { result: error.partial, failed: error, observed };
  }
}

/** The tools each stage handed on: the next stage's input, or the final set. */
function outputs(run: ReturnType<typeof runCase>): (readonly Tool[])[] {
  return run.observed.map((_o, i) =>
    i + 1 < run.observed.length ? run.observed[i + 1]!.input : run.result.tools,
  );
}

const sorted = (names: readonly string[]) => [...names].sort();
const isSubsequence = (sub: readonly string[], of: readonly string[]) => {
  let j = 0;
  for (const name of of) if (j < sub.length && sub[j] === name) j++;
  return j === sub.length;
};
const unnamed = (tools: readonly Tool[]) => tools.filter((t) => toolName(t) === null);

const property = (predicate: (c: Case) => void) => fc.assert(fc.property(caseArb, predicate), RUNS);

// ---- properties ---------------------------------------------------------------------------

describe("§3 properties over random pipelines", () => {
  it("§3 one record per stage, in pipeline order, whether or not the run failed", () => {
    property((c) => {
      const run = runCase(c);
      expect(run.result.trace.map((r) => r.stage)).toEqual(c.specs.map((s, i) => `${s.kind}${i}`));
      expect(run.observed).toHaveLength(c.specs.length);
    });
  });

  it("§3 kept + dropped + reinstated is exactly the stage's input names (as sets; as multisets unless the reinstated name was offered twice)", () => {
    property((c) => {
      const run = runCase(c);
      run.result.trace.forEach((record, i) => {
        const input = toolNames(run.observed[i]!.input);
        const accounted = [...record.kept, ...record.dropped, ...record.reinstated];
        expect(new Set(accounted)).toEqual(new Set(input));
        const f = record.reinstated[0];
        if (f === undefined || input.filter((n) => n === f).length === 1)
          expect(sorted(accounted)).toEqual(sorted(input));
        // The orders the spec gives: kept and dropped follow the input order.
        expect(isSubsequence(record.kept, input)).toBe(true);
        expect(isSubsequence(record.dropped, input)).toBe(true);
      });
    });
  });

  it("§3 added names were not in the input, and are the output's new names in output order", () => {
    property((c) => {
      const run = runCase(c);
      const outs = outputs(run);
      run.result.trace.forEach((record, i) => {
        const input = new Set(toolNames(run.observed[i]!.input));
        for (const name of record.added) expect(input.has(name)).toBe(false);
        expect(record.added).toEqual(toolNames(outs[i]!).filter((n) => !input.has(n)));
      });
    });
  });

  it("§3 dropped names are not in the output; kept and reinstated names are", () => {
    property((c) => {
      const run = runCase(c);
      const outs = outputs(run);
      run.result.trace.forEach((record, i) => {
        const out = new Set(toolNames(outs[i]!));
        for (const name of record.dropped) expect(out.has(name)).toBe(false);
        for (const name of [...record.kept, ...record.reinstated]) expect(out.has(name)).toBe(true);
      });
    });
  });

  it("§3 abstain, force and error leave the set untouched (same tools, same objects) and record kept = input", () => {
    property((c) => {
      const run = runCase(c);
      const outs = outputs(run);
      run.result.trace.forEach((record, i) => {
        if (record.action === "select") return;
        const input = run.observed[i]!.input;
        expect(outs[i]!.length).toBe(input.length);
        outs[i]!.forEach((tool, j) => expect(tool).toBe(input[j]));
        expect(record.kept).toEqual(toolNames(input));
        expect([record.dropped, record.added, record.reinstated]).toEqual([[], [], []]);
      });
    });
  });

  it("§3 the action follows the raw outcome: raised → error (degraded), null tools → force/abstain, list → select", () => {
    property((c) => {
      const run = runCase(c);
      run.result.trace.forEach((record, i) => {
        const raw = run.observed[i]!.raw;
        if (raw === "threw") {
          expect(record.action).toBe("error");
          expect(record.degraded).toBe(true);
        } else if (raw.tools === null) {
          expect(record.action).toBe(raw.setsForcedChoice ? "force" : "abstain");
          expect([record.detail, record.degraded]).toEqual([raw.detail, raw.degraded]);
        } else expect(record.action).toBe("select");
      });
    });
  });

  it("§3 unnamed tools survive every name filter (every stage except scripted)", () => {
    property((c) => {
      const run = runCase(c);
      const outs = outputs(run);
      run.observed.forEach((o, i) => {
        if (c.specs[i]!.kind === "scripted") return;
        const out = outs[i]!;
        for (const tool of unnamed(o.input)) expect(out.includes(tool)).toBe(true);
      });
    });
  });

  it("§3 the forced choice after each stage: set by force records, unchanged by every other action", () => {
    property((c) => {
      const run = runCase(c);
      let current: string | null = null;
      run.result.trace.forEach((record: StageRecord, i) => {
        const raw = run.observed[i]!.raw;
        if (raw !== "threw" && raw.setsForcedChoice) current = raw.forcedChoice;
        expect(record.forcedChoice).toBe(current);
      });
      expect(run.result.forcedChoice).toBe(current);
    });
  });

  it("§3 reinstatement happens exactly when a protecting stage's own output lacks an f that was in its input, appended last", () => {
    property((c) => {
      const run = runCase(c);
      const outs = outputs(run);
      run.result.trace.forEach((record, i) => {
        const { stage, input, raw } = run.observed[i]!;
        const f = record.forcedChoice;
        const expected =
          raw !== "threw" &&
          raw.tools !== null &&
          stage.protectsForced &&
          f !== null &&
          toolNames(input).includes(f) &&
          !toolNames(raw.tools).includes(f);
        expect(record.reinstated).toEqual(expected ? [f] : []);
        if (expected) {
          const out = outs[i]!;
          expect(out[out.length - 1]).toBe(input.find((t) => toolName(t) === f));
          expect(record.kept).not.toContain(f);
        }
      });
    });
  });

  it("§3 the final forced choice is among the final names, or the run failed with ForcedToolUnavailable", () => {
    property((c) => {
      const { result, failed } = runCase(c);
      if (failed === null) {
        if (result.forcedChoice !== null) expect(result.names).toContain(result.forcedChoice);
      } else {
        expect(failed.tool).toBe(result.forcedChoice);
        expect(result.names).not.toContain(failed.tool);
        expect(result.trace).toHaveLength(c.specs.length);
      }
    });
  });

  it("§3 runs are deterministic: the same inputs give the same result, trace and failure", () => {
    property((c) => {
      const first = runCase(c);
      const second = runCase(c);
      expect(second.result).toEqual(first.result);
      expect(second.failed?.message).toEqual(first.failed?.message);
    });
  });

  it("§3 the offered list is never mutated by a run", () => {
    property((c) => {
      const before = [...c.offered];
      runCase(c);
      expect(c.offered).toEqual(before);
      c.offered.forEach((tool, i) => expect(tool).toBe(before[i]));
    });
  });

  it("§4 stages other than scripted and allowlist never add tools; allowlist adds only offered names", () => {
    property((c) => {
      const run = runCase(c);
      const offered = new Set(toolNames(c.offered));
      run.result.trace.forEach((record, i) => {
        const kind = c.specs[i]!.kind;
        if (kind === "allowlist")
          for (const name of record.added) expect(offered.has(name)).toBe(true);
        else if (kind !== "scripted") expect(record.added).toEqual([]);
      });
    });
  });
});

describe("the random pipelines are not vacuous", () => {
  it("a sample exercises every action, reinstatement, ForcedToolUnavailable, additions and unnamed tools", () => {
    const seen = {
      abstain: 0,
      select: 0,
      force: 0,
      error: 0,
      reinstated: 0,
      failed: 0,
      added: 0,
      unnamedKept: 0,
      duplicateReinstated: 0,
    };
    for (const c of fc.sample(caseArb, { numRuns: 1000, seed: 42 })) {
      const run = runCase(c);
      if (run.failed) seen.failed++;
      if (unnamed(run.result.tools).length > 0) seen.unnamedKept++;
      run.result.trace.forEach((record, i) => {
        seen[record.action]++;
        if (record.reinstated.length > 0) seen.reinstated++;
        if (
          record.reinstated.length > 0 &&
          toolNames(run.observed[i]!.input).filter((n) => n === record.reinstated[0]).length > 1
        )
          seen.duplicateReinstated++;
        if (record.added.length > 0) seen.added++;
      });
    }
    for (const [what, count] of Object.entries(seen)) expect(count, what).toBeGreaterThan(5);
  });
});

describe("docs/formats.md fixture loading never throws, and every problem is placed in the text", () => {
  const stageKinds = fc.constantFrom(
    "intent",
    "lazy",
    "allowlist",
    "role",
    "forced",
    "policy",
    "scripted",
    "intnet",
  );
  const anyValue = fc.oneof(
    fc.string({ maxLength: 4 }),
    fc.integer(),
    fc.boolean(),
    fc.constant(null),
    namesArb,
    fc.dictionary(fc.constantFrom("a", "kind", "name", "select", "x-y"), nameArb, { maxKeys: 2 }),
  );
  const stageArb = fc.record(
    {
      kind: stageKinds,
      name: fc.constantFrom("s", "t", ""),
      allowed_names: fc.option(namesArb, { nil: null }),
      always_include: anyValue,
      max_safety_level: fc.constantFrom("low", "extreme", null),
      outcome: fc.oneof(
        namesArb.map((select) => ({ select })),
        fc.constant({ abstain: true }),
        fc.constant({ selekt: [] }),
      ),
      resolver: fc.oneof(
        fc.constant(null),
        nameArb.map((tool) => ({ kind: "fixed", tool })),
        fc.constant({ kind: "magic" }),
      ),
      protects_forced: fc.oneof(fc.boolean(), fc.constant("no")),
      mystery: anyValue,
    },
    { requiredKeys: ["kind"] },
  );
  const fixtureArb = fc.record(
    {
      catalog: fc.oneof(
        fc.array(
          fc.record({ name: nameArb, safety_level: fc.constantFrom("low", "ultra", null) }),
          { maxLength: 3 },
        ),
        fc.constant("./x.catalog.json"),
        anyValue,
      ),
      offered: fc.oneof(
        fc.array(fc.oneof(nameArb, fc.constant({ description: "u" }), fc.integer()), {
          maxLength: 4,
        }),
        anyValue,
      ),
      turn: fc.record(
        {
          query: anyValue,
          role: fc.string({ maxLength: 3 }),
          state: fc.dictionary(fc.constantFrom("forced_tool_choice", "k"), anyValue, {
            maxKeys: 2,
          }),
        },
        { requiredKeys: [] },
      ),
      pipeline: fc.array(stageArb, { maxLength: 4 }),
      ofered: anyValue,
    },
    { requiredKeys: [] },
  );
  const textArb = fc.oneof(
    {
      weight: 4,
      arbitrary: fixtureArb.chain((value) =>
        fc.constantFrom(
          JSON.stringify(value),
          JSON.stringify(value, null, 2),
          "\ufeff" + JSON.stringify(value, null, 1),
        ),
      ),
    },
    {
      weight: 1,
      arbitrary: fixtureArb.chain((value) =>
        fc.nat(200).map((cut) => JSON.stringify(value, null, 2).slice(0, cut)),
      ),
    },
  );

  it("every problem of a random (often invalid) fixture has a file, a range inside the text, a path and a message", async () => {
    const reader = catalogFiles({ "./x.catalog.json": '[{"name": "a"}]' });
    await fc.assert(
      fc.asyncProperty(textArb, async (text) => {
        const loaded = await loadFixture({ file: "p.turn.json", text }, reader);
        const lines = text.replace(/^\ufeff/, "").split(/\r\n|\r|\n/);
        for (const problem of loaded.problems) {
          expect(problem.file).toBe("p.turn.json");
          expect(problem.message.length).toBeGreaterThan(0);
          expect(problem.message).not.toMatch(/expected ,|expected $|undefined/);
          const { start, end } = problem.range;
          expect(start.line).toBeLessThan(lines.length);
          expect(start.character).toBeLessThanOrEqual(lines[start.line]!.length);
          expect(end.line > start.line || end.character >= start.character).toBe(true);
          expect(Array.isArray(problem.path)).toBe(true);
        }
        if (loaded.ok) expect(() => runFixture(loaded.fixture)).not.toThrow();
        else expect(loaded.problems.some((p) => p.severity === "error")).toBe(true);
      }),
      RUNS,
    );
  });
});
