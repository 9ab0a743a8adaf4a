"""A small agent loop over the symfonic stand-in: the program the debugger e2e scenario pauses.

Each turn stops on the line marked `# pause here` with `result`, `pipeline`, `tools` and
`context` in the frame. `big` holds a SelectionResult of 10,000 tools.
"""

from symfonic.capabilities.tools.catalog import ToolCatalog, ToolEntry
from symfonic.capabilities.tools.pipeline import ToolSelectionPipeline
from symfonic.capabilities.tools.stages import (
    AllowlistStage,
    ForcedChoiceStage,
    IntentRoutingStage,
    PolicyStage,
    RolePaletteStage,
)
from symfonic.capabilities.tools.values import SelectionContext


class Verdict:
    def __init__(self, label, matched_tool_keywords=()):
        self.label = label
        self.matched_tool_keywords = tuple(matched_tool_keywords)


CATALOG = ToolCatalog([
    ToolEntry("search", "Search the web", cost_usd=0.01, safety_level="low"),
    ToolEntry("get_weather", "Weather for a city", cost_usd=0.0, safety_level="none", trigger_keywords=("weather",)),
    ToolEntry("sql", "Run SQL", cost_usd=0.02, safety_level="medium", trigger_keywords=("table", "rows")),
    ToolEntry("delete_rows", "Delete rows", cost_usd=0.0, safety_level="high", trigger_keywords=("delete",)),
    ToolEntry("final_answer", "Answer the user", cost_usd=0.0, safety_level="none"),
])
TOOLS = [{"name": name, "description": CATALOG.get(name).summary} for name in CATALOG.names()]


def weather_first(context):
    """The adopter's own forcing rule: not data, so a capture plays it back as it answered."""
    return "get_weather" if "weather" in context.query else None


def turn(query, role, verdict, messages=()):
    pipeline = ToolSelectionPipeline([
        IntentRoutingStage(verdict=verdict, trigger_keywords={"get_weather": ["weather"], "sql": ["table"], "delete_rows": ["delete"]}, always_include=["final_answer"]),
        ForcedChoiceStage(resolver=weather_first),
        RolePaletteStage(resolver={"analyst": ["search", "get_weather", "sql"], "support": ["search"]}),
        PolicyStage(catalog=CATALOG, max_safety_level="medium", budget_usd=0.05),
        AllowlistStage(always_include=["final_answer"], catalog=CATALOG),
    ])
    tools = list(TOOLS)
    context = SelectionContext(state={"tenant": "acme"}, messages=tuple(messages), role=role, query=query)
    result = pipeline.run(tools, context)
    names = tuple(tool["name"] for tool in result.tools)
    print("turn:", query, "->", names, result.forced_choice)  # pause here
    return result


big_catalog = [{"name": f"tool_{i:05d}", "description": "x" * 40} for i in range(10_000)]
big = ToolSelectionPipeline([IntentRoutingStage(verdict=Verdict("action"))]).run(big_catalog, SelectionContext(query="everything"))

turn("what's the weather in Lyon?", "analyst", Verdict("action", ["get_weather"]))
turn("show me the sales table", "support", Verdict("action", ["sql"]))
print("done")
