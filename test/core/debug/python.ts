// Evaluates a probe expression the way debugpy does: in a paused function's frame, with its locals.
import { spawnSync } from "node:child_process";
import * as path from "node:path";
import type { EvaluateReply } from "../../../src/core/debug/reply.js";

export const PYTHON = process.env.PI_PYTHON ?? "/usr/bin/python3";
const STAND_IN = path.resolve(__dirname, "../../python");

const HARNESS = `
import json, sys
sys.path.insert(0, ${JSON.stringify(STAND_IN)})
request = json.loads(sys.stdin.read())
module = {"__name__": "paused"}
exec(request["module"], module)
globals_before = sorted(module)
frame = module["paused"]()
try:
    value = eval(request["expression"], module, frame)
    reply = {"type": type(value).__name__, "result": value if isinstance(value, str) else repr(value)}
except Exception as error:
    reply = {"type": type(error).__name__, "result": str(error)}
reply["globals_changed"] = sorted(module) != globals_before
reply["locals"] = sorted(frame)
reply["side_effects"] = module.get("SIDE_EFFECTS", [])
print(json.dumps(reply))
`;

export interface PythonReply extends EvaluateReply {
  readonly globals_changed: boolean;
  readonly locals: string[];
  readonly side_effects: string[];
}

/**
 * `setup` is the body of the paused function (4-space indented Python, ending with
 * `return locals()`); `prelude` runs at module level first.
 */
export function evaluateIn(setup: string, expression: string, prelude = ""): PythonReply {
  const module = `${prelude}\ndef paused():\n${setup}\n`;
  const run = spawnSync(PYTHON, ["-c", HARNESS], {
    input: JSON.stringify({ module, expression }),
    encoding: "utf8",
    maxBuffer: 256 * 1024 * 1024,
  });
  if (run.status !== 0) throw new Error(`python failed: ${run.stderr}`);
  return JSON.parse(run.stdout) as PythonReply;
}

export const AGENT_PRELUDE = `
SIDE_EFFECTS = []
from symfonic.capabilities.tools.catalog import ToolCatalog, ToolEntry
from symfonic.capabilities.tools.pipeline import ToolSelectionPipeline
from symfonic.capabilities.tools.stages import (AllowlistStage, ForcedChoiceStage,
    IntentRoutingStage, LazyRoutingStage, PolicyStage, RolePaletteStage)
from symfonic.capabilities.tools.values import (ForcedToolUnavailable, SelectionContext,
    SelectionResult, StageRecord)

class Verdict:
    def __init__(self, label, matched=()):
        self.label = label
        self.matched_tool_keywords = tuple(matched)

class Tool:
    """A LangChain-like tool: its repr, iteration and equality must never run."""
    def __init__(self, name):
        self.name = name
        self.payload = {"schema": "x" * 1000}
    def __repr__(self):
        SIDE_EFFECTS.append("repr " + self.name)
        return "Tool()"
    def __iter__(self):
        SIDE_EFFECTS.append("iter " + self.name)
        return iter(())
    def __eq__(self, other):
        SIDE_EFFECTS.append("eq")
        return False
    __hash__ = object.__hash__

CATALOG = ToolCatalog([
    ToolEntry("search", "Search the web", cost_usd=0.01, safety_level="low"),
    ToolEntry("get_weather", "Weather", cost_usd=0.0, safety_level="none", trigger_keywords=("weather",)),
    ToolEntry("sql", "Run SQL", cost_usd=0.02, safety_level="medium", trigger_keywords=("table",)),
    ToolEntry("delete_rows", "Delete rows", cost_usd=0.0, safety_level="high", trigger_keywords=("delete",)),
    ToolEntry("final_answer", "Answer", cost_usd=0.0, safety_level="none"),
])

def weather_first(context):
    return "get_weather" if "weather" in context.query else None
`;
