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
 * The name a `<Head …>` repr shows: `<Tool name='search' …>` and `<Tool 'search'>` → search (the
 * string decoded as Python writes it); otherwise all the text between `<Head ` and the closing `>`,
 * as a `__repr__` printing the name raw wrote it (`<Tool it's>`, `<Tool sp ace>`, `<Tool f(x)>`);
 * null with no text there (`<Tool>`), for an object's address (`<Foo object at 0x7f…>`) or for
 * another quoted field (`<RemoteTool endpoint='…'>`).
 */
function angleName(text: string): string | null {
  const head = /^<[\p{L}\p{N}_.]+ /u.exec(text);
  if (head === null) return null;
  const inner = text.slice(head[0].length, -1);
  if (inner === "" || / at 0x[0-9a-f]+$/i.test(inner)) return null;
  const field = /^(\w+)=(?=['"])/.exec(inner);
  const quoted = wholeString(inner, field?.[0].length ?? 0, inner.length);
  // A field other than the name (`<RemoteTool endpoint='…'>`) names nothing.
  if (field && (field[1] !== "name" || quoted === null)) return null;
  return quoted ?? inner;
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
