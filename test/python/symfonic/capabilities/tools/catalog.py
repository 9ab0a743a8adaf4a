"""A stand-in for symfonic's ToolCatalog: one reading of the tool registry (SELECTION.md §2)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable, Optional, Tuple

DEFAULT_SAFETY_LEVELS = ("none", "low", "medium", "high", "critical")


@dataclass(frozen=True)
class ToolEntry:
    name: str
    summary: str = ""
    visibility: str = "agent"
    cost_usd: Optional[float] = None
    safety_level: Optional[str] = None
    requires_capability: Optional[str] = None
    category: Optional[str] = None
    trigger_keywords: Tuple[str, ...] = ()


class ToolCatalog:
    def __init__(self, entries: Iterable[ToolEntry] = ()) -> None:
        self._entries = {entry.name: entry for entry in entries}

    def get(self, name: Optional[str]) -> Optional[ToolEntry]:
        return None if name is None else self._entries.get(name)

    def __contains__(self, name: Any) -> bool:
        return name in self._entries

    def names(self) -> Tuple[str, ...]:
        return tuple(self._entries)


def safety_rank(level: Any) -> Optional[int]:
    """A level's place on the default scale; an enum member is read by its value."""
    if level is None:
        return None
    return DEFAULT_SAFETY_LEVELS.index(getattr(level, "value", level))
