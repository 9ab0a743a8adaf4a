"""Writes the bench's Python-written logs: every repr is Python's own, as a service writes it.

Usage: python3 bench/shapes_log.py SHAPE FILE BYTES EVERY
  SHAPE repr: lines of the standard library's `logging`, werkzeug's access lines, and every
        EVERY-th line `selection: SelectionResult(...)` (the stand-in symfonic dataclasses);
  SHAPE kv:   structlog's KeyValueRenderer lines (request events), and every EVERY-th line the
        SelectionResult's fields as pairs of their own (`**vars(result)`: `trace=(...)`).
Prints how many traces the log holds.
"""

from __future__ import annotations

import io
import logging
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "test" / "python"))

from make_example_logs import Tool, key_value  # noqa: E402
from symfonic.capabilities.tools import SelectionResult, StageRecord  # noqa: E402

TOOLS = ("search", "get_weather", "sql", "delete_rows", "send_email", "calendar_lookup",
         "create_ticket", "vector_search", "final_answer", "ask_human")


def selection(i: int) -> SelectionResult:
    """A one-stage selection of three tools, as a service logs a palette beside its other events."""
    names = (TOOLS[i % 3], TOOLS[3 + i % 4], "final_answer")
    record = StageRecord(stage="intent", action="select", kept=names, dropped=(("vector_search", "ask_human")[i % 2],),
                         detail="keyword intersection")
    return SelectionResult(tools=tuple(Tool(name) for name in names), trace=(record,))


def repr_lines(out: io.StringIO, every: int):
    handler = logging.StreamHandler(out)
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s %(message)s"))
    for name in ("agent.tools", "werkzeug"):
        logger = logging.getLogger(name)
        logger.addHandler(handler)
        logger.setLevel(logging.INFO)
        logger.propagate = False
    tools, werkzeug = logging.getLogger("agent.tools"), logging.getLogger("werkzeug")
    i = 0
    while True:
        if i % every == every - 1:
            tools.info("selection: %s", selection(i))
            yield True
        else:
            werkzeug.info('%s - - [07/Dec/2026 10:00:00] "%s" %s -', "127.0.0.1",
                          f"GET /api/v1/items/{i} HTTP/1.1", 200)
            yield False
        i += 1


def kv_lines(out: io.StringIO, every: int):
    i = 0
    while True:
        stamp = f"2026-12-07T10:00:{i % 60:02d}.{i % 1000:03d}Z"
        if i % every == every - 1:
            event = {"event": "tool_selection", "timestamp": stamp, "turn_id": f"t-{i:x}",
                     **vars(selection(i))}
            yield_trace = True
        else:
            event = {"event": "request", "level": "info", "method": "GET", "path": f"/api/v1/items/{i}",
                     "request_id": f"r-{i}", "status": 200, "timestamp": stamp}
            yield_trace = False
        out.write(key_value(event) + "\n")
        yield yield_trace
        i += 1


def main() -> None:
    shape, file, size, every = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    out = io.StringIO()
    lines = {"repr": repr_lines, "kv": kv_lines}[shape](out, every)
    traces = written = 0
    with open(file, "w", encoding="utf-8") as log:
        while written < size:
            for _ in range(10000):
                traces += next(lines)
            chunk = out.getvalue()
            out.seek(0)
            out.truncate()
            log.write(chunk)
            written += len(chunk.encode("utf-8"))
    print(traces)


if __name__ == "__main__":
    main()
