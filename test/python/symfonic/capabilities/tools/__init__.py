from .values import (
    ContractViolationError,
    ForcedToolUnavailable,
    SelectionContext,
    SelectionResult,
    StageOutcome,
    StageRecord,
)

__all__ = [
    "ContractViolationError",
    "ForcedToolUnavailable",
    "SelectionContext",
    "SelectionResult",
    "StageOutcome",
    "StageRecord",
]
