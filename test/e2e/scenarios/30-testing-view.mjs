// In real VS Code: the Testing view lists the example fixtures that have `expect`,
// "Run All Tests" passes eleven of them and fails the deliberately stale one with its diff.
// Update Expectation on it lists each change, keeps the user's keys, saves the
// file and the test passes. A watcher and a glob the fake only imitates: a fixture
// written on disk appears, a deleted one disappears, a file outside the glob never does.
import * as fs from "node:fs/promises";
import * as path from "node:path";

export const name =
  "Testing view: run all, the stale fixture fails with its diff, Update Expectation makes it pass; the view follows the disk";

const FAILING = "stale-expectation";
const PASSING = [
  "capability-refused-router",
  "capability-routed",
  "empty-role-palette",
  "failing-stage",
  "forced-reinstated",
  "hard-filter-unavailable",
  "keyword-intersection",
  "knowledge-turn",
  "policy-budget",
  "spent-force",
  "weather-forecast",
];

export async function run({
  page,
  workspace,
  openFile,
  runCommand,
  findWebviewFrame,
  clickMenuItem,
  shot,
  assert,
  log,
}) {
  await page.setViewportSize({ width: 1600, height: 1000 });
  // The Testing view appears once the extension registered its test controller.
  await page
    .locator('.activitybar .action-item a[aria-label^="Testing"]')
    .click({ timeout: 60_000 });
  const explorer = page.locator('.test-explorer .monaco-list[role="tree"]');
  const rows = explorer.locator(".monaco-list-row");
  await rows.filter({ hasText: "regressions" }).waitFor({ state: "visible", timeout: 30_000 });

  const t0 = Date.now();
  await runCommand("Test: Run All Tests");
  // The summary above the tree counts passed of all when the run ends.
  await page
    .locator(".test-explorer .result-summary", { hasText: "11/12" })
    .waitFor({ state: "visible", timeout: 30_000 });
  log(`ran all tests in ${Date.now() - t0} ms`);

  // Every fixture with its state: unfold both folder groups (the workspace root and regressions).
  for (let guard = 0; guard < 5; guard++) {
    const folded = rows.locator(".monaco-tl-twistie.collapsible.collapsed");
    if ((await folded.count()) === 0) break;
    await folded.first().click();
  }
  await rows.filter({ hasText: FAILING }).waitFor({ state: "visible", timeout: 10_000 });
  const labels = await rows.evaluateAll((els) => els.map((e) => e.getAttribute("aria-label")));
  const leaves = labels.filter((l) => l && !/^(workspace-\d+|regressions) \(/.test(l));
  const state = (label) =>
    label.match(/^(.+?) \((Passed|Failed|Errored|Queued|Running|Skipped|Unset)\)/)?.slice(1) ?? [
      label,
      "?",
    ];
  const byName = Object.fromEntries(leaves.map((l) => state(l)));
  assert.deepEqual(Object.keys(byName).sort(), [...PASSING, FAILING].sort(), labels.join("\n"));
  assert.equal(byName[FAILING], "Failed");
  for (const name of PASSING) assert.equal(byName[name], "Passed", `${name} passes`);
  // The groups: the workspace folder by its name, regressions/ failing.
  assert.ok(
    labels.some((l) => /^workspace-\d+ \(Passed\)/.test(l)),
    labels.join("\n"),
  );
  assert.ok(
    labels.some((l) => /^regressions \(Failed\)/.test(l)),
    labels.join("\n"),
  );

  // Its failure, located at the expect key, with the expected/actual diff of the names.
  await rows.filter({ hasText: FAILING }).click();
  await runCommand("Test: Go to Next Test Failure");
  const peek = page.locator(".test-output-peek");
  await peek.waitFor({ state: "visible", timeout: 20_000 });
  await page
    .locator('.tabs-container .tab.active[aria-label^="stale-expectation.turn.json"]')
    .waitFor({ state: "visible", timeout: 10_000 });
  const heading = await peek.locator(".peekview-title").innerText();
  assert.match(heading, /\$\.expect\.names: final names differ/);
  const diff = peek.locator(".monaco-diff-editor");
  await diff.waitFor({ state: "visible", timeout: 10_000 });
  const side = (which) =>
    diff
      .locator(`.editor.${which} .view-lines`)
      .innerText()
      .then((t) => t.replace(/\u00a0/g, " ").replace(/\s+/g, ""));
  assert.equal(await side("original"), '["search","sql","final_answer"]');
  assert.equal(await side("modified"), '["search","final_answer"]');
  await shot("e2e-testing.png");

  // The peek opened on the diff: no message of its own comes before it, and nothing floats over
  // it. Show Selection Trace is on the diff message's context menu in the results.
  assert.equal(
    await peek.locator(".floating-click-widget", { hasText: "Show Selection Trace" }).count(),
    0,
  );
  const messageRow = page
    .locator(".monaco-list-row", { hasText: "$.expect.names: final names differ" })
    .last();
  await messageRow.click({ button: "right" });
  const plain = page.locator(".context-view .action-label", { hasText: "Show Selection Trace" });
  await plain.waitFor({ state: "visible", timeout: 10_000 });
  // One click from the failure opens the waterfall of that run: policy dropped sql.
  await clickMenuItem(plain.first(), "Show Selection Trace in the test message's context menu");
  const frame = await findWebviewFrame(
    '.header .file-name:text-is("stale-expectation.turn.json")',
    60_000,
  );
  await frame
    .locator(".waterfall .stage-row")
    .first()
    .waitFor({ state: "visible", timeout: 10_000 });
  assert.deepEqual(await frame.locator(".waterfall .stage-row .stage-name").allTextContents(), [
    "role",
    "policy",
  ]);
  assert.equal(
    await frame.locator('.stage-row[data-stage="policy"] .chip-dropped[data-tool="sql"]').count(),
    1,
  );
  assert.equal(
    await frame.locator('.header [data-stat="flow"]').textContent(),
    "Offered 3 → final 2",
  );

  // Update Expectation from Current Result on the failing fixture.
  const STALE = `regressions/${FAILING}.turn.json`;
  await openFile(STALE);
  await runCommand("Palette Inspector: Update Expectation from Current Result");
  const dialog = page.locator(".monaco-dialog-box");
  await dialog.waitFor({ state: "visible", timeout: 15_000 });
  assert.equal(
    (await dialog.locator(".dialog-message-text").innerText()).trim(),
    `Update 2 expectations of ${STALE} to the current result?`,
  );
  assert.deepEqual((await dialog.locator(".dialog-message-detail").innerText()).split("\n"), [
    "names: search, sql, final_answer → search, final_answer",
    "dropped_by.sql: none → policy",
  ]);
  await dialog.locator(".dialog-buttons .monaco-button", { hasText: "Update Expectation" }).click();
  await dialog.waitFor({ state: "hidden", timeout: 10_000 });
  // That one test is re-run and passes (the summary counts the latest run: one of one).
  await rows
    .and(page.locator(`[aria-label^="${FAILING} (Passed)"]`))
    .waitFor({ state: "visible", timeout: 30_000 });
  assert.match(await page.locator(".test-explorer .result-summary").innerText(), /^\s*1\/1\b/);
  assert.equal(await label(rows, "regressions"), "regressions (Passed)");
  // Saved, not dirty: the file on disk holds exactly the user's two keys, updated.
  const tab = page.locator(`.tabs-container .tab[aria-label^="${FAILING}.turn.json"]`);
  assert.doesNotMatch(await tab.getAttribute("class"), /\bdirty\b/);
  const saved = JSON.parse(await fs.readFile(path.join(workspace, STALE), "utf8"));
  assert.deepEqual(saved.expect, {
    names: ["search", "final_answer"],
    dropped_by: { sql: "policy" },
  });
  assert.deepEqual(Object.keys(saved.expect), ["names", "dropped_by"]);
  log("Update Expectation: 2 changes listed, saved, the test passes");

  // The Testing view follows the disk. A fixture written there appears; a JSON file
  // outside the *.turn.json glob (same content) does not; deleting the fixture removes it.
  const content = await fs.readFile(path.join(workspace, "knowledge-turn.turn.json"), "utf8");
  await fs.writeFile(path.join(workspace, "not-a-fixture.json"), content);
  await fs.writeFile(path.join(workspace, "written-on-disk.turn.json"), content);
  await rows.filter({ hasText: "written-on-disk" }).waitFor({ state: "visible", timeout: 20_000 });
  assert.equal(await rows.filter({ hasText: "not-a-fixture" }).count(), 0);
  await fs.rm(path.join(workspace, "written-on-disk.turn.json"));
  await rows.filter({ hasText: "written-on-disk" }).waitFor({ state: "detached", timeout: 20_000 });
  assert.equal(await rows.filter({ hasText: "not-a-fixture" }).count(), 0);
  log("a fixture written on disk appeared in the Testing view and went when deleted");
}

/** The aria-label of the Testing view's row for one fixture, as soon as it shows a result. */
async function label(rows, name) {
  const row = rows.filter({ hasText: name }).first();
  await row.waitFor({ state: "visible", timeout: 10_000 });
  return (await row.getAttribute("aria-label")).replace(/\).*$/, ")");
}
