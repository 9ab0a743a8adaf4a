// In real VS Code: as the user types (unsaved), the fixture's mistakes appear in the
// Problems panel — the full validator's, at the key and with the JSON path — and go away when
// mended. Each mistake is listed once (the editor's schema variant checks
// nothing, yet completes), in the extension's words. The problems follow a catalogue changed on disk.
import { readFile, writeFile } from "node:fs/promises";
import * as path from "node:path";

export const name = "Problems panel: mistakes in an unsaved fixture are reported as you type";

const FIXTURE = "knowledge-turn.turn.json";

const fixture = (policyKey) => `{
  "catalog": "./tools.catalog.json",
  "offered": ["search", "final_answer"],
  "pipeline": [
    {"kind": "policy", "${policyKey}": "high"},
    {"kind": "lazy", "allowed_names": ["serch"]}
  ]
}`;

const TYPO =
  "unknown key 'max_safty_level'; did you mean 'max_safety_level'? (at $.pipeline[0].max_safty_level)";
const UNKNOWN_TOOL =
  "'serch' is neither offered nor in the catalogue; did you mean 'search'? (at $.pipeline[1].allowed_names[0])";

export async function run({ page, workspace, openFile, replaceEditorText, assert, log }) {
  const rows = page.locator(".markers-panel .monaco-list-row");
  const problems = async () =>
    (await rows.allInnerTexts()).map((text) => text.replace(/\s+/g, " "));
  /** Resolves when the Problems panel next changes, or after `ms` (it may change between two reads). */
  const nextChange = (ms) =>
    page.evaluate(
      ([selector, ms]) =>
        new Promise((resolve) => {
          const observer = new MutationObserver(() => done(true));
          const timer = setTimeout(() => done(false), ms);
          const done = (changed) => {
            observer.disconnect();
            clearTimeout(timer);
            resolve(changed);
          };
          observer.observe(document.querySelector(selector) ?? document.body, {
            subtree: true,
            childList: true,
            characterData: true,
          });
        }),
      [".markers-panel", ms],
    );
  const waitFor = async (what, ok) => {
    const deadline = Date.now() + 30_000;
    let seen = [];
    while (Date.now() < deadline) {
      seen = await problems();
      if (ok(seen)) return seen;
      await nextChange(1_000);
    }
    throw new Error(`${what}; the Problems panel shows: ${seen.join(" | ")}`);
  };

  await openFile(FIXTURE);
  await replaceEditorText(fixture("max_safty_level"));
  await page.keyboard.press("Control+Shift+M");
  const typed = await waitFor("the typo is reported by the validator", (seen) =>
    seen.some((m) => m.includes(TYPO)),
  );
  // The JSON language service has had the same keystrokes; give it a moment to (not) report.
  await page.waitForTimeout(1500);
  const once = await problems();
  log(`with the typo: ${once.join(" | ")}`);
  assert.deepEqual(
    once.filter((m) => m.includes("max_safty_level")),
    [typed.find((m) => m.includes(TYPO))],
    "the unknown key is listed once, in the extension's words",
  );
  assert.match(
    typed.find((m) => m.includes(TYPO)),
    /palette-inspector \[Ln 5, Col 24\]$/,
  );
  assert.ok(
    once.some((m) => m.includes(UNKNOWN_TOOL)),
    "every mistake at once: the unknown tool is listed beside the typo",
  );

  await replaceEditorText(fixture("max_safety_level"));
  const mended = await waitFor(
    "the typo is gone and the unknown tool is warned about",
    (seen) =>
      !seen.some((m) => m.includes("max_safty_level")) &&
      seen.some((m) => m.includes(UNKNOWN_TOOL)),
  );
  log(`mended: ${mended.join(" | ")}`);
  assert.match(
    mended.find((m) => m.includes(UNKNOWN_TOOL)),
    /palette-inspector \[Ln 6, Col 40\]$/,
  );

  // A watcher the fake only imitates: the catalogue changes on disk (not in an editor)
  // and the open fixture's problems follow — 'serch' becomes a catalogued tool, then stops being one.
  const catalogue = path.join(workspace, "tools.catalog.json");
  const original = await readFile(catalogue, "utf8");
  const withSerch = JSON.parse(original);
  withSerch.tools.push({ name: "serch", summary: "A second search tool." });
  await writeFile(catalogue, JSON.stringify(withSerch, null, 2));
  const catalogued = await waitFor(
    "the unknown-tool warning goes when the catalogue on disk gains 'serch'",
    (seen) => !seen.some((m) => m.includes("'serch' is neither")),
  );
  log(`catalogue with serch: ${catalogued.join(" | ") || "(no problems)"}`);
  await writeFile(catalogue, original);
  await waitFor("the warning is back when the catalogue on disk loses 'serch'", (seen) =>
    seen.some((m) => m.includes(UNKNOWN_TOOL)),
  );

  // The editor's schema variant still completes a stage's keys once its kind is written.
  await replaceEditorText('{"pipeline": [{"kind": "policy", ');
  await page.keyboard.press("Control+Space");
  const suggestions = page.locator(".suggest-widget .monaco-list-row");
  await suggestions.first().waitFor({ state: "visible", timeout: 15_000 });
  const offered = (await suggestions.allInnerTexts()).map((text) => text.split(/\s/)[0]);
  log(`completion in a policy stage: ${offered.join(", ")}`);
  assert.ok(offered.includes("max_safety_level"), offered.join(", "));
  assert.ok(!offered.includes("allowed_names"), "only the policy stage's keys");
  await page.keyboard.press("Escape");
}
