import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { CatalogSchema, FixtureSchema } from "../../src/core/fixture/schema.js";

/** What esbuild.mjs writes: the TypeBox definition as plain JSON Schema. */
const generated = (schema: object) =>
  JSON.parse(JSON.stringify({ $schema: "http://json-schema.org/draft-07/schema#", ...schema }));

describe("media/schemas", () => {
  it("are exactly what the one fixture definition generates (no hand-edited drift)", () => {
    expect(JSON.parse(readFileSync("media/schemas/turn-fixture.schema.json", "utf8"))).toEqual(
      generated(FixtureSchema),
    );
    expect(JSON.parse(readFileSync("media/schemas/catalog.schema.json", "utf8"))).toEqual(
      generated(CatalogSchema),
    );
  });

  it("let editors complete every stage kind", () => {
    const stages = (
      generated(FixtureSchema).properties.pipeline.items.oneOf as {
        properties: { kind: { const: string } };
      }[]
    ).map((s) => s.properties.kind.const);
    expect(stages).toEqual(["intent", "lazy", "allowlist", "role", "forced", "policy", "scripted"]);
  });
});
