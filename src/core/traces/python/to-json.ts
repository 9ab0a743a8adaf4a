/**
 * A parsed Python repr turned into the JSON shape of a logged trace (docs/formats.md, "A
 * selection trace in a log"), so that everything downstream reads it like a JSON trace:
 * `SelectionResult(...)` and `StageRecord(...)` become objects, a tuple or list of records
 * becomes `{"trace": [...]}`, and a tool becomes its name where its repr shows one.
 */
import type { PyCall, PyValue } from "./parse.js";
import { isNameChar } from "./angle.js";
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
      const out: Record<string, unknown> = {};
      for (const [key, item] of value.entries) {
        const name = keyText(key);
        put(out, name, convert(item, roleOf(name)));
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
  return typeof value === "object" && value?.kind === "call" && isNamed(value, "StageRecord");
}

/** The call is to `name`, under any module path: no slice of its name made. */
function isNamed(call: PyCall, name: string): boolean {
  const full = call.name;
  return (
    full.endsWith(name) &&
    (full.length === name.length || full.charCodeAt(full.length - name.length - 1) === 0x2e)
  );
}

function shortName(call: PyCall): string {
  return call.name.slice(call.name.lastIndexOf(".") + 1);
}

/** A dataclass call as an object of its fields; an exception call as `{kind, message}`. */
function callObject(call: PyCall): Record<string, unknown> {
  const name = shortName(call);
  const out: Record<string, unknown> = {};
  const fields = FIELDS[name];
  if (call.kwargs.length === 0 && isErrorName(name)) {
    const message = call.args[0];
    return { kind: name, message: typeof message === "string" ? message : "" };
  }
  const { args } = call;
  for (let i = 0; i < args.length; i++) {
    const field = fields?.[i];
    if (field !== undefined) put(out, field, convert(args[i]!, roleOf(field)));
  }
  for (const [key, item] of call.kwargs) put(out, key, convert(item, roleOf(key)));
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
  const head = headLength(text);
  if (head === -1) return null;
  const inner = text.slice(head, -1);
  if (inner === "" || (isHexDigit(inner.charCodeAt(inner.length - 1)) && ADDRESS.test(inner)))
    return null;
  const field = inner.includes("=") ? FIELD.exec(inner) : null;
  const quoted = wholeString(inner, field?.[0].length ?? 0, inner.length);
  // A field other than the name (`<RemoteTool endpoint='…'>`) names nothing.
  if (field && (field[1] !== "name" || quoted === null)) return null;
  return quoted ?? inner;
}

/** An object's address ending a repr, as `object.__repr__` writes it. */
const ADDRESS = / at 0x[0-9a-f]+$/i;
/** A field of the repr before a quoted value: `name='search'`. */
const FIELD = /^(\w+)=(?=['"])/;
/** The head of a `<Head …>` repr, the blank after it included, when not all ASCII. */
const HEAD = /^<[\p{L}\p{N}_.]+ /u;

/**
 * The length of `<Head ` at the start of the text, or -1: an ASCII head is tested a character at
 * a time, any other by HEAD.
 */
function headLength(text: string): number {
  let i = 1;
  for (; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0x80) {
      const head = HEAD.exec(text);
      return head === null ? -1 : head[0].length;
    }
    if (!isNameChar(c)) break;
  }
  return i > 1 && text.charCodeAt(i) === 0x20 && text.charCodeAt(0) === 0x3c ? i + 1 : -1;
}

function isHexDigit(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x61 && c <= 0x66) || (c >= 0x41 && c <= 0x46);
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

/** A name an exception class ends with: its call is read as `{kind, message}`. */
function isErrorName(name: string): boolean {
  return name.endsWith("Error") || name.endsWith("Exception") || name.endsWith("Unavailable");
}

/**
 * An own data property even for `__proto__`, as JSON.parse makes it. Every other name an
 * assignment may take: Object.prototype's other members are writable data properties, so
 * assigning one makes an own property and changes no prototype.
 */
function put(object: Record<string, unknown>, key: string, value: unknown): void {
  if (key === "__proto__")
    Object.defineProperty(object, key, {
      value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  else object[key] = value;
}
