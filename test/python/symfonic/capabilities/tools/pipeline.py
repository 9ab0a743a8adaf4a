"""A stand-in for symfonic's ToolSelectionPipeline (SELECTION.md §3)."""

from __future__ import annotations

from typing import Any, Sequence

from .stages import tool_name
from .values import ForcedToolUnavailable, SelectionContext, SelectionResult, StageRecord


def _names(tools: Sequence[Any]) -> tuple:
    return tuple(n for n in (tool_name(t) for t in tools) if n is not None)


class ToolSelectionPipeline:
    def __init__(self, stages: Sequence[Any]) -> None:
        self.stages = tuple(stages)

    def run(self, tools: Sequence[Any], context: SelectionContext) -> SelectionResult:
        current = tuple(tools)
        context.forced_choice = None
        context.offered = current  # what the allowlist re-adds from
        trace = []
        for stage in self.stages:
            before = _names(current)
            try:
                outcome = stage.apply(current, context)
            except Exception as exc:
                trace.append(StageRecord(stage.name, "error", before, forced_choice=context.forced_choice, detail=str(exc)))
                continue
            if outcome.sets_forced_choice:
                context.forced_choice = outcome.forced_choice
            forced = context.forced_choice
            if outcome.tools is None:
                action = "force" if outcome.sets_forced_choice else "abstain"
                trace.append(StageRecord(stage.name, action, before, forced_choice=forced, detail=outcome.detail))
                continue
            output = tuple(outcome.tools)
            after = _names(output)
            before_set, after_set = set(before), set(after)
            reinstated = ()
            if getattr(stage, "protects_forced", True) and forced is not None and forced in before_set and forced not in after_set:
                output += tuple(t for t in current if tool_name(t) == forced)[:1]
                reinstated = (forced,)
            trace.append(StageRecord(
                stage.name,
                "select",
                kept=tuple(n for n in before if n in after_set),
                dropped=tuple(n for n in before if n not in after_set and n not in reinstated),
                added=tuple(n for n in after if n not in before_set),
                reinstated=reinstated,
                forced_choice=forced,
                detail=outcome.detail,
            ))
            current = output
        result = SelectionResult(tools=current, forced_choice=context.forced_choice, trace=tuple(trace))
        if result.forced_choice is not None and result.forced_choice not in _names(current):
            error = ForcedToolUnavailable(f"forced tool '{result.forced_choice}' is not in the final palette")
            error.tool = result.forced_choice
            error.result = result
            raise error
        return result


def run_selection(pipeline, tools, state=None, messages=(), query="", role=""):
    context = SelectionContext(state=state if state is not None else {}, messages=tuple(messages), role=role, query=query)
    return pipeline.run(tools, context)
