/**
 * OTLP attribute values (`AnyValue`, as OTLP/JSON writes them) read into plain JSON values:
 * `kvlistValue` an object, `arrayValue` an array, the scalars as themselves, an absent value null.
 * A fixed field (`key`, `value`, `values`) is read as a plain property: parsed JSON inherits only
 * Object.prototype, which has none of those names, so the read is an own read without its cost.
 */
import { isJsonObject, MAX_VALUE_DEPTH } from "../traces/trace.js";

/** A value that is not an OTLP AnyValue; `path` is its JSON path in the request. */
export class OtlpValueError extends Error {
  constructor(
    readonly path: string,
    readonly reason: string,
  ) {
    super(`${path}: ${reason}`);
  }

  /** The same error with `prefix` before its path: a reader builds a path only once something is wrong. */
  under(prefix: string): OtlpValueError {
    return new OtlpValueError(prefix + this.path, this.reason);
  }
}

/** Nested deeper than this (kvlists and arrays), a value is refused: a trace is at most MAX_VALUE_DEPTH deep. */
export const MAX_ANY_VALUE_DEPTH = MAX_VALUE_DEPTH + 8;

export function anyValue(value: unknown, path: string, depth = 0): unknown {
  if (value === undefined || value === null) return null;
  if (!isJsonObject(value)) throw new OtlpValueError(path, `must be an AnyValue object`);
  if (depth > MAX_ANY_VALUE_DEPTH)
    throw new OtlpValueError(path, `nested more than ${MAX_ANY_VALUE_DEPTH} levels deep`);
  // for-in visits the own keys in Object.keys' order (parsed JSON inherits no enumerable key) without making their list.
  for (const key in value) {
    const field = value[key];
    switch (key) {
      case "stringValue":
        return expect(field, "string", path, key);
      case "boolValue":
        return expect(field, "boolean", path, key);
      // OTLP/JSON writes an int64 as decimal text, and a double may come so too.
      case "doubleValue":
      case "intValue":
        return typeof field === "string"
          ? number(field, path, key)
          : expect(field, "number", path, key);
      case "bytesValue":
        return expect(field, "string", path, key);
      case "arrayValue":
        return arrayOf(field, `${path}.arrayValue`, depth);
      case "kvlistValue":
        return kvlist(field, `${path}.kvlistValue`, depth);
    }
  }
  return null;
}

function expect(field: unknown, type: string, path: string, key: string): unknown {
  if (typeof field !== type) throw new OtlpValueError(`${path}.${key}`, `must be a ${type}`);
  return field;
}

function number(field: string, path: string, key: string): number {
  const n = Number(field);
  if (field.trim() === "" || !Number.isFinite(n))
    throw new OtlpValueError(`${path}.${key}`, `must be a number, found '${field.slice(0, 40)}'`);
  return n;
}

function values(field: unknown, path: string): readonly unknown[] {
  if (!isJsonObject(field)) throw new OtlpValueError(path, "must be an object");
  const list = field["values"] ?? [];
  if (!Array.isArray(list)) throw new OtlpValueError(`${path}.values`, "must be an array");
  return list;
}

function arrayOf(field: unknown, path: string, depth: number): unknown[] {
  return values(field, path).map((item, i) => anyValue(item, `${path}.values[${i}]`, depth + 1));
}

/** A key value list as an object; keys are defined, not assigned, so `__proto__` stays a key. */
function kvlist(field: unknown, path: string, depth: number): Record<string, unknown> {
  const object: Record<string, unknown> = {};
  values(field, path).forEach((pair, i) => {
    const at = `${path}.values[${i}]`;
    const key = isJsonObject(pair) ? pair["key"] : undefined;
    if (typeof key !== "string") throw new OtlpValueError(`${at}.key`, "must be a string");
    const value = anyValue((pair as Record<string, unknown>)["value"], `${at}.value`, depth + 1);
    Object.defineProperty(object, key, {
      value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  });
  return object;
}

/** The value of attribute `key` in an OTLP attribute list, or undefined when it is not there. */
export function attribute(attributes: unknown, key: string, path: string): unknown {
  const list = attributeList(attributes, path);
  for (let i = 0; i < list.length; i++) {
    const pair: unknown = list[i];
    if (isJsonObject(pair) && pair["key"] === key) return attributeAt(list, i, path);
  }
  return undefined;
}

/**
 * Where the first pair of each of several keys is in an attribute list, in one pass over it: into
 * `slots[keys.get(key)]` its index, -1 when it is not there. The list is returned (empty when absent).
 */
export function findAttributes(
  attributes: unknown,
  keys: ReadonlyMap<string, number>,
  slots: Int32Array,
  path: string,
): readonly unknown[] {
  const list = attributeList(attributes, path);
  slots.fill(-1);
  for (let i = 0; i < list.length; i++) {
    const pair: unknown = list[i];
    const key = isJsonObject(pair) ? pair["key"] : undefined;
    const slot = typeof key === "string" ? keys.get(key) : undefined;
    if (slot !== undefined && slots[slot] === -1) slots[slot] = i;
  }
  return list;
}

/** The value of the pair at `index` of an attribute list (undefined for -1); `path` names the list. */
export function attributeAt(list: readonly unknown[], index: number, path: string): unknown {
  if (index === -1) return undefined;
  try {
    return anyValue((list[index] as Record<string, unknown>)["value"], "");
  } catch (error) {
    // The path is built only for a value that is wrong: most requests have none.
    throw error instanceof OtlpValueError ? error.under(`${path}[${index}].value`) : error;
  }
}

function attributeList(attributes: unknown, path: string): readonly unknown[] {
  if (attributes === undefined || attributes === null) return NO_ATTRIBUTES;
  if (!Array.isArray(attributes)) throw new OtlpValueError(path, "must be an array");
  return attributes;
}

const NO_ATTRIBUTES: readonly unknown[] = Object.freeze([]);
