"""Writes examples/before-after/: one service's selection log before and after a role-palette change.

The same 40 turns run through the symfonic stand-in's pipeline twice. Before the change the
`support` and `analyst` roles' palettes hold `ask_human`; after it only `sales` keeps it, so
`ask_human` drops from most turns, taken away by the `role` stage. Each selection is logged as
JSON through the standard library's `logging`, as a service would.

Usage: python3 test/python/make_before_after.py [OUTPUT_DIR]   (default: examples/before-after)
"""

from __future__ import annotations

import dataclasses
import json
import logging
import sys
from datetime import datetime, timedelta, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "test" / "python"))

from symfonic.capabilities.tools.catalog import ToolCatalog, ToolEntry  # noqa: E402
from symfonic.capabilities.tools.pipeline import ToolSelectionPipeline  # noqa: E402
from symfonic.capabilities.tools.stages import (  # noqa: E402
    AllowlistStage,
    IntentRoutingStage,
    RolePaletteStage,
)
from symfonic.capabilities.tools.values import SelectionContext  # noqa: E402

CATALOG = ToolCatalog([
    ToolEntry("search", "Search the knowledge base", cost_usd=0.0, safety_level="low"),
    ToolEntry("sql", "Run SQL", cost_usd=0.0, safety_level="medium", trigger_keywords=("table",)),
    ToolEntry("create_ticket", "Open a ticket", cost_usd=0.0, safety_level="low"),
    ToolEntry("calendar_lookup", "Find a slot", cost_usd=0.0, safety_level="none"),
    ToolEntry("ask_human", "Hand the turn to a person", cost_usd=0.0, safety_level="none"),
    ToolEntry("final_answer", "Answer the user", cost_usd=0.0, safety_level="none"),
])
TOOLS = [{"name": name, "description": CATALOG.get(name).summary} for name in CATALOG.names()]

BEFORE = {
    "support": ["search", "create_ticket", "ask_human"],
    "analyst": ["search", "sql", "ask_human"],
    "sales": ["search", "calendar_lookup", "ask_human"],
}
# The change: support and analyst no longer hand a turn to a person.
AFTER = {
    "support": ["search", "create_ticket"],
    "analyst": ["search", "sql"],
    "sales": ["search", "calendar_lookup", "ask_human"],
}
ROLES = ["support", "analyst", "support", "analyst", "sales"]
QUERIES = ["my order is late", "sales by region table", "reset my password", "churn table", "book a demo"]


def run(palettes: dict, start: datetime, path: Path, prefix: str) -> None:
    handler = logging.FileHandler(path, mode="w", encoding="utf-8")
    handler.setFormatter(logging.Formatter("%(message)s"))
    log = logging.getLogger(f"agent.{prefix}")
    log.handlers = [handler]
    log.propagate = False
    log.setLevel(logging.INFO)
    pipeline = ToolSelectionPipeline([
        IntentRoutingStage(verdict=None, always_include=["final_answer"]),
        RolePaletteStage(resolver=palettes),
        AllowlistStage(always_include=["final_answer"], catalog=CATALOG),
    ])
    for i in range(40):
        role = ROLES[i % len(ROLES)]
        context = SelectionContext(role=role, query=QUERIES[i % len(QUERIES)])
        result = pipeline.run(list(TOOLS), context)
        log.info(json.dumps({
            "ts": (start + timedelta(minutes=15 * i)).isoformat().replace("+00:00", "Z"),
            "turn_id": f"{prefix}-{i:03d}",
            "role": role,
            "tools": [tool["name"] for tool in result.tools],
            "forced_choice": result.forced_choice,
            "trace": [dataclasses.asdict(record) for record in result.trace],
        }))
    handler.close()


def main() -> None:
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "examples" / "before-after"
    out.mkdir(parents=True, exist_ok=True)
    run(BEFORE, datetime(2025, 3, 10, 9, tzinfo=timezone.utc), out / "before.jsonl", "before")
    run(AFTER, datetime(2025, 3, 12, 9, tzinfo=timezone.utc), out / "after.jsonl", "after")


if __name__ == "__main__":
    main()
