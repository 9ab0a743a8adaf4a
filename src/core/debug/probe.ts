/**
 * The Python that reads a value out of a paused debuggee, and the one-line expression that runs
 * it (docs/formats.md, "A selection trace in a log", is the shape it writes). The expression
 * binds nothing in the paused frame: the probe is exec'd into a fresh dict, `json` is imported
 * there, and the value is passed in as an argument. It runs no debuggee code: types are the real
 * ones (`type(v)`, never `__class__`), containers are walked through the built-in types' own
 * methods (`dict.items`, `list.__iter__`, `set.__iter__`), attributes are read with
 * `inspect.getattr_static` (a property, `__getattr__` or other descriptor is not called), and a
 * tool is reduced to its name (a string, a mapping's or an object's `name`). A cycle is cut; every
 * value read costs one of a budget, and a deadline stops the walk before the host gives up on it,
 * so the paused thread is released. Python 3.9+.
 */

/** Larger answers are refused in the debuggee, before they cross the debug adapter. */
export const MAX_VALUE_CHARS = 50 * 1024 * 1024;

/** Values and attributes the probe reads before it gives up (a 60-level shared DAG is 2^60). */
export const MAX_PROBE_VALUES = 500_000;

/** The probe stops itself after this long, well before the host stops waiting for it. */
export const PROBE_SECONDS = 20;

export interface ProbeLimits {
  /** Characters of JSON the answer may have. */
  readonly chars: number;
  /** Values and attributes the walk may read. */
  readonly values: number;
  readonly seconds: number;
}

const LIMITS: ProbeLimits = {
  chars: MAX_VALUE_CHARS,
  values: MAX_PROBE_VALUES,
  seconds: PROBE_SECONDS,
};

/** The probe's source: plain ASCII, so its JSON string literal is also a valid Python literal. */
export const PROBE_SOURCE = String.raw`import json
import time
from inspect import getattr_static
from types import FunctionType, GetSetDescriptorType, MemberDescriptorType

MISSING = object()
MAX_DEPTH = 48
CONFIG_ATTRS = ("_always_include", "_catalog", "_resolver", "_state_key", "_is_tool_message", "_verdict", "_trigger_keywords", "_allowed", "_max_safety_rank", "_budget_usd", "_include_unknown_cost", "_available_capabilities", "_agent_visible_only", "_categories", "_role")
ENTRY_FIELDS = ("name", "summary", "visibility", "cost_usd", "safety_level", "requires_capability", "category", "trigger_keywords")
CARRIERS = ("result", "selection", "selection_result", "trace", "records")
TYPE_NAME = type.__dict__["__name__"]
TYPE_MODULE = type.__dict__["__module__"]
WALK = {"left": 0, "deadline": 0.0, "path": set()}


class Shape(Exception):
    pass


class Stop(Exception):
    pass


def tick(cost=1):
    # Every value and attribute read is paid for, so a shared or huge structure ends the walk, never the debuggee.
    WALK["left"] -= cost
    if WALK["left"] < 0:
        raise Stop("too_many")
    if WALK["left"] % 1024 < cost and time.monotonic() > WALK["deadline"]:
        raise Stop("timed_out")


def real(value, kinds):
    # The real type, never __class__ (which isinstance consults, and which a property can fake).
    return issubclass(type(value), kinds)


def attr(obj, name):
    # Only what is stored: no property, __getattr__ or descriptor of the debuggee's runs.
    tick()
    try:
        found = getattr_static(obj, name, MISSING)
        kind = type(found)
        if kind is MemberDescriptorType or (kind is GetSetDescriptorType and (name == "__dict__" or TYPE_MODULE.__get__(found.__objclass__) == "builtins")):
            return kind.__get__(found, obj, type(obj))
        if kind is FunctionType or getattr_static(kind, "__get__", MISSING) is MISSING or stored(obj, name, found):
            return found
    except Stop:
        raise
    except Exception:
        pass
    return MISSING


def stored(obj, name, found):
    # A value in the instance's own dict is never called as a descriptor, whatever its type.
    fields = attr(obj, "__dict__")
    return real(fields, dict) and lookup(fields, name) is found


def lookup(mapping, key):
    # Not dict.get: a debuggee key whose hash collides would have its __eq__ called.
    tick(dict.__len__(mapping))
    for k, v in dict.items(mapping):
        if real(k, str) and str.__eq__(k, key):
            return v
    return MISSING


def text(value):
    return str.__str__(value)


def items(value):
    if real(value, list):
        tick(list.__len__(value))
        return list(list.__iter__(value))
    if real(value, tuple):
        tick(tuple.__len__(value))
        return list(tuple.__iter__(value))
    if real(value, (set, frozenset)):
        kind = set if real(value, set) else frozenset
        tick(kind.__len__(value))
        members = list(kind.__iter__(value))
        return sorted((v for v in members if real(v, str)), key=text) + [v for v in members if not real(v, str)]
    return None


def type_name(value):
    return text(TYPE_NAME.__get__(type(value)))


def tool_name(tool):
    if real(tool, str):
        return text(tool)
    name = lookup(tool, "name") if real(tool, dict) else attr(tool, "name")
    return text(name) if real(name, str) else None


def tool(value):
    name = tool_name(value)
    return name if name is not None else {"python_type": type_name(value)}


def data(value, depth=0):
    tick()
    exact = type(value)
    if value is None or exact is bool or exact is str or exact is int:
        return value
    if real(value, int):
        return int.__int__(value)
    if real(value, float):
        number = float.__float__(value)
        return number if number == number and number not in (float("inf"), float("-inf")) else None
    if real(value, str):
        return text(value)
    if depth >= MAX_DEPTH:
        return {"python_type": type_name(value), "too_deep": True}
    path = WALK["path"]
    if id(value) in path:
        return {"python_type": type_name(value), "cycle": True}
    path.add(id(value))
    try:
        return container(value, depth)
    finally:
        path.discard(id(value))


def container(value, depth):
    if real(value, dict):
        tick(dict.__len__(value))
        out = {}
        for key, item in dict.items(value):
            if real(key, str):
                out[text(key)] = data(item, depth + 1)
            elif real(key, (int, float)) or key is None:
                out[json.dumps(data(key))] = data(item, depth + 1)
        return out
    listed = items(value)
    if listed is not None:
        return [data(item, depth + 1) for item in listed]
    label, kind = attr(value, "label"), attr(value, "type")
    if real(label, str):
        matched = attr(value, "matched_tool_keywords")
        return {"label": text(label), "matched_tool_keywords": data(matched if matched is not MISSING else None, depth + 1)}
    if real(kind, str) or real(attr(value, "role"), str):
        message = {}
        for key in ("type", "role", "name", "content", "tool_call_id"):
            found = attr(value, key)
            if found is not MISSING and found is not None:
                message[key] = data(found, depth + 1)
        return message
    return {"python_type": type_name(value)}


def is_record(value):
    return not real(value, (str, dict)) and real(attr(value, "stage"), str) and real(attr(value, "action"), str)


def record(value):
    out = {}
    for key in ("stage", "action", "kept", "dropped", "added", "reinstated", "forced_choice", "detail", "degraded", "reasons"):
        field = attr(value, key)
        if field is not MISSING:
            out[key] = data(field)
    return out


def is_result(value):
    return not real(value, (str, dict)) and items(attr(value, "trace")) is not None and attr(value, "tools") is not MISSING


def result(value):
    out = {"trace": [record(r) if is_record(r) else data(r) for r in items(attr(value, "trace"))]}
    tools = items(attr(value, "tools"))
    if tools is not None:
        out["tools"] = [tool(t) for t in tools]
    forced = attr(value, "forced_choice")
    if forced is not MISSING:
        out["forced_choice"] = data(forced)
    return out


def records(value):
    listed = items(value)
    if listed and all(is_record(r) for r in listed):
        return {"trace": [record(r) for r in listed]}
    return None


def exception(value):
    args = items(attr(value, "args")) or []
    message = next((text(a) for a in args if real(a, str)), "")
    error = {"kind": type_name(value), "message": message}
    forced = attr(value, "tool")
    if real(forced, str):
        error["tool"] = text(forced)
    fields = attr(value, "__dict__")
    candidates = [attr(value, name) for name in CARRIERS]
    candidates += list(dict.values(fields)) if real(fields, dict) else []
    for candidate in candidates + args:
        found = carried(candidate)
        if found is not None:
            found["error"] = error
            return found
    raise Shape("an exception that carries no SelectionResult or stage records (" + type_name(value) + ")")


def carried(value):
    if value is MISSING or value is None:
        return None
    if is_result(value):
        return result(value)
    if is_record(value):
        return {"trace": [record(value)]}
    if real(value, dict) and lookup(value, "trace") is not MISSING:
        return data(value)
    return records(value)


def inspect(value):
    if real(value, str):
        return {"kind": "text", "text": text(value)}
    if real(value, BaseException):
        return {"kind": "trace", "trace": exception(value)}
    if real(value, dict):
        return {"kind": "json", "value": data(value)}
    found = carried(value)
    if found is None:
        listed = items(value)
        if listed is not None:
            raise Shape("a " + type_name(value) + " of " + str(len(listed)) + (" item that is not a StageRecord" if len(listed) == 1 else " items that are not all StageRecords"))
        raise Shape("a value of type " + type_name(value))
    return {"kind": "trace", "trace": found}


def enum_value(member):
    # An Enum's value property is a descriptor attr() will not run; the member stores it as _value_.
    value = attr(member, "_value_")
    return value if value is not MISSING else attr(member, "value")


def catalog(value):
    entries = attr(value, "_entries")
    if entries is MISSING:
        entries = attr(value, "entries")
    listed = list(dict.values(entries)) if real(entries, dict) else items(entries)
    if listed is None:
        return None
    out = []
    for entry in listed:
        row = {}
        for key in ENTRY_FIELDS:
            field = attr(entry, key)
            if field is not MISSING:
                level = enum_value(field) if key == "safety_level" and field is not None and not real(field, str) else field
                row[key] = data(level)
        out.append(row)
    return out


def setting(value):
    if value is None or real(value, (bool, int, float, str, dict, list, tuple, set, frozenset)):
        if real(value, (set, frozenset)):
            return {"data": [text(TYPE_NAME.__get__(v)) if real(v, type) else data(v) for v in items(value)]}
        return {"data": data(value)}
    if real(attr(value, "label"), str):
        return {"data": data(value)}
    entries = catalog(value) if attr(value, "_entries") is not MISSING or attr(value, "entries") is not MISSING else None
    if entries is not None:
        return {"catalog": entries}
    name = attr(value, "__qualname__")
    if not real(name, str):
        name = attr(type(value), "__qualname__")
    return {"object": type_name(value), "name": text(name) if real(name, str) else None}


def stage(value):
    cls = type(value)
    out = {"class": type_name(value), "module": text(attr(cls, "__module__")) if real(attr(cls, "__module__"), str) else "", "settings": {}}
    name, protects = attr(value, "name"), attr(value, "protects_forced")
    out["name"] = text(name) if real(name, str) else None
    out["protects_forced"] = protects if real(protects, bool) else None
    for key in CONFIG_ATTRS:
        field = attr(value, key)
        if field is not MISSING:
            out["settings"][key] = setting(field)
    return out


def is_pipeline(value):
    return type_name(value) == "ToolSelectionPipeline" or (not real(value, (str, dict, list, tuple)) and items(attr(value, "stages")) is not None and attr(value, "run") is not MISSING)


def is_context(value):
    return not real(value, dict) and all(attr(value, key) is not MISSING for key in ("state", "messages", "role", "query"))


def turn(frame):
    context = next((v for v in dict.values(frame) if is_context(v)), None)
    read = (lambda key: attr(context, key)) if context is not None else (lambda key: dict.get(frame, key, MISSING))
    out = {}
    for key in ("query", "role"):
        field = read(key)
        if real(field, str):
            out[key] = text(field)
    state = read("state")
    if real(state, dict):
        out["state"] = data(state)
    messages = items(read("messages"))
    if messages:
        out["messages"] = [data(m) for m in messages]
    return out


def selection_trace(value):
    found = inspect(value)
    if found["kind"] != "trace":
        raise Shape("a " + type_name(value) + "; capturing a turn needs its SelectionResult or StageRecords")
    return found["trace"]


def capture(frame, pipeline, selection):
    if pipeline is MISSING:
        found = [(text(k), v) for k, v in dict.items(frame) if real(k, str) and is_pipeline(v)]
        if len(found) != 1:
            return {"kind": "pipelines", "names": [k for k, _ in found]}
        pipeline = found[0][1]
    elif not is_pipeline(pipeline):
        raise Shape("a value of type " + type_name(pipeline) + ", not a ToolSelectionPipeline")
    if selection is MISSING:
        selection = next((v for v in dict.values(frame) if is_result(v) or (real(v, BaseException) and is_result(attr(v, "result")))), MISSING)
    offered = next((items(dict.get(frame, k)) for k in ("tools", "offered", "offered_tools") if items(dict.get(frame, k)) is not None), None)
    stages = items(attr(pipeline, "stages"))
    if stages is None:
        stages = items(attr(pipeline, "_stages")) or []
    return {
        "kind": "capture",
        "pipeline_type": type_name(pipeline),
        "stages": [stage(s) for s in stages],
        "offered": None if offered is None else [tool(t) for t in offered],
        "turn": turn(frame),
        "trace": None if selection is MISSING else selection_trace(selection),
    }


def main(mode, limit, values, seconds, frame, value_box, pipeline_box):
    WALK["left"], WALK["deadline"] = values, time.monotonic() + seconds
    value = value_box[0] if value_box else MISSING
    pipeline = pipeline_box[0] if pipeline_box else MISSING
    try:
        out = inspect(value) if mode == "inspect" else capture(frame, pipeline, value)
    except Shape as problem:
        out = {"kind": "shape", "found": str(problem)}
    except Stop as stop:
        out = {"kind": str(stop), "values": values, "seconds": seconds}
    out["palette_inspector"] = 1
    encoded = json.dumps(out, ensure_ascii=True, separators=(",", ":"))
    if len(encoded) > limit:
        return json.dumps({"palette_inspector": 1, "kind": "too_large", "size": len(encoded)})
    return encoded
`;

/** One line only: the debug adapter evaluates a single expression. */
function checkExpression(expression: string): string {
  const trimmed = expression.trim();
  if (trimmed === "" || /[\r\n]/.test(trimmed))
    throw new RangeError("an expression is one non-empty line of Python");
  return trimmed;
}

const box = (expression: string | null): string =>
  expression === null ? "()" : `((${checkExpression(expression)}),)`;

/** The expression that evaluates to the JSON (a Python str) describing `expression`'s value. */
export function inspectExpression(expression: string, limits: Partial<ProbeLimits> = {}): string {
  return probeCall("inspect", limits, "{}", box(expression), "()");
}

/**
 * The expression that reads the paused frame's pipeline (`pipeline`, else the only
 * ToolSelectionPipeline among its locals), its stages' configuration, the offered tools, the
 * turn, and the SelectionResult (`selection`, else the one among its locals).
 */
export function captureExpression(
  pipeline: string | null,
  selection: string | null,
  limits: Partial<ProbeLimits> = {},
): string {
  return probeCall("capture", limits, "locals()", box(selection), box(pipeline));
}

function probeCall(
  mode: string,
  limits: Partial<ProbeLimits>,
  frame: string,
  value: string,
  pipeline: string,
) {
  const { chars, values, seconds } = { ...LIMITS, ...limits };
  const args = [JSON.stringify(mode), Math.floor(chars), Math.floor(values), Number(seconds)];
  // The arguments are evaluated in the paused frame; only the lambda's own scope holds the probe.
  return `(lambda ns, frame, value, pipeline: (exec(${JSON.stringify(PROBE_SOURCE)}, ns), ns["main"](${args.join(", ")}, frame, value, pipeline))[1])({}, ${frame}, ${value}, ${pipeline})`;
}
