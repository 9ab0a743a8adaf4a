// In real VS Code: find the selection traces in an example log, list them in the
// Selection Traces view (labelled by turn, numbered #1…), open one read-only in the panel, turn it
// into a fixture and run it; after a window reload the view lists the log again, and
// opening the same trace twice reveals one panel.
import * as fs from "node:fs/promises";
import * as path from "node:path";

export const name = "logs: find traces, open one, turn it into a fixture, run it";

const LOG = "logs/agent.log";
const NEW_FIXTURE = "agent.trace-3.turn.json";
const STAGES = ["intent", "forced", "role", "policy", "allowlist"];
const ACTIONS = [
  "action: select",
  "action: force",
  "action: select",
  "action: select",
  "action: select",
];

export async function run({
  page,
  workspace,
  openFile,
  runCommand,
  findWebviewFrame,
  notifications,
  assert,
  log,
}) {
  await openFile(LOG);
  await runCommand("Palette Inspector: Find Selection Traces in Files");

  // The Selection Traces view (in the Explorer): the log with its six traces.
  const tree = page.locator('.monaco-list[aria-label="Selection Traces"]');
  const logRow = tree.locator('.monaco-list-row[aria-level="1"]');
  await logRow.filter({ hasText: "6 traces" }).waitFor({ state: "visible", timeout: 30_000 });
  assert.equal((await logRow.locator(".label-name").innerText()).trim(), LOG);
  // Room for every row: fold the file tree above the view.
  const folders = page.locator('.pane-header[aria-label^="Explorer Section"]');
  if ((await folders.count()) > 0 && (await folders.getAttribute("aria-expanded")) === "true")
    await folders.click();
  const traceRows = tree.locator('.monaco-list-row[aria-label^="Trace "]');
  await traceRows.nth(5).waitFor({ state: "visible", timeout: 10_000 });
  const rowLabels = await traceRows.evaluateAll((rows) =>
    rows.map((r) => r.getAttribute("aria-label")),
  );
  assert.equal(rowLabels.length, 6, rowLabels.join("\n"));
  // One numbering, 1-based: the row's number, then its line.
  assert.deepEqual(
    rowLabels.map((l) =>
      l
        .match(/^Trace #(\d+),.*?, line (\d+),/)
        .slice(1)
        .join(":"),
    ),
    ["1:3", "2:7", "3:11", "4:15", "5:19", "6:24"],
  );
  assert.match(rowLabels[0], /^Trace #1, turn t-4f1c2a, 2 tools, forced get_weather, line 3, /);
  // What the row shows: number, turn id, palette size, forced tool; then time and line.
  assert.equal(
    (await traceRows.nth(0).locator(".label-name").innerText()).trim(),
    "#1 · t-4f1c2a · 2 tools · forced get_weather",
  );
  assert.equal(
    (await traceRows.nth(0).locator(".label-description").innerText()).trim(),
    "2025-03-14 09:26:50,011 · line 3",
  );
  assert.match(rowLabels[4], /, failed$/); // the forced tool was unavailable
  assert.match(rowLabels[5], /, degraded$/);
  assert.ok(
    (await notifications()).some((n) => /6 selection traces in logs\/agent\.log/.test(n)),
    "a notification says how many traces were found",
  );

  // Open trace 2: the panel shows it read-only, with its line.
  const row = traceRows.nth(2);
  await row.click();
  const logged = await findWebviewFrame(".header .origin", 60_000);
  assert.match(
    await logged.locator(".header .origin").innerText(),
    /^Logged trace #3, read-only\b[\s\S]*Open agent\.log at line 11$/,
  );
  assert.equal(await logged.locator(".header .file-name").innerText(), "agent.log");
  assert.equal(
    await logged.locator('.header [data-stat="time"]').count(),
    0,
    "a logged trace shows no run time",
  );
  const texts = (frame, selector) =>
    frame.locator(selector).evaluateAll((els) => els.map((e) => e.textContent.trim()));
  const badges = (frame) =>
    frame
      .locator(".waterfall .stage-row .badge")
      .evaluateAll((els) => els.map((e) => e.getAttribute("aria-label")));
  assert.deepEqual(await texts(logged, ".waterfall .stage-row .stage-name"), STAGES);
  assert.deepEqual(await badges(logged), ACTIONS);
  const loggedFlow = await texts(logged, ".waterfall .stage-row .flow-count");
  assert.equal(
    await logged.locator('.header [data-stat="flow"]').innerText(),
    "Offered 10 → final 2",
  );
  assert.equal(
    await logged
      .locator('.stage-row[data-stage="role"] .chip-reinstated')
      .getAttribute("data-tool"),
    "calendar_lookup",
  );
  // Read-only: no what-if and no saving a variant of a logged trace.
  assert.equal(await logged.locator(".whatif").isVisible(), false);
  assert.equal(await logged.locator('[data-action="save"]').isVisible(), false);
  // Lineage works on a logged trace too.
  await logged.locator('.stage-row[data-stage="intent"] .chip-dropped[data-tool="sql"]').click();
  await logged
    .locator("#lineage-answer", { hasText: /^sql: dropped by intent/ })
    .waitFor({ state: "visible", timeout: 10_000 });

  // Opening the same logged trace again reveals its panel, no second tab.
  const panelTabs = page.locator(
    '.tabs-container .tab[aria-label^="Selection Trace: #3 agent.log"]',
  );
  assert.equal(await panelTabs.count(), 1);
  await runCommand("View: Focus First Editor Group");
  await row.click();
  await page.waitForTimeout(1000);
  assert.equal(await panelTabs.count(), 1, "one panel for trace #3 after opening it twice");
  assert.equal(
    await page.locator(".tabs-container .tab").filter({ hasText: "Selection Trace" }).count(),
    1,
    "no other trace panel was opened",
  );

  // The link back to the log: agent.log, line 11.
  await logged.locator('.header .origin [data-action="open-source"]').click();
  await page
    .locator('.tabs-container .tab.active[aria-label^="agent.log"]')
    .waitFor({ state: "visible", timeout: 10_000 });
  await page
    .locator("#status\\.editor\\.selection", { hasText: /Ln 11\b/ })
    .waitFor({ state: "visible", timeout: 10_000 });

  // Turn it into a fixture: the row's inline action, then the save dialog's default name.
  await row.hover();
  const action = row.locator('.action-label[aria-label="Turn into Fixture"]');
  await action.waitFor({ state: "visible", timeout: 10_000 });
  await action.click();
  const dialogInput = page.locator(".quick-input-widget .quick-input-box input");
  await dialogInput.waitFor({ state: "visible", timeout: 15_000 });
  // The simple dialog shows the folder first, then fills in the suggested name: where the
  // workspace keeps its fixtures (its root here), not the log's folder.
  await page.waitForFunction(
    (suffix) =>
      document.querySelector(".quick-input-widget .quick-input-box input")?.value.endsWith(suffix),
    `/${path.basename(workspace)}/${NEW_FIXTURE}`,
    { timeout: 10_000 },
  );
  await dialogInput.press("Enter");
  await page.locator(".quick-input-widget").waitFor({ state: "hidden", timeout: 15_000 });

  // The new fixture is written with the others, opens in the editor, and its run shows in the panel.
  await page
    .locator(`.tabs-container .tab[aria-label^="${NEW_FIXTURE}"]`)
    .waitFor({ state: "visible", timeout: 20_000 });
  const written = JSON.parse(await fs.readFile(path.join(workspace, NEW_FIXTURE), "utf8"));
  assert.deepEqual(
    written.pipeline.map((stage) => stage.kind),
    STAGES.map(() => "scripted"),
  );
  const run = await findWebviewFrame(`.header .file-name:text-is("${NEW_FIXTURE}")`, 60_000);
  await run.locator(".waterfall .stage-row").first().waitFor({ state: "visible", timeout: 10_000 });
  assert.equal(
    await run.locator(".header .origin").count(),
    0,
    "a fixture run, not a logged trace",
  );
  assert.match(await run.locator('.header [data-stat="time"]').textContent(), /^Ran in [\d.]+ ms$/);
  // The replay reproduces the logged trace.
  assert.deepEqual(await texts(run, ".waterfall .stage-row .stage-name"), STAGES);
  assert.deepEqual(await badges(run), ACTIONS);
  assert.deepEqual(await texts(run, ".waterfall .stage-row .flow-count"), loggedFlow);
  assert.equal(await run.locator('.header [data-stat="flow"]').innerText(), "Offered 10 → final 2");
  assert.match(
    await run.locator('.header [data-stat="forced"]').textContent(),
    /Forced: calendar_lookup/,
  );
  assert.equal(
    await run.locator('.stage-row[data-stage="role"] .chip-reinstated').getAttribute("data-tool"),
    "calendar_lookup",
  );
  assert.deepEqual(await texts(run, ".model-sees .model-tools [data-tool]"), [
    "calendar_lookup",
    "final_answer",
  ]);
  // A fixture, unlike a logged trace, can be varied.
  assert.equal(await run.locator('[data-action="save"]').isVisible(), true);
  const warnings = (await notifications()).filter((n) => /replay differs/.test(n));
  assert.deepEqual(warnings, [], "the replay matches the log");
  log(`turned trace #3 into ${NEW_FIXTURE}`);

  // The view survives a window reload: the log is scanned again and listed as before.
  await runCommand("Developer: Reload Window");
  await page.waitForSelector(".monaco-workbench", { timeout: 60_000 });
  const reloaded = page
    .locator('.monaco-list[aria-label="Selection Traces"] .monaco-list-row[aria-level="1"]')
    .filter({ hasText: "6 traces" });
  if (!(await reloaded.isVisible())) {
    const pane = page.locator('.pane-header[aria-label^="Selection Traces"]');
    if ((await pane.getAttribute("aria-expanded")) === "false") await pane.click();
  }
  await reloaded.waitFor({ state: "visible", timeout: 60_000 });
  assert.equal((await reloaded.locator(".label-name").innerText()).trim(), LOG);
  log("the Selection Traces view lists the log again after a reload");
}
