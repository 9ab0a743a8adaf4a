import { describe, expect, it } from "vitest";
import {
  anyValue,
  attribute,
  attributeAt,
  findAttributes,
  MAX_ANY_VALUE_DEPTH,
  OtlpValueError,
} from "../../../src/core/otel/any-value.js";

/** The error `read` throws, as path and reason. */
function refusal(read: () => unknown): { path: string; reason: string } {
  try {
    read();
  } catch (error) {
    if (error instanceof OtlpValueError) return { path: error.path, reason: error.reason };
    throw error;
  }
  throw new Error("nothing was refused");
}

/** An AnyValue nested `levels` arrays deep around a string. */
function nested(levels: number): unknown {
  let value: unknown = { stringValue: "x" };
  for (let i = 0; i < levels; i++) value = { arrayValue: { values: [value] } };
  return value;
}

describe("OTLP AnyValue as plain JSON", () => {
  it("reads each scalar as itself, int64 and double given as decimal text as numbers, an absent value as null", () => {
    expect(anyValue({ stringValue: "s" }, "v")).toBe("s");
    expect(anyValue({ stringValue: "" }, "v")).toBe("");
    expect(anyValue({ boolValue: false }, "v")).toBe(false);
    expect(anyValue({ intValue: 7 }, "v")).toBe(7);
    expect(anyValue({ intValue: "-12" }, "v")).toBe(-12);
    expect(anyValue({ doubleValue: 0.5 }, "v")).toBe(0.5);
    expect(anyValue({ doubleValue: "2.5e3" }, "v")).toBe(2500);
    expect(anyValue({ bytesValue: "aGk=" }, "v")).toBe("aGk=");
    expect(anyValue(undefined, "v")).toBeNull();
    expect(anyValue(null, "v")).toBeNull();
    // No value field at all, or only ones OTLP does not define: an empty AnyValue.
    expect(anyValue({}, "v")).toBeNull();
    expect(anyValue({ futureValue: 1 }, "v")).toBeNull();
  });

  it("reads arrays and key-value lists, an absent `values` as empty", () => {
    expect(
      anyValue(
        { arrayValue: { values: [{ stringValue: "a" }, { intValue: "2" }, {}, null] } },
        "v",
      ),
    ).toEqual(["a", 2, null, null]);
    expect(anyValue({ arrayValue: {} }, "v")).toEqual([]);
    expect(anyValue({ kvlistValue: {} }, "v")).toEqual({});
    expect(
      anyValue(
        {
          kvlistValue: {
            values: [
              { key: "n", value: { doubleValue: 1.5 } },
              { key: "list", value: { arrayValue: { values: [{ boolValue: true }] } } },
              { key: "none" },
            ],
          },
        },
        "v",
      ),
    ).toEqual({ n: 1.5, list: [true], none: null });
  });

  it("refuses a value of the wrong type with the JSON path of the field", () => {
    expect(refusal(() => anyValue("text", "v"))).toEqual({
      path: "v",
      reason: "must be an AnyValue object",
    });
    expect(refusal(() => anyValue([{ stringValue: "a" }], "v"))).toEqual({
      path: "v",
      reason: "must be an AnyValue object",
    });
    expect(refusal(() => anyValue({ stringValue: 3 }, "v"))).toEqual({
      path: "v.stringValue",
      reason: "must be a string",
    });
    expect(refusal(() => anyValue({ boolValue: "true" }, "v"))).toEqual({
      path: "v.boolValue",
      reason: "must be a boolean",
    });
    expect(refusal(() => anyValue({ intValue: true }, "v"))).toEqual({
      path: "v.intValue",
      reason: "must be a number",
    });
    expect(refusal(() => anyValue({ doubleValue: null }, "v"))).toEqual({
      path: "v.doubleValue",
      reason: "must be a number",
    });
    expect(refusal(() => anyValue({ bytesValue: 1 }, "v"))).toEqual({
      path: "v.bytesValue",
      reason: "must be a string",
    });
    for (const [key, text] of [
      ["intValue", ""],
      ["intValue", "  "],
      ["doubleValue", "one"],
      ["doubleValue", "Infinity"],
      ["intValue", "1e999"],
    ] as const)
      expect(refusal(() => anyValue({ [key]: text }, "v"))).toEqual({
        path: `v.${key}`,
        reason: `must be a number, found '${text}'`,
      });
    expect(refusal(() => anyValue({ intValue: "9".repeat(100) + "x" }, "v")).reason).toBe(
      `must be a number, found '${"9".repeat(40)}'`,
    );
  });

  it("refuses a malformed array or list with the path of the part that is wrong", () => {
    expect(refusal(() => anyValue({ arrayValue: [] }, "v"))).toEqual({
      path: "v.arrayValue",
      reason: "must be an object",
    });
    expect(refusal(() => anyValue({ kvlistValue: { values: {} } }, "v"))).toEqual({
      path: "v.kvlistValue.values",
      reason: "must be an array",
    });
    expect(
      refusal(() => anyValue({ arrayValue: { values: [{ stringValue: "a" }, 5] } }, "v")),
    ).toEqual({ path: "v.arrayValue.values[1]", reason: "must be an AnyValue object" });
    expect(refusal(() => anyValue({ kvlistValue: { values: [{ key: "a" }, "b"] } }, "v"))).toEqual({
      path: "v.kvlistValue.values[1].key",
      reason: "must be a string",
    });
    expect(
      refusal(() => anyValue({ kvlistValue: { values: [{ key: 1, value: {} }] } }, "v")),
    ).toEqual({ path: "v.kvlistValue.values[0].key", reason: "must be a string" });
    expect(
      refusal(() =>
        anyValue({ kvlistValue: { values: [{ key: "k", value: { boolValue: 1 } }] } }, "v"),
      ),
    ).toEqual({ path: "v.kvlistValue.values[0].value.boolValue", reason: "must be a boolean" });
  });

  it("makes a key-value list a plain object whose fields are like JSON.parse's", () => {
    const object = anyValue(
      { kvlistValue: { values: [{ key: "k", value: { intValue: 1 } }] } },
      "v",
    ) as Record<string, unknown>;
    expect(Object.getOwnPropertyDescriptor(object, "k")).toEqual(
      Object.getOwnPropertyDescriptor(JSON.parse('{"k": 1}'), "k"),
    );
  });

  it("reads values nested up to the documented limit (72 levels) and refuses one level more, in lists as in arrays", () => {
    expect(MAX_ANY_VALUE_DEPTH).toBe(72);
    const inList = (levels: number) => {
      let value: unknown = { stringValue: "x" };
      for (let i = 0; i < levels; i++) value = { kvlistValue: { values: [{ key: "k", value }] } };
      return value;
    };
    expect(JSON.stringify(anyValue(inList(MAX_ANY_VALUE_DEPTH), "v"))).toContain('"x"');
    expect(refusal(() => anyValue(inList(MAX_ANY_VALUE_DEPTH + 1), "v")).reason).toBe(
      `nested more than ${MAX_ANY_VALUE_DEPTH} levels deep`,
    );
  });

  it("reads values nested up to the limit and refuses one level more", () => {
    let inner: unknown = anyValue(nested(MAX_ANY_VALUE_DEPTH), "v");
    for (let i = 0; i < MAX_ANY_VALUE_DEPTH; i++) inner = (inner as unknown[])[0];
    expect(inner).toBe("x");
    const refused = refusal(() => anyValue(nested(MAX_ANY_VALUE_DEPTH + 1), "v"));
    expect(refused.reason).toBe(`nested more than ${MAX_ANY_VALUE_DEPTH} levels deep`);
    expect(refused.path).toBe(`v${".arrayValue.values[0]".repeat(MAX_ANY_VALUE_DEPTH + 1)}`);
  });
});

describe("attributes of a span", () => {
  const list = [
    "not a pair",
    { key: 3, value: { stringValue: "not a key" } },
    { key: "a", value: { stringValue: "first" } },
    { key: "b", value: { boolValue: "bad" } },
    { key: "a", value: { stringValue: "second" } },
  ];

  it("finds the first pair of a key, past entries that are not pairs", () => {
    expect(attribute(list, "a", ".attributes")).toBe("first");
    expect(attribute(list, "c", ".attributes")).toBeUndefined();
    expect(attribute(undefined, "a", ".attributes")).toBeUndefined();
    expect(attribute(null, "a", ".attributes")).toBeUndefined();
    expect(attribute([], "a", ".attributes")).toBeUndefined();
  });

  it("refuses a list that is not an array, and a bad value with its index in the list", () => {
    expect(refusal(() => attribute({ a: 1 }, "a", ".attributes"))).toEqual({
      path: ".attributes",
      reason: "must be an array",
    });
    expect(refusal(() => attribute(list, "b", ".attributes"))).toEqual({
      path: ".attributes[3].value.boolValue",
      reason: "must be a boolean",
    });
  });

  it("finds several keys in one pass as attribute finds each, reading no value until asked", () => {
    const keys = new Map([
      ["a", 0],
      ["b", 1],
      ["c", 2],
    ]);
    const slots = new Int32Array([9, 9, 9]);
    const found = findAttributes(list, keys, slots, ".attributes");
    expect(found).toBe(list);
    expect([...slots]).toEqual([2, 3, -1]);
    expect(attributeAt(found, slots[0]!, ".attributes")).toBe("first");
    expect(attributeAt(found, slots[2]!, ".attributes")).toBeUndefined();
    expect(refusal(() => attributeAt(found, slots[1]!, ".attributes"))).toEqual({
      path: ".attributes[3].value.boolValue",
      reason: "must be a boolean",
    });
    // Slots left from another list are cleared.
    expect(findAttributes(undefined, keys, slots, ".attributes")).toEqual([]);
    expect([...slots]).toEqual([-1, -1, -1]);
    expect(refusal(() => findAttributes("x", keys, slots, ".attributes"))).toEqual({
      path: ".attributes",
      reason: "must be an array",
    });
  });
});
