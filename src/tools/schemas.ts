/**
 * The tools' input and output JSON Schemas, as MCP `tools/list` and package.json's
 * `languageModelTools` give them: no combinator at the top level of an input (some model APIs
 * refuse one), and a size limit on every string, list and map a model can send. An output is the
 * whole result or one page of its JSON text (src/tools/pages.ts).
 */

const path = (description: string) => ({
  type: "string",
  minLength: 1,
  maxLength: 4096,
  description,
});
const logs = {
  type: "array",
  items: { type: "string", minLength: 1, maxLength: 4096 },
  minItems: 1,
  maxItems: 100,
  description:
    "Log files (plain or .gz) and folders of logs, read as one set whose traces are numbered across them in this order.",
};
const trace = {
  type: "integer",
  minimum: 1,
  description:
    "A trace's #N across the logs, from 1, as list_traces, the Selection Traces view and `palette-inspector show` number them (the JSON's index + 1).",
};
const toolName = { type: "string", minLength: 1, maxLength: 1000 };
const map = (value: object) => ({
  type: "object",
  additionalProperties: value,
  maxProperties: 200,
});
const nullable = (type: string, extra: object = {}) => ({ type: [type, "null"], ...extra });

const object = (properties: Record<string, object>, required: string[] = []) => ({
  type: "object",
  properties,
  required,
  additionalProperties: false,
});

export const WHAT_IF_SCHEMA = {
  type: "object",
  additionalProperties: false,
  description:
    "The levers the panel's what-if moves, each keyed by the stage's name in the trace (docs/formats.md).",
  properties: {
    enabled: { ...map({ type: "boolean" }), description: "Stage name → whether it runs." },
    role: { type: "string", maxLength: 1000, description: "The turn's role." },
    verdicts: {
      ...map({
        anyOf: [
          object(
            {
              label: { type: "string", maxLength: 1000 },
              matchedToolKeywords: {
                type: "array",
                items: { type: "string", maxLength: 1000 },
                maxItems: 1000,
              },
            },
            ["label", "matchedToolKeywords"],
          ),
          { type: "null" },
        ],
      }),
      description: "Intent stage name → its verdict (null: no verdict, the stage abstains).",
    },
    forcedTools: {
      ...map(nullable("string", { minLength: 1, maxLength: 1000 })),
      description: "Forced stage name → the tool a fixed resolver forces (null: no resolver).",
    },
    policies: {
      ...map(
        object({
          maxSafetyLevel: nullable("string", { maxLength: 1000 }),
          budgetUsd: nullable("number", { minimum: 0 }),
        }),
      ),
      description:
        "Policy stage name → its numbers (null removes the limit, an absent key keeps it).",
    },
  },
};

const filter = {
  description: "Only the traces where a tool was dropped, a stage did an action, or with errors.",
  anyOf: [
    object({ kind: { const: "dropped" }, tool: toolName }, ["kind", "tool"]),
    object(
      {
        kind: { const: "stageAction" },
        stage: { type: "string", maxLength: 1000 },
        action: { enum: ["select", "abstain", "force", "error"] },
      },
      ["kind", "stage", "action"],
    ),
    object({ kind: { const: "errors" } }, ["kind"]),
  ],
};

const page = {
  type: "integer",
  minimum: 1,
  maximum: 100_000,
  description:
    "Which page of an answer whose JSON is over 1 MiB (from 1, the default): such an answer comes as its JSON text in pages, and says how many.",
};

/** Every tool takes `page`. */
const paged = <T extends Record<string, { properties: object }>>(schemas: T): T =>
  Object.fromEntries(
    Object.entries(schemas).map(([name, schema]) => [
      name,
      { ...schema, properties: { ...schema.properties, page } },
    ]),
  ) as T;

export const INPUT_SCHEMAS = paged({
  run_fixture: object({ path: path("A turn fixture (*.turn.json).") }, ["path"]),
  check_fixtures: object({
    paths: {
      type: "array",
      items: path("A fixture, or a folder searched for *.turn.json."),
      maxItems: 1000,
      description: "Fixtures and folders; default: every *.turn.json under the roots.",
    },
  }),
  where_did_tool_go: object(
    {
      tool: { ...toolName, description: "The tool's name." },
      path: path("A turn fixture (give this, or logs and trace)."),
      logs,
      trace,
    },
    ["tool"],
  ),
  what_if: object({ path: path("A turn fixture (*.turn.json)."), edits: WHAT_IF_SCHEMA }, [
    "path",
    "edits",
  ]),
  list_traces: object(
    {
      logs,
      filter,
      offset: { type: "integer", minimum: 0, description: "The first match to list (default 0)." },
      limit: {
        type: "integer",
        minimum: 1,
        maximum: 500,
        description: "How many to list (default 50).",
      },
    },
    ["logs"],
  ),
  show_trace: object({ logs, trace }, ["logs", "trace"]),
  trace_to_fixture: object(
    {
      logs,
      trace,
      out: path("Where to write the fixture (a new file under the roots); omitted: not written."),
    },
    ["logs", "trace"],
  ),
  palette_stats: object(
    {
      logs,
      top: {
        type: "integer",
        minimum: 1,
        maximum: 10000,
        description: "Only the N most often missing tools.",
      },
    },
    ["logs"],
  ),
  compare_stats: object(
    {
      logs: {
        ...logs,
        description:
          "The NEW set: log files (plain or .gz) and folders of logs, read as one set. With split_at, the one set to cut.",
      },
      against: {
        ...logs,
        description:
          "The OLD set, compared against: log files and folders of logs, read as one set.",
      },
      split_at: {
        type: "string",
        minLength: 1,
        maxLength: 64,
        description:
          "Instead of against: cut the logs at this time (2025-03-14, 2025-03-14 09:30, ISO 8601; no zone is UTC); traces before it are OLD, the rest NEW.",
      },
    },
    ["logs"],
  ),
});

const names = { type: "array", items: { type: "string" } };
const loose = (properties: Record<string, object>, required: string[]) => ({
  type: "object",
  properties,
  required,
});
const runJson = loose(
  {
    names,
    tools: { type: "array" },
    forced_choice: nullable("string"),
    trace: { type: "array", items: { type: "object" } },
    error: { anyOf: [{ type: "null" }, { type: "object" }] },
    manifest: { type: "array" },
    palette: { type: "object" },
  },
  ["names", "tools", "forced_choice", "trace", "error", "manifest"],
);
const count = { type: "integer", minimum: 0 };
const problems = {
  problems: { type: "array", items: { type: "object" } },
  problem_count: count,
  problems_truncated: { type: "boolean" },
};

/** A page of an answer too big for one (src/tools/pages.ts). */
const PAGE_PROPERTIES = { page: count, pages: count, json_part: { type: "string" } };

/** Each answer is the whole result, or a page of its JSON text. */
const pageable = <T extends Record<string, { properties: object; required: string[] }>>(
  schemas: T,
) =>
  Object.fromEntries(
    Object.entries(schemas).map(([name, { properties, required, ...rest }]) => [
      name,
      {
        ...rest,
        properties: { ...properties, ...PAGE_PROPERTIES },
        anyOf: [{ required }, { required: Object.keys(PAGE_PROPERTIES) }],
      },
    ]),
  ) as Record<keyof T, object>;

export const OUTPUT_SCHEMAS = pageable({
  run_fixture: runJson,
  check_fixtures: loose(
    {
      fixtures: { type: "array", items: { type: "object" } },
      passed: count,
      failed: count,
      invalid: count,
    },
    ["fixtures", "passed", "failed", "invalid"],
  ),
  where_did_tool_go: loose(
    {
      tool: { type: "string" },
      file: { type: "string" },
      sentence: { type: "string" },
      known: { type: "boolean" },
      offered: { type: "boolean" },
      final: { type: "boolean" },
      forced: { type: "boolean" },
      stages: {
        type: "array",
        items: loose(
          {
            stage: { type: "string" },
            state: { enum: ["kept", "dropped", "added", "reinstated", "absent", "disabled"] },
            reason: nullable("string"),
            forced: { type: "boolean" },
          },
          ["stage", "state", "reason", "forced"],
        ),
      },
    },
    ["tool", "file", "sentence", "known", "offered", "final", "forced", "stages"],
  ),
  what_if: loose(
    {
      edits: { type: "string" },
      original: runJson,
      variant: runJson,
      comparison: { type: "object" },
    },
    ["edits", "original", "variant", "comparison"],
  ),
  list_traces: loose(
    {
      traces: { type: "array", items: { type: "object" } },
      ...problems,
      total: count,
      trace_count: count,
      offset: count,
      limit: count,
    },
    [
      "traces",
      "problems",
      "problem_count",
      "problems_truncated",
      "total",
      "trace_count",
      "offset",
      "limit",
    ],
  ),
  show_trace: runJson,
  trace_to_fixture: loose(
    { fixture: { type: "object" }, caveats: names, written: nullable("string") },
    ["fixture", "caveats", "written"],
  ),
  palette_stats: loose(
    {
      traces: count,
      errors: { type: "object" },
      stages: { type: "array" },
      tools: { type: "array" },
      problems: count,
      tool_count: count,
    },
    ["traces", "errors", "stages", "tools", "problems"],
  ),
  compare_stats: loose(
    {
      old: { type: "object" },
      new: { type: "object" },
      empty: { type: "array", items: { type: "string" } },
      changes: { type: "array" },
      only_old: { type: "array" },
      only_new: { type: "array" },
      stage_changes: { type: "array" },
      error_changes: { type: "array" },
    },
    ["old", "new", "empty", "changes", "only_old", "only_new", "stage_changes", "error_changes"],
  ),
});

export type ToolName = keyof typeof INPUT_SCHEMAS;
