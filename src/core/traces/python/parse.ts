/**
 * A recursive-descent parser for the part of Python's repr syntax a symfonic service logs:
 * literals (strings with every escape, adjacent literals, numbers, None/True/False), lists,
 * tuples, sets, dicts, dataclass calls `Name(field=value, ...)` and opaque `<...>` reprs. It
 * never evaluates anything; recursion is bounded by MAX_REPR_DEPTH so no input can exhaust the stack.
 */
import { endsValue, isNameStart, nextItem } from "./angle.js";
import { readString } from "./strings.js";

export type PyValue = string | number | boolean | null | PySeq | PyDict | PyCall | PyOpaque;

export interface PySeq {
  readonly kind: "seq";
  readonly items: readonly PyValue[];
}
export interface PyDict {
  readonly kind: "dict";
  readonly entries: readonly (readonly [PyValue, PyValue])[];
}
export interface PyCall {
  readonly kind: "call";
  /** The name as written, e.g. `StageRecord` or `module.Tool`. */
  readonly name: string;
  readonly args: readonly PyValue[];
  readonly kwargs: readonly (readonly [string, PyValue])[];
}
/** A value shown only as text: `<Tool search>`, `inf`, `Ellipsis`, an enum member's name. */
export interface PyOpaque {
  readonly kind: "opaque";
  readonly text: string;
}

/** Deeper reprs are refused: far past any real trace, well inside the stack. */
export const MAX_REPR_DEPTH = 100;

export class PyReprError extends Error {
  constructor(
    message: string,
    /** Index in the parsed text. */
    readonly at: number,
  ) {
    super(message);
  }
}

/** One way to read a value: what it holds, where it ends, and the start and end of each `<…>` repr in it, in turn. */
export interface PyReading {
  readonly value: PyValue;
  readonly end: number;
  readonly angles: readonly number[];
}

/** Parses tried per value at most, each ending its `<…>` reprs elsewhere: past that it is said to be ambiguous. */
export const MAX_READINGS_TRIED = 64;

/**
 * Every way (two at most) to read the value at text[start, end) as Python printed it: one
 * unless a `<…>` repr, whose text is anything its `__repr__` printed, may end at more than one
 * `>`. Each `>` before a separator or a closing bracket is tried, up to the first `>, <Head`
 * where the next item of the same class starts; a reading that ends elsewhere than the first is
 * another value, not another reading of this one. With `whole`, the value fills the range
 * (blanks around it allowed). Throws the first reading's error when none parses.
 */
export function pythonReadings(
  text: string,
  start: number,
  end: number,
  whole: boolean,
): { readings: PyReading[]; exhausted: boolean } {
  const last = lastRead;
  if (last?.start === start && last.end === end && last.whole === whole && last.text === text)
    return last.read;
  const read = readingsOf(text, start, end, whole);
  lastRead = { text, start, end, whole, read };
  return read;
}

/**
 * The last value read, which is read again at once when it is a sibling pair's (a line's `tools=`
 * value is read to follow its brackets, then as the trace's tools). Its readings are never changed.
 */
let lastRead: {
  readonly text: string;
  readonly start: number;
  readonly end: number;
  readonly whole: boolean;
  readonly read: { readings: PyReading[]; exhausted: boolean };
} | null = null;

function readingsOf(
  text: string,
  start: number,
  end: number,
  whole: boolean,
): { readings: PyReading[]; exhausted: boolean } {
  const readings: PyReading[] = [];
  const choices: number[] = [];
  let firstError: PyReprError | null = null;
  for (let tried = 0; tried < MAX_READINGS_TRIED; tried++) {
    const parser = new Parser(text, end, choices, readings[0]?.end ?? end);
    parser.pos = start;
    try {
      const value = parser.value(0);
      if (whole) {
        parser.blanks();
        if (parser.pos < end) throw new PyReprError(`unexpected ${parser.found()}`, parser.pos);
      }
      if (readings.length === 0 || parser.pos === readings[0]!.end)
        readings.push({ value, end: parser.pos, angles: parser.angles });
      if (readings.length === 2) break;
    } catch (error) {
      if (!(error instanceof PyReprError)) throw error;
      firstError ??= error;
    }
    // The next choice, depth first: the last `<…>` that may end later does, those after it start again.
    let k = parser.more.length - 1;
    while (k >= 0 && !parser.more[k]) k--;
    if (k < 0) return finish(readings, firstError, false);
    choices.length = k + 1;
    choices[k] = (choices[k] ?? 0) + 1;
  }
  return finish(readings, firstError, true);
}

function finish(
  readings: PyReading[],
  error: PyReprError | null,
  exhausted: boolean,
): { readings: PyReading[]; exhausted: boolean } {
  if (readings.length === 0 && error !== null) throw error;
  return { readings, exhausted: exhausted && readings.length === 1 };
}

/** The one reading of text[start, end) (blanks around it allowed); the first when it is ambiguous. */
export function parsePython(text: string, start = 0, end = text.length): PyValue {
  return pythonReadings(text, start, end, true).readings[0]!.value;
}

/** Parses the one value that starts at `start` (after blanks) and says where it ends. */
export function parsePythonAt(
  text: string,
  start: number,
  end = text.length,
): { value: PyValue; end: number } {
  const { value, end: after } = pythonReadings(text, start, end, false).readings[0]!;
  return { value, end: after };
}

class Parser {
  pos = 0;
  /** The start and end of each `<…>` read, in order, flat. */
  readonly angles: number[] = [];
  /** For each `<…>` read, in order, whether it may end at a later `>`. */
  readonly more: boolean[] = [];
  constructor(
    private readonly text: string,
    private readonly end: number,
    /** For each `<…>` in order, which of the `>` that may end it does (0: the first). */
    private readonly choices: readonly number[],
    /** A `<…>` ends before this: a reading that ends later is another value. */
    private readonly limit: number,
  ) {}

  value(depth: number): PyValue {
    if (depth > MAX_REPR_DEPTH)
      throw new PyReprError(`the repr is nested deeper than ${MAX_REPR_DEPTH} levels`, this.pos);
    this.blanks();
    const c = this.text.charCodeAt(this.pos);
    if (this.pos >= this.end || Number.isNaN(c))
      throw new PyReprError("the repr ends where a value was expected", this.pos);
    if (c === 0x27 || c === 0x22 || (isNameStart(c) && this.stringPrefix())) return this.strings();
    if (c === 0x5b) return this.sequence("]", depth);
    if (c === 0x28) return this.parenthesised(depth);
    if (c === 0x7b) return this.braces(depth);
    if (c === 0x3c) return this.angle();
    if (c === 0x2d || c === 0x2b || c === 0x2e || isDigit(c)) return this.number();
    if (isNameStart(c)) return this.named(depth);
    throw new PyReprError(`unexpected ${this.found()}`, this.pos);
  }

  blanks(): void {
    while (this.pos < this.end) {
      const c = this.text.charCodeAt(this.pos);
      if (c !== 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) return;
      this.pos++;
    }
  }

  /** Whether the next character, before the end, is `c`. */
  private at(c: string): boolean {
    return this.pos < this.end && this.text[this.pos] === c;
  }

  /** The character at `pos`, which every caller has checked is before the end. */
  found(): string {
    return `'${this.text[this.pos]}' at column ${this.pos + 1}`;
  }

  /** A string prefix such as b, r, u, rb directly before a quote. */
  private stringPrefix(): boolean {
    let i = this.pos;
    while (i < this.end && i - this.pos < 2 && isPrefixLetter(this.text.charCodeAt(i))) i++;
    const c = this.text.charCodeAt(i);
    return i > this.pos && (c === 0x27 || c === 0x22);
  }

  /** One literal or several adjacent ones, joined as Python joins them. */
  private strings(): string {
    let out = "";
    for (;;) {
      let raw = false;
      while (this.text[this.pos] !== "'" && this.text[this.pos] !== '"') {
        if (this.text[this.pos] === "r" || this.text[this.pos] === "R") raw = true;
        this.pos++;
      }
      const read = readString(this.text, this.pos, this.end, raw);
      if (typeof read === "string") throw new PyReprError(read, this.pos);
      out += read.value;
      this.pos = read.end;
      const before = this.pos;
      this.blanks();
      const c = this.text.charCodeAt(this.pos);
      if (
        this.pos < this.end &&
        (c === 0x27 || c === 0x22 || (isNameStart(c) && this.stringPrefix()))
      )
        continue;
      this.pos = before;
      return out;
    }
  }

  private sequence(close: string, depth: number): PySeq {
    const open = this.pos++;
    const items: PyValue[] = [];
    for (let atStart = true; this.another(close, open, atStart); atStart = false)
      items.push(this.value(depth + 1));
    return { kind: "seq", items };
  }

  /** Past the opening bracket at `pos`: the first item and the blanks after it, or undefined when `close` follows at once (then passed too). */
  private firstItem(close: string, depth: number): PyValue | undefined {
    this.pos++;
    this.blanks();
    if (this.at(close)) {
      this.pos++;
      return undefined;
    }
    const first = this.value(depth + 1);
    this.blanks();
    return first;
  }

  /** `()`, `(x)` (just x), `(x,)` and `(x, y, ...)`. */
  private parenthesised(depth: number): PyValue {
    const open = this.pos;
    const first = this.firstItem(")", depth);
    if (first === undefined) return { kind: "seq", items: [] };
    if (this.at(")")) {
      this.pos++;
      return first;
    }
    this.expect(",", open);
    const items: PyValue[] = [first];
    for (let atStart = true; this.another(")", open, atStart); atStart = false)
      items.push(this.value(depth + 1));
    return { kind: "seq", items };
  }

  /** A dict `{k: v, ...}`, or a set `{a, b}` read as a list. */
  private braces(depth: number): PyValue {
    const open = this.pos;
    const first = this.firstItem("}", depth);
    if (first === undefined) return { kind: "dict", entries: [] };
    if (!this.at(":")) {
      const items: PyValue[] = [first];
      if (!this.at("}")) this.expect(",", open);
      for (let atStart = true; this.another("}", open, atStart); atStart = false)
        items.push(this.value(depth + 1));
      return { kind: "seq", items };
    }
    this.pos++;
    const entries: [PyValue, PyValue][] = [[first, this.value(depth + 1)]];
    this.blanks();
    if (!this.at("}")) this.expect(",", open);
    for (let atStart = true; this.another("}", open, atStart); atStart = false) {
      const key = this.value(depth + 1);
      this.blanks();
      this.expect(":", open);
      entries.push([key, this.value(depth + 1)]);
    }
    return { kind: "dict", entries };
  }

  /**
   * Before an item of the bracket opened at `open`, up to `close` (a trailing comma allowed): true
   * when one follows, after a comma unless `atStart`; false once `close` is passed.
   */
  private another(close: string, open: number, atStart: boolean): boolean {
    if (!atStart) {
      this.blanks();
      if (this.at(close)) {
        this.pos++;
        return false;
      }
      this.expect(",", open);
    }
    this.blanks();
    if (this.at(close)) {
      this.pos++;
      return false;
    }
    return true;
  }

  private expect(what: string, open: number): void {
    if (this.at(what)) {
      this.pos++;
      return;
    }
    if (this.pos >= this.end)
      throw new PyReprError(
        `the '${this.text[open]}' opened at column ${open + 1} is not closed`,
        open,
      );
    throw new PyReprError(`expected '${what}', found ${this.found()}`, this.pos);
  }

  /**
   * `<...>` as text, whatever it holds (`<Tool it's>`, `<Tool f(x)>`, `<Tool a>b>`): it ends at a
   * `>` before what may follow a value, the one `choices` says; `more` says whether a later one may.
   */
  private angle(): PyOpaque {
    const start = this.pos;
    const k = this.more.length;
    let skip = this.choices[k] ?? 0;
    let found = -1;
    for (let i = this.text.indexOf(">", start + 1); i !== -1; i = this.text.indexOf(">", i + 1)) {
      if (i >= this.limit) break;
      if (!endsValue(this.text, i + 1, this.end)) continue;
      if (found !== -1) {
        this.more.push(true);
        break;
      }
      const last = nextItem(this.text, i + 1, this.end);
      if (skip-- === 0) found = i;
      if (last) break;
    }
    if (found === -1)
      throw new PyReprError(`the '<' opened at column ${start + 1} is not closed`, start);
    if (this.more.length === k) this.more.push(false);
    this.pos = found + 1;
    this.angles.push(start, this.pos);
    return { kind: "opaque", text: this.text.slice(start, this.pos) };
  }

  private number(): number | PyOpaque {
    const start = this.pos;
    let i = this.pos;
    if (this.text[i] === "-" || this.text[i] === "+") i++;
    if (isNameStart(this.text.charCodeAt(i))) {
      // -inf, +inf, -nan: a sign before any other name is not a literal.
      this.pos = i;
      const name = this.name();
      if (name !== "inf" && name !== "nan")
        throw new PyReprError(`unexpected name '${name}' (not a Python literal)`, i);
      return { kind: "opaque", text: this.text.slice(start, this.pos) };
    }
    while (i < this.end && /[0-9a-fA-FxXoObB_.eEjJ+-]/.test(this.text[i]!)) {
      // A sign is part of a number only right after an exponent.
      if ((this.text[i] === "+" || this.text[i] === "-") && !/[eE]/.test(this.text[i - 1]!)) break;
      i++;
    }
    const token = this.text.slice(start, i).replaceAll("_", "");
    this.pos = i;
    if (token.endsWith("j") || token.endsWith("J")) return { kind: "opaque", text: token };
    const value = basedInteger(token) ?? Number(token);
    if (Number.isNaN(value)) throw new PyReprError(`invalid number '${token}'`, start);
    return value;
  }

  private name(): string {
    const start = this.pos;
    while (this.pos < this.end && isNameChar(this.text.charCodeAt(this.pos))) this.pos++;
    return this.text.slice(start, this.pos);
  }

  /** None, True, False (and JSON's null, true, false), a call `Name(...)`, or a bare name. */
  private named(depth: number): PyValue {
    const start = this.pos;
    let name = this.name();
    while (
      this.text.charCodeAt(this.pos) === 0x2e &&
      isNameStart(this.text.charCodeAt(this.pos + 1))
    ) {
      this.pos++;
      name += "." + this.name();
    }
    if (this.at("(")) return this.call(name, depth);
    switch (name) {
      case "None":
      case "null":
        return null;
      case "True":
      case "true":
        return true;
      case "False":
      case "false":
        return false;
      case "inf":
      case "nan":
      case "Ellipsis":
      case "NotImplemented":
        return { kind: "opaque", text: name };
      default:
        throw new PyReprError(`unexpected name '${name}' (not a Python literal)`, start);
    }
  }

  private call(name: string, depth: number): PyCall {
    const open = this.pos++;
    const args: PyValue[] = [];
    const kwargs: [string, PyValue][] = [];
    for (let atStart = true; this.another(")", open, atStart); atStart = false) {
      const keyword = this.keyword();
      if (keyword === null) args.push(this.value(depth + 1));
      else kwargs.push([keyword, this.value(depth + 1)]);
    }
    return { kind: "call", name, args, kwargs };
  }

  /** `name=` before an argument (not `==`), consumed; null when the argument is positional. */
  private keyword(): string | null {
    this.blanks();
    const start = this.pos;
    if (!isNameStart(this.text.charCodeAt(start))) return null;
    const name = this.name();
    this.blanks();
    if (this.at("=") && this.text.charCodeAt(this.pos + 1) !== 0x3d) {
      this.pos++;
      return name;
    }
    this.pos = start;
    return null;
  }
}

const BASES: Record<string, { readonly radix: number; readonly digits: RegExp }> = {
  x: { radix: 16, digits: /^[0-9a-f]+$/i },
  o: { radix: 8, digits: /^[0-7]+$/ },
  b: { radix: 2, digits: /^[01]+$/ },
};

/** `0x1f`, `-0o17`, `0b101`: its value, NaN when a digit is not of the base; null for a decimal. */
function basedInteger(token: string): number | null {
  const based = /^([+-]?)0([xob])(.*)$/i.exec(token);
  if (!based) return null;
  const base = BASES[based[2]!.toLowerCase()]!;
  const digits = based[3]!;
  if (!base.digits.test(digits)) return NaN;
  return parseInt(digits, base.radix) * (based[1] === "-" ? -1 : 1);
}

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

/** A letter, digit or `_`: a name's characters after its first. */
function isNameChar(c: number): boolean {
  return isNameStart(c) || isDigit(c);
}

/** b, r, u (either case): what may stand before a string's quote here. */
function isPrefixLetter(c: number): boolean {
  const lower = c | 0x20;
  return lower === 0x62 || lower === 0x72 || lower === 0x75;
}
