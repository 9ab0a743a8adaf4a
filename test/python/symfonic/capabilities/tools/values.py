"""The value types of symfonic.capabilities.tools, as its reference documentation declares them.

Frozen dataclasses, so repr() prints exactly what a symfonic service logs.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Optional, Tuple


@dataclass(frozen=True)
class StageRecord:
    stage: str
    action: str
    kept: Tuple[str, ...] = ()
    dropped: Tuple[str, ...] = ()
    added: Tuple[str, ...] = ()
    reinstated: Tuple[str, ...] = ()
    forced_choice: Optional[str] = None
    detail: str = ""


@dataclass(frozen=True)
class SelectionResult:
    tools: Tuple[Any, ...] = ()
    forced_choice: Optional[str] = None
    trace: Tuple[StageRecord, ...] = ()


@dataclass(frozen=True)
class StageOutcome:
    tools: Optional[Tuple[Any, ...]] = None
    forced_choice: Optional[str] = None
    sets_forced_choice: bool = False
    degraded: bool = False
    detail: str = ""


@dataclass
class SelectionContext:
    state: dict = field(default_factory=dict)
    messages: Tuple[Any, ...] = ()
    role: str = ""
    query: str = ""


class ContractViolationError(Exception):
    """Two parts of a composition disagree."""


class ForcedToolUnavailable(ContractViolationError):
    """A forced tool that cannot be offered. Raised before the model is called."""
