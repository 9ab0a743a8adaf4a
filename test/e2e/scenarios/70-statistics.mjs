// In real VS Code: Palette Statistics for the examples' logs/ folder from the explorer's
// context menu, then one tool followed to a trace that lost it, opened with its lineage selected.
export const name = "statistics: a folder of logs from the explorer, one tool followed to a trace";
export const timeoutMs = 180_000;

export async function run({ page, clickMenuItem, findWebviewFrame, shot, assert, log }) {
  // The explorer's context menu on the logs/ folder.
  const folder = page.locator('.explorer-folders-view .monaco-list-row[aria-label="logs"]');
  await folder.waitFor({ state: "visible", timeout: 30_000 });
  const item = page.locator(".monaco-menu .action-item", { hasText: /^Palette Statistics$/ });
  // The remote extension's menu entries may reach the workbench after the explorer shows: reopen the menu until they have.
  for (let attempt = 0; ; attempt++) {
    await folder.click({ button: "right" });
    const shown = await item
      .waitFor({ state: "visible", timeout: 5_000 })
      .then(() => true)
      .catch(() => false);
    if (shown) break;
    assert.ok(attempt < 6, "the explorer's context menu offers Palette Statistics on a folder");
    await page.keyboard.press("Escape");
  }
  await clickMenuItem(item, "Palette Statistics in the explorer's context menu");

  const view = await findWebviewFrame(".tools-body .tools-row", 60_000);
  assert.equal(
    await view.locator("header p").first().innerText(),
    "42 traces in 8 logs · 4 problems · errors: ForcedToolUnavailable 2",
  );
  assert.deepEqual(
    await view
      .locator(".stage-card")
      .evaluateAll((cards) => cards.map((card) => card.dataset.stage)),
    ["intent", "forced", "role", "policy", "allowlist"],
  );
  assert.ok((await view.locator(".timeline-chart .palette-dot").count()) >= 2, "a chart over time");

  // ask_human is almost never offered: the role stage takes it away.
  await view.locator("#tool-filter").fill("ask");
  const row = view.locator('.tools-body .tools-row[data-tool="ask_human"]');
  await row.waitFor({ state: "visible", timeout: 10_000 });
  assert.match(await row.innerText(), /ask_human\s+42\s+2%\s+0\s+41\s+role 85%/);
  await row.click();
  const group = view.locator('.missing-group[data-stage="role"]');
  await group.waitFor({ state: "visible", timeout: 10_000 });
  assert.match(
    await group.locator("h3").innerText(),
    /^role — 85% \(35 traces, first 20 listed\)$/,
  );
  // The whole view for the README: from the top, the table filtered to the one tool.
  await view.evaluate(() => window.scrollTo(0, 0));
  await shot("e2e-statistics.png");

  // Follow it to one trace: the trace panel opens with ask_human's lineage selected.
  const first = group.locator("button.link").first();
  const where = await first.innerText();
  await first.click();
  const trace = await findWebviewFrame("#lineage-answer:has-text('ask_human')", 60_000);
  assert.match(await trace.locator("#lineage-answer").innerText(), /^ask_human: dropped by role/);
  assert.ok(
    await trace.locator('.chip.is-selected[data-tool="ask_human"]').count(),
    "the chip of the tool is selected",
  );
  log(`followed ask_human to ${where.trim()}`);
}
