// In real VS Code: run an example fixture, read the waterfall and a lineage answer in
// the webview, edit the fixture (unsaved) and see the panel re-run, and take the README's
// light and dark screenshots of the panel. Running it again reveals the same panel.
import * as fs from "node:fs/promises";
import * as path from "node:path";

export const name = "run a fixture: waterfall, lineage, live re-run, screenshots";
export const settings = { "workbench.colorTheme": "Default Dark Modern" };

const FIXTURE = "weather-forecast.turn.json";

export async function run({
  page,
  workspace,
  openFile,
  runCommand,
  findWebviewFrame,
  replaceEditorText,
  setColorTheme,
  shot,
  assert,
  log,
}) {
  // Wide enough for the editor and the panel side by side, both readable in the README.
  await page.setViewportSize({ width: 1600, height: 1000 });
  const original = JSON.parse(await fs.readFile(path.join(workspace, FIXTURE), "utf8"));

  await openFile(FIXTURE);
  const t0 = Date.now();
  await runCommand("Palette Inspector: Run Selection on Fixture");
  const frame = await findWebviewFrame(".waterfall .stage-row", 60_000);
  log(`waterfall shown ${Date.now() - t0} ms after the command`);

  const texts = (selector) =>
    frame.locator(selector).evaluateAll((els) => els.map((e) => e.textContent.trim()));
  const labels = (selector, attr) =>
    frame.locator(selector).evaluateAll((els, a) => els.map((e) => e.getAttribute(a)), attr);

  // The waterfall: one row per stage in pipeline order, with its action and candidate flow.
  assert.deepEqual(await texts(".waterfall .stage-row .stage-name"), [
    "intent",
    "forced",
    "role",
    "policy",
    "allowlist",
  ]);
  assert.deepEqual(await labels(".waterfall .stage-row .badge", "aria-label"), [
    "action: select",
    "action: force",
    "action: select",
    "action: select",
    "action: select",
  ]);
  assert.deepEqual(await texts(".waterfall .stage-row .flow-count"), [
    "8 → 3",
    "3 → 3",
    "3 → 1",
    "1 → 1",
    "1 → 2",
  ]);
  assert.equal(await frame.locator(".header h1 .file-name").textContent(), FIXTURE);
  assert.equal(
    await frame.locator('.header [data-stat="flow"]').textContent(),
    "Offered 8 → final 2",
  );
  assert.match(
    await frame.locator('.header [data-stat="forced"]').textContent(),
    /Forced: get_weather/,
  );
  assert.equal(
    await frame.locator('.stage-row[data-stage="forced"] .pin').getAttribute("aria-label"),
    "forced choice set: get_weather",
  );
  assert.equal(
    await frame.locator('.stage-row[data-stage="allowlist"] .chip-added').getAttribute("data-tool"),
    "final_answer",
  );
  assert.match(
    await frame.locator(".model-sees").innerText(),
    /get_weather[\s\S]*final_answer[\s\S]*tool_choice: forced to get_weather/,
  );

  // "Where did sql go?": click its chip where intent dropped it.
  const sqlChip = frame.locator('.stage-row[data-stage="intent"] .chip-dropped[data-tool="sql"]');
  assert.match(await sqlChip.getAttribute("aria-label"), /^sql, dropped: /);
  await sqlChip.click();
  const answer = frame.locator("#lineage-answer");
  await frame.locator(".stage-row .cell").first().waitFor({ state: "visible", timeout: 10_000 });
  assert.match(
    await answer.innerText(),
    /^sql: dropped by intent \(.+\); not in the final palette\./,
  );
  assert.deepEqual(await labels(".stage-row .cell", "class"), [
    "cell cell-dropped",
    "cell cell-absent",
    "cell cell-absent",
    "cell cell-absent",
    "cell cell-absent",
  ]);
  // Typing a name answers too (any case, then Enter).
  const field = frame.locator("#lineage-input");
  await field.fill("ASK_HUMAN");
  await field.press("Enter");
  await frame
    .locator('.chip.is-selected[data-tool="ask_human"]')
    .first()
    .waitFor({ state: "visible", timeout: 10_000 });
  assert.match(await answer.innerText(), /^ask_human: dropped by role \(.+\)/);
  await field.fill("sql");
  await field.press("Enter");
  await frame
    .locator('.chip.is-selected[data-tool="sql"]')
    .first()
    .waitFor({ state: "visible", timeout: 10_000 });

  // The README's screenshots: the original run, sql's lineage highlighted, dark then light;
  // no side bar, and the panel wide enough for its two-column layout beside the editor.
  await page.keyboard.press("Escape");
  await runCommand("View: Toggle Primary Side Bar Visibility");
  await page.locator(".part.sidebar").waitFor({ state: "hidden", timeout: 10_000 });
  await widenPanel(page, 1010);
  await frame.locator(".layout-side .model-sees").waitFor({ state: "visible", timeout: 10_000 });
  const box = await frame.locator(".layout-side").boundingBox();
  const mainBox = await frame.locator(".layout-main").boundingBox();
  assert.ok(
    box && mainBox && box.x > mainBox.x + mainBox.width - 1,
    'the panel shows "What this run would send the model" beside the waterfall',
  );
  await shot("e2e-panel-dark.png");
  await setColorTheme("Default Light Modern");
  await frame.locator(".waterfall").waitFor({ state: "visible" });
  await shot("e2e-panel-light.png");

  // Live: an unsaved edit of the fixture re-runs the panel. The analyst's role palette now
  // also holds ask_human, so the role stage keeps it and the final palette grows to three.
  await runCommand("View: Focus First Editor Group");
  const edited = structuredClone(original);
  edited.pipeline.find((stage) => stage.kind === "role").role_tools.analyst.push("ask_human");
  await replaceEditorText(JSON.stringify(edited, null, 2));
  const tEdit = Date.now();
  await frame
    .locator('.header [data-stat="flow"]', { hasText: "Offered 8 → final 3" })
    .waitFor({ state: "visible", timeout: 20_000 });
  log(`panel re-ran ${Date.now() - tEdit} ms after the edit`);
  assert.deepEqual(await texts(".waterfall .stage-row .flow-count"), [
    "8 → 3",
    "3 → 3",
    "3 → 2",
    "2 → 2",
    "2 → 3",
  ]);
  assert.deepEqual(await texts(".model-sees .model-tools [data-tool]"), [
    "get_weather",
    "ask_human",
    "final_answer",
  ]);
  assert.equal(
    await frame.locator('.stage-row[data-stage="role"] .chip-kept[data-tool="ask_human"]').count(),
    1,
  );
  // The re-run keeps the selected tool.
  assert.match(await answer.innerText(), /^sql: dropped by intent/);
  // The edit is unsaved: the file on disk is unchanged.
  assert.deepEqual(JSON.parse(await fs.readFile(path.join(workspace, FIXTURE), "utf8")), original);

  // Running a fixture that has a panel reveals that panel, no second tab.
  const panelTabs = page.locator(`.tabs-container .tab[aria-label^="Selection Trace: ${FIXTURE}"]`);
  assert.equal(await panelTabs.count(), 1);
  await runCommand("View: Focus First Editor Group");
  await runCommand("Palette Inspector: Run Selection on Fixture");
  await page
    .locator(`.tabs-container .tab.active[aria-label^="Selection Trace: ${FIXTURE}"]`)
    .waitFor({ state: "visible", timeout: 10_000 });
  assert.equal(await panelTabs.count(), 1, "one panel for the fixture after running it twice");
  assert.equal(await page.locator(".part.editor .editor-group-container").count(), 2);
  // It is the same panel, still showing the unsaved edit's run.
  await frame
    .locator('.header [data-stat="flow"]', { hasText: "Offered 8 → final 3" })
    .waitFor({ state: "visible", timeout: 10_000 });
}

/** Drags the sash between the editor and the panel so the panel's group is `width` px wide. */
async function widenPanel(page, width) {
  const groups = page.locator(".part.editor .editor-group-container");
  await groups.nth(1).waitFor({ state: "visible", timeout: 10_000 });
  const before = await groups.nth(1).boundingBox();
  const sashes = await page.locator(".part.editor .monaco-sash.vertical").evaluateAll((els) =>
    els
      .map((e) => {
        const r = e.getBoundingClientRect();
        return { x: r.x + r.width / 2, y: r.y + r.height / 2, w: r.width };
      })
      .filter((r) => r.w > 0),
  );
  const sash = sashes.sort((a, b) => Math.abs(a.x - before.x) - Math.abs(b.x - before.x))[0];
  if (!sash) throw new Error("no sash between the editor groups");
  const target = before.x + before.width - width;
  await page.mouse.move(sash.x, sash.y);
  await page.mouse.down();
  await page.mouse.move((sash.x + target) / 2, sash.y, { steps: 5 });
  await page.mouse.move(target, sash.y, { steps: 5 });
  await page.mouse.up();
  await page.mouse.move(5, 500); // off the sash, whose hover highlight would show in screenshots
  await page.waitForFunction(
    ([w]) => {
      const g = document.querySelectorAll(".part.editor .editor-group-container")[1];
      return g && Math.abs(g.getBoundingClientRect().width - w) < 20;
    },
    [width],
    { timeout: 5_000 },
  );
}
