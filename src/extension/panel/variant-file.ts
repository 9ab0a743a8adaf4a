import { posix } from "node:path";
import type { FixtureJson } from "../../core/fixture/schema.js";

/**
 * The variant as the text of a new fixture at `target`: a catalogue named by a relative path is
 * re-pointed so it still names the same file from the new location.
 */
export function variantFixtureText(
  json: FixtureJson,
  fixturePath: string,
  targetPath: string,
): string {
  let catalog = json.catalog;
  if (
    typeof catalog === "string" &&
    !posix.isAbsolute(catalog) &&
    !/^[a-z][\w+.-]*:/i.test(catalog)
  ) {
    const absolute = posix.resolve(posix.dirname(fixturePath), catalog);
    const relative = posix.relative(posix.dirname(targetPath), absolute);
    catalog = relative.startsWith(".") ? relative : `./${relative}`;
  }
  const out: FixtureJson = catalog === undefined ? { ...json } : { ...json, catalog };
  return JSON.stringify(out, null, 2) + "\n";
}

/** `weather.turn.json` → `weather.whatif.turn.json`, next to the original. */
export function suggestedVariantPath(fixturePath: string): string {
  const dir = posix.dirname(fixturePath);
  const base = posix.basename(fixturePath).replace(/(\.turn)?\.json$/i, "");
  return posix.join(dir, `${base}.whatif.turn.json`);
}

/** Where a tool's name first appears as a JSON string in the fixture text, if it does. */
export function findToolMention(
  text: string,
  tool: string,
): { offset: number; length: number } | null {
  const needle = JSON.stringify(tool);
  const offset = text.indexOf(needle);
  return offset < 0 ? null : { offset, length: needle.length };
}
