import assert from "node:assert/strict";
import { STATS_REQUEST_TIMEOUTS } from "../../src/stats-protocol.js";
import { test } from "./harness.js";
import type { PageGlobals } from "./page.js";
import {
  exampleStats,
  openStats,
  postedCount,
  sendStats,
  waitForStatsPosted,
} from "./stats-data.js";

test("stats: a copy the host never answers fails after its timeout, and the page says so", async (browser) => {
  const page = await openStats(browser, { fakeClock: true });
  await sendStats(page, { type: "stats", view: await exampleStats() });
  await page.waitForSelector(".tools-body .tools-row");
  const before = await postedCount(page);
  await page.locator('[data-action="copy"]').click();
  await waitForStatsPosted(page, "copyMarkdown", before);
  await page.clock.runFor(STATS_REQUEST_TIMEOUTS.copyMarkdown);
  assert.equal(await page.locator(".status").innerText(), "");
  await page.clock.runFor(2000);
  await page.waitForSelector(".status:has-text('did not answer')");
  assert.equal(
    await page.locator(".status").innerText(),
    "The extension did not answer (copyMarkdown) within 30 s.",
  );
  assert.deepEqual(await page.evaluate(() => (globalThis as unknown as PageGlobals).__errors), []);
  await page.close();
});

test("stats: a failed reply to 'where a tool went' is shown, not waited on", async (browser) => {
  const page = await openStats(browser);
  await sendStats(page, { type: "stats", view: await exampleStats() });
  await page.waitForSelector(".tools-body .tools-row");
  const before = await postedCount(page);
  await page.locator(".tools-body .tools-row").first().click();
  const asked = await waitForStatsPosted(page, "missing", before);
  await sendStats(page, {
    type: "reply",
    requestId: asked.requestId,
    ok: false,
    message: "That did not work: samples gone (details in the Palette Inspector log).",
  });
  await page.waitForSelector(".status:has-text('samples gone')");
  assert.equal(await page.locator(".missing-group").count(), 0);
  await page.close();
});
