import { readdirSync } from "node:fs";
import { join } from "node:path";
import { readCatalogFile } from "../src/cli/files.js";
import { compareReports } from "../src/core/compare.js";
import { loadFixture } from "../src/core/fixture/load.js";
import { semanticIssues } from "../src/core/fixture/semantics.js";
import { runFixture } from "../src/core/run-fixture.js";
import { applyWhatIf } from "../src/core/whatif.js";
import { readSourceFile } from "../src/node/source-file.js";
import { fmt, medianMs } from "./measure.js";

/** What the host does for one what-if: apply the edit, check it, re-run, compare; for every example. */
export async function benchWhatIf(): Promise<string[]> {
  const files = readdirSync("examples").filter((name) => name.endsWith(".turn.json"));
  let worst = { ms: 0, file: "" };
  for (const file of files) {
    const source = readSourceFile(join("examples", file), "fixture");
    if ("problems" in source) throw new Error(`example ${file} cannot be read`);
    const loaded = await loadFixture(source, readCatalogFile);
    if (!loaded.ok) throw new Error(`example ${file} is invalid`);
    const { fixture } = loaded;
    const base = runFixture(fixture);
    const first = fixture.json.pipeline?.[0];
    const edit = first ? { enabled: { [first.name ?? first.kind]: false } } : { role: "admin" };
    const ms = medianMs(() => {
      const json = applyWhatIf(fixture.json, edit);
      if (semanticIssues(json, fixture.catalog).some((issue) => issue.severity === "error"))
        throw new Error("invalid what-if");
      compareReports(base, runFixture(fixture, json));
    }, 21);
    if (ms > worst.ms) worst = { ms, file };
  }
  const ok = worst.ms < 100 ? "ok" : "MISSED";
  return [
    `what-if re-run in the host (apply, check, run, compare), slowest of ${files.length} examples: ${fmt(worst.ms)} (${worst.file}; goal < 100 ms) ${ok}`,
  ];
}
