"""Random logs written the way Python services write them, with what each logged.

Every repr is Python's own (dataclass reprs, custom __repr__, pprint.pformat, json.dumps), every
line goes through `logging` in one of its formats (BASIC_FORMAT included), with LF, CRLF or lone
CR line ends, maybe a BOM, long lines, tracebacks and plain lines mixed in; structlog's
KeyValueRenderer and LogfmtRenderer are written by hand (structlog is not in the standard library).
Some lines are cut off, as a size-capped handler cuts them: each of those must carry a problem.

Tool names come from every class Python can print (names.py), in every tool repr a service uses.

Usage: python3 test/python/random_logs.py SEED COUNT [CLASS]   prints [{"log", "traces", "problems"}] as
JSON; with CLASS (a key of names.CLASSES), every unusual name is of that class, and logs are short.
"""

from __future__ import annotations

import ast
import dataclasses
import json
import pprint
import random
import sys
from dataclasses import dataclass
from typing import Any, Callable

from names import CLASSES, unusual_name
from written import NamedTool, Tool, Written, too_long_spread
from symfonic.capabilities.tools import SelectionResult, StageRecord

NAMES = ["search", "get_weather", "sql", "final_answer", "café", "検索", "it's", "a->b", "send_email"]
DETAILS = ["", "safety high > medium", "it's ] x", 'say "hi"', "back\\slash", "line\nbreak", "tab\there",
           "(unbalanced", "{'trace': [", "émoji 😀", "trace=(1)"]
PLAIN = ["request POST /v1/chat", "user O'Brien said 'hi' [x]", "retry (2/3)", "cache miss {key}",
         "llm call model=gpt-4o-mini tools=3", "done.", "tool selection took 12 ms"]


@dataclass(frozen=True)
class StructuredTool:
    """A LangChain-like tool: its dataclass repr names it among other fields."""

    name: str
    description: str = ""


def fail(n: int) -> None:
    raise ValueError(f"boom {n}")


class Generator:
    def __init__(self, rng: random.Random, only: str | None = None) -> None:
        self.rng = rng
        self.turns = 0
        self.only = only
        # Each log has its own unusual names, beside the usual ones.
        odd = [unusual_name(rng, only or rng.choice(list(CLASSES))) for _ in range(rng.randint(2, 6))]
        self.names = NAMES + odd if only is None else ["search", "sql", *odd]

    def result(self) -> SelectionResult:
        rng = self.rng
        names = rng.sample(self.names, min(len(self.names), rng.randint(0, 4)))
        names = list(dict.fromkeys(names))
        if rng.random() < 0.02 and self.only is None:
            # A long line: a catalogue of thousands of tools.
            names = [f"tool_{i}" for i in range(rng.randint(1_000, 8_000))]
        forced = rng.choice([None, *names]) if names else None
        records = tuple(
            StageRecord(stage=rng.choice(["role", "intent", "policy", "forced"]),
                        action=rng.choice(["select", "abstain", "force"]),
                        kept=tuple(rng.sample(self.names, rng.randint(0, 3))),
                        dropped=tuple(rng.sample(self.names, rng.randint(0, 2))),
                        forced_choice=rng.choice([None, forced]),
                        detail=rng.choice(DETAILS) * (500 if rng.random() < 0.03 else 1))
            for _ in range(rng.randint(0, 3)))
        return SelectionResult(tools=tuple(names), forced_choice=forced, trace=records)

    def tooled(self, result: SelectionResult) -> SelectionResult:
        """The same result, its tools as some framework's objects."""
        kind: Callable[[str], Any] = self.rng.choice([
            str, Tool, NamedTool, lambda name: StructuredTool(name, f"does {name}; it's \"x\""),
            lambda name: {"name": name, "description": f"does {name}"}])
        return dataclasses.replace(result, tools=tuple(
            NamedTool(name) if kind is Tool and reads_quoted(name) else kind(name) for name in result.tools))

    def turn_id(self) -> str:
        self.turns += 1
        return f"t-{self.turns}"

    def event(self, log: Written) -> None:
        rng = self.rng
        form = rng.randrange(14)
        result = self.result()
        as_json = {"tools": list(result.tools), "forced_choice": result.forced_choice,
                   "trace": [dataclasses.asdict(record) for record in result.trace]}
        if form == 0:
            log.log("selected %r", self.tooled(result), results=[(result, 0, None)])
        elif form == 1:
            turn = self.turn_id()
            log.log("turn_id=%s selection %r", turn, self.tooled(result), results=[(result, 0, turn)])
        elif form == 2:
            turn = self.turn_id()
            log.log("%r", {"turn_id": turn, "result": self.tooled(result), "cached": False},
                    results=[(result, 0, turn)])
        elif form == 3:
            text = pprint.pformat(self.tooled(result), width=rng.choice([20, 40, 80, 120]))
            below = rng.randint(0, 1)
            long = too_long_spread(text)
            log.log("selection:\n%s" if below else "selection %s", text,
                    results=[] if long else [(result, below, None)], problem=long, problem_below=below)
        elif form == 4:
            turn = self.turn_id()
            log.log("%s", json.dumps({"turn_id": turn, "selection": as_json}, ensure_ascii=rng.random() < 0.5),
                    results=[(result, 0, turn)])
        elif form == 5:
            text = json.dumps(as_json, indent=2)
            long = too_long_spread(text)
            log.log("selection %s", text, results=[] if long else [(result, 0, None)], problem=long)
        elif form == 6:
            turn = self.turn_id()
            fields = {"event": "selection", "turn_id": turn, **vars(self.tooled(result))}
            self.pairs(log, " ".join(f"{key}={value!r}" for key, value in sorted(fields.items())),
                    results=[(result, 0, turn)])
        elif form == 7:
            turn = self.turn_id()
            self.pairs(log, logfmt({"event": "tool selection", "turn_id": turn, "selection": json.dumps(as_json)}),
                    results=[(result, 0, turn)])
        elif form == 8:
            log.log("results %r", {"results": [self.tooled(result)]}, results=[(result, 0, None)])
        elif form == 9:
            self.cut(log, result)
        elif form == 10:
            try:
                fail(self.turns)
            except ValueError:
                log.logger.exception("request failed")
                log.count_written()
        elif form == 12:
            # LogfmtRenderer over dataclasses.asdict(result): each field's str(), quoted.
            turn = self.turn_id()
            self.pairs(log, logfmt({"event": "tool selection", "turn_id": turn, **dataclasses.asdict(result)}),
                    results=[(result, 0, turn)])
        elif form == 13:
            # A JSON line cut after its trace began.
            text = json.dumps(as_json)
            at = rng.randrange(text.index('"trace": [') + 10, len(text) - 1)
            log.log("selection %s", text[:at], problem=True)
        else:
            other = self.result()
            log.log("before=%s after=%s", repr(result), repr(other), results=[(result, 0, None), (other, 0, None)])

    def pairs(self, log: Written, line: str, results: list[tuple[SelectionResult, int, str | None]]) -> None:
        """A line of key=value pairs, as a renderer wrote it, or after the logging format's prefix
        (BASIC_FORMAT glues it to a colon: `INFO:root:event=…`)."""
        if self.rng.random() < 0.5:
            log.raw(line, results=results)
        else:
            log.log("%s", line, results=results)

    def cut(self, log: Written, result: SelectionResult) -> None:
        """A repr cut off somewhere after its call opened, as a size-capped handler cuts a line."""
        text = repr(self.tooled(result))
        at = self.rng.randrange(len("SelectionResult(") + 1, len(text) - 1)
        log.raw("selection " + text[:at], problem=True)

    def log(self) -> Written:
        rng = self.rng
        log = Written(rng.choice(["plain", "basic", "asctime", "bracketed"]),
                      rng.choice(["\n", "\n", "\r\n", "\r"]), bom=rng.random() < 0.1)
        for _ in range(rng.randint(1, 12 if self.only is None else 3)):
            if rng.random() < 0.4:
                log.log(rng.choice(PLAIN))
            self.event(log)
        return log


def reads_quoted(name: str) -> bool:
    """Whether `<Tool NAME>` reads as a quoted name (`<Tool 'x'>`, `<Tool name='x'>`): that repr is
    taken to quote it (docs/formats.md), so the generator shows such a name another way."""
    text = name[5:] if name.startswith("name=") else name
    for end in [len(text), *(i for i, c in enumerate(text) if c.isspace())]:
        try:
            if isinstance(ast.literal_eval(text[:end]), str):
                return True
        except (ValueError, SyntaxError):
            pass
    return False


def logfmt(event: dict[str, Any]) -> str:
    """structlog's LogfmtRenderer: str(value), quoted with \\ and \" escaped when it needs quotes."""
    parts = []
    for key, value in event.items():
        if value is None:
            parts.append(f"{key}=")
            continue
        text = str(value)
        if text == "None":
            # Quoted so as not to be read as None, which a bare None is.
            parts.append(f'{key}="None"')
            continue
        # Quoted when it holds a blank of any kind too: a bare word ends at a space or a tab.
        if any(c in text for c in '="\\') or any(c.isspace() for c in text):
            text = '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'
        parts.append(f"{key}={text}")
    return " ".join(parts)


def main() -> None:
    seed, count = int(sys.argv[1]), int(sys.argv[2])
    only = sys.argv[3] if len(sys.argv) > 3 else None
    print(json.dumps([Generator(random.Random(seed * 100_003 + i), only).log().json() for i in range(count)]))


if __name__ == "__main__":
    main()
