"""A log written by Python through `logging`, with what it logged: the traces and the lines that
must carry a problem. Shared by written_cases.py (one log per known trigger) and random_logs.py.

A trace is expected as {"line", "names", "forced", "id"}: the 1-based line its value starts on,
the final tool names, the final forced choice and the turn id (None when the log holds none).
"""

from __future__ import annotations

import io
import logging
import sys
from pathlib import Path
from typing import Any, Iterable, Optional

sys.path.insert(0, str(Path(__file__).resolve().parent))

from symfonic.capabilities.tools import SelectionResult, StageRecord  # noqa: E402

FORMATS = {
    "plain": "%(message)s",
    "basic": logging.BASIC_FORMAT,
    "asctime": "%(asctime)s %(levelname)s [%(name)s] %(message)s",
    "bracketed": "[%(levelname)s] %(name)s: %(message)s",
}


class Tool:
    """A tool whose repr shows only its name, as some frameworks print them."""

    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return f"<Tool {self.name}>"


class NamedTool:
    """A tool whose repr shows its name as a Python string."""

    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return f"<Tool name={self.name!r}>"


def expected(result: SelectionResult, line: int, turn_id: Optional[str] = None) -> dict[str, Any]:
    return {"line": line, "names": [tool_name(tool) for tool in result.tools],
            "forced": result.forced_choice, "id": turn_id}


def tool_name(tool: Any) -> str:
    if isinstance(tool, dict):
        return tool["name"]
    return tool if isinstance(tool, str) else tool.name


class Written:
    """One log: lines written through `logging` (or raw, as a non-Python writer would), and what they hold."""

    def __init__(self, fmt: str = "plain", newline: str = "\n", bom: bool = False) -> None:
        self.stream = io.StringIO()
        self.newline = newline
        self.bom = bom
        handler = logging.StreamHandler(self.stream)
        handler.terminator = newline
        handler.setFormatter(logging.Formatter(FORMATS[fmt]))
        self.logger = logging.Logger("root" if fmt == "basic" else "symfonic.capabilities.tools")
        self.logger.addHandler(handler)
        self.traces: list[dict[str, Any]] = []
        self.problems: list[int] = []
        self.lines = 1
        self.counted = 0

    def log(self, message: str, *args: Any, results: Iterable[tuple[SelectionResult, int, Optional[str]]] = (),
            problem: bool = False, problem_below: int = 0) -> None:
        """Logs one message; each result is (result, lines below the message's first, turn id)."""
        first = self.lines
        for result, below, turn_id in results:
            self.traces.append(expected(result, first + below, turn_id))
        if problem:
            self.problems.append(first + problem_below)
        before = self.stream.tell()
        self.logger.info(message, *args)
        self.count(self.stream.getvalue()[before:])

    def count_written(self) -> None:
        """Counts what was written since the last count (after logging through self.logger directly)."""
        written = self.stream.getvalue()
        self.count(written[self.counted:])

    def raw(self, text: str, results: Iterable[tuple[SelectionResult, int, Optional[str]]] = (),
            problem: bool = False) -> None:
        first = self.lines
        for result, below, turn_id in results:
            self.traces.append(expected(result, first + below, turn_id))
        if problem:
            self.problems.append(first)
        self.stream.write(text + self.newline)
        self.count(text + self.newline)

    def count(self, text: str) -> None:
        # A line ends at LF, CR or CRLF, as the reader says.
        self.lines += len(text.replace("\r\n", "\n").replace("\r", "\n").split("\n")) - 1
        self.counted = self.stream.tell()

    def text(self) -> str:
        return ("\ufeff" if self.bom else "") + self.stream.getvalue()

    def json(self) -> dict[str, Any]:
        return {"log": self.text(), "traces": self.traces, "problems": sorted(set(self.problems))}


MAX_SPREAD_BYTES = 1024 * 1024
MAX_SPREAD_LINES = 20_000


def too_long_spread(text: str) -> bool:
    """A value spread over lines past the reader's limits (docs/formats.md): a problem, not a trace."""
    lines = text.count("\n") + 1
    return lines > MAX_SPREAD_LINES or len(text.encode("utf-8")) + lines > MAX_SPREAD_BYTES


def record(stage: str, action: str = "select", kept: tuple = (), dropped: tuple = (), forced: Optional[str] = None,
           detail: str = "") -> StageRecord:
    return StageRecord(stage=stage, action=action, kept=kept, dropped=dropped, forced_choice=forced, detail=detail)
