import assert from "node:assert/strict";
import { test } from "./harness.js";
import { exampleStats, openStats, sendStats, syntheticStats } from "./stats-data.js";

test("stats: typing in the filter keeps its focus, text and caret when the statistics arrive again", async (browser) => {
  const page = await openStats(browser);
  const view = await exampleStats();
  await sendStats(page, { type: "stats", view });
  await page.waitForSelector(".tools-body .tools-row");
  await page.locator("#tool-filter").focus();
  await page.keyboard.type("sq");
  await sendStats(page, { type: "stats", view });
  await page.keyboard.type("l");
  assert.deepEqual(
    await page.evaluate(() => {
      const input = document.activeElement as HTMLInputElement;
      return { id: input.id, value: input.value, caret: input.selectionStart };
    }),
    { id: "tool-filter", value: "sql", caret: 3 },
  );
  assert.equal(await page.locator(".tools-body .tools-row").count(), 1);
  await page.close();
});

test("stats: the table keeps its sort, scroll and focus when the statistics arrive again", async (browser) => {
  const page = await openStats(browser);
  const view = syntheticStats(300, 400);
  await sendStats(page, { type: "stats", view });
  await page.waitForSelector(".tools-body .tools-row");
  await page.locator('button[data-sort="name"]').click();
  await page.locator(".tools-body").focus();
  await page.locator(".tools-body").evaluate((body) => (body.scrollTop = 1300));
  await page.waitForSelector('.tools-row[aria-rowindex="60"]');
  await sendStats(page, { type: "stats", view });
  const header = page.locator('[role="columnheader"]:has(button[data-sort="name"])');
  assert.equal(await header.getAttribute("aria-sort"), "ascending");
  assert.equal(await page.locator(".tools-body").evaluate((body) => body.scrollTop), 1300);
  assert.equal(await page.evaluate(() => document.activeElement?.className), "tools-body");
  assert.ok((await page.locator('.tools-row[aria-rowindex="60"]').count()) === 1);
  await page.close();
});
