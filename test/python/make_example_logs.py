"""Writes the example logs of examples/logs/ that show traces the way Python services log them.

Every repr in them is Python's own: the selections of examples/logs/selection.jsonl are rebuilt as
the stand-in symfonic dataclasses (test/python/symfonic) and logged through the standard library's
`logging`, `pprint` and `json`. The two key=value renderers format the way structlog's
KeyValueRenderer and LogfmtRenderer do (structlog is not in the standard library).

Usage: python3 test/python/make_example_logs.py [OUTPUT_DIR]   (default: examples/logs)
Also writes python-logs.expected.json: where each trace starts and what it holds, for the tests.
"""

from __future__ import annotations

import dataclasses
import io
import json
import logging
import pprint
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Optional

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "test" / "python"))

from symfonic.capabilities.tools import SelectionResult, StageRecord  # noqa: E402

RECORD_FIELDS = ("stage", "action", "kept", "dropped", "added", "reinstated", "forced_choice", "detail")


class Tool:
    """A tool class whose repr shows only its name, as some frameworks print them."""

    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return f"<Tool {self.name}>"


@dataclass(frozen=True)
class StructuredTool:
    """A LangChain-like tool: its dataclass repr names it among other fields."""

    name: str
    description: str = ""
    return_direct: bool = False
    metadata: Optional[dict] = field(default=None)


def load_selections() -> list[dict[str, Any]]:
    lines = (ROOT / "examples" / "logs" / "selection.jsonl").read_text(encoding="utf-8").splitlines()
    events = [json.loads(line) for line in lines]
    return [event["selection"] for event in events if "selection" in event]


def records(selection: dict[str, Any]) -> tuple[StageRecord, ...]:
    return tuple(
        StageRecord(**{key: tuple(value) if isinstance(value, list) else value
                       for key, value in record.items() if key in RECORD_FIELDS})
        for record in selection["trace"]
    )


def result(selection: dict[str, Any], tool: Any = str) -> SelectionResult:
    return SelectionResult(
        tools=tuple(tool(name) for name in selection["tools"]),
        forced_choice=selection["forced_choice"],
        trace=records(selection),
    )


def described(name: str) -> StructuredTool:
    return StructuredTool(name=name, description=f"the {name} tool; it's \"quoted\" \\ here\n\x07\u200b é \U000e0001")


class Log:
    """One log file: lines written through `logging`, and the traces expected in them."""

    def __init__(self) -> None:
        self.stream = io.StringIO()
        handler = logging.StreamHandler(self.stream)
        handler.setFormatter(logging.Formatter("%(at)s %(levelname)s [%(name)s] %(message)s"))
        self.logger = logging.Logger("symfonic.capabilities.tools")
        self.logger.addHandler(handler)
        self.expected: list[dict[str, Any]] = []
        self.clock = 0

    def line_number(self) -> int:
        return self.stream.getvalue().count("\n") + 1

    def info(self, message: str, *args: Any, expect: list[dict[str, Any]] = (), below: int = 0) -> None:
        """Logs one message; `expect` lists its traces, which start `below` lines under its first."""
        for item in expect:
            self.expected.append({"line": self.line_number() + below, **item})
        self.clock += 7
        at = f"2025-03-14 09:27:{self.clock // 1000 % 60:02d},{self.clock % 1000:03d}"
        self.logger.info(message, *args, extra={"at": at})

    def raw(self, text: str, expect: list[dict[str, Any]] = ()) -> None:
        for item in expect:
            self.expected.append({"line": self.line_number(), **item})
        self.stream.write(text + "\n")


def expect(selection: dict[str, Any], id_known: bool = True) -> dict[str, Any]:
    return {
        "id": selection["turn_id"] if id_known else None,
        "stages": [record["stage"] for record in selection["trace"]],
        "names": selection["tools"],
    }


def repr_log(selections: list[dict[str, Any]]) -> Log:
    log = Log()
    for i, selection in enumerate(selections):
        turn = selection["turn_id"]
        log.info("request POST /v1/chat turn_id=%s", turn)
        form = i % 4
        if form == 0:
            log.info("turn_id=%s selected %s", turn, result(selection, Tool), expect=[expect(selection)])
        elif form == 1:
            event = {"turn_id": turn, "offered": selection["offered"],
                     "result": result(selection, described), "cached": False, "retry": None}
            log.info("%r", event, expect=[expect(selection)])
        elif form == 2:
            log.info("turn_id=%s records %r", turn, records(selection), expect=[expect(selection)])
        else:
            priced = result(selection, lambda name: {"name": name, "cost_usd": 0.01})
            log.info("turn_id=%s %s then %s", turn, list(records(selection)), priced,
                     expect=[expect(selection), expect(selection)])
        log.info("llm call model=gpt-4o-mini tools=%d", len(selection["tools"]))
    first, second = selections[0], selections[1]
    log.info("compare before=%s after=%s", result(first), result(second),
             expect=[expect(first, False), expect(second, False)])
    return log


def pprint_log(selections: list[dict[str, Any]]) -> Log:
    log = Log()
    for i, selection in enumerate(selections):
        turn = selection["turn_id"]
        log.info("request POST /v1/chat turn_id=%s", turn)
        form = i % 3
        if form == 0:
            log.info("turn_id=%s selection %s", turn, pprint.pformat(result(selection, Tool), width=88),
                     expect=[expect(selection)])
        elif form == 1:
            log.info("selection %s", json.dumps(selection, indent=2), expect=[expect(selection)])
        else:
            event = {"turn_id": turn, "selection": {**selection, "trace": list(records(selection))}}
            log.info("selection:\n%s", pprint.pformat(event, width=100), expect=[expect(selection)], below=1)
    return log


def key_value(event: dict[str, Any]) -> str:
    """structlog's KeyValueRenderer(sort_keys=True): key=repr(value)."""
    return " ".join(f"{key}={value!r}" for key, value in sorted(event.items()))


def logfmt(event: dict[str, Any]) -> str:
    """structlog's LogfmtRenderer: str(value), quoted with \\ and \" escaped when it needs quotes."""
    parts = []
    for key, value in event.items():
        if value is None:
            parts.append(f"{key}=")
            continue
        if isinstance(value, bool):
            value = "true" if value else "false"
        text = str(value)
        if any(c in text for c in ' ="\\'):
            text = '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'
        parts.append(f"{key}={text}")
    return " ".join(parts)


def structlog_log(selections: list[dict[str, Any]]) -> Log:
    log = Log()
    for i, selection in enumerate(selections):
        turn = selection["turn_id"]
        stamp = f"2025-03-14T09:28:{i:02d}.000Z"
        if i % 2 == 0:
            event = {"event": "tool_selection", "level": "info", "timestamp": stamp, "turn_id": turn,
                     "selection": {**selection, "trace": list(records(selection))}}
            log.raw(key_value(event), expect=[expect(selection)])
        else:
            value = json.dumps(selection) if i % 4 == 1 else str({**selection, "trace": records(selection)})
            event = {"timestamp": stamp, "level": "info", "event": "tool selection", "turn_id": turn,
                     "selection": value}
            log.raw(logfmt(event), expect=[expect(selection)])
        log.raw(logfmt({"timestamp": stamp, "level": "debug", "event": "llm call", "turn_id": turn,
                        "cached": False}))
    return log


class RemoteTool:
    """A tool whose repr shows no name (only where it runs): read as an unnamed tool."""

    def __init__(self, endpoint: str) -> None:
        self.endpoint = endpoint

    def __repr__(self) -> str:
        return f"<RemoteTool endpoint={self.endpoint!r}>"


def fields_log(selections: list[dict[str, Any]]) -> Log:
    """The shapes of a SelectionResult's fields in one log: a split string pprint puts on the first
    line, the fields as key=value pairs of their own, and a tool whose repr shows no name."""
    log = Log()
    for i, selection in enumerate(selections[:4]):
        turn = selection["turn_id"]
        stamp = f"2025-03-14T09:29:{i:02d}.000Z"
        if i == 0:
            query = f"turn {turn}: which of our tools may the agent call to answer this rather long question"
            event = {"query": query, "result": result(selection, Tool)}
            log.info("turn_id=%s selection %s", turn, pprint.pformat(event, width=72), expect=[expect(selection)])
        elif i == 1:
            # structlog's KeyValueRenderer over **vars(result), one tool known only by where it runs.
            unnamed = dataclasses.replace(result(selection),
                                          tools=result(selection).tools + (RemoteTool("https://tools.internal/v1"),))
            event = {"event": "tool_selection", "timestamp": stamp, "turn_id": turn, **vars(unnamed)}
            log.raw(key_value(event), expect=[expect(selection)])
        elif i == 2:
            # LogfmtRenderer over dataclasses.asdict(result): each field's str(), quoted.
            event = {"timestamp": stamp, "event": "tool selection", "turn_id": turn,
                     **dataclasses.asdict(result(selection))}
            log.raw(logfmt(event), expect=[expect(selection)])
        else:
            # LogfmtRenderer over the fields as JSON strings; a forced choice of None is empty.
            fields = dataclasses.asdict(result(selection))
            event = {"timestamp": stamp, "event": "tool selection", "turn_id": turn,
                     **{key: None if value is None else json.dumps(value) for key, value in fields.items()}}
            log.raw(logfmt(event), expect=[expect(selection)])
        log.info("llm call model=gpt-4o-mini tools=%d", len(selection["tools"]))
    return log


def main() -> None:
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "examples" / "logs"
    selections = load_selections()
    logs = {
        "python-repr.log": repr_log(selections),
        "python-pprint.log": pprint_log(selections),
        "structlog.log": structlog_log(selections),
        "python-fields.log": fields_log(selections),
    }
    expected = {}
    for name, log in logs.items():
        (out / name).write_text(log.stream.getvalue(), encoding="utf-8")
        expected[name] = log.expected
    (out / "python-logs.expected.json").write_text(json.dumps(expected, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
