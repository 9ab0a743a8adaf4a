/**
 * The assistant tools, one definition for both doors: the MCP server (src/cli/mcp.ts) and the
 * VS Code language-model tools (src/extension/lm-tools.ts, package.json's `languageModelTools`).
 */
import { Ajv, type ValidateFunction } from "ajv";
import type { TraceFilter } from "../core/traces/summary.js";
import type { WhatIf } from "../core/whatif.js";
import { InputRefused } from "../node/roots.js";
import {
  checkFixturesTool,
  fixtureLineage,
  runFixtureTool,
  whatIfTool,
  type Answer,
} from "./fixture-tools.js";
import {
  listTracesTool,
  paletteStatsTool,
  showTraceTool,
  traceLineage,
  traceToFixtureTool,
} from "./log-tools.js";
import { compareStatsTool, type CompareInput } from "./compare-tools.js";
import { pageOf } from "./pages.js";
import { fitText, TEXT_LIMIT } from "./text.js";
import type { ToolFiles } from "./port.js";
import { INPUT_SCHEMAS, OUTPUT_SCHEMAS, type ToolName } from "./schemas.js";

export interface ToolDefinition {
  readonly name: ToolName;
  /** A few words for a person (a tool picker, a confirmation). */
  readonly title: string;
  /** What a model chooses the tool by. */
  readonly description: string;
  readonly inputSchema: object;
  readonly outputSchema: object;
}

/** Inputs as the schemas let them through. */
interface Inputs {
  run_fixture: { path: string };
  check_fixtures: { paths?: string[] };
  where_did_tool_go: { tool: string; path?: string; logs?: string[]; trace?: number };
  what_if: { path: string; edits: WhatIf };
  list_traces: { logs: string[]; filter?: TraceFilter; offset?: number; limit?: number };
  show_trace: { logs: string[]; trace: number };
  trace_to_fixture: { logs: string[]; trace: number; out?: string };
  palette_stats: { logs: string[]; top?: number };
  compare_stats: CompareInput;
}

const ANSWERS: { [K in ToolName]: (files: ToolFiles, input: Inputs[K]) => Promise<Answer> } = {
  run_fixture: runFixtureTool,
  check_fixtures: checkFixturesTool,
  where_did_tool_go: (files, input) =>
    input.path !== undefined
      ? fixtureLineage(files, input.path, input.tool)
      : traceLineage(files, input.logs!, input.trace!, input.tool),
  what_if: whatIfTool,
  list_traces: listTracesTool,
  show_trace: showTraceTool,
  trace_to_fixture: traceToFixtureTool,
  palette_stats: paletteStatsTool,
  compare_stats: compareStatsTool,
};

const ABOUT: Record<ToolName, [title: string, description: string]> = {
  run_fixture: [
    "Run a turn fixture",
    "Runs a symfonic tool-selection turn fixture (*.turn.json) and answers which tools each stage of the pipeline kept, dropped, added or reinstated, the final palette and the forced tool_choice (as `palette-inspector run --json`).",
  ],
  check_fixtures: [
    "Check turn fixtures",
    "Runs turn fixtures and compares each with its `expect` (as `palette-inspector check --json`): which pass, which fail and why, which are invalid and where. Default: every *.turn.json under the roots.",
  ],
  where_did_tool_go: [
    "Where did a tool go?",
    "Answers why one tool is or is not in the final palette: one sentence, and what each stage did to it (kept, dropped with the stage's reason, added, reinstated, absent). Give `path` of a fixture, or `logs` and `trace` (its #N) of a logged trace.",
  ],
  what_if: [
    "Ask what-if of a fixture",
    "Runs a fixture again with levers moved (stages on or off, the role, an intent verdict, the forced tool, policy limits) and answers the original run, the variant and what changed, stage by stage. The fixture itself is not changed.",
  ],
  list_traces: [
    "List the selection traces in logs",
    "Lists the selection traces found in log files (plain or .gz) or folders of logs, a page at a time (as `palette-inspector traces --json`), optionally only those where a tool was dropped, a stage took an action, or with errors; says the total and how to get the next page.",
  ],
  show_trace: [
    "Show a logged selection trace",
    "Shows one logged selection trace by its #N across the logs (as `palette-inspector show LOG N --json`): what each stage did, the final palette and the forced choice.",
  ],
  trace_to_fixture: [
    "Turn a logged trace into a fixture",
    "Makes a turn fixture that replays a logged selection trace, with what the replay cannot reproduce; writes it to `out` (a new file under the roots, never over an existing one) only when `out` is given.",
  ],
  palette_stats: [
    "Palette statistics across logs",
    "Counts, across every selection trace in the logs (as `palette-inspector stats --json`), how often each tool was seen, final, forced and missing, which stages removed it, and what each stage did; `top` keeps only the N most often missing tools.",
  ],
  compare_stats: [
    "Compare palette statistics of two sets of logs",
    "Answers what changed between two sets of logs (NEW `logs` against OLD `against`), or one set cut at `split_at` (as `palette-inspector stats --against --json`): per tool the final rate on each side, the change in points, the stage whose removals moved most and a two-proportion p-value, biggest change first; tools seen in one set only; per stage and error kind the counts of each side.",
  ],
};

export const TOOLS: readonly ToolDefinition[] = (Object.keys(ABOUT) as ToolName[]).map((name) => ({
  name,
  title: ABOUT[name][0],
  description: ABOUT[name][1],
  inputSchema: INPUT_SCHEMAS[name],
  outputSchema: OUTPUT_SCHEMAS[name],
}));

export function isToolName(name: string): name is ToolName {
  return Object.hasOwn(INPUT_SCHEMAS, name);
}

/** The tools that take a logged trace's #N. */
const TAKES_TRACE = new Set<ToolName>(["where_did_tool_go", "show_trace", "trace_to_fixture"]);

let validators: Map<ToolName, ValidateFunction> | undefined;

/** Why arguments do not fit the tool's input schema, or null when they do. */
export function inputProblem(name: ToolName, input: unknown): string | null {
  // The JSON's 0-based `index` is not what the tools take: say so rather than "additional properties".
  if (typeof input === "object" && input !== null && "index" in input && TAKES_TRACE.has(name))
    return `${name}: give trace, the trace's #N as a person reads it (from 1; the JSON's index + 1), not index`;
  validators ??= new Map(
    TOOLS.map((tool) => [
      tool.name,
      new Ajv({ allErrors: false, allowUnionTypes: true }).compile(tool.inputSchema),
    ]),
  );
  const validate = validators.get(name)!;
  if (!validate(input)) {
    const error = validate.errors![0]!;
    return `${name}: ${error.instancePath ? `${error.instancePath.slice(1).replace(/\//g, ".")} ` : "the arguments "}${error.message ?? "are invalid"}`;
  }
  if (name === "where_did_tool_go") {
    const { path, logs, trace } = input as Inputs["where_did_tool_go"];
    if ((path === undefined) === (logs === undefined || trace === undefined))
      return "where_did_tool_go: give path (a fixture), or logs and trace (a logged trace's #N), not both";
  }
  if (name === "compare_stats") {
    const { against, split_at } = input as Inputs["compare_stats"];
    if ((against === undefined) === (split_at === undefined))
      return "compare_stats: give against (the OLD logs) or split_at (a time to cut logs at), one of them";
  }
  return null;
}

export interface ToolResult {
  readonly text: string;
  /** Absent for an error. */
  readonly structured?: Record<string, unknown>;
  readonly isError: boolean;
}

/**
 * Answers arguments already checked by inputProblem; an input the tool refuses is an error
 * result, in the CLI's words. A structured result over PAGE_BYTES comes in pages (`page`).
 */
export async function callTool(
  name: ToolName,
  input: unknown,
  files: ToolFiles,
): Promise<ToolResult> {
  try {
    const answer = await (ANSWERS[name] as (files: ToolFiles, input: unknown) => Promise<Answer>)(
      files,
      input,
    );
    const { structured, line } = pageOf(
      name,
      answer.structured,
      (input as { page?: number }).page ?? 1,
    );
    return {
      text: line === null ? answer.text : `${answer.text}\n${line}`,
      structured,
      isError: false,
    };
  } catch (error) {
    if (error instanceof InputRefused)
      return {
        // The CLI's message, cut as an answer is when it runs long (a fixture with 10,000 problems).
        text:
          error.message.length <= TEXT_LIMIT
            ? error.message
            : fitText(error.message.split("\n"), "fix the first and ask again", false),
        isError: true,
      };
    throw error;
  }
}
