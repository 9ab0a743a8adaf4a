// Issue 3 in real VS Code: as the user types (unsaved), the fixture's mistakes appear in the
// Problems panel — the full validator's, at the key and with the JSON path, beside the bundled
// schema's — and go away when mended, leaving what only the full validator can tell.
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

export async function run({ page, openFile, replaceEditorText, assert, log }) {
  const rows = page.locator(".markers-panel .monaco-list-row");
  const problems = async () =>
    (await rows.allInnerTexts()).map((text) => text.replace(/\s+/g, " "));
  const waitFor = async (what, ok) => {
    const deadline = Date.now() + 30_000;
    let seen = [];
    while (Date.now() < deadline) {
      seen = await problems();
      if (ok(seen)) return seen;
      await page.waitForTimeout(250);
    }
    throw new Error(`${what}; the Problems panel shows: ${seen.join(" | ")}`);
  };

  await openFile(FIXTURE);
  await replaceEditorText(fixture("max_safty_level"));
  await page.keyboard.press("Control+Shift+M");
  const typed = await waitFor(
    "the typo is reported by the validator and by the schema",
    (seen) =>
      seen.some((m) => m.includes(TYPO)) &&
      seen.some((m) => /max_safty_level is not allowed/.test(m)),
  );
  log(`with the typo: ${typed.join(" | ")}`);
  assert.match(
    typed.find((m) => m.includes(TYPO)),
    /palette-inspector \[Ln 5, Col 24\]$/,
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
}
