import assert from "node:assert/strict";
import { COLLAPSED_CHIPS } from "../../webview/chips.js";
import { test } from "./harness.js";
import { openPanel, timeFirstScreen } from "./page.js";
import { largeFixture, load, showFixture } from "./reports.js";

test("large: 2,000 tools × 20 stages render their first screen in under 500 ms, chips collapsed", async (browser) => {
  const page = await openPanel(browser);
  const fixture = await load(largeFixture(2000, 20), "large.turn.json");
  const ms = await timeFirstScreen(page, showFixture(fixture));
  assert.ok(ms < 500, `first screen took ${ms.toFixed(0)} ms`);
  assert.equal(await page.locator(".stage-row").count(), 20);
  const chips = await page.locator(".chip").count();
  assert.ok(chips < 20 * 3 * (COLLAPSED_CHIPS + 1), `${chips} chips rendered up front`);
  const expander = page.locator('.stage-row[data-stage="stage_00"] .group-kept .expander');
  assert.match(await expander.innerText(), /^\+1,\d{3} more$/);
  await expander.click();
  assert.equal(
    await page.locator('.stage-row[data-stage="stage_00"] .group-kept .chip').count(),
    COLLAPSED_CHIPS + 500,
  );
  await page.close();
});

test("large: a selected tool deep in a collapsed group still shows its chip in every row", async (browser) => {
  const page = await openPanel(browser);
  await timeFirstScreen(page, showFixture(await load(largeFixture(2000, 20), "large.turn.json")));
  const input = page.locator("#lineage-input");
  await input.fill("tool_1999_query");
  await input.press("Enter");
  await page.waitForSelector('.chip.is-selected[data-tool="tool_1999_query"]');
  assert.equal(await page.locator(".stage-row .cell").count(), 20);
  // Off-screen rows fill their chips as they come into view: scroll through them all.
  await page.evaluate(async () => {
    for (
      let pending = document.querySelector(".chips-pending");
      pending;
      pending = document.querySelector(".chips-pending")
    ) {
      pending.scrollIntoView();
      await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    }
  });
  const rows = await page
    .locator('.stage-row:has(.chip.is-selected[data-tool="tool_1999_query"])')
    .count();
  assert.equal(rows, 20);
  await page.close();
});
