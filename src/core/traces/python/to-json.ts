/**
 * A parsed Python repr turned into the JSON shape of a logged trace (docs/formats.md, "A
 * selection trace in a log"), so that everything downstream reads it like a JSON trace:
 * `SelectionResult(...)` and `StageRecord(...)` become objects, a tuple or list of records
 * becomes `{"trace": [...]}`, and a tool becomes its name where its repr shows one.
 */
import type { PyCall, PyValue } from "./parse.js";
import { readString } from "./strings.js";

/** Dataclass fields in declaration order, for positional arguments. */
const FIELDS: Record<string, readonly string[]> = {
  StageRecord: [
    "stage",
    "action",
    "kept",
    "dropped",
    "added",
    "reinstated",
    "forced_choice",
    "detail",
  ],
  SelectionResult: ["tools", "forced_choice", "trace"],
};

/** How a value is read: `records` is a trace's list, `tools` a list of tools. */
type Role = "top" | "value" | "records" | "tools";

export function pythonToJson(value: PyValue): unknown {
  return convert(value, "top");
}

function convert(value: PyValue, role: Role): unknown {
  if (value === null || typeof value !== "object") return value;
  switch (value.kind) {
    case "opaque":
      return value.text;
    case "seq": {
      if (role !== "records" && value.items.length > 0 && value.items.every(isRecord))
        return { trace: value.items.map((item) => convert(item, "value")) };
      if (role === "tools") return value.items.map(tool);
      return value.items.map((item) => convert(item, role === "top" ? "top" : "value"));
    }
    case "dict": {
      const out = {};
      for (const [key, item] of value.entries) {
        const name = keyText(key);
        define(out, name, convert(item, roleOf(name)));
      }
      return out;
    }
    case "call":
      if (role === "top" && isRecord(value)) return { trace: [callObject(value)] };
      return callObject(value);
  }
}

function roleOf(key: string): Role {
  if (key === "trace") return "records";
  if (key === "tools" || key === "offered") return "tools";
  return "value";
}

function isRecord(value: PyValue): value is PyCall {
  return typeof value === "object" && value?.kind === "call" && shortName(value) === "StageRecord";
}

function shortName(call: PyCall): string {
  return call.name.slice(call.name.lastIndexOf(".") + 1);
}

/** A dataclass call as an object of its fields; an exception call as `{kind, message}`. */
function callObject(call: PyCall): Record<string, unknown> {
  const name = shortName(call);
  const out = {};
  const fields = FIELDS[name];
  if (call.kwargs.length === 0 && /(Error|Exception|Unavailable)$/.test(name)) {
    const message = call.args[0];
    return { kind: name, message: typeof message === "string" ? message : "" };
  }
  call.args.forEach((arg, i) => {
    const field = fields?.[i];
    if (field !== undefined) define(out, field, convert(arg, roleOf(field)));
  });
  for (const [key, item] of call.kwargs) define(out, key, convert(item, roleOf(key)));
  return out;
}

/**
 * A tool shown by any repr: a name, a dict or call with a `name`, `<Tool search>`. Without a
 * readable name it stays an unnamed object `{ "repr": ... }`: listed, but under no name.
 */
function tool(value: PyValue): unknown {
  if (typeof value === "string") return value;
  if (value !== null && typeof value === "object") {
    if (value.kind === "dict") return convert(value, "value");
    if (value.kind === "call") {
      const object = callObject(value);
      const first = value.args[0];
      if (typeof object.name !== "string" && typeof first === "string") object.name = first;
      return object;
    }
    if (value.kind === "opaque") {
      const name = angleName(value.text);
      return name === null ? { repr: value.text } : name;
    }
  }
  return { repr: keyText(value) };
}

/**
 * `<Tool search>` → search, `<Tool name='search' ...>` and `<Tool 'search'>` → search (the string
 * decoded as Python writes it); null for `<object at 0x…>`. A bare name is letters of any script,
 * digits and `_.:'->` (`<Tool it's>`, `<Tool a->b>`, `<Tool 検索>`).
 */
function angleName(text: string): string | null {
  const inner = text.slice(1, -1).trim();
  const named = /(?:^|\s)name=(?=['"])/.exec(inner);
  if (named) {
    const name = wholeString(inner, named.index + named[0].length, inner.length);
    if (name !== null) return name;
  }
  const words = inner.split(/\s+/);
  if (words.length !== 2) return null;
  const candidate = words[1]!;
  const quoted = wholeString(candidate, 0, candidate.length);
  if (quoted !== null) return quoted;
  return /^[\p{L}\p{M}\p{N}_.:-][\p{L}\p{M}\p{N}_.:'>-]*$/u.test(candidate) &&
    !/^0x[0-9a-f]+$/i.test(candidate)
    ? candidate
    : null;
}

/** The Python string literal at text[at] when it ends at `end` or a blank, else null. */
function wholeString(text: string, at: number, end: number): string | null {
  if (text[at] !== "'" && text[at] !== '"') return null;
  const read = readString(text, at, end, false);
  if (typeof read === "string") return null;
  return read.end === end || /\s/.test(text[read.end]!) ? read.value : null;
}

function keyText(key: PyValue): string {
  if (typeof key === "string") return key;
  if (key === null) return "None";
  if (typeof key === "boolean") return key ? "True" : "False";
  if (typeof key === "number") return String(key);
  return key.kind === "opaque" ? key.text : JSON.stringify(convert(key, "value"));
}

/** An own data property even for `__proto__`, as JSON.parse makes it. */
function define(object: object, key: string, value: unknown): void {
  Object.defineProperty(object, key, {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  });
}
