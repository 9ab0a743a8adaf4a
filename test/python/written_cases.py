"""Python-written logs, one per way a reader may lose or misread a trace, with what Python logged.

Usage: python3 test/python/written_cases.py   prints {case: {"log", "traces", "problems"}} as JSON.
"""

from __future__ import annotations

import dataclasses
import json
import pprint
import sys
from dataclasses import dataclass
from typing import Callable

from written import NamedTool, Tool, Written, record
from symfonic.capabilities.tools import SelectionResult


@dataclass(frozen=True)
class StructuredTool:
    """A LangChain-like tool: its dataclass repr names it among other fields."""

    name: str
    description: str = ""

CASES: dict[str, Callable[[], Written]] = {}


def case(function: Callable[[], Written]) -> Callable[[], Written]:
    CASES[function.__name__] = function
    return function


def simple(names: tuple = ("a",), forced=None, stages: int = 1) -> SelectionResult:
    return SelectionResult(tools=names, forced_choice=forced,
                           trace=tuple(record(f"s{i}", kept=("z",)) for i in range(stages)))


def nested(depth: int) -> list:
    value: list = []
    for _ in range(depth - 1):
        value = [value]
    return value


@case
def results_in_a_dict_list() -> Written:
    log = Written()
    result = SelectionResult(tools=("a",), trace=(), forced_choice=None)
    log.log("%r", {"results": [result]}, results=[(result, 0, None)])
    log.log("%s", json.dumps({"results": [{"tools": ["a"], "trace": [], "forced_choice": None}]}),
            results=[(result, 0, None)])
    return log


@case
def result_nested_three_levels() -> Written:
    log = Written()
    log.log("%s", json.dumps({"a": {"b": {"c": {"tools": ["a"], "trace": []}}}}), problem=True)
    log.log("%r", {"a": {"b": {"c": SelectionResult(tools=("a",))}}}, problem=True)
    return log


@case
def two_pprint_values_sharing_a_line() -> Written:
    log = Written()
    first, second = simple(("a",)), simple(("b",), forced="b")
    one, two = pprint.pformat(first, width=20), pprint.pformat(second, width=20)
    log.log("before=%s after=%s", one, two,
            results=[(first, 0, None), (second, one.count("\n"), None)])
    return log


@case
def repr_too_deep_beside_a_result() -> Written:
    log = Written()
    log.log("%r", {"turn_id": "t1", "result": simple(), "meta": nested(101)}, problem=True)
    log.log("%r", SelectionResult(tools=({"name": "b", "schema": nested(101)},), trace=(record("s", kept=("z",)),)),
            problem=True)
    log.log("%r", {"turn_id": "t1", "result": simple(), "meta": nested(99)}, results=[(simple(), 0, "t1")])
    return log


@case
def tool_reprs_with_odd_names() -> Written:
    log = Written()
    arrow = SelectionResult(tools=(Tool("a->b"),), trace=(record("s", kept=("z",)),))
    log.log("%r", {"turn_id": "t1", "result": arrow}, results=[(arrow, 0, "t1")])
    quote = SelectionResult(tools=(Tool("it's"), "b"), forced_choice="b", trace=(record("s", kept=("x",)),))
    log.log("%r", quote, results=[(quote, 0, None)])
    named = SelectionResult(tools=(NamedTool("a\nb"), NamedTool("it's")), trace=(record("s"),))
    log.log("%r", named, results=[(named, 0, None)])
    wide = SelectionResult(tools=(Tool("café"), Tool("検索")), trace=(record("s"),))
    log.log("%r", wide, results=[(wide, 0, None)])
    return log


@case
def a_line_cut_inside_a_record() -> Written:
    log = Written()
    text = repr(simple(stages=3))
    log.raw("selection " + text[: text.rindex("StageRecord(") + len("StageRecord(sta")], problem=True)
    records = repr(simple(stages=2).trace)
    log.raw("records " + records[: records.rindex(")")] + ", StageR", problem=True)
    good = simple(("g",))
    log.log("selection %r", good, results=[(good, 0, None)])
    return log


@case
def a_line_cut_inside_a_quoted_value() -> Written:
    log = Written()
    log.raw("""event='selection' trace='[{"stage": "s", "action": "abstain", """, problem=True)
    log.raw('trace=[] tools="[\\"a\\", \\', problem=True)
    good = simple(("g",))
    log.log("selection %r", good, results=[(good, 0, None)])
    return log


@case
def a_repr_cut_inside_a_string() -> Written:
    log = Written("asctime")

    def tool(name: str) -> StructuredTool:
        return StructuredTool(name=name, description=f"does {name}; it's \"quoted\"")

    result = SelectionResult(tools=(tool("get_weather"), tool("final_answer")))
    text = repr(result)
    log.log("tool selection %s", text[: text.rindex("it\\'s") + 5], problem=True)
    log.log("llm call model=gpt-4o-mini")
    good = simple(("g",))
    log.log("tool selection %r", good, results=[(good, 0, None)])
    return log


@case
def a_prefix_with_brackets_and_quotes() -> Written:
    log = Written()
    log.log("[O'Brien] selection %s", json.dumps({"offered": ["'\""], "trace": [], "tools": ["'\""]}),
            results=[(SelectionResult(tools=("'\"",)), 0, None)])
    result = SelectionResult(tools=("a",), trace=(record("s", kept=("a",), detail="it's ] x"),))
    log.log("[O'Brien] selection %r", result, results=[(result, 0, None)])
    return log


@case
def a_bracket_of_the_prefix_left_open() -> Written:
    log = Written()
    result = simple(("a", "b"))
    text = pprint.pformat(result, width=30)
    log.log("(retry 2/3 selection %s", text, results=[(result, 0, None)])
    return log


@case
def a_string_split_after_unusual_whitespace() -> Written:
    log = Written()
    for space in ("\xa0", "\x0b", "\x0c", "\u3000"):
        event = {"query": f"météo{space}" + "x" * 30, "trace": [record("s")], "tools": ["a"]}
        text = pprint.pformat(event, width=40)
        log.log("selection %s", text, results=[(SelectionResult(tools=("a",)), 0, None)])
    return log


@case
def logging_basic_format() -> Written:
    log = Written("basic")
    result = simple()
    log.log("turn_id=t1 selection %r", result, results=[(result, 0, "t1")])
    log.log("trace=() tools=('a',)", results=[(SelectionResult(tools=("a",)), 0, None)])
    return log


@case
def fields_as_quoted_json_strings() -> Written:
    log = Written()
    log.log("tools=%r trace=%r", json.dumps(["a"]), json.dumps([]),
            results=[(SelectionResult(tools=("a",)), 0, None)])
    return log


@case
def a_json_value_opened_by_a_lone_brace() -> Written:
    log = Written()
    result = simple()
    log.log("selection")
    log.raw(json.dumps({"trace": [{"stage": "s", "action": "select", "kept": ["z"]}], "tools": ["a"],
                        "pad": ["x"] * 20_001}, indent=2), problem=True)
    log.log("selection %r", result, results=[(result, 0, None)])
    return log


@case
def limits_that_hold() -> Written:
    log = Written()
    many = [simple((f"t{i}",)) for i in range(65)]
    log.log(" ".join(["%r"] * 65), *many, results=[(result, 0, None) for result in many[:64]], problem=True)

    def turn(levels: int) -> dict:
        value: object = 1
        for _ in range(levels - 1):
            value = {"v": value}
        return {"trace": [], "tools": ["a"], "turn": {"state": value}}

    log.log("%s", json.dumps(turn(65)), results=[(SelectionResult(tools=("a",)), 0, None)])
    log.log("%s", json.dumps(turn(66)), problem=True)
    log.log("%r", turn(65), results=[(SelectionResult(tools=("a",)), 0, None)])
    return log


@case
def raw_name_ambiguous_in_its_repr() -> Written:
    """`<Tool a>,<Tool b>` is two tools or one named `a>,<Tool b`: the records decide, or a problem says so."""
    log = Written()
    odd = SelectionResult(tools=(Tool("a>,<Tool b"),), trace=(record("s", kept=("a>,<Tool b",)),))
    log.log("selected %r", odd, results=[(odd, 0, None)])
    undecided = SelectionResult(tools=(Tool("a>,<Tool b"),), trace=(record("s", kept=("c",)),))
    # Listed with the final tools its records leave, and a problem on its line.
    log.log("selected %r", undecided, results=[(dataclasses.replace(undecided, tools=("c",)), 0, None)],
            problem=True)
    return log


def main() -> None:
    names = sys.argv[1:] or list(CASES)
    print(json.dumps({name: CASES[name]().json() for name in names}))


if __name__ == "__main__":
    main()
