"""Stand-ins for symfonic's six built-in selection stages, with the constructor attributes its
reference documentation shows (seed: "Selection stages"). The details they write are the bundled
TypeScript engine's, so a trace from here and a replay there can be compared record by record."""

from __future__ import annotations

from typing import Any, Callable, Mapping, Optional, Sequence

from .catalog import ToolCatalog, safety_rank
from .values import SelectionContext, StageOutcome


def tool_name(tool: Any) -> Optional[str]:
    """A string is its own name; a mapping or an object is named by its `name` field."""
    if isinstance(tool, str):
        return tool
    name = tool.get("name") if isinstance(tool, Mapping) else getattr(tool, "name", None)
    return name if isinstance(name, str) else None


def filter_by_names(tools: Sequence[Any], names: Any) -> tuple:
    """Keeps the named tools listed and every unnamed tool (no name-keyed policy can gate it)."""
    return tuple(t for t in tools if tool_name(t) is None or tool_name(t) in names)


def counted(n: int, one: str) -> str:
    """'1 tool', '2 tools': the engine's `counted`, so details read the same on both sides."""
    return f"{n} {one if n == 1 else one + 's'}"


def _select(tools: Sequence[Any], detail: str) -> StageOutcome:
    return StageOutcome(tools=tuple(tools), detail=detail)


def _abstain(detail: str, degraded: bool = False) -> StageOutcome:
    return StageOutcome(tools=None, detail=detail, degraded=degraded)


def _force(choice: Optional[str], detail: str, degraded: bool = False) -> StageOutcome:
    return StageOutcome(
        tools=None, forced_choice=choice, sets_forced_choice=True, degraded=degraded, detail=detail
    )


class IntentRoutingStage:
    name = "intent"
    protects_forced = True

    def __init__(self, *, verdict: Any = None, trigger_keywords: Any = None, always_include=()):
        self._verdict = verdict
        self._trigger_keywords = dict(trigger_keywords or {})
        self._always_include = tuple(name for name in always_include if name)

    def apply(self, tools: Sequence[Any], context: SelectionContext) -> StageOutcome:
        if not tools:
            return _abstain("no candidate tools")
        label = getattr(self._verdict, "label", None)
        if self._verdict is None or label == "ambiguous":
            return _abstain("no actionable verdict")
        always = set(self._always_include)
        if label == "knowledge":
            return _select(filter_by_names(tools, always), "knowledge turn: always-include only")
        keep = set(always)
        keep.update(getattr(self._verdict, "matched_tool_keywords", None) or [])
        for tool in tools:
            name = tool_name(tool)
            if name is not None and not self._trigger_keywords.get(name):
                keep.add(name)
        return _select(filter_by_names(tools, keep), f"{label} turn: keyword intersection")


class LazyRoutingStage:
    name = "lazy"
    protects_forced = True

    def __init__(self, *, allowed_names: Optional[Sequence[str]] = None) -> None:
        self._allowed = None if allowed_names is None else tuple(allowed_names)

    def apply(self, tools: Sequence[Any], context: SelectionContext) -> StageOutcome:
        if self._allowed is None:
            return _abstain("no procedural routing")
        allowed = set(self._allowed)
        return _select(filter_by_names(tools, allowed), f"routed to {counted(len(allowed), 'name')}")


class AllowlistStage:
    name = "allowlist"
    protects_forced = True

    def __init__(self, *, always_include: Sequence[str] = (), catalog: Optional[ToolCatalog] = None):
        self._always_include = tuple(name for name in always_include if name)
        self._catalog = catalog

    def apply(self, tools: Sequence[Any], context: SelectionContext) -> StageOutcome:
        present = {tool_name(t) for t in tools}
        readded = []
        for tool in getattr(context, "offered", ()):
            name = tool_name(tool)
            if name is None or name not in self._always_include or name in present:
                continue
            if self._catalog is not None and name not in self._catalog:
                continue
            present.add(name)
            readded.append(tool)
        if not readded:
            return _abstain("nothing to re-add")
        return _select((*tools, *readded), f"re-added {counted(len(readded), 'mandated tool')}")


class RolePaletteStage:
    """`resolver` maps a role to its palette: a mapping, or a callable `(role, context)`."""

    name = "role"
    protects_forced = True

    def __init__(self, *, resolver: Any = None, role: str = "") -> None:
        self._resolver = resolver
        self._role = role

    def apply(self, tools: Sequence[Any], context: SelectionContext) -> StageOutcome:
        role = self._role or context.role
        if self._resolver is None:
            return _abstain("no role resolver")
        if isinstance(self._resolver, Mapping):
            palette = self._resolver.get(role)
        else:
            palette = self._resolver(role, context)
        if palette is None:
            return _abstain(f"no palette for role '{role}'")
        if len(palette) == 0:
            return _abstain(f"role '{role}' resolved an empty palette; abstaining to all tools", True)
        return _select(filter_by_names(tools, set(palette)), f"palette of role '{role}'")


def _default_is_tool_message(message: Any) -> bool:
    kind = message.get("type") if isinstance(message, Mapping) else getattr(message, "type", None)
    role = message.get("role") if isinstance(message, Mapping) else getattr(message, "role", None)
    return kind == "tool" or role == "tool"


def _message_name(message: Any) -> Any:
    return message.get("name") if isinstance(message, Mapping) else getattr(message, "name", None)


class ForcedChoiceStage:
    """`resolver` is a callable `(context) -> name | None`, re-run on every turn."""

    name = "forced"
    protects_forced = True

    def __init__(
        self,
        *,
        resolver: Any = None,
        state_key: str = "forced_tool_choice",
        is_tool_message: Callable[[Any], bool] = _default_is_tool_message,
    ) -> None:
        self._resolver = resolver
        self._state_key = state_key
        self._is_tool_message = is_tool_message

    def apply(self, tools: Sequence[Any], context: SelectionContext) -> StageOutcome:
        stamp = context.state.get(self._state_key)
        if stamp is not None:
            choice, source = str(stamp), f"state stamp '{self._state_key}'"
        elif self._resolver is None:
            return _force(None, "no stamp and no resolver: the model chooses")
        else:
            try:
                choice = self._resolver(context)
            except Exception as exc:  # a stalled loop is worse than an unforced turn
                return _force(None, f"resolver raised ({exc}): force released", True)
            if choice is None:
                return _force(None, "resolver chose no tool: the model chooses")
            source = "resolver"
        messages = context.messages or context.state.get("messages") or ()
        if any(self._is_tool_message(m) and _message_name(m) == choice for m in messages):
            return _force(None, f"force of '{choice}' spent: a tool message names it")
        return _force(choice, f"{source} forces '{choice}'")


class PolicyStage:
    name = "policy"
    protects_forced = True

    def __init__(
        self,
        *,
        catalog: ToolCatalog,
        max_safety_level: Any = None,
        budget_usd: Optional[float] = None,
        include_unknown_cost: bool = True,
        available_capabilities: Any = None,
        agent_visible_only: bool = False,
        categories: Optional[Sequence[Any]] = None,
    ) -> None:
        self._catalog = catalog
        self._max_safety_rank = safety_rank(max_safety_level)
        self._budget_usd = budget_usd
        self._include_unknown_cost = include_unknown_cost
        self._available_capabilities = available_capabilities
        self._agent_visible_only = agent_visible_only
        self._categories = None if categories is None else {getattr(c, "value", c) for c in categories}

    def apply(self, tools: Sequence[Any], context: SelectionContext) -> StageOutcome:
        if (
            self._max_safety_rank is None
            and self._budget_usd is None
            and self._available_capabilities is None
            and self._categories is None
            and not self._agent_visible_only
            and self._include_unknown_cost
        ):
            return _abstain("no policy configured")
        kept = [t for t in tools if not self._forbids(self._catalog.get(tool_name(t)))]
        dropped = len(tools) - len(kept)
        detail = "policy allows every tool" if dropped == 0 else f"policy forbids {counted(dropped, 'tool')}"
        return _select(kept, detail)

    def _forbids(self, entry: Any) -> bool:
        if entry is None:
            return False  # unknown to the registry: a wiring bug that must stay visible
        rank = safety_rank(entry.safety_level)
        cost = entry.cost_usd
        return (
            (rank is not None and self._max_safety_rank is not None and rank > self._max_safety_rank)
            or (cost is not None and self._budget_usd is not None and cost > self._budget_usd)
            or (cost is None and not self._include_unknown_cost)
            or (
                entry.requires_capability is not None
                and self._available_capabilities is not None
                and entry.requires_capability not in self._available_capabilities
            )
            or (entry.visibility != "agent" and self._agent_visible_only)
            or (self._categories is not None and entry.category not in self._categories)
        )
