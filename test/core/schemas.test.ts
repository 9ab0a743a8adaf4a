import { readdirSync, readFileSync } from "node:fs";
import { Ajv } from "ajv";
import { describe, expect, it } from "vitest";
import { editorSchema } from "../../src/core/fixture/editor-schema.js";
import { SCHEMA_FILES } from "../../src/core/fixture/schema-files.js";

const read = (file: string) => JSON.parse(readFileSync(`media/schemas/${file}`, "utf8"));
const fixture = SCHEMA_FILES["turn-fixture.schema.json"] as {
  properties: { pipeline: { items: { oneOf: { properties: { kind: { const: string } } }[] } } };
};
const editor = SCHEMA_FILES["turn-fixture.editor.schema.json"] as {
  properties: {
    pipeline: {
      items: { allOf: { if: unknown; then: { properties: Record<string, unknown> } }[] };
    };
    offered: { defaultSnippets: unknown };
  };
};

/** Every value (at any depth) of `key` in a schema. */
function valuesOf(schema: unknown, key: string): unknown[] {
  if (typeof schema !== "object" || schema === null) return [];
  return Object.entries(schema).flatMap(([k, v]) => [
    ...(k === key ? [v] : []),
    ...valuesOf(v, key),
  ]);
}

const isText = (value: unknown) => typeof value === "string";

describe("media/schemas", () => {
  it("are exactly what the one fixture definition generates (no hand-edited drift)", () => {
    expect(readdirSync("media/schemas").sort()).toEqual(Object.keys(SCHEMA_FILES).sort());
    for (const [file, schema] of Object.entries(SCHEMA_FILES)) expect(read(file)).toEqual(schema);
  });

  it("let editors complete every stage kind", () => {
    const stages = fixture.properties.pipeline.items.oneOf.map((s) => s.properties.kind.const);
    expect(stages).toEqual(["intent", "lazy", "allowlist", "role", "forced", "policy", "scripted"]);
    expect(valuesOf(editor, "kind")).toContainEqual({ examples: stages });
  });

  it("give the editor (package.json's jsonValidation) the variants without constraints", () => {
    const contributed = (
      JSON.parse(readFileSync("package.json", "utf8")) as {
        contributes: { jsonValidation: { fileMatch: string; url: string }[] };
      }
    ).contributes.jsonValidation;
    expect(contributed).toEqual([
      { fileMatch: "*.turn.json", url: "./media/schemas/turn-fixture.editor.schema.json" },
      { fileMatch: "*.catalog.json", url: "./media/schemas/catalog.editor.schema.json" },
    ]);
  });
});

describe("the editor's schema variant", () => {
  // JSON Schema's draft 7 validator stands in for VS Code's JSON language service.
  const accepts = (schema: object, value: unknown) =>
    new Ajv({ strict: false }).compile(schema)(value) as boolean;

  it("reports nothing the extension already reports: an unknown key, a wrong type, a missing key, a bad kind", () => {
    const mistakes = [
      { offered: ["search"], pipeline: [{ kind: "policy", max_safty_level: "high" }] },
      { offered: "search", pipeline: [] },
      { pipeline: [{ kind: "lazy" }], expect: { names: [1] } },
      { offered: [], pipeline: [{ kind: "polcy" }, { kind: "scripted", outcome: { nope: 1 } }] },
      { offered: [], pipeline: [], catalog: "", unknown: true },
    ];
    for (const value of mistakes) {
      expect(accepts(fixture, value)).toBe(false);
      expect(accepts(editor, value)).toBe(true);
    }
    for (const name of ["catalog.schema.json", "catalog.editor.schema.json"])
      expect(accepts(SCHEMA_FILES[name]!, [{ name: "a", safty_level: "low" }])).toBe(
        name === "catalog.schema.json" ? false : true,
      );
  });

  it("keeps every key, description and value the strict schema offers for completion", () => {
    for (const key of ["description", "title"])
      expect(new Set(valuesOf(editor, key).filter(isText))).toEqual(
        new Set(valuesOf(fixture, key).filter(isText)),
      );
    const strictValues = valuesOf(fixture, "const");
    const offered = valuesOf(editor, "examples").flat();
    for (const value of strictValues) expect(offered).toContainEqual(value);
    const keys = (schema: unknown) =>
      new Set(valuesOf(schema, "properties").flatMap((p) => Object.keys(p as object)));
    expect(keys(editor)).toEqual(keys(fixture));
  });

  it("applies a stage kind's keys only once its kind is written, and inserts [] or {} for a key", () => {
    const stage = (editor as { properties: { pipeline: { items: Record<string, unknown> } } })
      .properties.pipeline.items;
    const branches = stage.allOf as {
      if: unknown;
      then: { properties: Record<string, unknown> };
    }[];
    expect(branches[5]!.if).toEqual({
      properties: { kind: { const: "policy" } },
      required: ["kind"],
    });
    expect(branches[5]!.then.properties.max_safety_level).toBeDefined();
    expect(editor.properties.offered.defaultSnippets).toEqual([{ body: [] }]);
    expect(JSON.stringify(editor)).not.toMatch(
      /"additionalProperties":false|"required":\[(?!"kind")/,
    );
  });

  it("drops every constraint keyword and a closed object's `false`, keeping the rest as written", () => {
    const constraints = {
      required: ["a"],
      minLength: 1,
      maxLength: 2,
      minimum: 0,
      maximum: 1,
      exclusiveMinimum: 0,
      exclusiveMaximum: 1,
      minItems: 1,
      maxItems: 2,
      uniqueItems: true,
      minProperties: 1,
      maxProperties: 2,
      pattern: "^a",
      discriminator: { propertyName: "kind" },
    };
    expect(
      editorSchema({
        $id: "https://example.org/s.json",
        title: "T",
        description: "D",
        additionalProperties: false,
        ...constraints,
      }),
    ).toEqual({ title: "T", description: "D" });
    expect(
      editorSchema({ additionalProperties: { type: "string", minLength: 1, description: "v" } }),
    ).toEqual({ additionalProperties: { description: "v" } });
  });

  it("inserts [] or {} for an array or object key, offers true/false, constants and enums as examples", () => {
    expect(editorSchema({ type: "array", items: { type: "object", maxProperties: 1 } })).toEqual({
      defaultSnippets: [{ body: [] }],
      items: { defaultSnippets: [{ body: {} }] },
    });
    expect(editorSchema({ type: ["object", "null"] })).toEqual({ defaultSnippets: [{ body: {} }] });
    expect(editorSchema({ type: ["array", "object"] })).toEqual({
      defaultSnippets: [{ body: [] }],
    });
    expect(editorSchema({ type: ["string", "null"] })).toEqual({});
    expect(editorSchema({ type: "boolean" })).toEqual({ examples: [true, false] });
    expect(editorSchema({ type: ["boolean", "null"], const: true })).toEqual({
      examples: [true, false],
    });
    expect(editorSchema({ examples: ["z"], enum: ["a", "z"], const: "c" })).toEqual({
      examples: ["z", "a", "c"],
    });
    expect(editorSchema({ enum: "not a list" })).toEqual({ enum: "not a list" });
    // A snippet the schema gives itself is kept, before or after its type.
    const own = [{ body: ["x"] }];
    expect(editorSchema({ defaultSnippets: own, type: "array" })).toEqual({ defaultSnippets: own });
  });

  it("loosens the schemas under properties, patternProperties, definitions and $defs, and items", () => {
    const sub = { type: "string", minLength: 1, description: "s" };
    expect(
      editorSchema({
        properties: { a: sub, b: true },
        patternProperties: { "^x-": sub },
        definitions: { d: sub },
        $defs: { e: sub },
        items: sub,
      }),
    ).toEqual({
      properties: { a: { description: "s" }, b: true },
      patternProperties: { "^x-": { description: "s" } },
      definitions: { d: { description: "s" } },
      $defs: { e: { description: "s" } },
      items: { description: "s" },
    });
    expect(editorSchema({ items: [sub], properties: "x" })).toEqual({
      items: [sub],
      properties: "x",
    });
  });

  it("turns kinded alternatives into if/then on the kind, other alternatives into allOf beside the schema's own keys", () => {
    const kinded = (kind: string, key: string): Parameters<typeof editorSchema>[0] => ({
      type: "object",
      properties: { kind: { const: kind }, [key]: { type: "string", minLength: 1 } },
      required: ["kind"],
    });
    expect(
      editorSchema({
        properties: { name: { description: "n" } },
        allOf: [{ description: "own" }],
        oneOf: [kinded("a", "x"), kinded("b", "y")],
      }),
    ).toEqual({
      properties: { name: { description: "n" }, kind: { examples: ["a", "b"] } },
      allOf: [
        { description: "own" },
        {
          if: { properties: { kind: { const: "a" } }, required: ["kind"] },
          then: {
            defaultSnippets: [{ body: {} }],
            properties: { kind: { examples: ["a"] }, x: {} },
          },
        },
        {
          if: { properties: { kind: { const: "b" } }, required: ["kind"] },
          then: {
            defaultSnippets: [{ body: {} }],
            properties: { kind: { examples: ["b"] }, y: {} },
          },
        },
      ],
    });
    expect(
      editorSchema({
        description: "either",
        anyOf: [{ type: "string" }, { properties: { kind: { type: "string" } } }, true],
      }),
    ).toEqual({ description: "either", allOf: [{}, { properties: { kind: {} } }] });
    expect(editorSchema({ anyOf: [kinded("a", "x"), { properties: { kind: true } }] })).toEqual({
      allOf: [
        { defaultSnippets: [{ body: {} }], properties: { kind: { examples: ["a"] }, x: {} } },
        { properties: { kind: true } },
      ],
    });
    expect(editorSchema({ oneOf: "not a list" })).toEqual({ oneOf: "not a list" });
  });
});
