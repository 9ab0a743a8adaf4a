import assert from "node:assert/strict";
import { test } from "./harness.js";
import { openPanel, send } from "./page.js";
import { EXAMPLE, load, showFixture } from "./reports.js";

test("keyboard: Tab reaches the toolbar and every chip; Enter and Space select; focus is visible and stays put", async (browser) => {
  const page = await openPanel(browser);
  await send(page, showFixture(await load(EXAMPLE)));
  await page.waitForSelector(".waterfall .chip");
  const focused = () =>
    page.evaluate(() => {
      const active = document.activeElement as HTMLElement;
      return {
        tool: active.dataset.tool ?? null,
        action: active.dataset.action ?? null,
        stage: active.closest<HTMLElement>("[data-stage]")?.dataset.stage ?? null,
        outline: getComputedStyle(active).outlineStyle,
      };
    });
  const seen: string[] = [];
  for (let i = 0; i < 40; i++) {
    await page.keyboard.press("Tab");
    const now = await focused();
    if (now.action) seen.push(now.action);
    if (now.tool === "sql" && now.stage === "intent") break;
  }
  assert.deepEqual(seen.slice(0, 3), ["copy", "save", "matrix"]);
  const onChip = await focused();
  assert.equal(onChip.tool, "sql");
  assert.notEqual(onChip.outline, "none");
  await page.keyboard.press("Enter");
  await page.waitForSelector('.chip.is-selected[data-tool="sql"]');
  assert.deepEqual(await focused().then((f) => [f.tool, f.stage]), ["sql", "intent"]);
  await page.keyboard.press("Tab");
  await page.keyboard.press("Space");
  await page.waitForSelector('.chip.is-selected[data-tool="delete_rows"]');
  assert.match(
    await page.locator("#lineage-answer").innerText(),
    /^delete_rows: dropped by intent/,
  );
  await page.close();
});
