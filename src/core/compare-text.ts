import type { Comparison, NameDiff, StageComparison } from "./compare.js";
import type { SentencePart } from "./lineage.js";
import { counted } from "./words.js";

/** The two sides' names, as a reader knows them (base first). */
export type SideNames = readonly [string, string];

/** A what-if's two sides, as the page and the copied Markdown name them. */
export const WHAT_IF_SIDES: SideNames = ["the fixture's run", "the what-if"];

/** Names listed in one clause before "… and N more". */
const LISTED = 20;

/**
 * The stages that decide differently themselves: a stage that only hands on the set the stage
 * above already changed is not one of them.
 */
export function decidingDifferently(comparison: Comparison): Set<StageComparison> {
  const out = new Set<StageComparison>();
  let above = "";
  for (const stage of comparison.stages) {
    const handedOn = JSON.stringify(stage.output);
    if (
      stage.actionChanged ||
      [stage.dropped, stage.added, stage.reinstated].some(nonEmpty) ||
      stage.forced.base !== stage.forced.variant ||
      (handedOn !== above && nonEmpty(stage.output))
    )
      out.add(stage);
    above = handedOn;
  }
  return out;
}

/**
 * The comparison in one sentence: how many stages differ, what each side's final set has that the
 * other's lacks, and the forced choice.
 */
export function comparisonSummary(comparison: Comparison, names: SideNames): SentencePart[] {
  const differing = decidingDifferently(comparison).size;
  const out: SentencePart[] = [
    differing > 0
      ? `${counted(differing, "stage differs", "stages differ")}.`
      : "Every stage decides the same.",
  ];
  const final = comparison.final;
  const clauses = [
    ...onlyClause(final.onlyVariant, names[1]),
    ...onlyClause(final.onlyBase, names[0]),
  ];
  if (clauses.length) out.push(" Final palette: ", ...joinClauses(clauses), ".");
  if (comparison.forced.changed)
    out.push(
      " Forced choice: ",
      ...choice(comparison.forced.base),
      " → ",
      ...choice(comparison.forced.variant),
      ".",
    );
  return out;
}

/**
 * What one stage does differently, a line per kind of difference. `handedOn` says whether the set
 * it hands on is new here (not the difference the stage above handed on); `finals` are the two
 * runs' final palettes, so a tool handed on here by one side only, that the other side ends with
 * all the same, is said to be there.
 */
export function stageDifferences(
  stage: StageComparison,
  names: SideNames,
  handedOn: boolean,
  finals: readonly [readonly string[], readonly string[]],
): SentencePart[][] {
  const lines: SentencePart[][] = [];
  const kinds: [string, NameDiff][] = [
    ["dropped", stage.dropped],
    ["added", stage.added],
    ["reinstated", stage.reinstated],
  ];
  for (const [what, diff] of kinds) lines.push(...sideLines(what, diff, names));
  if (handedOn) {
    lines.push(
      ...sideLines("handed on here", stage.output, names, (side, tools) =>
        laterNote(tools, finals[side === 0 ? 1 : 0], names[side === 0 ? 1 : 0]),
      ),
    );
  }
  if (stage.forced.base !== stage.forced.variant)
    lines.push(["forced: ", ...choice(stage.forced.base), " → ", ...choice(stage.forced.variant)]);
  return lines;
}

/** "get_weather, calendar_lookup … and 3 more" with each name apart from the prose. */
export function nameList(tools: readonly string[]): SentencePart[] {
  const out: SentencePart[] = [];
  tools.slice(0, LISTED).forEach((tool, i) => out.push(...(i ? [", "] : []), { name: tool }));
  if (tools.length > LISTED) out.push(` … and ${tools.length - LISTED} more`);
  return out;
}

function sideLines(
  what: string,
  diff: NameDiff,
  names: SideNames,
  note: (side: 0 | 1, tools: readonly string[]) => SentencePart[] = () => [],
): SentencePart[][] {
  const lines: SentencePart[][] = [];
  const sides: [0 | 1, readonly string[]][] = [
    [1, diff.onlyVariant],
    [0, diff.onlyBase],
  ];
  for (const [side, tools] of sides)
    if (tools.length)
      lines.push([
        `${what} only in `,
        { name: names[side] },
        ": ",
        ...nameList(tools),
        ...note(side, tools),
      ]);
  return lines;
}

/** Tools one side hands on here that the other side's final palette has anyway. */
function laterNote(
  tools: readonly string[],
  otherFinal: readonly string[],
  otherName: string,
): SentencePart[] {
  const final = new Set(otherFinal);
  const there = tools.filter((tool) => final.has(tool));
  if (there.length === 0) return [];
  const all = there.length === tools.length;
  return [
    "; ",
    { name: otherName },
    " ends with ",
    ...(all ? [tools.length === 1 ? "it" : "them"] : nameList(there)),
    " too",
  ];
}

function onlyClause(tools: readonly string[], side: string): SentencePart[][] {
  return tools.length ? [[...nameList(tools), " only in ", { name: side }]] : [];
}

function joinClauses(clauses: readonly SentencePart[][]): SentencePart[] {
  return clauses.flatMap((clause, i) => (i ? ["; ", ...clause] : clause));
}

function choice(tool: string | null): SentencePart[] {
  return tool === null ? ["none"] : [{ name: tool }];
}

function nonEmpty(diff: NameDiff): boolean {
  return diff.onlyBase.length > 0 || diff.onlyVariant.length > 0;
}
